package eval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
)

// argsType is an evaluator that scores 1 when the first step's
// arguments are a decoded object; textArgs is the same saying it reads
// text itself (eval.TextReader).
type argsType struct{}

func (argsType) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	if _, ok := t.Steps[0].Args.(map[string]any); ok {
		return trajeval.Outcome{Score: 1}, nil
	}
	return trajeval.Outcome{}, nil
}

type textArgs struct{ argsType }

func (textArgs) ReadsText() {}

func TestConfigured_Run_text(t *testing.T) {
	traj := func(args json.RawMessage) *trajeval.Trajectory {
		return &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "a", Args: args}}}
	}
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		args   json.RawMessage
		status trajeval.Status
		score  float64
		reason string
	}{
		{"decoded for it", argsType{}, json.RawMessage(`{"a": 1}`), trajeval.StatusPass, 1, "an evaluator that does not read text is handed values"},
		{"text for a reader", textArgs{}, json.RawMessage(`{"a": 1}`), trajeval.StatusFail, 0, "a TextReader is handed the text as it is"},
		{"broken text", argsType{}, json.RawMessage(`{"a": `), trajeval.StatusError, 0, "text that does not decode is an error, never a score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &eval.Configured{Name: "x", Threshold: 1, Weight: 1, Required: true, Eval: tt.ev}
			in := traj(tt.args)
			r := c.Run(context.Background(), in)
			if r.Status != tt.status || r.Score != tt.score {
				t.Errorf("status %s, score %v (%s); want %s, %v: %s", r.Status, r.Score, r.Error, tt.status, tt.score, tt.reason)
			}
			if tt.status == trajeval.StatusError && !strings.Contains(r.Error, "arguments or results") {
				t.Errorf("error %q does not say what could not be read", r.Error)
			}
			if _, ok := in.Steps[0].Args.(json.RawMessage); !ok {
				t.Errorf("the trajectory handed in was changed")
			}
		})
	}
}
