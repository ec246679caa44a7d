package builtin_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

func TestConfigErrors_vertexAndPeers(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		reason           string
	}{
		{"no reference", "type: trajectory_recall\n", `suite.yaml:1:1: missing reference_trajectory`, "five metrics need a reference"},
		{"input not a map", "type: trajectory_exact_match\nreference_trajectory:\n  - {tool_name: a, tool_input: [1]}\n", `suite.yaml:3:32: reference_trajectory[0].tool_input: tool_input must be a map`, "placed at the value"},
		{"no tool name", "type: trajectory_exact_match\nreference_trajectory:\n  - {tool_input: {}}\n", `the call has no tool_name`, "a call names its tool"},
		{"misspelt call key", "type: trajectory_exact_match\nreference_trajectory:\n  - {tool_name: a, tool_inputs: {}}\n", `did you mean "tool_input"?`, "typos are caught with a suggestion"},
		{"single without tool", "type: trajectory_single_tool_use\n", `missing tool_name`, "the tool to look for"},
		{"single with a reference", "type: trajectory_single_tool_use\ntool_name: a\nreference_trajectory: []\n", `unknown key "reference_trajectory"`, "a setting that would be ignored"},
		{"tool_name on another metric", "type: trajectory_precision\ntool_name: a\nreference_trajectory: []\n", `unknown key "tool_name"`, "only single tool use takes one"},
		{"deepeval without tools", "type: deepeval_tool_correctness\n", `expected_tools`, "nothing to compare"},
		{"deepeval unknown param", "type: deepeval_tool_correctness\nexpected_tools: [{name: a}]\nevaluation_params: [inputs]\n", `inputs`, "one of tool, input_parameters, output"},
		{"deepeval output not given", "type: deepeval_tool_correctness\nexpected_tools: [{name: a}]\nevaluation_params: [output]\n", `suite.yaml:2:19: expected_tools[0]: output is in evaluation_params but this tool gives none`, "a check that cannot be made"},
		{"deepeval both modes", "type: deepeval_tool_correctness\nexpected_tools: [a]\nshould_exact_match: true\nshould_consider_ordering: true\n", `should_consider_ordering has no effect`, "a setting that would be ignored"},
		{"deepeval tool as text", "type: deepeval_tool_correctness\nexpected_tools: [a]\n", `a call is a map {name, input_parameters}`, "DeepEval's ToolCall is an object"},
		{"ragas args text", "type: ragas_tool_call_f1\nreference_tool_calls: [{name: a, args: \"x=1\"}]\n", `args must be a map`, "arguments are an object"},
		{"ragas misspelt", "type: ragas_tool_call_accuracy\nreference_tool_calls: []\nstrict_ordr: false\n", `did you mean "strict_order"?`, "typos are caught"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := build(t, tt.yaml, &spec.Env{})
			var se *trajeval.SpecError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want a SpecError containing %q: %s", err, tt.want, tt.reason)
			}
		})
	}
}

func TestBuild_vertexAndPeers(t *testing.T) {
	steps := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Name: "search", Args: map[string]any{"q": "x"}},
		{Name: "search", Args: map[string]any{"q": "x"}},
	}}
	steps.Finish()
	tests := []struct {
		yaml   string
		want   float64
		pass   bool
		reason string
	}{
		{"type: trajectory_any_order_match\nreference_trajectory: [{tool_name: search, tool_input: {q: x}}]\n", 1, true, "extra calls allowed"},
		{"type: trajectory_precision\nreference_trajectory: [{tool_name: search, tool_input: {q: x}}]\n", 0.5, false, "one of two calls was expected; threshold 1"},
		{"type: deepeval_tool_correctness\nexpected_tools: [{name: search, input_parameters: {q: x}}, {name: search, input_parameters: {q: x}}]\nevaluation_params: [input_parameters]\n", 1, true, "both repeats found (DeepEval: 0.5)"},
		{"type: tool_correctness_metric\nexpected_tools: [{name: search}, {name: fetch}]\nthreshold: 0.5\n", 0.5, true, "the class name is an alias; DeepEval's threshold given"},
		{"type: ToolCallAccuracy\nreference_tool_calls: [{name: search, args: {q: x}}]\n", 0, false, "a repeated call fails Ragas's gate"},
		{"type: ragas_tool_call_f1\nreference_tool_calls: [{name: search, args: {q: x}}]\n", 2.0 / 3, false, "precision 1/2, recall 1"},
	}
	for _, tt := range tests {
		t.Run(strings.SplitN(tt.yaml, "\n", 2)[0], func(t *testing.T) {
			c, err := build(t, tt.yaml, &spec.Env{})
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), steps)
			if r.Status == trajeval.StatusError || math.Abs(r.Score-tt.want) > 1e-9 || r.Passed() != tt.pass {
				t.Errorf("score %v status %v passed %v, want %v, %v: %s", r.Score, r.Status, r.Passed(), tt.want, tt.pass, tt.reason)
			}
		})
	}
}
