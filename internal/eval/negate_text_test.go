package eval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

// TestConfigured_Run_negatedText: arguments kept as JSON text that does
// not decode (put there by hand: a reader's text always does) match no
// expected call of the engine's argument matchers, a lower score; a
// negated evaluator would make that a pass. So a negated evaluator is
// handed the trajectory decoded, and such text is its error row.
func TestConfigured_Run_negatedText(t *testing.T) {
	e, err := trajectory.New(trajectory.Options{Expected: []trajeval.ExpectedCall{{Tool: "delete", Args: map[string]any{"id": "doc-1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		negate bool
		args   json.RawMessage
		want   trajeval.Status
		reads  bool
		reason string
	}{
		{"negated, broken text", true, json.RawMessage(`{"id": "doc-1"`), trajeval.StatusError, false, "never a pass for want of a value"},
		{"negated, text", true, json.RawMessage(`{"id": "doc-1"}`), trajeval.StatusFail, false, "the call is made: not made fails"},
		{"negated, another call", true, json.RawMessage(`{"id": "doc-2"}`), trajeval.StatusPass, false, "another document"},
		{"not negated, text", false, json.RawMessage(`{"id": "doc-1"}`), trajeval.StatusPass, true, "read as text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &eval.Configured{Name: "no-delete", Type: "tool_trajectory", Threshold: 1, Weight: 1, Negate: tt.negate, Eval: e}
			tr := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Name: "delete", Args: tt.args}}}
			tr.Finish()
			r := c.Run(context.Background(), tr)
			if r.Status != tt.want || tt.want == trajeval.StatusError && !strings.Contains(r.Error, "arguments or results") {
				t.Errorf("status %s (%q), want %s: %s", r.Status, r.Error, tt.want, tt.reason)
			}
			if got := c.ReadsText(); got != tt.reads {
				t.Errorf("ReadsText = %v, want %v: %s", got, tt.reads, tt.reason)
			}
		})
	}
}
