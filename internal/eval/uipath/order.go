package uipath

import (
	"context"
	"slices"

	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsOrder() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_call_order",
		Aliases:   []string{"uipath-tool-call-order"},
		Keys:      []string{"tool_calls_order", "strict"},
		Threshold: 1,
		Build:     buildOrder,
	})
	return out
}

// Order is tool_call_order: expected names in order, scored by LCS or,
// when strict, by identity.
type Order struct {
	Expected []string
	Strict   bool
}

func buildOrder(n *config.Node, _ *eval.Env) (trajeval.Evaluator, error) {
	v, err := required(n, "tool_calls_order")
	if err != nil {
		return nil, err
	}
	if _, err := nonEmptyList(v, "tool_calls_order", "tool name"); err != nil {
		return nil, err
	}
	o := &Order{}
	if o.Expected, err = v.Strings(); err != nil {
		return nil, err
	}
	if o.Strict, err = boolKey(n, "strict"); err != nil {
		return nil, err
	}
	return o, nil
}

// Evaluate scores t.
func (o *Order) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	actual := t.Names()
	items := calls.Names(o.Expected)
	a := align.InOrder(calls.Relate(items, t.Steps))
	lcs := make([]string, len(a.Pairs))
	for k, p := range a.Pairs {
		lcs[k] = o.Expected[p.Item]
	}
	d := newDetails(modeName(o.Strict, "lcs"))
	calls.Explain(d, items, t.Steps, a, calls.Ordered)
	d.Notes = map[string]any{"actual": nonNil(actual), "expected": o.Expected, "lcs": lcs}
	var score float64
	switch {
	case o.Strict:
		if slices.Equal(actual, o.Expected) {
			score = 1
		}
	case len(actual) == 0:
		score = 0
	default:
		score = float64(len(lcs)) / float64(len(o.Expected))
	}
	return trajeval.Outcome{Score: score, Details: d}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
