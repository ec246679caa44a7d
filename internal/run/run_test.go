package run_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// traj is one trajectory in AgentV's trace shape whose only step calls tool.
func traj(id, tool string) string {
	return `{"id": "` + id + `", "output": [{"role": "assistant", "tool_calls": [{"tool": "` + tool + `"}]}]}` + "\n"
}

// caseYAML is a case whose one evaluator passes exactly when the trajectory
// is the single call good; trace, when not "", is its trace: key.
func caseYAML(id, trace string) string {
	s := "  - id: " + id + "\n"
	if trace != "" {
		s += "    trace: " + trace + "\n"
	}
	return s + "    execution:\n      evaluators:\n        - {name: flow, type: tool_trajectory, mode: exact, expected: [good]}\n"
}

// outcome is what a run gave: each case's status (with its error) in the
// order emitted, and the warnings.
type outcome struct {
	statuses []string
	errors   map[string]string
	warnings []string
}

// runIn writes files into a new folder, loads suite.yaml from it and runs
// it with --traces (relative to the folder) when traces is not "".
func runIn(t *testing.T, files map[string]string, traces string) outcome {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := run.Options{}
	if traces != "" {
		opts.Traces = filepath.Join(dir, traces)
	}
	var o outcome
	o.errors = map[string]string{}
	opts.Warn = func(w trajeval.Warning) { o.warnings = append(o.warnings, w.String()) }
	sum, err := run.Run(context.Background(), []*suite.Suite{s}, opts, func(r trajeval.CaseResult) error {
		o.statuses = append(o.statuses, r.ID+"="+string(r.Status))
		o.errors[r.ID] = r.Error
		return nil
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum.Cases != len(o.statuses) || sum.Passed+sum.Failed+sum.Errors != sum.Cases {
		t.Errorf("summary %+v does not count the %d results", sum, len(o.statuses))
	}
	return o
}

func TestRun_traceSources(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		traces   string
		want     string // id=status in emitted order
		errorHas string // in the first case's error
		reason   string
	}{
		{"case trace wins over --traces",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", "own.jsonl"), "own.jsonl": traj("a", "good"), "runs.jsonl": traj("a", "bad")},
			"runs.jsonl", "a=pass", "", "a case's own trace: file is scored, not the --traces one"},
		{"--traces supplies the rest",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", ""), "runs.jsonl": traj("a", "good")},
			"runs.jsonl", "a=pass", "", "matched by id"},
		{"suite's own traces file",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", ""), "traces.jsonl": traj("a", "good")},
			"", "a=pass", "", "traces.jsonl beside the suite, when no --traces"},
		{"--traces wins over the suite's",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", ""), "traces.jsonl": traj("a", "bad"), "runs.jsonl": traj("a", "good")},
			"runs.jsonl", "a=pass", "", "the run's --traces first"},
		{"no trace at all",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", "")},
			"", "a=error", "give the case a trace", "never a silent 0 or pass"},
		{"not in --traces",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", ""), "runs.jsonl": traj("b", "good")},
			"runs.jsonl", "a=error", `"a"`, "a traces file without the case's id is an error for the case"},
		{"case trace unreadable",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", "gone.jsonl"), "gone.jsonl": "hello world\n", "runs.jsonl": traj("a", "good")},
			"runs.jsonl", "a=error", "gone.jsonl", "an unreadable own trace is an error; --traces does not stand in"},
		{"case trace of several, by id",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", "own.jsonl"), "own.jsonl": traj("z", "bad") + traj("a", "good")},
			"", "a=pass", "", "a file of several trajectories gives the one with the case's id"},
		{"case trace of several, none with the id",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", "own.jsonl"), "own.jsonl": traj("y", "good") + traj("z", "good")},
			"", "a=error", "none has id", "never the first by position"},
		{"unreadable --traces",
			map[string]string{"suite.yaml": "evalcases:\n" + caseYAML("a", ""), "runs.jsonl": "hello world\n"},
			"runs.jsonl", "a=error", "runs.jsonl", "a traces file no reader recognises makes its cases errors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runIn(t, tt.files, tt.traces)
			if got := strings.Join(o.statuses, " "); got != tt.want {
				t.Fatalf("results %s, want %s: %s (errors %q)", got, tt.want, tt.reason, o.errors)
			}
			id := strings.SplitN(tt.want, "=", 2)[0]
			if tt.errorHas != "" && !strings.Contains(o.errors[id], tt.errorHas) {
				t.Errorf("error %q, want it to contain %q: %s", o.errors[id], tt.errorHas, tt.reason)
			}
		})
	}
}

// TestRun_matchedByID checks that trajectories pair with cases by id,
// whatever their order, and that what cannot pair is told.
func TestRun_matchedByID(t *testing.T) {
	suiteFile := "evalcases:\n" + caseYAML("first", "") + caseYAML("second", "") + caseYAML("third", "")
	t.Run("reversed", func(t *testing.T) {
		o := runIn(t, map[string]string{"suite.yaml": suiteFile,
			"runs.jsonl": traj("third", "good") + traj("stranger", "bad") + traj("second", "bad") + traj("first", "good")}, "runs.jsonl")
		got := slices.Clone(o.statuses)
		slices.Sort(got)
		if want := "first=pass second=fail third=pass"; strings.Join(got, " ") != want {
			t.Errorf("results %v, want %s: each case scores the trajectory with its id, not the one at its position", o.statuses, want)
		}
		if !slices.ContainsFunc(o.warnings, func(w string) bool {
			return strings.Contains(w, "stranger") && strings.Contains(w, "matches no case id")
		}) {
			t.Errorf("warnings %q: a trajectory no case asks for must be reported", o.warnings)
		}
	})
	t.Run("file order, missing last", func(t *testing.T) {
		o := runIn(t, map[string]string{"suite.yaml": suiteFile,
			"runs.jsonl": traj("third", "good") + traj("first", "good")}, "runs.jsonl")
		if want := "third=pass first=pass second=error"; strings.Join(o.statuses, " ") != want {
			t.Errorf("results %v, want %s: results come in the file's order, cases without a trajectory last", o.statuses, want)
		}
	})
	t.Run("many cases", func(t *testing.T) {
		// Enough ids that many share a slot of the index by id; the
		// trajectories come in another order, every fifth one failing,
		// and ids that differ from a case's by a byte match none.
		const n = 3000
		var cases, runs strings.Builder
		cases.WriteString("execution:\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: exact, expected: [good]}\nevalcases:\n")
		want := map[string]string{}
		for i := range n {
			id := fmt.Sprintf("c%d", i)
			fmt.Fprintf(&cases, "  - {id: %s, input: x}\n", id)
			want[id] = "pass"
		}
		for i := range n {
			j := (i * 7919) % n // every case once, out of order
			id, tool := fmt.Sprintf("c%d", j), "good"
			if j%5 == 0 {
				tool, want[id] = "bad", "fail"
			}
			runs.WriteString(traj(id, tool))
			if i%100 == 0 {
				runs.WriteString(traj(id+"x", "good"))
			}
		}
		o := runIn(t, map[string]string{"suite.yaml": cases.String(), "runs.jsonl": runs.String()}, "runs.jsonl")
		if len(o.statuses) != n {
			t.Fatalf("%d results, want %d: one a case", len(o.statuses), n)
		}
		for _, st := range o.statuses {
			id, status, _ := strings.Cut(st, "=")
			if want[id] != status {
				t.Errorf("case %s is %s, want %s: each case scores the trajectory with its id", id, status, want[id])
			}
		}
		if len(o.warnings) != n/100 {
			t.Errorf("%d warnings, want %d: each trajectory whose id is one byte off matches no case", len(o.warnings), n/100)
		}
	})
	t.Run("duplicate ids", func(t *testing.T) {
		o := runIn(t, map[string]string{"suite.yaml": suiteFile,
			"runs.jsonl": traj("first", "good") + traj("second", "good") + traj("third", "good") + traj("first", "bad")}, "runs.jsonl")
		if want := "first=pass second=pass third=pass"; strings.Join(o.statuses, " ") != want {
			t.Errorf("results %v, want %s: the first trajectory with an id is scored, once", o.statuses, want)
		}
		if !slices.ContainsFunc(o.warnings, func(w string) bool { return strings.Contains(w, "first") && strings.Contains(w, "appears twice") }) {
			t.Errorf("warnings %q: a trace id given twice must be reported", o.warnings)
		}
	})
}

// TestScore_verdict checks rule 4: the case score is the weighted mean of
// its evaluators' scores, and it passes iff every required evaluator does.
func TestScore_verdict(t *testing.T) {
	tests := []struct {
		name   string
		evals  string
		status trajeval.Status
		score  float64
		reason string
	}{
		{"all pass", "[{name: a, type: tool_trajectory, expected: [good]}, {name: b, type: execution_metrics, max_tool_calls: 1}]",
			trajeval.StatusPass, 1, "both required evaluators pass"},
		{"weighted mean", "[{name: a, type: tool_trajectory, expected: [good], weight: 3}, {name: b, type: tool_trajectory, expected: [other], weight: 1}]",
			trajeval.StatusFail, 0.75, "(3·1 + 1·0) / 4, and b fails"},
		{"optional failure", "[{name: a, type: tool_trajectory, expected: [good]}, {name: b, type: tool_trajectory, expected: [other], required: false}]",
			trajeval.StatusPass, 0.5, "required: false does not fail the case, but counts in its score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := scoreGood(t, tt.evals)
			if r.Status != tt.status || r.Score != tt.score {
				t.Errorf("case %s %v, want %s %v: %s", r.Status, r.Score, tt.status, tt.score, tt.reason)
			}
		})
	}
}

// TestScore_noEvaluators: a case with nothing to score (which the loader
// refuses, but a caller may build) is an error, not a pass.
func TestScore_noEvaluators(t *testing.T) {
	r := run.Score(context.Background(), &suite.Suite{Name: "s"}, &suite.Case{ID: "a"}, &trajeval.Trajectory{ID: "a"})
	if r.Status != trajeval.StatusError || r.Evaluators == nil {
		t.Errorf("case %s, evaluators %v; want an error and an empty list", r.Status, r.Evaluators)
	}
}

func TestTurnView_agents(t *testing.T) {
	tr := &trajeval.Trajectory{
		Turns:  []trajeval.Turn{{}, {}},
		Steps:  []trajeval.Step{{Turn: 1, Name: "a", Agent: "billing"}, {Turn: 2, Name: "b", Agent: "support"}},
		Agents: []trajeval.Agent{{Name: "billing", Parent: "support"}},
	}
	tr.Finish()
	v := run.TurnView(tr, 2)
	// billing made no call in turn 2, but it is an agent of the run: a
	// per-turn evaluator scoped to it scores an empty turn, not an error.
	_, note, err := trajeval.AgentScope{Agents: []string{"billing"}}.Apply(v)
	if err != nil || note.Steps != 0 {
		t.Errorf("scope on turn 2 = %v, %v; want no step and no error: the turn view keeps the run's agents", note, err)
	}
}

// TestScore_resultsAtSize: a case's results are made at their size, not
// grown by append (three evaluators grown one by one take three
// allocations and two copies of the results).
func TestScore_resultsAtSize(t *testing.T) {
	tests := []struct {
		name   string
		evals  string
		want   int
		reason string
	}{
		{"one", "[{name: a, type: tool_trajectory, expected: [good]}]", 1, "one result, one slot"},
		{"three", "[{name: a, type: tool_trajectory, expected: [good]}, {name: b, type: execution_metrics, max_tool_calls: 1}, {name: c, type: tool_trajectory, expected: [other]}]",
			3, "append would leave a capacity of 4"},
		{"five", "[{name: a, type: tool_trajectory, expected: [good]}, {name: b, type: execution_metrics, max_tool_calls: 1}, {name: c, type: tool_trajectory, expected: [other]}, {name: d, type: tool_trajectory, expected: [good], mode: any_order}, {name: e, type: execution_metrics, max_tool_calls: 2}]",
			5, "append would leave a capacity of 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := scoreGood(t, tt.evals)
			if len(r.Evaluators) != tt.want || cap(r.Evaluators) != tt.want {
				t.Errorf("results: length %d, capacity %d; want %d and %d: %s", len(r.Evaluators), cap(r.Evaluators), tt.want, tt.want, tt.reason)
			}
		})
	}
}

// scoreGood scores a run of one call, good, against a suite of one case
// whose evaluators are the YAML flow list evals.
func scoreGood(t *testing.T, evals string) trajeval.CaseResult {
	t.Helper()
	dir := t.TempDir()
	yaml := "evalcases:\n  - id: a\n    execution:\n      evaluators: " + evals + "\n"
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tr := &trajeval.Trajectory{ID: "a", Steps: []trajeval.Step{{Turn: 1, Name: "good"}}}
	tr.Finish()
	return run.Score(context.Background(), s, s.Cases[0], tr)
}
