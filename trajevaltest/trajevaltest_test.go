package trajevaltest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/suite"
	"github.com/trajeval/trajeval/trace"
	"github.com/trajeval/trajeval/trajevaltest"
)

// fakeTB records what a test would report.
type fakeTB struct {
	testing.TB
	errors []string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	panic("Check must not stop the test: " + fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	trajs, err := trace.ReadFile("testdata/research.traces.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load("testdata/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	workflow := s.Cases[0].Evaluators
	broken := trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{}, errors.New("the judge is down")
	})
	tests := []struct {
		name       string
		traj       *trajeval.Trajectory
		evaluators []trajeval.Evaluator
		want       []string // in the one failure message; none: no failure
		reason     string
	}{
		{"pass", trajs[0], workflow, nil, "a passing trajectory reports nothing"},
		{"fail", trajs[1], workflow, []string{
			`trajectory "research-rust" failed:`,
			"✗ workflow  tool_trajectory in_order  0.00 < 1.00",
			`1 search                       ✗ near miss: step 1 search, args.query: expected {"$regex":"(?i)python"}, got "rust"`,
			"3 synthesize                   ✗ missing",
		}, "a failure gives the alignment, what is missing and the argument paths that differ"},
		{"error", nil, []trajeval.Evaluator{broken}, []string{
			"the trajectory could not be scored:",
			"error: the judge is down",
		}, "an evaluator that cannot run fails the test with its reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTB{TB: t}
			r := trajevaltest.Check(f, tt.traj, tt.evaluators...)
			if len(tt.want) == 0 {
				if len(f.errors) > 0 || !r.Passed() {
					t.Errorf("reported %q for %s: %s", f.errors, r.Status, tt.reason)
				}
				return
			}
			if len(f.errors) != 1 {
				t.Fatalf("%d failures reported, want 1: %s", len(f.errors), tt.reason)
			}
			for _, w := range tt.want {
				if !strings.Contains(f.errors[0], w) {
					t.Errorf("failure message lacks %q: %s\n%s", w, tt.reason, f.errors[0])
				}
			}
		})
	}
}

// TestEvals is run by TestRunSuite in a child process: its cases fail on
// purpose.
func TestEvals(t *testing.T) {
	if os.Getenv("TRAJEVALTEST_CHILD") == "" {
		t.Skip("run by TestRunSuite")
	}
	trajevaltest.RunSuite(t, os.Getenv("TRAJEVALTEST_CHILD"))
}

func TestRunSuite(t *testing.T) {
	tests := []struct {
		name, suite, run string
		want, not        []string
		reason           string
	}{
		{"every case", "testdata/research.yaml", "TestEvals", []string{
			"--- PASS: TestEvals/research-python",
			"--- FAIL: TestEvals/research-rust",
			"FAIL  research-rust  score 0.00  (research)",
			"3 synthesize                   ✗ missing",
		}, nil, "every case is a subtest; a failing one gives its explanation"},
		{"one case", "testdata/research.yaml", "TestEvals/research-python", []string{
			"--- PASS: TestEvals/research-python",
		}, []string{"research-rust"}, "-run picks a case by its id"},
		{"picked scored", "testdata/picked.yaml", "TestEvals", []string{
			"--- PASS: TestEvals/clean",
			"--- PASS: TestEvals/noisy",
			`message role "" is not known`,
		}, nil, "a picked case is scored: reading its trace warns"},
		{"others not scored", "testdata/picked.yaml", "TestEvals/clean", []string{
			"--- PASS: TestEvals/clean",
		}, []string{"noisy", "message role"}, "a case -run leaves out is not scored: its trace is not even read"},
		{"skip", "testdata/picked.yaml", "TestEvals", []string{
			"--- PASS: TestEvals/clean",
		}, []string{"noisy", "message role"}, "a case -skip leaves out is not scored"},
		{"picked by go test alone", "testdata/fallback.yaml", `TestEvals/ctl\\x01here`, []string{
			`--- PASS: TestEvals/ctl\x01here`,
		}, []string{"noisy"}, "a case go test picks is scored even when the picker guesses otherwise"},
		{"no trace", "testdata/notrace.yaml", "TestEvals", []string{
			"--- FAIL: TestEvals/lost",
			`ERROR lost  score 0.00  (notrace)`,
			"no reader recognises",
		}, nil, "a case that cannot be scored fails its subtest with the reason"},
		{"missing traces file", "testdata/missing.yaml", "TestEvals", []string{
			"--- FAIL: TestEvals ",
			"missing.yaml:2:9: traces: traces file none.jsonl cannot be read: no such file or directory",
		}, nil, "a traces file that is not there is a mistake in the suite: the test fails before any case"},
		{"broken suite", "testdata/broken.yaml", "TestEvals", []string{
			"--- FAIL: TestEvals ",
			`broken.yaml:5:13: execution.evaluators[0].type: unknown evaluator type "tool_trajectroy"`,
		}, nil, "a suite that does not load fails the test with its errors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^"+strings.ReplaceAll(tt.run, "/", "$/^")+"$", "-test.v")
			if tt.name == "skip" {
				cmd.Args = append(cmd.Args, "-test.skip", "TestEvals/noisy")
			}
			cmd.Env = append(os.Environ(), "TRAJEVALTEST_CHILD="+tt.suite)
			out, _ := cmd.CombinedOutput()
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q: %s\n%s", w, tt.reason, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(string(out), n) {
					t.Errorf("output has %q: %s\n%s", n, tt.reason, out)
				}
			}
		})
	}
}
