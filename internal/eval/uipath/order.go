package uipath

import (
	"context"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/score"
)

// Order is tool_call_order: expected names in order, scored by LCS or,
// when strict, by identity.
type Order struct {
	Expected []string
	Strict   bool
}

// NewOrder builds tool_call_order. It refuses an empty list and an empty
// name.
func NewOrder(expected []string, strict bool) (*Order, error) {
	if len(expected) == 0 {
		return nil, &OptionError{Index: -1, Msg: "the list of tool names is empty"}
	}
	for i, n := range expected {
		if n == "" {
			return nil, &OptionError{Index: i, Msg: "the tool name is empty"}
		}
	}
	return &Order{Expected: expected, Strict: strict}, nil
}

// ReadsText says that the evaluator may be handed arguments and results
// kept as JSON text (see eval.TextReader): it looks only at names.
func (*Order) ReadsText() bool { return true }

// Evaluate scores t.
func (o *Order) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	actual := t.Names()
	items := calls.Names(o.Expected)
	lcs, a := calls.Subsequence(o.Expected, items, t.Steps)
	d := newDetails(modeName(o.Strict, "lcs"))
	calls.Explain(d, items, t.Steps, a, calls.Ordered)
	d.Notes = map[string]any{"actual": nonNil(actual), "expected": o.Expected, "lcs": lcs}
	var sc float64
	switch {
	case o.Strict:
		sc = score.Bool(slices.Equal(actual, o.Expected))
	case len(actual) == 0:
		sc = 0
	default:
		sc = score.Ratio(len(lcs), len(o.Expected), 0)
	}
	return trajeval.Outcome{Score: sc, Details: d}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
