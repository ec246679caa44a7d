package bfcl_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/bfcl"
)

func ExampleNew() {
	fns, _ := bfcl.ParseFunctions([]any{map[string]any{
		"name": "get_weather",
		"parameters": map[string]any{
			"properties": map[string]any{"city": map[string]any{"type": "string"}, "unit": map[string]any{"type": "string"}},
			"required":   []any{"city"},
		},
	}})
	gt, _ := bfcl.ParseGroundTruth([]any{
		map[string]any{"get_weather": map[string]any{"city": []any{"Paris"}, "unit": []any{"", "celsius", "fahrenheit"}}},
		map[string]any{"get_weather": map[string]any{"city": []any{"Paris"}, "unit": []any{"celsius"}}},
	})
	run := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Index: 1, Name: "get_weather", Args: map[string]any{"city": "paris", "unit": "celsius"}},
		{Index: 2, Name: "get_weather", Args: map[string]any{"city": "Paris", "unit": "fahrenheit"}},
	}}
	for _, m := range []bfcl.Matching{bfcl.Official, bfcl.Optimal} {
		c, err := bfcl.New(bfcl.Options{Category: "parallel", Functions: fns, GroundTruth: gt, Matching: m})
		if err != nil {
			fmt.Println(err)
			return
		}
		out, _ := c.Evaluate(context.Background(), run)
		fmt.Println(m, out.Score, out.Details.Notes["error_type"])
	}
	// Output:
	// official 0 parallel_function_checker_no_order:cannot_find_match
	// optimal 1 <nil>
}

// FuzzChecker checks any possible answer and call: the checker never
// panics, scores 0 or 1, and its verdict under optimal matching is never
// worse than under first fit.
func FuzzChecker(f *testing.F) {
	f.Add(`[{"area": {"base": [10], "tags": [["a", "b"], ""], "opts": [{"k": ["x", ""]}, ""]}}]`, `[{"area": {"base": 10, "tags": ["A", "b"]}}]`, "parallel")
	f.Add(`[{"area": {"base": ["n"], "rows": [[{"k": ["a"]}]]}}]`, `[{"area": {"base": "n", "rows": [{"k": "A"}]}}]`, "simple")
	f.Add(`[{"weather": {"city": ["Paris"]}}]`, `[{"weather": {"city": 1.5e3}}]`, "multiple")
	f.Fuzz(func(t *testing.T, truth, got, category string) {
		gv, err1 := jsonv.Decode([]byte(truth))
		sv, err2 := jsonv.Decode([]byte(got))
		if err1 != nil || err2 != nil {
			return
		}
		fns, _ := bfcl.ParseFunctions(mustJSON(t, docs))
		gt, err := bfcl.ParseGroundTruth(gv)
		if err != nil {
			return
		}
		calls, ok := sv.([]any)
		if !ok {
			return
		}
		var tr trajeval.Trajectory
		for i, c := range calls {
			m, ok := c.(map[string]any)
			if !ok {
				return
			}
			for name, args := range m {
				tr.Steps = append(tr.Steps, trajeval.Step{Index: i + 1, Name: name, Args: args})
			}
		}
		var scores []float64
		for _, m := range []bfcl.Matching{bfcl.Official, bfcl.Optimal} {
			c, err := bfcl.New(bfcl.Options{Category: category, Functions: fns, GroundTruth: gt, Matching: m})
			if err != nil {
				return
			}
			out, err := c.Evaluate(context.Background(), &tr)
			if err != nil || (out.Score != 0 && out.Score != 1) {
				t.Fatalf("Evaluate: score %v, error %v", out.Score, err)
			}
			scores = append(scores, out.Score)
		}
		if scores[1] < scores[0] {
			t.Errorf("optimal matching fails what first fit passes")
		}
	})
}
