package check_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/internal/suite"
)

// callBudget is a custom evaluator's settings: at most MaxCalls calls of
// each tool in Tools, each within Slowest.
type callBudget struct {
	Tools    []string      `config:"tools,required"`
	MaxCalls int           `config:"max_calls,nonnegative"`
	Slowest  time.Duration `config:"slowest"`
	Mode     string        `config:"mode" enum:"count,share"`
}

func newCallBudget(s callBudget) (trajeval.Evaluator, error) {
	if len(s.Tools) == 0 {
		return nil, errors.New("tools is empty")
	}
	return trajeval.EvaluatorFunc(func(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
		n := 0
		for _, st := range t.Steps {
			for _, tool := range s.Tools {
				if st.Name == tool {
					n++
				}
			}
		}
		if n <= s.MaxCalls {
			return trajeval.Outcome{Score: 1}, nil
		}
		return trajeval.Outcome{Score: float64(s.MaxCalls) / float64(n)}, nil
	}), nil
}

func init() {
	if err := check.Register("call_budget", newCallBudget); err != nil {
		panic(err)
	}
}

func writeSuite(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRegister: a registered type loads from a suite file, its keys
// decoded into its settings, and scores like any evaluator.
func TestRegister(t *testing.T) {
	p := writeSuite(t, `evalcases:
  - id: budget
    execution:
      evaluators:
        - name: few searches
          type: callBudget
          tools: [search]
          maxCalls: 1
          slowest: 2s
          threshold: 0.5
`)
	s, errs := suite.LoadFile(p, suite.Options{}, true)
	if len(errs) > 0 {
		t.Fatalf("LoadFile: %v", errs)
	}
	ev := s.Cases[0].Evaluators[0]
	if ev.Name != "few searches" || ev.Type != "call_budget" || ev.Threshold != 0.5 {
		t.Errorf("evaluator %s (%s) threshold %v, want few searches (call_budget) 0.5: the shared keys are the suite's", ev.Name, ev.Type, ev.Threshold)
	}
	tr := &trajeval.Trajectory{Steps: []trajeval.Step{{Name: "search"}, {Name: "search"}, {Name: "read"}}}
	r := ev.Run(context.Background(), tr)
	if r.Score != 0.5 || r.Status != trajeval.StatusPass {
		t.Errorf("score %v %s, want 0.5 pass: max_calls 1 of 2 searches, threshold 0.5", r.Score, r.Status)
	}
}

// TestRegister_configErrors: mistakes in a custom type's keys are placed
// configuration errors, with the closest key as a hint.
func TestRegister_configErrors(t *testing.T) {
	tests := []struct {
		name, evaluator, want, reason string
	}{
		{"unknown key", "{type: call_budget, tools: [a], max_cals: 1}", `suite.yaml:5:43: evalcases[0].execution.evaluators[0].max_cals: unknown key "max_cals" (did you mean "max_calls"?)`, "a misspelt key"},
		{"required", "{type: call_budget, max_calls: 1}", `missing tools`, "a required key"},
		{"negative", "{type: call_budget, tools: [a], max_calls: -2}", `max_calls: must not be negative, got -2`, "the nonnegative option"},
		{"duration", "{type: call_budget, tools: [a], slowest: 2}", `expected a duration such as 250ms or 1m30s`, "a duration has a unit"},
		{"enum", "{type: call_budget, tools: [a], mode: cout}", `did you mean "count"?`, "a close word"},
		{"build error", "{type: call_budget, tools: []}", `suite.yaml:5:12: evalcases[0].execution.evaluators[0]: tools is empty`, "the build function's error, placed at the evaluator"},
		{"type typo", "{type: call_budgit, tools: [a]}", `did you mean "call_budget"?`, "registered types are suggested like built-in ones"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeSuite(t, "evalcases:\n  - id: c\n    execution:\n      evaluators:\n        - "+tc.evaluator+"\n")
			_, errs := suite.LoadFile(p, suite.Options{}, true)
			got := fmt.Sprint(errs)
			if len(errs) == 0 || !strings.Contains(got, tc.want) {
				t.Errorf("errors %s, want one containing %q: %s", got, tc.want, tc.reason)
			}
		})
	}
}

func TestRegister_refused(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		reason string
	}{
		{"taken", check.Register("tool_trajectory", newCallBudget), "a built-in name"},
		{"taken twice", check.Register("call-budget", newCallBudget), "a registered name in another spelling"},
		{"not a struct", check.Register("ints", func(int) (trajeval.Evaluator, error) { return nil, nil }), "settings are a struct"},
		{"no build", check.Register[callBudget]("nothing", nil), "a build function is needed"},
	}
	for _, tc := range tests {
		if tc.err == nil {
			t.Errorf("%s: no error: %s", tc.name, tc.reason)
		}
	}
}
