package composite_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func trajectory(names ...string) *trajeval.Trajectory {
	t := &trajeval.Trajectory{}
	for _, n := range names {
		t.Steps = append(t.Steps, trajeval.Step{Name: n, Args: map[string]any{}})
	}
	t.Finish()
	return t
}

func build(t *testing.T, yaml string) (*eval.Configured, error) {
	t.Helper()
	n, err := config.Parse("c.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return spec.Build(n, &spec.Env{Types: builtin.Types()})
}

const members = `
evaluators:
  - {name: order, type: tool_trajectory, mode: in_order, expected: [search, answer]}
  - {name: depth, type: tool-trajectory, mode: any_order, minimums: {read: 2}}
`

func TestComposite(t *testing.T) {
	tests := []struct {
		name, aggregator string
		score            float64
		pass             bool
		reason           string
	}{
		{"weighted by member name", "aggregator: {type: weighted_average, weights: {order: 0.4, depth: 0.6}}", 0.4, false, "order 1 × 0.4 + depth 0 × 0.6"},
		{"default weights", "", 0.5, false, "equal weights"},
		{"min", "aggregator: min", 0, false, "the lowest member"},
		{"all_pass", "aggregator: {type: all_pass}", 0.5, false, "half the members pass; all must"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := build(t, "type: composite\n"+tc.aggregator+"\n"+strings.TrimPrefix(members, "\n"))
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), trajectory("search", "read", "answer"))
			if math.Abs(r.Score-tc.score) > 1e-9 || (r.Status == trajeval.StatusPass) != tc.pass {
				t.Errorf("score %v status %s, want %v pass=%v: %s", r.Score, r.Status, tc.score, tc.pass, tc.reason)
			}
			if len(r.Members) != 2 {
				t.Errorf("members %d, want both results nested", len(r.Members))
			}
		})
	}
	c, err := build(t, "type: composite\naggregator: all_pass\n"+members)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Run(context.Background(), trajectory("search", "read", "read", "answer")); r.Status != trajeval.StatusPass || r.Score != 1 {
		t.Errorf("all members pass: %s %v", r.Status, r.Score)
	}
}

func TestComposite_ConfigErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"unknown member weight", "type: composite\naggregator: {weights: {ordr: 1}}\n" + members, `did you mean "order"`},
		{"no members", "type: composite", "no members"},
		{"bad aggregator", "type: composite\naggregator: average\n" + members, "unknown value"},
		{"member type typo", "type: composite\nevaluators: [{name: a, type: tool_trajectorie, expected: [x]}]", `did you mean "tool_trajectory"`},
		{"duplicate members", "type: composite\nevaluators: [{name: a, type: tool_trajectory, expected: [x]}, {name: a, type: tool_trajectory, expected: [y]}]", `two evaluators are named "a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build(t, tc.yaml)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
