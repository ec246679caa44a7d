package trajeval_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
)

func TestLoadSuite(t *testing.T) {
	s, err := trajeval.LoadSuite("testdata/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 2 || s.Cases[0].ID != "research-python" || s.Cases[0].Suite != "research" || len(s.Cases[0].Evaluators) != 1 {
		t.Fatalf("cases %+v; want research-python and research-nothing of suite research, one evaluator each", s.Cases)
	}

	_, err = trajeval.LoadSuite("testdata/broken.yaml")
	var list interface{ Unwrap() []error }
	if !errors.As(err, &list) || len(list.Unwrap()) != 2 {
		t.Fatalf("error %v; want the two configuration errors, listed", err)
	}
	for _, e := range list.Unwrap() {
		var se *trajeval.SpecError
		if !errors.As(e, &se) || se.Line == 0 || se.Col == 0 || !errors.Is(e, trajeval.ErrConfig) {
			t.Errorf("%v: want a *SpecError at its line and column, wrapping ErrConfig", e)
		}
	}

	if _, err := trajeval.LoadSuite("testdata/nope.yaml"); !errors.Is(err, trajeval.ErrConfig) {
		t.Errorf("a missing suite: error %v, want ErrConfig", err)
	}
}

func TestSuite_Run(t *testing.T) {
	tests := []struct {
		name   string
		suite  string
		opts   trajeval.RunOptions
		want   string // "id status" per result, then "error: ..." for a run error
		reason string
	}{
		{"own traces", "testdata/research.yaml", trajeval.RunOptions{},
			"research-python fail; research-nothing error", "a case whose trace cannot be read is an error, and the run goes on"},
		{"threshold", "testdata/research.yaml", trajeval.RunOptions{Threshold: 0.5},
			"research-python pass; research-nothing error", "the run's threshold replaces the files' default"},
		{"traces file", "testdata/many.yaml", trajeval.RunOptions{Traces: "testdata/research.traces.jsonl", Workers: 3},
			"research-python pass; research-nothing fail", "a traces file is matched to cases by id"},
		{"damaged", "testdata/many.yaml", trajeval.RunOptions{Traces: "testdata/cut.traces.jsonl"},
			"research-python error; research-nothing error", "a damaged traces file is an error for every case it could not give"},
		{"damaged lenient", "testdata/many.yaml", trajeval.RunOptions{Traces: "testdata/cut.traces.jsonl", Lenient: true},
			"research-python fail partial; research-nothing error", "read leniently, the case is scored from what came before the damage, marked partial"},
		{"adk", "examples/adk-shopping", trajeval.RunOptions{},
			"", "an ADK eval set with its test_config.json loads and runs"},
		{"uipath", "examples/uipath-orders", trajeval.RunOptions{},
			"", "a UiPath evaluation set loads and runs"},
		{"only", "testdata/many.yaml", trajeval.RunOptions{Traces: "testdata/research.traces.jsonl", Only: func(c *trajeval.Case) bool { return c.ID == "research-nothing" }},
			"research-nothing fail", "Only leaves the other cases out, in silence"},
		{"no traces", "testdata/many.yaml", trajeval.RunOptions{},
			"research-python error; research-nothing error", "cases without a trace are errors, never a pass"},
		{"bad format", "testdata/research.yaml", trajeval.RunOptions{Format: "nope"},
			"error: unknown format", "an unknown format stops the run before any case"},
		{"bad threshold", "testdata/research.yaml", trajeval.RunOptions{Threshold: 2},
			"error: configuration error: the threshold must be between 0 and 1", "a threshold out of range is an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := trajeval.LoadSuite(tt.suite)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var warnings []trajeval.Warning
			tt.opts.Warn = func(w trajeval.Warning) { warnings = append(warnings, w) }
			for r, err := range s.Run(context.Background(), tt.opts) {
				if err != nil {
					got = append(got, "error: "+err.Error())
					continue
				}
				line := r.ID + " " + string(r.Status)
				if r.Partial {
					line += " partial"
				}
				got = append(got, line)
			}
			if len(got) == 0 || tt.want == "" && strings.Contains(strings.Join(got, "; "), "error") {
				t.Errorf("got %q: %s", got, tt.reason)
			}
			if tt.opts.Only != nil && len(warnings) > 0 {
				t.Errorf("warnings %v: %s", warnings, tt.reason)
			}
			if g := strings.Join(got, "; "); !strings.HasPrefix(g, tt.want) || tt.opts.Only != nil && g != tt.want {
				t.Errorf("got %s\nwant %s: %s", g, tt.want, tt.reason)
			}
		})
	}
}

func TestSuite_Run_break(t *testing.T) {
	s, err := trajeval.LoadSuite("testdata/many.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 4} {
		n := 0
		for _, err := range s.Run(context.Background(), trajeval.RunOptions{Traces: "testdata/research.traces.jsonl", Workers: workers}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			break
		}
		if n != 1 {
			t.Errorf("workers %d: %d results after a break, want 1", workers, n)
		}
	}
}

func TestCase_Score(t *testing.T) {
	s, err := trajeval.LoadSuite("testdata/many.yaml")
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := trajeval.ReadFile("testdata/research.traces.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		traj   *trajeval.Trajectory
		status trajeval.Status
		reason string
	}{
		{"matches", trajs[0], trajeval.StatusPass, "search (python), read_document and synthesize in order"},
		{"other query", trajs[1], trajeval.StatusFail, "the query does not match the regex"},
		{"nil", nil, trajeval.StatusFail, "a nil trajectory is an empty one: every call is missing"},
	}
	if r := new(trajeval.Case).Score(context.Background(), trajs[0]); r.Status != trajeval.StatusError {
		t.Errorf("a case not loaded from a suite scored %s, want error", r.Status)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Cases[0].Score(context.Background(), tt.traj)
			if r.Status != tt.status || r.ID != "research-python" || r.Suite != "many" {
				t.Errorf("%s %s/%s, want %s of many/research-python: %s\n%s", r.Status, r.Suite, r.ID, tt.status, tt.reason, r.Explain())
			}
		})
	}
}

func TestSuite_Run_canceled(t *testing.T) {
	s, err := trajeval.LoadSuite("testdata/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var last error
	n := 0
	for _, err := range s.Run(ctx, trajeval.RunOptions{}) {
		n++
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("%d results, the last error %v; want the run to end with context.Canceled, never a silent empty run", n, last)
	}
}
