package adk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/adk"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// turn is one turn of calls, written "name(json args) name(json args)".
func turnSteps(t testing.TB, n int, s string) []trajeval.Step {
	t.Helper()
	var out []trajeval.Step
	for _, c := range splitCalls(s) {
		i := strings.IndexByte(c, '(')
		st := trajeval.Step{Turn: n, Name: c[:i], Args: map[string]any{}}
		if body := c[i+1 : len(c)-1]; body != "" {
			d := json.NewDecoder(strings.NewReader(body))
			d.UseNumber()
			if err := d.Decode(&st.Args); err != nil {
				t.Fatalf("%s: %v", c, err)
			}
		}
		out = append(out, st)
	}
	return out
}

func splitCalls(s string) []string {
	var out []string
	depth, start := 0, -1
	for i, r := range s {
		switch {
		case r == ' ' && depth == 0:
			continue
		case start < 0:
			start = i
		}
		switch r {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
			if depth == 0 && r == ')' {
				out = append(out, s[start:i+1])
				start = -1
			}
		}
	}
	return out
}

// conv is a trajectory of turns, each a string of calls.
func conv(t testing.TB, turns ...string) *trajeval.Trajectory {
	tr := &trajeval.Trajectory{}
	for i, s := range turns {
		tr.Turns = append(tr.Turns, trajeval.Turn{})
		tr.Steps = append(tr.Steps, turnSteps(t, i+1, s)...)
	}
	tr.Finish()
	return tr
}

func expected(t testing.TB, turns ...string) []adk.Invocation {
	var out []adk.Invocation
	for i, s := range turns {
		var inv adk.Invocation
		for _, st := range turnSteps(t, i+1, s) {
			inv.Calls = append(inv.Calls, adk.Call{Name: st.Name, Args: st.Args})
		}
		out = append(out, inv)
	}
	return out
}

func run(t *testing.T, e trajeval.Evaluator, tr *trajeval.Trajectory) trajeval.Outcome {
	t.Helper()
	out, err := e.Evaluate(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ADK's trajectory exercise, part 4: the shopping agent.
const shoppingExpected = `search_products({"query":"laptop"}) get_product_details({"product_id":"P001"}) check_inventory({"product_id":"P001"})`

func TestSeedShoppingAgent(t *testing.T) {
	cases := []struct {
		name, actual             string
		exact, inOrder, anyOrder bool
		reason                   string
	}{
		{"case 1 exact match", shoppingExpected, true, true, true, "identical calls"},
		{"case 2 extra tool in between",
			`search_products({"query":"laptop"}) search_products({"query":"gaming laptop"}) get_product_details({"product_id":"P001"}) check_inventory({"product_id":"P001"})`,
			false, true, true, "EXACT allows no extra tool"},
		{"case 3 wrong order",
			`search_products({"query":"laptop"}) check_inventory({"product_id":"P001"}) get_product_details({"product_id":"P001"})`,
			false, false, true, "only ANY_ORDER ignores order"},
		{"case 4 missing tool",
			`search_products({"query":"laptop"}) check_inventory({"product_id":"P001"})`,
			false, false, false, "a missing tool fails every type"},
		{"case 5 wrong argument",
			`search_products({"query":"phone"}) get_product_details({"product_id":"P001"}) check_inventory({"product_id":"P001"})`,
			false, false, false, "a wrong argument fails every type"},
	}
	for _, tc := range cases {
		for _, mt := range []struct {
			typ  string
			pass bool
		}{{adk.Exact, tc.exact}, {adk.InOrder, tc.inOrder}, {adk.AnyOrder, tc.anyOrder}} {
			t.Run(tc.name+"/"+mt.typ, func(t *testing.T) {
				e, err := adk.NewTrajectory(expected(t, shoppingExpected), mt.typ, false)
				if err != nil {
					t.Fatal(err)
				}
				out := run(t, e, conv(t, tc.actual))
				want := 0.0
				if mt.pass {
					want = 1
				}
				if out.Score != want {
					t.Errorf("score = %v, want %v (%s)", out.Score, want, tc.reason)
				}
			})
		}
	}
}

// ADK's trajectory exercise, part 2: the match types' examples with tool_a(x=1), tool_b(y=2).
func TestSeedMatchTypes(t *testing.T) {
	exp := `tool_a({"x":1}) tool_b({"y":2})`
	tests := []struct {
		typ, actual string
		pass        bool
		reason      string
	}{
		{adk.Exact, `tool_a({"x":1}) tool_b({"y":2})`, true, "EXACT pass"},
		{adk.Exact, `tool_a({"x":1}) tool_c() tool_b({"y":2})`, false, "extra tool"},
		{adk.Exact, `tool_b({"y":2}) tool_a({"x":1})`, false, "wrong order"},
		{adk.Exact, `tool_a({"x":1})`, false, "missing tool"},
		{adk.InOrder, `tool_a({"x":1}) tool_b({"y":2})`, true, "IN_ORDER pass"},
		{adk.InOrder, `tool_a({"x":1}) tool_c() tool_b({"y":2})`, true, "extra OK"},
		{adk.InOrder, `tool_b({"y":2}) tool_a({"x":1})`, false, "wrong order"},
		{adk.InOrder, `tool_a({"x":1})`, false, "missing tool"},
		{adk.AnyOrder, `tool_a({"x":1}) tool_b({"y":2})`, true, "ANY_ORDER pass"},
		{adk.AnyOrder, `tool_b({"y":2}) tool_a({"x":1})`, true, "order OK"},
		{adk.AnyOrder, `tool_a({"x":1}) tool_c() tool_b({"y":2})`, true, "extra OK"},
		{adk.AnyOrder, `tool_a({"x":1})`, false, "missing tool"},
		{adk.AnyOrder, `tool_a({"x":2}) tool_b({"y":2})`, false, "wrong args"},
		{adk.Exact, `tool_a({"x":1.0}) tool_b({"y":2e0})`, true, "numbers by value"},
		{adk.Exact, `tool_a({"x":1,"z":0}) tool_b({"y":2})`, false, "an extra argument key is a different call (ADK compares dicts)"},
		{adk.Exact, `tool_a({"x":true}) tool_b({"y":2})`, false, "a bool is not the number 1 (ADK's == says it is)"},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.reason, func(t *testing.T) {
			e, _ := adk.NewTrajectory(expected(t, exp), tt.typ, false)
			out := run(t, e, conv(t, tt.actual))
			if (out.Score == 1) != tt.pass {
				t.Errorf("score = %v, want pass=%v (%s)", out.Score, tt.pass, tt.reason)
			}
		})
	}
}

func TestTrajectoryAverage(t *testing.T) {
	tests := []struct {
		name     string
		expected []string
		actual   []string
		typ      string
		score    float64
		warn     string
		reason   string
	}{
		{"mean of invocations", []string{`a()`, `b()`}, []string{`a()`, `c()`}, adk.Exact, 0.5, "", "one of two invocations passes"},
		{"missing turn scores 0", []string{`a()`, `b()`, `c()`}, []string{`a()`, `b()`}, adk.Exact, 2.0 / 3, "invocation 3 has no turn and scores 0",
			"ADK would zip and score 1.0; the missing invocation counts 0"},
		{"extra turns reported", []string{`a()`}, []string{`a()`, `b()`}, adk.Exact, 1, "turn 2 is not scored", "extra turns are reported"},
		{"empty expected exact", []string{``}, []string{`a()`}, adk.Exact, 0, "", "EXACT: no calls expected, one made"},
		{"empty expected in order", []string{``}, []string{`a()`}, adk.InOrder, 1, "", "IN_ORDER: nothing expected, passes"},
		{"both empty", []string{``}, []string{``}, adk.Exact, 1, "", "no calls expected or made"},
		{"optimal any order", []string{`r({"p":"b"}) r({"p":"a"})`}, []string{`r({"p":"a"}) r({"p":"b"})`}, adk.AnyOrder, 1, "", "repeated names paired optimally"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := adk.NewTrajectory(expected(t, tt.expected...), tt.typ, false)
			if err != nil {
				t.Fatal(err)
			}
			out := run(t, e, conv(t, tt.actual...))
			if math.Abs(out.Score-tt.score) > 1e-9 {
				t.Errorf("score = %v, want %v (%s)", out.Score, tt.score, tt.reason)
			}
			got := strings.Join(out.Details.Warnings, "\n")
			if (tt.warn == "") != (got == "") || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings = %q, want %q", got, tt.warn)
			}
			if len(out.Members) != len(tt.expected) {
				t.Errorf("%d members, want one per invocation", len(out.Members))
			}
		})
	}
}

func TestTrajectoryUnknownTurns(t *testing.T) {
	// A trace that cannot say which turn a call belongs to is one turn.
	tr := &trajeval.Trajectory{Steps: []trajeval.Step{{Name: "a", Args: map[string]any{}}, {Name: "b"}}}
	e, _ := adk.NewTrajectory(expected(t, `a() b()`), adk.Exact, false)
	if out := run(t, e, tr); out.Score != 1 || len(out.Details.Warnings) != 0 {
		t.Errorf("score = %v, warnings %v; want 1 and none", out.Score, out.Details.Warnings)
	}
}

func str(s string) *string { return &s }

func TestResponseMatch(t *testing.T) {
	tests := []struct {
		name   string
		want   []*string
		got    []*string
		score  float64
		reason string
	}{
		{"identical", []*string{str("I found the Pro Laptop for $1299.")}, []*string{str("I found the Pro Laptop for $1299.")}, 1, "same text"},
		{"paraphrase", []*string{str("I found the Pro Laptop for $1299.")}, []*string{str("I found the Pro Laptop, priced at $1299.")}, 0.8,
			"6 common tokens of 7 and 8: F = 12/15"},
		{"stemming", []*string{str("The flights are booked")}, []*string{str("the flight is booking")}, 0.75, "flights/flight and booked/booking stem alike: 3 of 4"},
		{"missing turn", []*string{str("a b"), str("c d")}, []*string{str("a b")}, 0.5, "the second invocation has no turn and scores 0"},
		{"unscored invocation", []*string{nil, str("c d")}, []*string{str("x"), str("c d")}, 1, "no expected response: not scored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inv []adk.Invocation
			for _, w := range tt.want {
				inv = append(inv, adk.Invocation{FinalResponse: w})
			}
			tr := &trajeval.Trajectory{}
			for _, g := range tt.got {
				tr.Turns = append(tr.Turns, trajeval.Turn{FinalResponse: g})
			}
			out := run(t, adk.NewResponseMatch(inv, 0.8), tr)
			if math.Abs(out.Score-tt.score) > 1e-9 {
				t.Errorf("score = %v, want %v (%s)", out.Score, tt.score, tt.reason)
			}
		})
	}
	_, err := adk.NewResponseMatch([]adk.Invocation{{}}, 0.8).Evaluate(context.Background(), &trajeval.Trajectory{})
	if err == nil {
		t.Error("no expected response at all: want an error, not a score")
	}
}

func TestSuiteYAML(t *testing.T) {
	build := func(y string) (*eval.Configured, error) {
		n, err := config.Parse("suite.yaml", []byte(y))
		if err != nil {
			return nil, err
		}
		return spec.Build(n, &spec.Env{Types: builtin.Types()})
	}
	c, err := build(`
type: tool_trajectory_avg_score
match_type: in-order
invocations:
  - tool_uses: [{name: search_products, args: {query: laptop}}]
    final_response: Found it.
`)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run(context.Background(), conv(t, `search_products({"query":"laptop"}) log()`))
	if r.Score != 1 || r.Status != trajeval.StatusPass {
		t.Errorf("got %v %s, want 1 pass", r.Score, r.Status)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"type: tool_trajectory_avg_score\nmatch_type: INORDER\ninvocations: [{tool_uses: []}]\n", `did you mean "IN_ORDER"?`},
		{"type: tool_trajectory_avg_score\n", "missing invocations"},
		{"type: response_match_score\ninvocations: [{final_reponse: x}]\n", `did you mean "final_response"?`},
	} {
		if _, err := build(bad.yaml); err == nil || !errors.Is(err, trajeval.ErrConfig) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error = %v, want %q", err, bad.want)
		}
	}
}

func Example() {
	exp := []adk.Invocation{
		{Calls: []adk.Call{{Name: "search_products", Args: map[string]any{"query": "laptop"}}}},
		{Calls: []adk.Call{{Name: "add_to_cart", Args: map[string]any{"product_id": "P001", "quantity": json.Number("1")}}}},
	}
	e, _ := adk.NewTrajectory(exp, adk.Exact, false)
	t := &trajeval.Trajectory{
		Turns: []trajeval.Turn{{}},
		Steps: []trajeval.Step{{Turn: 1, Name: "search_products", Args: map[string]any{"query": "laptop"}}},
	}
	out, _ := e.Evaluate(context.Background(), t)
	fmt.Println(out.Score)
	fmt.Println(out.Details.Warnings[0])
	// Output:
	// 0.5
	// the eval case has 2 invocations but the trace has 1 turn: invocation 2 has no turn and scores 0
}
