package check_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/suite"
	"github.com/trajeval/trajeval/trace"
)

// score returns an evaluator that scores f.
func fixed(f float64) trajeval.Evaluator {
	return trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{Score: f}, nil
	})
}

var (
	failing = trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{}, errors.New("no judge to ask")
	})
	panicking = trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		panic("index out of range")
	})
	stepCount = trajeval.EvaluatorFunc(func(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{Score: float64(len(t.Steps))}, nil // would panic on a nil t
	})
)

func TestEvaluate(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		traj       *trajeval.Trajectory
		evaluators []trajeval.Evaluator
		status     trajeval.Status
		score      float64
		errHas     string // in Result.Error
		members    int
		reason     string
	}{
		{"one pass", nil, []trajeval.Evaluator{fixed(1)}, trajeval.StatusPass, 1, "", 0,
			"one evaluator's result is returned as is"},
		{"default threshold is 1", nil, []trajeval.Evaluator{fixed(0.99)}, trajeval.StatusFail, 0.99, "", 0,
			"a plain evaluator is deterministic: threshold 1"},
		{"own threshold", nil, []trajeval.Evaluator{check.Configure(fixed(0.5), check.Settings{Threshold: 0.5})}, trajeval.StatusPass, 0.5, "", 0,
			"Configure's threshold replaces the default"},
		{"negate", nil, []trajeval.Evaluator{check.Configure(fixed(0), check.Settings{Negate: true})}, trajeval.StatusPass, 1, "", 0,
			"negate swaps pass and fail and scores 1 − score"},
		{"error", nil, []trajeval.Evaluator{failing}, trajeval.StatusError, 0, "no judge to ask", 0,
			"an evaluator that cannot run is an error, never a pass"},
		{"panic", nil, []trajeval.Evaluator{panicking}, trajeval.StatusError, 0, "index out of range", 0,
			"a panic is an error with its reason"},
		{"nil evaluator", nil, []trajeval.Evaluator{nil}, trajeval.StatusError, 0, "evaluator is nil", 0,
			"a nil evaluator is an error, not a crash"},
		{"nil trajectory", nil, []trajeval.Evaluator{stepCount}, trajeval.StatusFail, 0, "", 0,
			"a nil trajectory is scored as an empty one"},
		{"NaN", nil, []trajeval.Evaluator{fixed(math.NaN())}, trajeval.StatusFail, 0, "", 0,
			"a NaN score is 0, never a pass"},
		{"none", &trajeval.Trajectory{}, nil, trajeval.StatusError, 0, "no evaluators", 0,
			"nothing to score is not a pass"},
		{"several pass", nil, []trajeval.Evaluator{fixed(1), fixed(1)}, trajeval.StatusPass, 1, "", 2,
			"several evaluators are members of one result"},
		{"weighted mean", nil, []trajeval.Evaluator{fixed(1), check.Configure(fixed(0), check.Settings{Weight: 3})}, trajeval.StatusFail, 0.25, "", 2,
			"the score is the weighted mean; a failing required member fails the whole"},
		{"optional member", nil, []trajeval.Evaluator{fixed(1), check.Configure(fixed(0), check.Settings{Optional: true})}, trajeval.StatusPass, 0.5, "", 2,
			"an optional member that fails does not fail the whole"},
		{"member error", nil, []trajeval.Evaluator{fixed(1), check.Configure(failing, check.Settings{Name: "judge", Optional: true})}, trajeval.StatusError, 0.5, "evaluator judge: no judge to ask", 2,
			"a member that cannot run makes the whole an error, even when optional"},
		{"bad threshold", nil, []trajeval.Evaluator{check.Configure(fixed(1), check.Settings{Threshold: 1.5})}, trajeval.StatusError, 0, "threshold must be between 0 and 1", 0,
			"a setting out of range is an error, not a silent pass"},
		{"NaN threshold", nil, []trajeval.Evaluator{check.Configure(fixed(1), check.Settings{Threshold: math.NaN()})}, trajeval.StatusError, 0, "threshold must be between 0 and 1", 0,
			"a NaN threshold would fail or pass everything"},
		{"negative weight", nil, []trajeval.Evaluator{check.Configure(fixed(1), check.Settings{Weight: -1})}, trajeval.StatusError, 0, "weight must be", 0,
			"a negative weight is an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := check.Evaluate(ctx, tt.traj, tt.evaluators...)
			if r.Status != tt.status || math.Abs(r.Score-tt.score) > 1e-9 {
				t.Errorf("got %s %v, want %s %v: %s", r.Status, r.Score, tt.status, tt.score, tt.reason)
			}
			if r.Passed() != (tt.status == trajeval.StatusPass) {
				t.Errorf("Passed() = %v with status %s", r.Passed(), r.Status)
			}
			if !strings.Contains(r.Error, tt.errHas) || (tt.errHas == "") != (r.Error == "") {
				t.Errorf("error %q, want one containing %q: %s", r.Error, tt.errHas, tt.reason)
			}
			if len(r.Members) != tt.members {
				t.Errorf("%d members, want %d: %s", len(r.Members), tt.members, tt.reason)
			}
			if tt.members > 0 && r.Type != trajeval.TypeAll {
				t.Errorf("type %q, want %q", r.Type, trajeval.TypeAll)
			}
		})
	}
}

func TestResult_Explain(t *testing.T) {
	r := check.Evaluate(context.Background(), nil,
		check.Configure(fixed(1), check.Settings{Name: "quick", Type: "latency"}),
		check.Configure(fixed(0.25), check.Settings{Name: "order", Threshold: 0.5}),
		check.Configure(failing, check.Settings{Name: "judged", Optional: true}),
	)
	want := `! all  0.42
    error: evaluator judged: no judge to ask
    ✓ quick  latency  1.00
    ✗ order  0.25 < 0.50
    ! judged  0.00  (not required)
        error: no judge to ask
`
	if got := r.Explain(); got != want {
		t.Errorf("Explain() =\n%s\nwant\n%s", got, want)
	}
}

func TestConfigure(t *testing.T) {
	s, err := suite.Load("../testdata/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := trace.ReadFile("../testdata/research.openai.json")
	if err != nil {
		t.Fatal(err)
	}
	e := s.Cases[0].Evaluators[0]
	if r := check.Evaluate(context.Background(), trajs[0], e); r.Status != trajeval.StatusFail || r.Name != "workflow" {
		t.Fatalf("the suite's evaluator scored %s %q, want fail \"workflow\"", r.Status, r.Name)
	}
	r := check.Evaluate(context.Background(), trajs[0], check.Configure(e, check.Settings{Threshold: 0.6}))
	if r.Status != trajeval.StatusPass || r.Name != "workflow" || r.Type != "tool_trajectory" {
		t.Errorf("configured suite evaluator: %s %q %q; want pass, keeping its name and type", r.Status, r.Name, r.Type)
	}
	if r := check.Evaluate(context.Background(), trajs[0], e); r.Status != trajeval.StatusFail {
		t.Errorf("Configure changed the suite's own evaluator: %s", r.Status)
	}
}

func TestEvaluate_handBuilt(t *testing.T) {
	traj := &trajeval.Trajectory{Steps: []trajeval.Step{{Name: "search"}, {Name: "read"}}}
	indexes := trajeval.EvaluatorFunc(func(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
		if t.Steps[0].Index != 1 || t.Steps[1].Index != 2 {
			return trajeval.Outcome{}, errors.New("steps are not numbered")
		}
		return trajeval.Outcome{Score: 1}, nil
	})
	if r := check.Evaluate(context.Background(), traj, indexes); !r.Passed() {
		t.Errorf("hand-built steps: %s %s; want them numbered from 1, as a reader does", r.Status, r.Error)
	}
	if traj.Steps[0].Index != 0 {
		t.Errorf("Evaluate changed the caller's trajectory")
	}
}

func TestConfigure_twice(t *testing.T) {
	e := check.Configure(fixed(0.5), check.Settings{Name: "half", Threshold: 0.4})
	e = check.Configure(e, check.Settings{Threshold: 0.6})
	r := check.Evaluate(context.Background(), nil, e)
	if r.Name != "half" || r.Threshold != 0.6 || r.Status != trajeval.StatusFail {
		t.Errorf("got %q threshold %v %s; want the name kept and the threshold replaced", r.Name, r.Threshold, r.Status)
	}
}
