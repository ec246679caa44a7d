package eval_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
)

// failing is an evaluator that cannot run for n reasons at once.
type failing int

func (f failing) Evaluate(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
	var errs []error
	for i := range int(f) {
		errs = append(errs, fmt.Errorf("problem %d", i+1))
	}
	return trajeval.Outcome{}, errors.Join(errs...)
}

func TestConfigured_Run_severalErrors(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		lines   []string // of the result's error
		explain string   // a part of the explanation
		reason  string
	}{
		{"one", 1, []string{"problem 1"}, "    error: problem 1\n", "one error, one line"},
		{"three", 3, []string{"problem 1", "problem 2", "problem 3"}, "    error: problem 1\n           problem 2\n           problem 3\n",
			"each on its own line, the explanation hanging them under the first"},
		{"bounded", 12, []string{"problem 1", "problem 2", "problem 3", "problem 4", "problem 5", "problem 6", "problem 7", "problem 8", "problem 9", "problem 10", "and 2 more errors"},
			"           and 2 more errors\n", "ten at most, then how many more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &eval.Configured{Name: "e", Type: "e", Required: true, Threshold: 1, Eval: failing(tt.n)}
			r := c.Run(context.Background(), &trajeval.Trajectory{})
			if r.Status != trajeval.StatusError {
				t.Fatalf("status %s, want error", r.Status)
			}
			if got := strings.Split(r.Error, "\n"); strings.Join(got, "|") != strings.Join(tt.lines, "|") {
				t.Errorf("error lines %q, want %q: %s", got, tt.lines, tt.reason)
			}
			if ex := r.Explain(); !strings.Contains(ex, tt.explain) {
				t.Errorf("Explain:\n%s\nwant it to contain %q: %s", ex, tt.explain, tt.reason)
			}
		})
	}
}
