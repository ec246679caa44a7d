package composite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
)

// TestComposite_requiredMember: in all_pass, a member marked required:
// false may fail without failing the composite; its failure still shows
// in the score.
func TestComposite_requiredMember(t *testing.T) {
	c, err := build(t, `type: composite
aggregator: all_pass
evaluators:
  - {name: order, type: tool_trajectory, mode: in_order, expected: [search, answer]}
  - {name: depth, type: tool_trajectory, minimums: {read: 2}, required: false}
`)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run(context.Background(), trajectory("search", "read", "answer"))
	if r.Score != 0.5 || r.Status != trajeval.StatusPass {
		t.Errorf("score %v %s, want 0.5 pass: depth fails but is not required", r.Score, r.Status)
	}
}

// TestComposite_unusedMemberSettings: a member setting the aggregator
// would not use is a configuration error at its place, never ignored.
func TestComposite_unusedMemberSettings(t *testing.T) {
	tests := []struct {
		name, yaml, want, reason string
	}{
		{"required in weighted_average", "evaluators:\n  - {name: a, type: tool_trajectory, expected: [a], required: false}\n",
			"c.yaml:3:63: evaluators[0].required: required has no effect on a member of a weighted_average composite", "the member counts through its score alone"},
		{"weight in min", "aggregator: min\nevaluators:\n  - {name: a, type: tool_trajectory, expected: [a], weight: 2}\n",
			"c.yaml:4:61: evaluators[0].weight: weight has no effect on a member of a min composite", "min takes the lowest score, whatever the weights"},
		{"weight twice", "aggregator: {weights: {a: 2}}\nevaluators:\n  - {name: a, type: tool_trajectory, expected: [a], weight: 3}\n",
			"the weight of a is given both here and in aggregator.weights", "one of them would be ignored"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build(t, "type: composite\n"+tc.yaml)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q: %s", err, tc.want, tc.reason)
			}
		})
	}
}
