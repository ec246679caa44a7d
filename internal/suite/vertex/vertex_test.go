package vertex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/vertex"
)

func load(t *testing.T, data string, opts suite.Options) (*suite.Suite, []error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.jsonl")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Dialects = []suite.Dialect{vertex.Dialect}
	return suite.LoadFile(path, opts, true)
}

func TestDialect_example(t *testing.T) {
	s, errs := suite.LoadFile("../../../examples/vertex/travel.jsonl", suite.Options{Dialects: []suite.Dialect{vertex.Dialect}}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Dialect != "vertex" || s.Name != "travel" || s.Traces != s.File {
		t.Errorf("suite %s (%s), traces %q: want the vertex suite travel, its own traces file", s.Name, s.Dialect, s.Traces)
	}
	var ids []string
	for _, c := range s.Cases {
		ids = append(ids, c.ID)
		if len(c.Evaluators) != len(vertex.Metrics) {
			t.Errorf("case %s has %d evaluators, want the %d reference metrics", c.ID, len(c.Evaluators), len(vertex.Metrics))
		}
		for i, e := range c.Evaluators {
			if e.Name != vertex.Metrics[i] || e.Threshold != 1 || !e.Required {
				t.Errorf("case %s evaluator %d: %s threshold %v required %v", c.ID, i, e.Name, e.Threshold, e.Required)
			}
		}
	}
	if got := strings.Join(ids, " "); got != "weather flight-extra-search hotel-swapped wrong-city" {
		t.Errorf("cases %s, want the rows' ids in file order", got)
	}
	if s.Cases[0].Input != "What is the weather in Paris tomorrow?" {
		t.Errorf("input %q, want the prompt", s.Cases[0].Input)
	}
}

func TestDialect_ids(t *testing.T) {
	s, errs := load(t, `{"reference_trajectory": []}`+"\n\n"+`{"id": 12, "reference_trajectory": "[{\"tool_name\": \"a\"}]"}`+"\n", suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Cases[0].ID != "row-1" || s.Cases[1].ID != "12" {
		t.Errorf("ids %s, %s: want row-1 (line 1, no id) and 12 (a number id)", s.Cases[0].ID, s.Cases[1].ID)
	}
}

func TestDialect_threshold(t *testing.T) {
	th := 0.5
	s, errs := load(t, `{"reference_trajectory": []}`, suite.Options{Threshold: &th})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := s.Cases[0].Evaluators[3].Threshold; got != 0.5 {
		t.Errorf("threshold %v, want --threshold's 0.5", got)
	}
}

func TestDialect_errors(t *testing.T) {
	ok := `{"id": "a", "reference_trajectory": [], "predicted_trajectory": []}`
	tests := []struct {
		name, data, want string
		reason           string
	}{
		{"no reference", ok + "\n" + `{"id": "b", "reference_trajectory": null}` + "\n", `data.jsonl:2:`, "the row's line"},
		{"no reference message", ok + "\n" + `{"id": "b", "predicted_trajectory": []}` + "\n", `row b has no reference_trajectory`, "says which row"},
		{"reference an object", ok + "\n" + `{"id": "b", "reference_trajectory": {"tool_name": "a"}}` + "\n", `row b: an object, not a list of calls`, "the shape is named"},
		{"call without a name", ok + "\n" + `{"id": "b", "reference_trajectory": [{"tool_input": {}}]}` + "\n", `call 1 has no tool_name`, "a call names its tool"},
		{"tool_input a list", ok + "\n" + `{"id": "b", "reference_trajectory": [{"tool_name": "x", "tool_input": [1]}]}` + "\n", `tool_input is an array, not an object`, "inputs are objects"},
		{"duplicate id", ok + "\n" + ok + "\n", `data.jsonl:2:2: row id "a" is used twice`, "ids match rows to trajectories"},
		{"broken line", ok + "\n" + `{"id": "b", "reference_trajectory": [` + "\n", `data.jsonl:2:`, "a JSON error is placed at its line"},
		{"not an object", ok + "\n[1, 2]\n", `data.jsonl:2:1: line 2 is a list, not a JSON object`, "every line is a row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := load(t, tt.data, suite.Options{})
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			if s != nil || !strings.Contains(strings.Join(all, "\n"), tt.want) {
				t.Errorf("suite %v, errors %q: want an error containing %q: %s", s, all, tt.want, tt.reason)
			}
		})
	}
}

func TestDialect_metricsFile(t *testing.T) {
	tests := []struct {
		name, metrics string
		want          string // the evaluators "name@threshold", or the error
		reason        string
	}{
		{"chosen", "metrics: [trajectory_precision, {metric: trajectory_single_tool_use, tool_name: book, threshold: 0.5}]\n",
			"trajectory_precision@1 trajectory_single_tool_use@0.5", "EvalTask's metrics list, in its order"},
		{"any spelling", "metrics: [trajectoryRecall]\n", "trajectory_recall@1", "spellings as everywhere"},
		{"unknown metric", "metrics: [trajectory_recal]\n", `data.metrics.yaml:1:11: metrics[0]: unknown value "trajectory_recal" (did you mean "trajectory_recall"?)`, "placed, with a suggestion"},
		{"tool elsewhere", "metrics: [{metric: trajectory_recall, tool_name: a}]\n", "trajectory_recall takes no tool_name", "a setting that would be ignored"},
		{"tool missing", "metrics: [trajectory_single_tool_use]\n", "trajectory_single_tool_use needs a tool_name", "nothing to look for"},
		{"empty", "metrics: []\n", "metrics is empty", "nothing would be scored"},
		{"twice", "metrics: [trajectory_recall, trajectory_recall]\n", "listed twice", "results are named by metric"},
		{"misspelt key", "metric: [trajectory_recall]\n", `did you mean "metrics"?`, "typos are caught"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "data.metrics.yaml"), []byte(tt.metrics), 0o644)
			path := filepath.Join(dir, "data.jsonl")
			os.WriteFile(path, []byte(`{"reference_trajectory": [{"tool_name": "book"}]}`+"\n"), 0o644)
			s, errs := suite.LoadFile(path, suite.Options{Dialects: []suite.Dialect{vertex.Dialect}}, true)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if s != nil {
				for _, e := range s.Cases[0].Evaluators {
					got = append(got, fmt.Sprintf("%s@%v", e.Name, e.Threshold))
				}
			}
			if g := strings.Join(got, " "); !strings.Contains(g, tt.want) {
				t.Errorf("got %q, want %q: %s", g, tt.want, tt.reason)
			}
		})
	}
}
