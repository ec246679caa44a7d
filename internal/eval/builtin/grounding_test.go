package builtin_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/jsonv"
)

func build(t *testing.T, yaml string, env *spec.Env) (*eval.Configured, error) {
	t.Helper()
	root, err := config.Parse("suite.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	env.Types = builtin.Types()
	return spec.Build(root, env)
}

// shopping is a trajectory of one turn, "find running shoes", with a
// step per call: its agent ("" for none), tool, and arguments and result
// as JSON.
func shopping(calls ...[4]string) *trajeval.Trajectory {
	user := "find running shoes"
	tr := &trajeval.Trajectory{Turns: []trajeval.Turn{{Turn: 1, User: &user}}}
	for i, s := range calls {
		args, _ := jsonv.Decode([]byte(s[2]))
		res, _ := jsonv.Decode([]byte(s[3]))
		tr.Steps = append(tr.Steps, trajeval.Step{Index: i + 1, Turn: 1, Agent: s[0], Name: s[1], Args: args, Result: res})
	}
	return tr
}

// provenance is a search, then a read of what it found, then a read of
// an id nobody returned.
func provenance(*testing.T) *trajeval.Trajectory {
	return shopping(
		[4]string{"", "search_products", `{"query":"running shoes"}`, `"{\"items\":[{\"id\":\"SKU-1\"},{\"id\":\"SKU-2\"}]}"`},
		[4]string{"", "get_product", `{"product_id":"SKU-2"}`, `{"price":89}`},
		[4]string{"", "get_product", `{"product_id":"SKU-7"}`, `null`},
	)
}

func TestGrounding_suite(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		input  string
		score  float64
		reason string
	}{
		{"defaults", "type: grounding\n", "", 2.0 / 3, "SKU-7 is invented"},
		{"ignore", "type: grounding\nignore: [get_product.product_id]\n", "", 1, "the invented id is not checked"},
		{"only", "type: grounding\nonly: [\"*.query\"]\n", "", 1, "only the query is checked"},
		{"case input", "type: grounding\nonly: [get_product.product_id]\n", "also SKU-7", 1, "the case's input grounds it"},
		{"case", "type: grounding\ncase_insensitive: true\nonly: [search_products.query]\n", "", 1, "folding changes nothing here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := build(t, tt.yaml, &spec.Env{Case: eval.Case{Input: tt.input}})
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), provenance(t))
			if r.Score != tt.score {
				t.Errorf("score %v, want %v: %s\n%+v", r.Score, tt.score, tt.reason, r.Details)
			}
		})
	}
}

// delegated is a router agent that searched and looked up related
// products, and a shop agent it called that read what the router found,
// and an id nobody returned; the router invented one too.
func delegated(*testing.T) *trajeval.Trajectory {
	tr := shopping(
		[4]string{"router", "search_products", `{"query":"running shoes"}`, `{"items":[{"id":"SKU-1"}]}`},
		[4]string{"shop", "get_product", `{"product_id":"SKU-1"}`, `{"price":89}`},
		[4]string{"router", "lookup", `{"id":"SKU-1"}`, `{"related":"SKU-9"}`},
		[4]string{"shop", "get_product", `{"product_id":"SKU-9"}`, `null`},
		[4]string{"shop", "get_product", `{"product_id":"SKU-7"}`, `null`},
		[4]string{"router", "lookup", `{"id":"SKU-8"}`, `null`},
	)
	tr.Agents = []trajeval.Agent{{Name: "shop", Parent: "router"}}
	return tr
}

func TestGrounding_agent(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		score  float64
		checks []string // the failed checks: name, then message
		reason string
	}{
		{"sub-agent", "type: grounding\nagent: shop\n", 2.0 / 3, []string{
			`step 3 get_product args.product_id = "SKU-7": not in the user's messages (turn 1) or the results of trace steps 1–3 (trace steps count every agent's calls)`,
		}, "SKU-1 and SKU-9 come from the router's results, sources though another agent's; SKU-7 from nowhere, its call numbered among shop's"},
		{"parent", "type: grounding\nagent: router\n", 2.0 / 3, []string{
			`step 3 lookup args.id = "SKU-8": not in the user's messages (turn 1) or the results of trace steps 1–3 (trace steps count every agent's calls)`,
		}, "only the router's calls are checked: the shop's invented SKU-7 is not the router's"},
		{"whole trace", "type: grounding\n", 4.0 / 6, []string{
			`step 5 get_product args.product_id = "SKU-7": not in the user's messages (turn 1) or the results of steps 1–3`,
			`step 6 lookup args.id = "SKU-8": not in the user's messages (turn 1) or the results of steps 1–3`,
		}, "without agent:, every call is checked against every earlier result (a null result holds nothing)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := build(t, tt.yaml, &spec.Env{})
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), delegated(t))
			if r.Score != tt.score {
				t.Errorf("score %v, want %v: %s\n%+v", r.Score, tt.score, tt.reason, r.Details)
			}
			var got []string
			for _, ch := range r.Details.Checks {
				if ch.Status == trajeval.CheckFail {
					got = append(got, ch.Name+": "+ch.Message)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.checks, "\n") {
				t.Errorf("failed checks:\n got %q\nwant %q\n%s", got, tt.checks, tt.reason)
			}
		})
	}
}

func TestGrounding_forCases(t *testing.T) {
	tr := provenance(t)
	tr.Turns[0].User = nil // no user message: the case's input would be the user's words
	for _, forCases := range []bool{true, false} {
		c, err := build(t, "type: grounding\n", &spec.Env{ForCases: forCases})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Run(context.Background(), tr)
		warned := r.Details != nil && len(r.Details.Warnings) > 0 && strings.Contains(strings.Join(r.Details.Warnings, "\n"), "does not see the case's input")
		if warned != forCases {
			t.Errorf("ForCases %v: warned %v (%v): a suite's grounding built for its cases says the case's input was not looked in; a case-less suite's has no input to miss", forCases, warned, r.Details)
		}
	}
}

func TestFrom_suite(t *testing.T) {
	yaml := `type: tool_trajectory
mode: in_order
expected:
  - search_products
  - tool: get_product
    args: {product_id: {$from: "search_products.result.items[*].id"}}
  - tool: get_product
    args: {product_id: {$from: "search_products.result.items[*].id"}}
`
	c, err := build(t, yaml, &spec.Env{})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run(context.Background(), provenance(t))
	if r.Score != 2.0/3 {
		t.Fatalf("score %v, want 2/3: the second read's id came from nowhere", r.Score)
	}
	got := r.Explain()
	want := `args.product_id: expected {"$from":"search_products.result.items[*].id"}: one of "SKU-1", "SKU-2" (step 1), got "SKU-7"`
	if !strings.Contains(got, want) {
		t.Errorf("explanation lacks %q:\n%s", want, got)
	}
}

// chain is a router that searched, a shop it called that read what the
// router found, and a stock agent the shop called that checked it in the
// shop's warehouse; then the stock agent checks an id that the router's
// second search returns only afterwards.
func chain(*testing.T) *trajeval.Trajectory {
	tr := shopping(
		[4]string{"router", "search_products", `{"query":"running shoes"}`, `{"items":[{"id":"SKU-1"}]}`},
		[4]string{"shop", "get_product", `{"product_id":"SKU-1"}`, `{"warehouse":"W-3"}`},
		[4]string{"stock", "check_stock", `{"product_id":"SKU-1","warehouse":"W-3"}`, `{"count":4}`},
		[4]string{"stock", "check_stock", `{"product_id":"SKU-2","warehouse":"W-3"}`, `{"count":0}`},
		[4]string{"router", "search_products", `{"query":"trail shoes"}`, `{"items":[{"id":"SKU-2"}]}`},
	)
	tr.Agents = []trajeval.Agent{{Name: "shop", Parent: "router"}, {Name: "stock", Parent: "shop"}}
	return tr
}

func TestFrom_agent(t *testing.T) {
	const (
		product = "{product_id: {$from: \"search_products.result.items[*].id\"}}"
		stock   = "{product_id: {$from: \"search_products.result.items[*].id\"}, warehouse: {$from: get_product.result.warehouse}}"
	)
	tests := []struct {
		name   string
		yaml   string
		score  float64
		near   string // a near miss of the explanation
		reason string
	}{
		{"parent's result", "type: tool_trajectory\nmode: in_order\nagent: shop\nexpected: [{tool: get_product, args: " + product + "}]\n", 1, "",
			"the shop's id came from the router's search, a step out of its scope"},
		{"grandparent's and parent's results", "type: tool_trajectory\nmode: in_order\nagent: stock\nexpected: [{tool: check_stock, args: " + stock + "}, check_stock]\n", 1, "",
			"the id from the router's search, the warehouse from the shop's read"},
		{"with sub-agents", "type: tool_trajectory\nmode: in_order\nagent: shop\ninclude_subagents: true\nexpected: [{tool: get_product, args: " + product + "}, {tool: check_stock, args: " + stock + "}, check_stock]\n", 1, "",
			"the shop and the stock agent it called, their values from the router's result and each other's"},
		{"only later", "type: tool_trajectory\nmode: in_order\nagent: stock\nexpected: [{tool: check_stock, args: " + stock + "}, {tool: check_stock, args: " + stock + "}]\n", 0.5,
			`near miss: step 2 check_stock, args.product_id: expected {"$from":"search_products.result.items[*].id"}: one of "SKU-1" (trace step 1), got "SKU-2"`,
			"SKU-2 is returned by trace step 5, after the stock agent's second call; that call keeps its scoped number, the sources are trace steps"},
		{"nowhere", "type: tool_trajectory\nmode: in_order\nagent: shop\nexpected: [{tool: get_product, args: {product_id: {$from: lookup.result.id}}}]\n", 0,
			`near miss: step 1 get_product, args.product_id: expected {"$from":"lookup.result.id"}: no earlier calls of lookup, got "SKU-1"`,
			"no agent called lookup"},
		{"groups", "type: tool_trajectory\nmode: in_order\nagent: stock\nexpected: [{any_order: [{tool: check_stock, args: " + stock + "}, {tool: check_stock, args: " + stock + "}]}]\n", 0.5,
			`"SKU-1" (trace step 1), got "SKU-2"`, "expected groups look back along the whole trace too"},
		{"subset", "type: tool_trajectory\nmode: subset\nagent: stock\nexpected: [{tool: check_stock, args: " + stock + "}]\n", 0.5, "",
			"an allow-list of calls whose values came from earlier results: the second check's id came later"},
		{"tool_correctness", "type: tool_correctness\nmatch: names_and_args\nargs_match: partial\nagent: shop\nexpected: [{tool: get_product, args: " + product + "}]\n", 1, "",
			"Dokimos's evaluator takes the same operators, and looks back the same way"},
		{"tool_call_args", "type: tool_call_args\nagent: stock\ntool_calls: [{name: check_stock, args: " + stock + "}, {name: check_stock, args: " + stock + "}]\n", 0.5,
			`"SKU-1" (trace step 1), got "SKU-2"`, "UiPath's evaluator too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := build(t, tt.yaml, &spec.Env{})
			if err != nil {
				t.Fatal(err)
			}
			r := c.Run(context.Background(), chain(t))
			if r.Score != tt.score {
				t.Fatalf("score %v, want %v: %s\n%s", r.Score, tt.score, tt.reason, r.Explain())
			}
			if got := r.Explain(); tt.near != "" && !strings.Contains(got, tt.near) {
				t.Errorf("explanation lacks %q: %s\n%s", tt.near, tt.reason, got)
			}
		})
	}
}

func TestConfigErrors_provenance(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		reason           string
	}{
		{"bad $from", "type: tool_trajectory\nexpected:\n  - tool: get\n    args: {id: {$from: \"search.result.items[*.id\"}}\n",
			`suite.yaml:4:24: expected[0].args.id.$from: path "search.result.items[*.id", column 22: expected ] to close the [ at column 20 (a $from path is TOOL.result or TOOL.args`,
			"the place in the file and the column in the path"},
		{"bad ignore", "type: grounding\nignore:\n  - search.query\n  - search..q\n",
			`suite.yaml:4:5: ignore[1]: path "search..q", column 8: expected a key, found '.'`, "the list item and the column"},
		{"empty only", "type: grounding\nonly: []\n", `only is empty: nothing would be checked`, "a setting that checks nothing"},
		{"negative length", "type: grounding\nmin_length: -1\n", `min_length`, "lengths are ≥ 0"},
		{"unknown key", "type: grounding\nignroe: [a.b]\n", `unknown key "ignroe"`, "typos are caught"},
		{"bad args_match path", "type: tool_trajectory\nmode: in_order\nargs_match: [city, \"passengers[0.name\"]\nexpected: [book]\n",
			`suite.yaml:3:20: args_match[1]: path "passengers[0.name", column 13: expected ] to close the [ at column 11`,
			"an args_match path that does not parse is refused, never a key no call has (which would skip the comparison)"},
		{"args_match wildcard", "type: tool_trajectory\nmode: in_order\nargs_match: [\"passengers[*].name\"]\nexpected: [book]\n",
			`no * wildcard`, "an args_match path names one place"},
		{"args_match path in no call", "type: tool_trajectory\nmode: in_order\nargs_match: [pasengers.0.seat]\nexpected: [{tool: book, args: {passengers: [{seat: 9Z}]}}]\n",
			`suite.yaml:3:14: args_match[0]: args_match path pasengers.0.seat is in no expected call's args, so it would compare nothing`,
			"a misspelt path would compare nothing and pass every seat"},
		{"a call's args_match path not in its args", "type: tool_trajectory\nmode: in_order\nexpected: [{tool: book, args: {seat: 9Z}, args_match: [sea]}]\n",
			`args_match path sea is not among this call's args`, "the call's own paths must name its own args"},
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
