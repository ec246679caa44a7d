package rules_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/rules"
)

// BenchmarkEvaluate scores 10,000 steps with ten rules, one of them a
// pattern, and one with an argument condition.
func BenchmarkEvaluate(b *testing.B) {
	names := []string{"search", "read", "read", "edit", "test"}
	tr := &trajeval.Trajectory{}
	for i := range 10000 {
		tr.Steps = append(tr.Steps, trajeval.Step{Index: i + 1, Turn: 1 + i/1000, Name: names[i%len(names)],
			Args: map[string]any{"id": json.Number("7"), "q": "x"}})
	}
	e, err := rules.New(rules.Options{Rules: []rules.Rule{
		{Kind: rules.Never, Tool: rules.Tool{Name: "delete"}},
		{Kind: rules.AtMost, Tool: rules.Tool{Name: "search"}, N: 5000},
		{Kind: rules.AtLeast, Tool: rules.Tool{Name: "read", Args: map[string]any{"id": map[string]any{"$lt": json.Number("10")}}}, N: 1},
		{Kind: rules.Before, Tool: rules.Tool{Name: "search"}, Then: rules.Tool{Name: "read"}},
		{Kind: rules.After, Tool: rules.Tool{Name: "edit"}, Then: rules.Tool{Name: "test"}},
		{Kind: rules.ImmediatelyAfter, Tool: rules.Tool{Name: "edit"}, Then: rules.Tool{Name: "test"}},
		{Kind: rules.Within, Tool: rules.Tool{Name: "edit"}, Then: rules.Tool{Name: "test"}, N: 2},
		{Kind: rules.First, Tool: rules.Tool{Name: "search"}},
		{Kind: rules.NoRepeat, Tool: rules.Tool{Name: "read"}},
		{Kind: rules.Pattern, Pattern: "(search read{1,3} (edit test)?)+ | .* delete .*"},
	}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		out, err := e.Evaluate(ctx, tr)
		if err != nil || out.Details.Hits != 9 {
			b.Fatalf("%v %+v", err, out.Details)
		}
	}
}
