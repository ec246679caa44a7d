package tau2_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/tau2"
)

const example = "../../../examples/tau2/tasks.json"

func load(t *testing.T, path string, opts suite.Options) (*suite.Suite, []error) {
	t.Helper()
	opts.Dialects = []suite.Dialect{tau2.Dialect}
	return suite.LoadFile(path, opts, true)
}

func TestLoad(t *testing.T) {
	s, errs := load(t, example, suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Dialect != "tau2" || s.Name != "tau2" || len(s.Cases) != 3 || !s.Exhaustive {
		t.Fatalf("suite %q (%s), %d cases, exhaustive %v; want the tau2 dialect, named by the folder of tasks.json, 3 cases, exhaustive",
			s.Name, s.Dialect, len(s.Cases), s.Exhaustive)
	}
	if got := filepath.Base(s.Traces); got != "results.json" {
		t.Errorf("traces %q, want the results.json beside the tasks", s.Traces)
	}
	c := s.Cases[1]
	if c.ID != "update_address" || !strings.HasPrefix(c.Input, "You are sara_doe_496") || len(c.Evaluators) != 1 || c.Evaluators[0].Type != "tau2_reward" {
		t.Errorf("case %q input %q with %d evaluators; want the task's id, its instructions and one tau2_reward", c.ID, c.Input, len(c.Evaluators))
	}
	if !strings.Contains(s.Cases[0].Input, `"reason_for_call"`) {
		t.Errorf("input %q: structured instructions are kept as JSON", s.Cases[0].Input)
	}
}

// write puts a task file in a temporary folder and returns its path.
func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tasks.json")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad_errors(t *testing.T) {
	tests := []struct {
		name, file string
		want       string // in the error, after the file name
	}{
		{"unknown basis", `[{"id": "a", "evaluation_criteria": {"reward_basis": ["DB", "COMUNICATE"]}}]`,
			`:1:61: [0].evaluation_criteria.reward_basis[1]: unknown reward basis "COMUNICATE" (did you mean "COMMUNICATE"?)`},
		{"misspelt criteria key", `[{"id": "a", "evaluation_criteria": {"reward_basis": [], "action": []}}]`,
			`unknown key "action"`},
		{"action without name", `[{"id": "a", "evaluation_criteria": {"actions": [{"arguments": {}}], "reward_basis": ["ACTION"]}}]`,
			"the action has no name"},
		{"bad requestor", `[{"id": "a", "evaluation_criteria": {"actions": [{"name": "x", "requestor": "agent"}], "reward_basis": ["ACTION"]}}]`,
			`unknown value "agent"`},
		{"arguments not an object", `[{"id": "a", "evaluation_criteria": {"actions": [{"name": "x", "arguments": [1]}], "reward_basis": ["ACTION"]}}]`,
			"arguments must be an object"},
		{"task without id", `[{"user_scenario": {}, "evaluation_criteria": {}}]`, "the task has no id"},
		{"empty id", `[{"id": "", "evaluation_criteria": {"actions": []}}]`, "the task's id is empty"},
		{"communicate_info of numbers", `[{"id": "a", "evaluation_criteria": {"communicate_info": [{"x": 1}], "reward_basis": ["COMMUNICATE"]}}]`,
			"expected a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(t, tt.file)
			_, errs := load(t, p, suite.Options{})
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) || !strings.HasPrefix(errs[0].Error(), p+":") {
				t.Errorf("errors %v, want one at %s containing %q", errs, p, tt.want)
			}
		})
	}
}

func TestLoad_noCriteria(t *testing.T) {
	s, errs := load(t, write(t, `[{"id": "a", "user_scenario": {"instructions": "hi"}}]`), suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(s.Cases) != 1 || len(s.Cases[0].Evaluators) != 1 {
		t.Fatalf("cases %v: want one case with its reward", s.Cases)
	}
	r := s.Cases[0].Evaluators[0].Run(context.Background(), &trajeval.Trajectory{ID: "a"})
	if r.Status != trajeval.StatusError || !strings.Contains(r.Error, "no evaluation_criteria") {
		t.Errorf("reward %s %q: a task τ² would reward 1 whatever happened is an error, never a pass", r.Status, r.Error)
	}
}

func TestCheckBasis(t *testing.T) {
	if err := tau2.CheckBasis([]string{"ACTION", "COMMUNICATE"}); err != nil {
		t.Errorf("CheckBasis(ACTION, COMMUNICATE) = %v", err)
	}
	if err := tau2.CheckBasis([]string{}); err == nil || !strings.Contains(err.Error(), "names no reward component") {
		t.Errorf("CheckBasis([]) = %v, want an error: an empty --basis leaves every reward nothing to score", err)
	}
	if err := tau2.CheckBasis(nil); err != nil {
		t.Errorf("CheckBasis(nil) = %v: no --basis is each task's own basis", err)
	}
	if err := tau2.CheckBasis([]string{"action"}); err == nil || !strings.Contains(err.Error(), `did you mean "ACTION"`) {
		t.Errorf("CheckBasis(action) = %v, want an error suggesting ACTION: τ²'s names are upper case", err)
	}
}

// rows runs the example's tasks against its results.
func rows(t *testing.T, path string, opts suite.Options) []trajeval.CaseResult {
	t.Helper()
	s, errs := load(t, path, opts)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []trajeval.CaseResult
	_, err := run.Run(context.Background(), []*suite.Suite{s}, run.Options{Workers: 1}, func(r trajeval.CaseResult) error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func verdicts(rs []trajeval.CaseResult) string {
	var b []string
	for _, r := range rs {
		b = append(b, fmt.Sprintf("%s#%d=%s", r.ID, r.Attempt, r.Status))
	}
	return strings.Join(b, " ")
}

func TestRun_example(t *testing.T) {
	tests := []struct {
		name   string
		basis  []string
		want   string
		reason string
	}{
		{"the tasks' own basis", nil,
			"cancel_reservation#1=pass cancel_reservation#2=fail update_address#1=pass update_address#2=pass baggage_refund#1=error",
			"each trial is an attempt; DB cannot be assessed, so its task is an error, never a pass"},
		{"narrowed", []string{"COMMUNICATE"},
			"cancel_reservation#1=pass cancel_reservation#2=fail update_address#1=error update_address#2=error baggage_refund#1=pass",
			"COMMUNICATE alone: a task whose basis has none of it is an error, not a reward of 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := verdicts(rows(t, example, suite.Options{Basis: tt.basis})); got != tt.want {
				t.Errorf("verdicts\n got %s\nwant %s\n(%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestRun_reward(t *testing.T) {
	rs := rows(t, example, suite.Options{})
	r := rs[1].Evaluators[0]
	if len(rs[1].Evaluators) != 1 || r.Score != 0 || len(r.Members) != 2 || r.Members[0].Name != "ACTION" || r.Members[1].Name != "COMMUNICATE" {
		t.Fatalf("reward %+v, want the product 0 with members ACTION and COMMUNICATE", r)
	}
	if m := r.Members[0].Details.Missing; len(m) != 1 || len(m[0].Near) != 1 {
		t.Errorf("ACTION missing %+v, want the cancel of the wrong reservation as a near miss", m)
	}
	if e := rs[4].Error; !strings.Contains(e, "DB needs τ²'s environment") {
		t.Errorf("error %q, want it to name DB and why", e)
	}
}

// A simulation of a task the file does not have is an error row: the
// results belong to these tasks.
func TestRun_unknownTask(t *testing.T) {
	dir := t.TempDir()
	tasks := `[{"id": "known", "evaluation_criteria": {"communicate_info": ["hello"], "reward_basis": ["COMMUNICATE"]}}]`
	results := `{"info": {"num_trials": 1}, "tasks": [], "simulations": [
  {"id": "s1", "task_id": "known", "trial": 0, "messages": [{"role": "assistant", "content": "Hello!"}]},
  {"id": "s2", "task_id": "ghost", "trial": 0, "messages": [{"role": "assistant", "content": "Hello!"}]}]}`
	for name, text := range map[string]string{"tasks.json": tasks, "results.json": results} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs := rows(t, filepath.Join(dir, "tasks.json"), suite.Options{})
	if got := verdicts(rs); got != "known#1=pass ghost#1=error" || !strings.Contains(rs[1].Error, `has id "ghost"`) {
		t.Errorf("verdicts %s, error %q; want the unknown task as an error row naming it", got, rs[1].Error)
	}
}
