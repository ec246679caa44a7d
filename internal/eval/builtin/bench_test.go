package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// benchTools are the tools of the benchmark trajectory, with their
// parameters for the evaluators that check calls against definitions.
const benchTools = `tools:
  - name: search
    description: Search the library
    parameters: {type: object, properties: {query: {type: string, description: Words}, limit: {type: integer, description: At most}}, required: [query]}
  - name: read_document
    description: Read one document
    parameters: {type: object, properties: {id: {type: string, description: Document id}}, required: [id]}
  - name: summarize
    description: Summarize documents
    parameters: {type: object, properties: {id: {type: string, description: Document id}}, required: [id]}
  - name: fetch
    description: Fetch a page
    parameters: {type: object, properties: {id: {type: string, description: Page id}}, required: [id]}
  - name: list
    description: List documents
    parameters: {type: object, properties: {id: {type: string, description: Folder id}}, required: [id]}
`

// benchEvaluators is every deterministic evaluator type (and each
// tool_trajectory mode), configured as a suite would, over the trajectory
// of benchTrajectory: the judged ones and code are left out.
var benchEvaluators = []struct{ name, yaml string }{
	{"tool_trajectory/exact", "type: tool_trajectory\nmode: exact\nexpected: " + expectedNames},
	{"tool_trajectory/in_order", "type: tool_trajectory\nmode: in_order\nargs_match: superset\nexpected: " + expectedCheck},
	{"tool_trajectory/any_order", "type: tool_trajectory\nmode: any_order\nminimums: {search: 1, read_document: 2}"},
	{"tool_trajectory/subset", "type: tool_trajectory\nmode: subset\nexpected: [search, read_document, summarize, fetch, list]"},
	{"tool_trajectory/superset", "type: tool_trajectory\nmode: superset\nargs_match: superset\nexpected: " + expectedCheck},
	{"tool_trajectory/strict", "type: tool_trajectory\nmode: strict\nexpected: " + expectedNames},
	{"tool_trajectory/precision", "type: tool_trajectory\nmode: precision\nexpected: " + expectedCheck},
	{"tool_trajectory/recall", "type: tool_trajectory\nmode: recall\nexpected: " + expectedCheck},
	{"execution_metrics", "type: execution_metrics\nmax_tool_calls: 30\nmax_tokens: 5000\nmax_cost_usd: 0.1\nmax_duration_ms: 10000\ntarget_exploration_ratio: 0.5"},
	{"composite", "type: composite\naggregator: {type: weighted_average, weights: {a: 2, b: 1}}\nevaluators:\n" +
		"  - {name: a, type: tool_trajectory, mode: in_order, expected: [search, summarize]}\n" +
		"  - {name: b, type: execution_metrics, max_tool_calls: 30}"},
	{"tool_rules", "type: tool_rules\nrules:\n  - never: {tool: delete, args: {force: true}}\n  - at_most: {search: 5}\n" +
		"  - before: [search, summarize]\n  - within: {after: search, then: read_document, steps: 3}\n  - no_repeat: read_document\n" +
		"  - pattern: \"search (read_document | fetch | list)* summarize .*\""},
	{"tool_call_order", "type: tool_call_order\ntool_calls_order: [search, read_document, summarize]"},
	{"tool_call_count", "type: tool_call_count\ntool_calls_count: {search: [\">=\", 1], read_document: [\"<=\", 10]}"},
	{"tool_call_args", "type: tool_call_args\nsubset: true\ntool_calls: " + expectedCheckNamed},
	{"tool_call_output", "type: tool_call_output\ntool_outputs: [{name: summarize, output: {ok: true}}]"},
	{"tool_correctness", "type: tool_correctness\nmatch: names_and_args\nargs_match: partial\nexpected: " + expectedCheck},
	{"tool_call_validity", "type: tool_call_validity\n" + benchTools},
	{"tool_error", "type: tool_error"},
	{"grounding", "type: grounding"},
	{"tau2_action", "type: tau2_action\nactions: [{name: search, arguments: {query: q}}, {name: summarize, compare_args: []}]"},
	{"tau2_communicate", "type: tau2_communicate\ncommunicate_info: [summary, done]"},
	{"tool_efficiency", "type: tool_efficiency"},
	{"tool_name_reliability", "type: tool_name_reliability\n" + benchTools},
	{"tool_description_reliability", "type: tool_description_reliability\n" + benchTools},
	{"tool_trajectory_avg_score", "type: tool_trajectory_avg_score\nmatch_type: in_order\ninvocations:\n" +
		"  - {tool_uses: [{name: search, args: {query: python history, limit: 10}}]}\n" +
		"  - {tool_uses: [{name: summarize, args: {id: doc-19}}]}"},
	{"response_match_score", "type: response_match_score\ninvocations:\n" +
		"  - {final_response: Found ten documents about the history of Python.}\n" +
		"  - {final_response: Python was created by Guido van Rossum in 1991.}"},
	{"bfcl_ast", "type: bfcl_ast\ncategory: parallel\nmatching: optimal\n" +
		"functions: [{name: search, parameters: {type: dict, properties: {query: {type: string}, limit: {type: integer}}, required: [query]}}]\n" +
		"ground_truth: [{search: {query: [python], limit: [\"\", 5]}}, {search: {query: [go], limit: [\"\"]}}]"},
	{"trajectory_exact_match", "type: trajectory_exact_match\nreference_trajectory: " + vertexReference},
	{"trajectory_in_order_match", "type: trajectory_in_order_match\nreference_trajectory: " + vertexReference},
	{"trajectory_any_order_match", "type: trajectory_any_order_match\nreference_trajectory: " + vertexReference},
	{"trajectory_precision", "type: trajectory_precision\nreference_trajectory: " + vertexReference},
	{"trajectory_recall", "type: trajectory_recall\nreference_trajectory: " + vertexReference},
	{"trajectory_single_tool_use", "type: trajectory_single_tool_use\ntool_name: summarize"},
	{"deepeval_tool_correctness", "type: deepeval_tool_correctness\nevaluation_params: [input_parameters]\nexpected_tools: [{name: search, input_parameters: {query: python history}}, {name: read_document, input_parameters: {id: doc-5}}, {name: summarize, input_parameters: {id: doc-19}}]"},
	{"ragas_tool_call_accuracy", "type: ragas_tool_call_accuracy\nstrict_order: false\nreference_tool_calls: " + expectedCheckNamed},
	{"ragas_tool_call_f1", "type: ragas_tool_call_f1\nreference_tool_calls: " + expectedCheckNamed},
}

const vertexReference = "[{tool_name: search, tool_input: {query: python history, limit: 10}}, {tool_name: read_document, tool_input: {id: doc-5}}, {tool_name: summarize, tool_input: {id: doc-19}}]"

const (
	expectedNames      = "[search, fetch, read_document, list, fetch, read_document, list, fetch, read_document, list, fetch, read_document, list, fetch, read_document, list, fetch, read_document, list, summarize]"
	expectedCheck      = "[{tool: search, args: {query: python history}}, {tool: read_document, args: {id: doc-5}}, {tool: summarize, args: {id: doc-19}}]"
	expectedCheckNamed = "[{name: search, args: {query: python history}}, {name: read_document, args: {id: doc-5}}, {name: summarize, args: {id: doc-19}}]"
)

// benchTrajectory is two turns of ten calls each, as a reader makes them:
// search, then fetch, read_document and list in turn, then summarize.
func benchTrajectory() *trajeval.Trajectory {
	cycle := []string{"fetch", "read_document", "list"}
	t := &trajeval.Trajectory{ID: "bench"}
	user := []string{"Research the history of Python", "Who created it?"}
	final := []string{"Found ten documents about the history of Python.", "Python was created by Guido van Rossum in 1991."}
	for turn := range 2 {
		t.Turns = append(t.Turns, trajeval.Turn{Turn: turn + 1, User: &user[turn], FinalResponse: &final[turn]})
	}
	for i := range 20 {
		name := cycle[(i+2)%3]
		args := map[string]any{"id": fmt.Sprintf("doc-%d", i)}
		switch i {
		case 0:
			name, args = "search", map[string]any{"query": "python history", "limit": json.Number("10")}
		case 19:
			name = "summarize"
		}
		d := float64(20 + i)
		t.Steps = append(t.Steps, trajeval.Step{Turn: 1 + i/10, ID: fmt.Sprintf("call_%d", i), Name: name, Args: args,
			Result: map[string]any{"ok": true}, Error: new(bool), DurationMS: &d})
	}
	cost, dur := 0.01, 3000.0
	in, out := int64(1200), int64(200)
	t.Metrics = trajeval.Metrics{CostUSD: &cost, DurationMS: &dur, Tokens: trajeval.Tokens{Input: &in, Output: &out}}
	t.Finish()
	return t
}

// BenchmarkEvaluator scores a 20-call, two-turn trajectory with each
// deterministic evaluator: go test ./internal/eval/builtin -bench Evaluator.
func BenchmarkEvaluator(b *testing.B) {
	t := benchTrajectory()
	ctx := context.Background()
	for _, e := range benchEvaluators {
		b.Run(e.name, func(b *testing.B) {
			node, err := config.Parse("bench.yaml", []byte(e.yaml))
			if err != nil {
				b.Fatal(err)
			}
			c, err := spec.Build(node, &spec.Env{Types: builtin.Types()})
			if err != nil {
				b.Fatal(err)
			}
			if r := c.Run(ctx, t); r.Status == trajeval.StatusError {
				b.Fatalf("%s: %v", e.name, r.Error)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.Run(ctx, t)
			}
		})
	}
}

// notBenchmarked are the types that ask a judge model or run a program.
var notBenchmarked = map[string]bool{
	"code": true, "llm_judge": true, "task_completion": true, "tool_argument_hallucination": true,
	"final_response_match_v2": true, "rubric_based_final_response_quality_v1": true,
	"rubric_based_tool_use_quality_v1": true, "hallucinations_v1": true,
}

// TestBenchEvaluators keeps the benchmark's table honest: every
// deterministic evaluator type is in it, and each scores the benchmark
// trajectory without an error (a broken row would measure nothing).
func TestBenchEvaluators(t *testing.T) {
	have := map[string]bool{}
	for _, e := range benchEvaluators {
		have[strings.SplitN(e.name, "/", 2)[0]] = true
	}
	for _, typ := range builtin.Types().Types() {
		if notBenchmarked[typ] || strings.HasPrefix(typ, "llm_judge_") {
			continue
		}
		if !have[typ] {
			t.Errorf("evaluator type %s has no row in benchEvaluators", typ)
		}
	}
	tr := benchTrajectory()
	for _, e := range benchEvaluators {
		node, err := config.Parse("bench.yaml", []byte(e.yaml))
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		c, err := spec.Build(node, &spec.Env{Types: builtin.Types()})
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if r := c.Run(context.Background(), tr); r.Status == trajeval.StatusError {
			t.Errorf("%s: %v", e.name, r.Error)
		}
	}
}
