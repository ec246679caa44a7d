package uipath

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsCount() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "tool_call_count",
		Aliases:   []string{"uipath-tool-call-count"},
		Keys:      []string{"tool_calls_count", "strict"},
		Threshold: 1,
		Build:     buildCount,
	})
	return out
}

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

var ops = []string{"=", "==", "!=", ">", "<", ">=", "<="}

func buildCount(n *config.Node, _ *eval.Env) (trajeval.Evaluator, error) {
	v, err := required(n, "tool_calls_count")
	if err != nil {
		return nil, err
	}
	entries, err := v.MapEntries()
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, v.Errorf("tool_calls_count is empty").With(`give at least one constraint, e.g. search: [">=", 1]`)
	}
	c := &Count{}
	for _, e := range entries {
		k, err := constraint(e.Key, e.Value)
		if err != nil {
			return nil, err
		}
		c.Constraints = append(c.Constraints, k)
	}
	if c.Strict, err = boolKey(n, "strict"); err != nil {
		return nil, err
	}
	return c, nil
}

func constraint(tool string, v *config.Node) (Constraint, error) {
	k := Constraint{Tool: tool, Op: "=="}
	num := v
	switch v.Kind {
	case config.Number:
	case config.List:
		if len(v.Items) != 2 {
			return k, v.Errorf("a count constraint is [operator, number], got %d items", len(v.Items)).With(`e.g. [">=", 1]`)
		}
		op, err := v.Items[0].Str()
		if err != nil {
			return k, err
		}
		if !contains(ops, op) {
			return k, v.Items[0].Errorf("unknown operator %q", op).With("one of = == != > < >= <=")
		}
		if op != "=" {
			k.Op = op
		}
		num = v.Items[1]
	default:
		return k, v.Errorf("a count constraint is [operator, number], got %s", v.Kind).With(`e.g. [">=", 1]`)
	}
	n, err := num.Int()
	if err != nil {
		return k, err
	}
	if n < 0 {
		return k, num.Errorf("a count must not be negative, got %d", n)
	}
	k.N = n
	return k, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

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
			Message: fmt.Sprintf("called %d %s", got, times(got)),
		}
		if k.Holds(got) {
			ch.Status = trajeval.CheckPass
			d.Hits++
		}
		d.Checks = append(d.Checks, ch)
	}
	score := float64(d.Hits) / float64(len(c.Constraints))
	if c.Strict {
		score = binary(d.Hits, len(c.Constraints))
	}
	return trajeval.Outcome{Score: score, Details: d}, nil
}

func times(n int64) string {
	if n == 1 {
		return "time"
	}
	return "times"
}
