// Package trajevaltest scores agent trajectories from Go tests.
//
// [Check] scores a trajectory with evaluators and fails the test with the
// explanation when it does not pass:
//
//	func TestResearch(t *testing.T) {
//		trajs, err := trajeval.ReadFile("testdata/run.json")
//		if err != nil {
//			t.Fatal(err)
//		}
//		trajevaltest.Check(t, trajs[0], evaluators...)
//	}
//
// [RunSuite] runs a suite file (AgentV YAML, an ADK eval set, a UiPath
// evaluation set) with every case a subtest, so that go test's -run picks
// cases:
//
//	func TestEvals(t *testing.T) {
//		trajevaltest.RunSuite(t, "testdata/research.yaml")
//	}
//
//	go test -run 'TestEvals/research-python'
//
// Neither needs an API key unless the suite asks an LLM judge.
package trajevaltest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
)

// Check scores traj with evaluators (see [trajeval.Evaluate]) and returns
// the result. Unless it passes, Check marks the test failed with
// t.Errorf, giving the trajectory's id and the explanation (the alignment
// of expected calls and steps, what is missing, what is extra, the
// argument paths that differ): the test goes on, so that one test may
// check several trajectories. An evaluator that cannot run fails the test
// too, with its reason.
func Check(t testing.TB, traj *trajeval.Trajectory, evaluators ...trajeval.Evaluator) trajeval.Result {
	t.Helper()
	r := trajeval.Evaluate(context.Background(), traj, evaluators...)
	if !r.Passed() {
		t.Errorf("%s %s:\n%s", what(traj), verdict(r.Status), strings.TrimRight(r.Explain(), "\n"))
	}
	return r
}

func what(traj *trajeval.Trajectory) string {
	if traj == nil || traj.ID == "" {
		return "the trajectory"
	}
	return fmt.Sprintf("trajectory %q", traj.ID)
}

func verdict(s trajeval.Status) string {
	if s == trajeval.StatusError {
		return "could not be scored"
	}
	return "failed"
}

// RunSuite loads the suite at path (a suite file, or a folder of them; see
// [trajeval.LoadSuite]) and runs it (see [trajeval.Suite.Run]) with opts,
// if given (at most one).
//
// The rules:
//  1. Every case is a subtest named by its case id, or by suite name/case
//     id when path holds several suites, so go test -run
//     'TestEvals/research' picks cases.
//  2. A case that fails fails its subtest with the explanation of every
//     evaluator; a case that could not be scored (no trace, an unreadable
//     trace, an evaluator that cannot run) fails it with the reason. The
//     case's warnings are logged.
//  3. A suite that does not load fails the test at once with every
//     configuration error; an error that stops the run fails the test
//     after the cases already run.
//
// Cases left out by -run are still scored (and a suite's target still
// runs for them); only their subtests are skipped.
func RunSuite(t *testing.T, path string, opts ...trajeval.RunOptions) {
	t.Helper()
	if len(opts) > 1 {
		t.Fatalf("RunSuite takes at most one trajeval.RunOptions, got %d", len(opts))
	}
	var o trajeval.RunOptions
	if len(opts) == 1 {
		o = opts[0]
	}
	s, err := trajeval.LoadSuite(path)
	if err != nil {
		t.Fatalf("%s does not load:\n%v", path, err)
	}
	for _, w := range s.Warnings {
		t.Logf("warning: %s", w)
	}
	warn := o.Warn
	o.Warn = func(w trajeval.Warning) {
		t.Logf("warning: %s", w)
		if warn != nil {
			warn(w)
		}
	}
	several := severalSuites(s)
	for r, err := range s.Run(t.Context(), o) {
		if err != nil {
			t.Errorf("the run of %s stopped: %v", path, err)
			return
		}
		name := r.ID
		if several {
			name = r.Suite + "/" + r.ID
		}
		t.Run(name, func(t *testing.T) {
			for _, w := range r.Warnings {
				t.Logf("warning: %s", w)
			}
			if !r.Passed() {
				t.Error(strings.TrimRight(r.Explain(), "\n"))
			}
		})
	}
}

func severalSuites(s *trajeval.Suite) bool {
	for _, c := range s.Cases {
		if c.Suite != s.Cases[0].Suite {
			return true
		}
	}
	return false
}
