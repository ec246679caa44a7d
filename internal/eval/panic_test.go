package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
)

// derefError's Error method dereferences its receiver: a typed nil of it
// panics when it is written.
type derefError struct{ msg string }

func (e *derefError) Error() string { return e.msg }

func TestConfigured_Run_panics(t *testing.T) {
	tests := []struct {
		name   string
		ev     trajeval.EvaluatorFunc
		err    string // the start of the result's error
		reason string
	}{
		{"in Evaluate", func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) { panic("boom") },
			"evaluator failed: boom", "a panic in the evaluator is its error"},
		{"a typed nil error", func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
			var e *derefError
			return trajeval.Outcome{}, e
		}, "evaluator failed: its error cannot be written: ", "the error's Error method panics after the evaluator returned: still the evaluator's error, never the run's end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &eval.Configured{Name: "e", Type: "e", Required: true, Threshold: 1, Eval: tt.ev}
			r := c.Run(context.Background(), &trajeval.Trajectory{})
			if r.Status != trajeval.StatusError || !strings.HasPrefix(r.Error, tt.err) {
				t.Errorf("status %s, error %q; want error %q... (%s)", r.Status, r.Error, tt.err, tt.reason)
			}
		})
	}
}
