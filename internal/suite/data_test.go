package suite_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
)

func TestLoad_openSuiteInFolder(t *testing.T) {
	const open = "execution:\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: exact, expected: [a]}\n"
	tests := []struct {
		name   string
		files  map[string]string
		found  int
		reason string
	}{
		{"traces beside it", map[string]string{"mined.yaml": open, "mined.traces.jsonl": `{"id":"r","steps":[]}` + "\n"}, 1,
			"a suite with no cases and its traces beside it is a suite of the folder"},
		{"traces key", map[string]string{"policy.yaml": "traces: day.jsonl\n" + open, "day.jsonl": `{"id":"r","steps":[]}` + "\n"}, 1,
			"its traces: key names what it scores"},
		{"nothing to score", map[string]string{"policy.yaml": open, "suite.yaml": "evalcases: [{id: c, trace: t.json, execution: {evaluators: [{name: n, type: execution_metrics, max_tool_calls: 1}]}}]\n", "t.json": `{"id":"c","steps":[]}`}, 1,
			"without traces (a serve policy) it is not taken for a suite: it would have nothing to score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			suites, errs := suite.Load([]string{dir}, suite.Options{})
			if len(errs) > 0 {
				t.Fatalf("errors: %v (%s)", errs, tt.reason)
			}
			if len(suites) != tt.found {
				t.Errorf("found %d suites, want %d (%s)", len(suites), tt.found, tt.reason)
			}
		})
	}
}
