package rules_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/rules"
)

// TestEvaluator_Evaluate_badText: arguments kept as JSON text that does
// not decode (put there by hand: a reader's text always decodes) are an
// error where a rule looks at them, as they are for an evaluator handed
// the trajectory decoded, never a rule that holds because the text
// matched nothing.
func TestEvaluator_Evaluate_badText(t *testing.T) {
	bad := json.RawMessage(`{"id": "doc-1"`)
	good := json.RawMessage(`{"id": "doc-1"}`)
	tests := []struct {
		name   string
		rule   rules.Rule
		args   json.RawMessage // of both delete steps
		want   string          // the status; an error holds "arguments"
		reason string
	}{
		{"never, broken text", rules.Rule{Kind: rules.Never, Tool: rules.Tool{Name: "delete", Args: map[string]any{"id": "doc-1"}}}, bad, "error",
			"a never rule would hold: the text matched no pattern"},
		{"never, text", rules.Rule{Kind: rules.Never, Tool: rules.Tool{Name: "delete", Args: map[string]any{"id": "doc-1"}}}, good, "fail", "the text decoded"},
		{"no_repeat, broken text", rules.Rule{Kind: rules.NoRepeat, Tool: rules.Tool{Name: "delete"}}, bad, "error",
			"the repeat would go unseen: broken text equals nothing"},
		{"no_repeat, text", rules.Rule{Kind: rules.NoRepeat, Tool: rules.Tool{Name: "delete"}}, good, "fail", "the same arguments twice"},
		{"pattern, broken text", rules.Rule{Kind: rules.Pattern, Pattern: "del", Where: map[string]rules.Tool{"del": {Name: "delete", Args: map[string]any{"id": "doc-2"}}}}, bad, "error",
			"the pattern's item would not match, for want of a value"},
		{"at_most, broken text of another tool", rules.Rule{Kind: rules.AtMost, N: 1, Tool: rules.Tool{Name: "search", Args: map[string]any{"q": "x"}}}, bad, "pass",
			"the rule looks at no argument of delete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := rules.New(rules.Options{Rules: []rules.Rule{tt.rule}})
			if err != nil {
				t.Fatal(err)
			}
			tr := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Name: "delete", Args: tt.args}, {Name: "delete", Args: tt.args}}}
			tr.Finish()
			c := &eval.Configured{Name: "rules", Type: "tool_rules", Threshold: 1, Weight: 1, Eval: e}
			r := c.Run(context.Background(), tr)
			if string(r.Status) != tt.want || tt.want == "error" && !strings.Contains(r.Error, "arguments") {
				t.Errorf("status %s (%q), want %s: %s", r.Status, r.Error, tt.want, tt.reason)
			}
		})
	}
}
