package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/trace"
	"github.com/trajeval/trajeval/trajevaltest"
)

// TestResearch scores a recorded run with expectations written in Go.
func TestResearch(t *testing.T) {
	runs, err := trace.ReadFile("testdata/research.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range runs {
		trajevaltest.Check(t, run,
			Workflow(),
			check.AnyOrder(check.Minimum("read_document", 2)),
		)
	}
}

// TestEvals runs the YAML suite: each case is a subtest, so
// go test -run 'TestEvals/python-history' picks one.
func TestEvals(t *testing.T) {
	trajevaltest.RunSuite(t, "testdata/suite.yaml")
}

// TestDeliberatelyFailing expects a call the agent never made. It runs only
// when TestFailureExplains asks for it, to show what a failure prints.
func TestDeliberatelyFailing(t *testing.T) {
	if os.Getenv("AGENT_EVALS_SHOW_FAILURE") == "" {
		t.Skip("run by TestFailureExplains")
	}
	runs, err := trace.ReadFile("testdata/research.json")
	if err != nil {
		t.Fatal(err)
	}
	trajevaltest.Check(t, runs[0], check.Exact(
		check.Call("search", check.Args{"query": check.Regex("(?i)rust")}),
		check.Call("cite_sources"),
	))
}

// TestFailureExplains runs TestDeliberatelyFailing in a child process and
// checks that the failure prints the alignment: the missing calls, the
// near miss with its argument difference, and the extra calls.
func TestFailureExplains(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeliberatelyFailing$", "-test.v")
	cmd.Env = append(os.Environ(), "AGENT_EVALS_SHOW_FAILURE=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the deliberately failing test passed:\n%s", out)
	}
	for _, want := range []string{"--- FAIL: TestDeliberatelyFailing", "missing", "cite_sources", "args.query", "extra"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the failure output does not mention %q:\n%s", want, out)
		}
	}
}
