package uipath_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func names(s ...string) *trajeval.Trajectory {
	t := &trajeval.Trajectory{}
	for _, n := range s {
		t.Steps = append(t.Steps, trajeval.Step{Name: n})
	}
	t.Finish()
	return t
}

func TestExample(t *testing.T) {
	s, errs := suite.LoadFile("../../../examples/uipath-orders/evaluations/eval-sets/orders.json", suite.Options{Dialects: dialects.All()}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Dialect != "uipath" || s.Name != "Order agent tool calls" || len(s.Cases) != 3 {
		t.Fatalf("dialect %s, name %q, %d cases", s.Dialect, s.Name, len(s.Cases))
	}
	c := s.Cases[0]
	var got []string
	for _, e := range c.Evaluators {
		got = append(got, e.Name+":"+e.Type)
	}
	want := "ToolCallOrder:tool_call_order ToolCallCount:tool_call_count ToolCallArgs:tool_call_args ToolCallOutput:tool_call_output"
	if strings.Join(got, " ") != want {
		t.Errorf("evaluators %v\nwant %s", got, want)
	}
	if c.Evaluators[0].Weight != 2 || c.Evaluators[1].Weight != 1 {
		t.Errorf("weights %v %v, want 2 1 from evaluatorConfigs", c.Evaluators[0].Weight, c.Evaluators[1].Weight)
	}
	// null criteria take the evaluator's defaults: validate_user, check_inventory, create_order.
	r := c.Evaluators[0].Run(context.Background(), names("validate_user", "create_order"))
	if r.Score != 2.0/3 {
		t.Errorf("default criteria: score %v, want 2/3", r.Score)
	}
	if c.Input != `{"customer_id":"C-1001","quantity":2,"sku":"W-200"}` {
		t.Errorf("input %s", c.Input)
	}
}

// set builds an evaluation set with one evaluation whose criteria are crit.
func set(refs, crit string) string {
	return `{
  "version": "1.0",
  "id": "S",
  "evaluatorRefs": ` + refs + `,
  "evaluations": [
    {"id": "e1", "name": "one", "inputs": {},
     "evaluationCriterias": ` + crit + `}
  ]
}`
}

const orderEvaluator = `{"version": "1.0", "id": "Order", "evaluatorTypeId": "uipath-tool-call-order",
 "evaluatorConfig": {"name": "ToolCallOrderEvaluator", "strict": true}}`

const argsEvaluator = `{"version": "1.0", "id": "Args", "evaluatorTypeId": "uipath-tool-call-args",
 "evaluatorConfig": {"name": "ToolCallArgsEvaluator", "subset": false}}`

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"evaluations/evaluators/order.json": orderEvaluator,
		"evaluations/evaluators/args.json":  argsEvaluator,
		"evaluations/eval-sets/s.json": set(`["Order", "Args"]`, `{
       "Order": {"toolCallsOrder": ["a", "b"]},
       "Args": {"toolCalls": [{"name": "a", "args": {"x": 1}}]}}`),
	})
	s, errs := suite.LoadFile(filepath.Join(dir, "evaluations/eval-sets/s.json"), suite.Options{Dialects: dialects.All()}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ev := s.Cases[0].Evaluators
	// strict from the evaluator file: a b c is not a b.
	if r := ev[0].Run(context.Background(), names("a", "b", "c")); r.Score != 0 {
		t.Errorf("strict order: score %v, want 0", r.Score)
	}
	// subset: false from the evaluator file: an extra key fails.
	tr := &trajeval.Trajectory{Steps: []trajeval.Step{{Name: "a", Args: map[string]any{"x": 1.0, "y": 2.0}}}}
	if r := ev[1].Run(context.Background(), tr); r.Score != 0 {
		t.Errorf("subset false with an extra key: score %v, want 0 (UiPath's no-op flag)", r.Score)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		want   string
		reason string
	}{
		{"missing evaluator", map[string]string{"evals/s.json": set(`["Ordr"]`, `{}`), "evals/evaluators/order.json": orderEvaluator},
			`evals/s.json:4:21: evaluatorRefs[0]: evaluator "Ordr" not found (did you mean "Order"?)`, "a reference to a missing evaluator"},
		{"missing evaluator no folder", map[string]string{"s.json": set(`["Order"]`, `{}`)},
			`s.json:4:21: evaluatorRefs[0]: evaluator "Order" not found (looked for evaluator files`, "says where it looked"},
		{"criteria for unknown evaluator", map[string]string{"s.json": set(`["Order"]`, `{"Oder": null}`), "evaluators/order.json": orderEvaluator},
			`s.json:7:30: evaluations[0].evaluationCriterias.Oder: evaluator "Oder" is not in evaluatorRefs (did you mean "Order"?)`, "criteria name an evaluator the set lacks"},
		{"null without defaults", map[string]string{"s.json": set(`["Order"]`, `{"Order": null}`), "evaluators/order.json": orderEvaluator},
			"criteria of Order are null and the evaluator has no defaultEvaluationCriteria", "UiPath: error if none"},
		{"criteria wrong shape", map[string]string{"s.json": set(`["Order"]`, `{"Order": ["a", "b"]}`), "evaluators/order.json": orderEvaluator},
			"criteria of Order must be an object, got list", "criteria of the wrong shape"},
		{"criteria wrong key", map[string]string{"s.json": set(`["Order"]`, `{"Order": {"toolCallOrder": ["a"]}}`), "evaluators/order.json": orderEvaluator},
			`unknown key "toolCallOrder" (did you mean "tool_calls_order"?)`, "a misspelt criteria key"},
		{"empty expected order", map[string]string{"s.json": set(`["Order"]`, `{"Order": {"toolCallsOrder": []}}`), "evaluators/order.json": orderEvaluator},
			`s.json:7:58: evaluations[0].evaluationCriterias.Order.toolCallsOrder: tool_calls_order is empty`, "UiPath: empty expected is invalid"},
		{"count of wrong shape", map[string]string{"s.json": set(`["Count"]`, `{"Count": {"toolCallsCount": {"a": 1.5}}}`),
			"evaluators/count.json": `{"id": "Count", "evaluatorTypeId": "uipath-tool-call-count", "evaluatorConfig": {}}`},
			"expected a whole number, got 1.5", "counts are whole numbers"},
		{"unsupported type", map[string]string{"s.json": set(`["Match"]`, `{}`),
			"evaluators/match.json": `{"id": "Match", "evaluatorTypeId": "uipath-exact-match", "evaluatorConfig": {}}`},
			`evaluators/match.json:1:36: evaluatorTypeId: evaluator type "uipath-exact-match" is not supported`, "never skipped silently"},
		{"judge without criteria", map[string]string{"s.json": set(`["Judge"]`, `{"Judge": {}}`),
			"evaluators/judge.json": `{"id": "Judge", "evaluatorTypeId": "uipath-llm-judge-output-semantic-similarity", "evaluatorConfig": {}}`},
			`missing expected_output`, "a judge needs its expected output"},
		{"judge prompt without placeholders", map[string]string{"s.json": set(`["Judge"]`, `{"Judge": {"expectedAgentBehavior": "x"}}`),
			"evaluators/judge.json": `{"id": "Judge", "evaluatorTypeId": "uipath-llm-judge-trajectory-similarity", "evaluatorConfig": {"prompt": "Is it good?"}}`},
			`names none of UiPath's placeholders`, "a prompt that shows the judge nothing is an error"},
		{"bad default criteria", map[string]string{"s.json": set(`["Order"]`, `{"Order": null}`),
			"evaluators/order.json": `{"id": "Order", "evaluatorTypeId": "uipath-tool-call-order", "evaluatorConfig": {"defaultEvaluationCriteria": {"toolCallsOrder": "a b"}}}`},
			"evaluators/order.json:1:", "errors in defaults are placed in the evaluator file"},
		{"misspelt config", map[string]string{"s.json": set(`["Order"]`, `{}`),
			"evaluators/order.json": `{"id": "Order", "evaluatorTypeId": "uipath-tool-call-order", "evaluatorConfig": {"strikt": true}}`},
			`unknown key "strikt" (did you mean "strict"?)`, "evaluator config keys are checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tt.files)
			file := "s.json"
			if _, ok := tt.files["evals/s.json"]; ok {
				file = "evals/s.json"
			}
			_, errs := suite.LoadFile(filepath.Join(dir, file), suite.Options{Dialects: dialects.All()}, true)
			if len(errs) == 0 {
				t.Fatalf("no error, want %q (%s)", tt.want, tt.reason)
			}
			var all []string
			for _, e := range errs {
				if !errors.Is(e, trajeval.ErrConfig) {
					t.Errorf("%v is not a configuration error", e)
				}
				all = append(all, strings.ReplaceAll(e.Error(), dir+string(filepath.Separator), ""))
			}
			got := strings.Join(all, "\n")
			if !strings.Contains(got, tt.want) {
				t.Errorf("errors:\n%s\nwant one to contain %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}
