package trajectory_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// TestEvaluator_inputOutput checks AgentV's input and output on expected
// calls: input is the arguments, output the result, compared as partial.
func TestEvaluator_inputOutput(t *testing.T) {
	search := trajeval.Step{Turn: 1, Name: "webSearch",
		Args:   map[string]any{"query": "ThinkPad X1", "num": 5},
		Result: map[string]any{"results": []any{map[string]any{"link": "https://a", "title": "A"}}}}
	text := search
	text.Result = `{"results": [{"link": "https://a", "title": "A"}]}`
	plain := search
	plain.Result = "no results"
	two := search
	two.Result = map[string]any{"results": []any{map[string]any{"title": "A"}, map[string]any{"title": "B"}}}
	tests := []struct {
		name   string
		yaml   string
		step   trajeval.Step
		score  float64
		diff   string
		reason string
	}{
		{"input matches", "{tool: webSearch, input: {query: ThinkPad X1}}", search, 1, "", "input is AgentV's name for args, compared under partial"},
		{"input differs", "{tool: webSearch, input: {query: Dell}}", search, 0, "args.query", "the example's author meant the arguments to be checked"},
		{"output matches", "{tool: webSearch, output: {results: [{link: 'https://a'}]}}", search, 1, "", "expected keys are found in the result at every depth"},
		{"output differs", "{tool: webSearch, output: {results: [{link: 'https://b'}]}}", search, 0, "output.results[0].link", "a different result fails, and the difference is named under output"},
		{"output from JSON text", "{tool: webSearch, output: {results: [{link: 'https://a'}]}}", text, 1, "", "a result that is JSON text compares as the value it encodes"},
		{"output as text", "{tool: webSearch, output: no results}", plain, 1, "", "a text result compares with a text output"},
		{"both must hold", "{tool: webSearch, input: {query: ThinkPad X1}, output: {results: [{link: 'https://b'}]}}", search, 0, "output.results[0]", "arguments and result are both checked"},
		{"input differs beside an output", "{tool: webSearch, input: {query: Dell}, output: {results: [{link: 'https://a'}]}}", search, 0, "args.query", "a result that matches does not excuse the arguments"},
		{"both differ", "{tool: webSearch, input: {query: Dell}, output: {results: [{link: 'https://b'}]}}", search, 0, "output.results[0]", "the result's differences follow the arguments'"},
		{"more elements in the result", "{tool: webSearch, output: {results: [{title: B}]}}", two, 1, "", "a list written matches elements of the result's list, which may hold more"},
		{"elements in order", "{tool: webSearch, output: {results: [{title: B}, {title: A}]}}", two, 0, "output.results[1]", "the elements written keep their order"},
		{"operator in output", "{tool: webSearch, output: {results: [{link: {$regex: '^https://'}}]}}", search, 1, "", "operators work in output as in args"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			yaml := "type: tool_trajectory\nmode: in_order\nexpected:\n  - " + tt.yaml + "\n"
			res := build(t, yaml).Run(context.Background(), &trajeval.Trajectory{Steps: []trajeval.Step{tt.step}})
			if res.Score != tt.score {
				t.Fatalf("score %v, want %v (%s): %+v", res.Score, tt.score, tt.reason, res)
			}
			if tt.diff != "" && !strings.Contains(explain(res), tt.diff) {
				t.Errorf("the explanation does not name %s (%s):\n%s", tt.diff, tt.reason, explain(res))
			}
		})
	}
}

func explain(r trajeval.Result) string {
	var b strings.Builder
	if r.Details != nil {
		for _, m := range r.Details.Missing {
			for _, n := range m.Near {
				for _, d := range n.Diffs {
					b.WriteString(d.String() + "\n")
				}
			}
		}
	}
	return b.String()
}

func TestEvaluator_inputOutputErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want, reason string
	}{
		{"args and input", "{tool: a, args: {x: 1}, input: {x: 1}}", "both as args and as input", "one call cannot say its arguments twice"},
		{"bad operator in output", "{tool: a, output: {x: {$nope: 1}}}", "$nope", "a mistake in output is reported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := config.Parse("test.yaml", []byte("type: tool_trajectory\nexpected:\n  - "+tt.yaml+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = spec.Build(n, &spec.Env{Types: builtin.Types()})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
}
