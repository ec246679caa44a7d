// Package trajevaltest scores agent trajectories from Go tests.
//
// [Check] scores a trajectory with evaluators and fails the test with the
// explanation when it does not pass:
//
//	func TestResearch(t *testing.T) {
//		trajs, err := trace.ReadFile("testdata/run.json")
//		if err != nil {
//			t.Fatal(err)
//		}
//		trajevaltest.Check(t, trajs[0], evaluators...)
//	}
//
// [RunSuite] runs a suite file (AgentV YAML, an ADK eval set, a UiPath
// evaluation set, a τ²-bench task file, a BFCL possible-answer file) with
// every case a subtest, so that go test's -run picks cases:
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
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
	"github.com/trajeval/trajeval/suite"
)

// Check scores traj with evaluators (see [check.Evaluate]) and returns
// the result. Unless it passes, Check marks the test failed with
// t.Errorf, giving the trajectory's id and the explanation (the alignment
// of expected calls and steps, what is missing, what is extra, the
// argument paths that differ): the test goes on, so that one test may
// check several trajectories. An evaluator that cannot run fails the test
// too, with its reason.
func Check(t testing.TB, traj *trajeval.Trajectory, evaluators ...trajeval.Evaluator) trajeval.Result {
	t.Helper()
	r := check.Evaluate(context.Background(), traj, evaluators...)
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
// [suite.Load]) and runs it (see [suite.Suite.Run]) with opts,
// if given (at most one).
//
// The rules:
//  1. Every case is a subtest named by its case id, or by suite name/case
//     id when path holds several suites, so go test -run
//     'TestEvals/research' picks cases.
//  2. Only the cases that go test's -run and -skip pick are scored: the
//     others are not, and their suite's target does not run for them.
//  3. A case that fails fails its subtest with the explanation of every
//     evaluator; a case that could not be scored (no trace, an unreadable
//     trace, an evaluator that cannot run) fails it with the reason. The
//     case's warnings, and those of the run, are logged.
//  4. A suite that does not load fails the test at once with every
//     configuration error; an error that stops the run fails the test
//     after the cases already run.
func RunSuite(t *testing.T, path string, opts ...suite.RunOptions) {
	t.Helper()
	if len(opts) > 1 {
		t.Fatalf("RunSuite takes at most one suite.RunOptions, got %d", len(opts))
	}
	var o suite.RunOptions
	if len(opts) == 1 {
		o = opts[0]
	}
	s, err := suite.Load(path)
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
	name := func(suite, id string) string {
		if several {
			return suite + "/" + id
		}
		return id
	}
	only, picks := o.Only, picker(t.Name())
	wanted := func(c *suite.Case) bool { return only == nil || only(c) }
	o.Only = func(c *suite.Case) bool { return wanted(c) && picks(name(c.Suite, c.ID)) }
	type key struct{ suite, id string }
	ran := map[key]bool{}
	for r, err := range s.Run(t.Context(), o) {
		if err != nil {
			t.Errorf("the run of %s stopped: %v", path, err)
			return
		}
		ran[key{r.Suite, r.ID}] = true
		t.Run(name(r.Suite, r.ID), func(t *testing.T) { report(t, r) })
	}
	// The picker reads -run and -skip as go test does, but should it leave
	// out a case that go test picks, the case's subtest scores it alone.
	for _, c := range s.Cases {
		if ran[key{c.Suite, c.ID}] || !wanted(c) {
			continue
		}
		t.Run(name(c.Suite, c.ID), func(t *testing.T) {
			one := o
			one.Only = func(x *suite.Case) bool { return x.Suite == c.Suite && x.ID == c.ID }
			for r, err := range s.Run(t.Context(), one) {
				if err != nil {
					t.Errorf("the run of %s stopped: %v", path, err)
					return
				}
				report(t, r)
			}
		})
	}
}

// report fails t unless the case passed.
func report(t *testing.T, r trajeval.CaseResult) {
	for _, w := range r.Warnings {
		t.Logf("warning: %s", w)
	}
	if !r.Passed() {
		t.Error(strings.TrimRight(r.Explain(), "\n"))
	}
}

func severalSuites(s *suite.Suite) bool {
	for _, c := range s.Cases {
		if c.Suite != s.Cases[0].Suite {
			return true
		}
	}
	return false
}

// picker returns whether go test's -run and -skip flags pick the subtest
// name of the test called parent, read as go test reads them: each
// pattern is split at its slashes outside brackets and parentheses, and
// each part must match the name's part at its level. When the flags
// cannot be read, it picks every name.
func picker(parent string) func(name string) bool {
	run, skip := patterns("test.run"), patterns("test.skip")
	return func(name string) bool {
		name = strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return '_' // as go test names subtests
			}
			return r
		}, name)
		parts := strings.Split(parent+"/"+name, "/")
		if run != nil {
			if ok, _ := matches(run, parts); !ok {
				return false
			}
		}
		if skip != nil {
			if ok, partial := matches(skip, parts); ok && !partial {
				return false
			}
		}
		return true
	}
}

// matches reports whether each part of name matches its pattern, and
// whether the name has fewer parts than the patterns.
func matches(pats []*regexp.Regexp, parts []string) (ok, partial bool) {
	for i, p := range parts {
		if i >= len(pats) {
			break
		}
		if !pats[i].MatchString(p) {
			return false, false
		}
	}
	return true, len(parts) < len(pats)
}

// patterns returns the parts of the pattern of a go test flag, or nil
// when it is not set or not understood.
func patterns(flagName string) []*regexp.Regexp {
	f := flag.Lookup(flagName)
	if f == nil || f.Value.String() == "" {
		return nil
	}
	var out []*regexp.Regexp
	for _, p := range splitPattern(f.Value.String()) {
		rx, err := regexp.Compile(p)
		if err != nil {
			return nil
		}
		out = append(out, rx)
	}
	return out
}

// splitPattern splits a pattern at its slashes outside brackets and
// parentheses.
func splitPattern(s string) []string {
	var parts []string
	depth, inClass, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '/' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}
