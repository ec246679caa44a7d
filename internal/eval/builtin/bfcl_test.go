package builtin_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func TestBFCL_build(t *testing.T) {
	const fns = "functions: [{name: f, parameters: {type: dict, properties: {a: {type: integer}}, required: [a]}}]\n"
	tests := []struct {
		name, caseID, yaml string
		err                string // part of the configuration error, "" for none
		score              float64
		reason             string
	}{
		{"category from id", "simple_3", fns + "ground_truth: [{f: {a: [1]}}]", "", 1, "simple_3 is a simple entry"},
		{"explicit category", "x", fns + "category: multiple\nground_truth: [{f: {a: [2]}}]", "", 0, "a is 1, 2 is expected"},
		{"no category", "x", fns + "ground_truth: [{f: {a: [1]}}]", "not a BFCL id", 0, "the id says nothing and no category is given"},
		{"bad matching", "simple_0", fns + "matching: best\nground_truth: [{f: {a: [1]}}]", "bench.yaml:3:11", 0, "placed at matching"},
		{"bad ground truth", "simple_0", fns + "ground_truth: [{f: {a: 1}}]", "bench.yaml:3:15", 0, "allowed values must be a list"},
		{"java", "simple_java_0", fns + "ground_truth: [{f: {a: [1]}}]", "", 0, "a Java value is source text: the integer 1 is type_error:java"},
		{"not an AST category", "irrelevance_0", fns + "ground_truth: [{f: {a: [1]}}]", "not an AST category", 0, "relevance is not the AST checker's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, err := config.Parse("bench.yaml", []byte("type: bfcl_ast\n"+tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			c, err := spec.Build(node, &spec.Env{Types: builtin.Types(), Case: eval.Case{ID: tt.caseID}})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Build: %v, want an error containing %q: %s", err, tt.err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Build: %v: %s", err, tt.reason)
			}
			r := c.Run(context.Background(), &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "f", Args: map[string]any{"a": json.Number("1")}}}})
			if r.Score != tt.score {
				t.Errorf("score %v (%s), want %v: %s", r.Score, r.Status, tt.score, tt.reason)
			}
		})
	}
}
