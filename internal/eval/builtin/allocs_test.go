package builtin_test

import (
	"context"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// maxAllocs bounds the allocations of scoring the benchmark trajectory
// once, for the evaluators whose scoring reuses its memory from case to
// case: each bound is well under what the evaluator took when it
// allocated its alignment, its relation and its indexes afresh for every
// case (in brackets). Matching arguments allocates nothing (see
// argmatch's TestMatcher_Match_allocs), so the modes that match them are
// bounded as tightly as those that do not.
var maxAllocs = map[string]float64{
	"tool_trajectory/exact":      10,  // (41)
	"tool_trajectory/strict":     10,  // (41)
	"tool_trajectory/in_order":   10,  // (64; 28 before argument matching stopped allocating)
	"tool_trajectory/superset":   10,  // (121; 28)
	"tool_trajectory/precision":  20,  // (125; 53)
	"execution_metrics":          12,  // (38)
	"composite":                  20,  // (48)
	"tool_call_order":            35,  // (59)
	"tool_call_args":             25,  // (131; 38)
	"tool_call_output":           20,  // (51)
	"tool_trajectory_avg_score":  45,  // (100)
	"bfcl_ast":                   400, // (1,020)
	"trajectory_any_order_match": 50,  // (128)
	"trajectory_single_tool_use": 10,  // (45)
}

// TestEvaluator_allocs keeps scoring a case from allocating what it can
// reuse: a regression here costs every case of every run.
func TestEvaluator_allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector empties pools at random")
	}
	tr := benchTrajectory()
	ctx := context.Background()
	found := 0
	for _, e := range benchEvaluators {
		limit, ok := maxAllocs[e.name]
		if !ok {
			continue
		}
		found++
		t.Run(e.name, func(t *testing.T) {
			node, err := config.Parse("bench.yaml", []byte(e.yaml))
			if err != nil {
				t.Fatal(err)
			}
			c, err := spec.Build(node, &spec.Env{Types: builtin.Types()})
			if err != nil {
				t.Fatal(err)
			}
			c.Run(ctx, tr)
			if n := testing.AllocsPerRun(50, func() { c.Run(ctx, tr) }); n > limit {
				t.Errorf("%v allocations a case, want at most %v", n, limit)
			}
		})
	}
	if found != len(maxAllocs) {
		t.Errorf("%d of the %d bounded evaluators are in benchEvaluators", found, len(maxAllocs))
	}
}
