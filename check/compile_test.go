package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
)

func TestCompile(t *testing.T) {
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		err    string // in the error; "" when it compiles
		reason string
	}{
		{"valid", check.InOrder(check.Call("search")), "", "nothing to report"},
		{"invalid regular expression", check.InOrder(check.Call("search", check.Args{"q": check.Regex("(")})), "missing closing )", "reported when built, not when run"},
		{"empty tool name", check.AnyOrder(check.Call("")), "tool_trajectory", "the error names the evaluator"},
		{"option not taken", check.Subset(check.Minimum("a", 1)), "tool_trajectory", "an option the evaluator would ignore"},
		{"nil", nil, "nil evaluator", "nothing to run is a setting error"},
		{"made elsewhere", trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
			return trajeval.Outcome{Score: 1}, nil
		}), "", "taken as it is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := check.Compile(tt.ev)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("Compile: %v (%s)", err, tt.reason)
			case tt.err != "" && err == nil:
				t.Fatalf("Compile succeeded, want an error with %q (%s)", tt.err, tt.reason)
			case tt.err != "":
				if !strings.Contains(err.Error(), tt.err) || !errors.Is(err, check.ErrSetting) {
					t.Errorf("Compile: %v, want an ErrSetting with %q (%s)", err, tt.err, tt.reason)
				}
				if c != nil {
					t.Errorf("Compile returned a Check with its error")
				}
			}
		})
	}
}

func TestMustCompile(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "missing closing )") {
			t.Errorf("MustCompile of an invalid pattern: recovered %v, want a panic naming the error", r)
		}
	}()
	check.MustCompile(check.InOrder(check.Call("a", check.Args{"q": check.Regex("(")})))
}

func TestCheck_Run(t *testing.T) {
	c := check.MustCompile(check.InOrder(check.Call("search"), check.Call("publish")))
	tests := []struct {
		name   string
		t      *trajeval.Trajectory
		pass   bool
		score  float64
		says   string
		reason string
	}{
		{"half", research(), false, 0.5, "publish", "the explanation names the missing call"},
		{"nil trajectory", nil, false, 0, "search", "scored as an empty one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.Run(context.Background(), tt.t)
			if r.Passed() != tt.pass || r.Score != tt.score || r.Type != "tool_trajectory" {
				t.Errorf("passed %v, score %v, type %q; want %v, %v, tool_trajectory (%s)", r.Passed(), r.Score, r.Type, tt.pass, tt.score, tt.reason)
			}
			if !strings.Contains(r.Explain(), tt.says) {
				t.Errorf("Explain() = %q, want it to mention %q (%s)", r.Explain(), tt.says, tt.reason)
			}
		})
	}
	// A Check is an evaluator: the same verdict through check.Evaluate.
	if r := check.Evaluate(context.Background(), research(), c); r.Score != 0.5 || r.Type != "tool_trajectory" {
		t.Errorf("check.Evaluate of a Check: score %v, type %q", r.Score, r.Type)
	}
}
