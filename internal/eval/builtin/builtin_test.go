package builtin_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func TestSpecs_distinct(t *testing.T) {
	if _, err := spec.NewRegistry(builtin.Specs()...); err != nil {
		t.Fatalf("NewRegistry(builtin.Specs()): %v; every built-in name and alias must be distinct", err)
	}
	for _, name := range []string{"tool_trajectory", "execution_metrics", "composite", "tool_call_order", "tool_correctness", "tool_trajectory_avg_score", "llm_judge"} {
		if _, ok := builtin.Types().Lookup(name); !ok {
			t.Errorf("type %s missing from the built-in list", name)
		}
	}
}

func TestRegister(t *testing.T) {
	tests := []struct {
		name, typ, want, reason string
	}{
		{"taken", "tool_trajectory", "defined twice", "a built-in name"},
		{"taken in another spelling", "toolTrajectory", "defined twice", "names compare in any spelling"},
		{"alias", "uipath-tool-call-order", "defined twice", "aliases are taken too"},
		{"empty", "", "needs a name", "a type needs a name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := builtin.Register(spec.Spec{Type: tc.typ})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Register(%q) = %v, want an error containing %q: %s", tc.typ, err, tc.want, tc.reason)
			}
		})
	}
}
