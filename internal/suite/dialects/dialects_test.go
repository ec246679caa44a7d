package dialects_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

func TestAll(t *testing.T) {
	var names []string
	for _, d := range dialects.All() {
		names = append(names, d.Name)
	}
	if got, want := len(names), 5; got != want || names[0] != "adk" || names[1] != "uipath" || names[2] != "tau2" || names[3] != "bfcl" || names[4] != "vertex" {
		t.Errorf("dialects %v, want [adk uipath tau2 bfcl vertex]: the loader asks them in this order, before AgentV's YAML", names)
	}
}

func TestAll_loads(t *testing.T) {
	tests := []struct {
		file, dialect string
	}{
		{"../../../examples/adk-shopping/shopping.evalset.json", "adk"},
		{"../../../examples/uipath-orders/evaluations/eval-sets/orders.json", "uipath"},
		{"../../../examples/tau2/tasks.json", "tau2"},
		{"../../../examples/bfcl/answers.jsonl", "bfcl"},
		{"../../../examples/vertex/travel.jsonl", "vertex"},
	}
	for _, tt := range tests {
		t.Run(tt.dialect, func(t *testing.T) {
			s, errs := suite.LoadFile(tt.file, suite.Options{Dialects: dialects.All()}, true)
			if len(errs) > 0 || s == nil || s.Dialect != tt.dialect {
				t.Fatalf("LoadFile with every dialect: %v, errors %v; want a %s suite", s, errs, tt.dialect)
			}
			if _, errs := suite.LoadFile(tt.file, suite.Options{}, true); len(errs) == 0 {
				t.Errorf("LoadFile without dialects read %s: the dialects must come from Options, not from registration", tt.file)
			}
		})
	}
}
