package uipath

import (
	"context"
	"fmt"

	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/score"
)

// Count is tool_call_count: constraints on how often each tool is called.
type Count struct {
	Constraints []Constraint
	Strict      bool
}

// A Constraint says that the count of Tool compared by Op with N holds.
type Constraint struct {
	Tool string
	Op   string // == != > < >= <=
	N    int64
}

// Holds reports whether a tool called got times meets c.
func (c Constraint) Holds(got int64) bool {
	switch c.Op {
	case "==":
		return got == c.N
	case "!=":
		return got != c.N
	case ">":
		return got > c.N
	case "<":
		return got < c.N
	case ">=":
		return got >= c.N
	case "<=":
		return got <= c.N
	}
	return false
}

// Ops are the comparison operators of a constraint; "=" is "==".
var Ops = []string{"=", "==", "!=", ">", "<", ">=", "<="}

// NewCount builds tool_call_count. It refuses an empty list, an empty
// tool name, an unknown operator and a negative count.
func NewCount(constraints []Constraint, strict bool) (*Count, error) {
	if len(constraints) == 0 {
		return nil, &OptionError{Index: -1, Msg: "the list of count constraints is empty"}
	}
	c := &Count{Strict: strict}
	for i, k := range constraints {
		switch {
		case k.Tool == "":
			return nil, &OptionError{Index: i, Msg: "the tool name is empty"}
		case !slices.Contains(Ops, k.Op):
			return nil, &OptionError{Index: i, Msg: fmt.Sprintf("unknown operator %q", k.Op), Hint: "one of = == != > < >= <="}
		case k.N < 0:
			return nil, &OptionError{Index: i, Msg: fmt.Sprintf("a count must not be negative, got %d", k.N)}
		}
		if k.Op == "=" {
			k.Op = "=="
		}
		c.Constraints = append(c.Constraints, k)
	}
	return c, nil
}

// ReadsText says that the evaluator may be handed arguments and results
// kept as JSON text (see eval.TextReader): it looks only at names.
func (*Count) ReadsText() bool { return true }

// Evaluate scores t.
func (c *Count) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	counts := map[string]int64{}
	for _, s := range t.Steps {
		counts[s.Name]++
	}
	d := newDetails(modeName(c.Strict, "fraction"))
	d.Expected, d.Actual = len(c.Constraints), len(t.Steps)
	for _, k := range c.Constraints {
		got := counts[k.Tool]
		ch := trajeval.Check{
			Name:    fmt.Sprintf("count(%s) %s %d", k.Tool, k.Op, k.N),
			Status:  trajeval.CheckFail,
			Message: "called " + plural.Count(got, "time", "times"),
		}
		if k.Holds(got) {
			ch.Status = trajeval.CheckPass
			d.Hits++
		}
		d.Checks = append(d.Checks, ch)
	}
	sc := score.Ratio(d.Hits, len(c.Constraints), 1)
	if c.Strict {
		sc = score.AllOrNothing(d.Hits, len(c.Constraints))
	}
	return trajeval.Outcome{Score: sc, Details: d}, nil
}
