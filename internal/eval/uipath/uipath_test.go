package uipath_test

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
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	_ "github.com/trajeval/trajeval/internal/eval/uipath"
)

// build reads one evaluator from YAML.
func build(t testing.TB, yaml string) *eval.Configured {
	t.Helper()
	c, err := tryBuild(yaml)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return c
}

func tryBuild(yaml string) (*eval.Configured, error) {
	n, err := config.Parse("suite.yaml", []byte(yaml))
	if err != nil {
		return nil, err
	}
	return spec.Build(n, &spec.Env{Types: builtin.Types()})
}

// names is a trajectory of calls without arguments: "a b c".
func names(s string) *trajeval.Trajectory {
	t := &trajeval.Trajectory{}
	for _, n := range strings.Fields(s) {
		t.Steps = append(t.Steps, trajeval.Step{Name: n})
	}
	t.Finish()
	return t
}

// traj is a trajectory from JSON calls: [{"name":..., "args":..., "result":...}].
func traj(t testing.TB, calls string) *trajeval.Trajectory {
	t.Helper()
	var raw []struct {
		Name   string          `json:"name"`
		Args   json.RawMessage `json:"args"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(calls), &raw); err != nil {
		t.Fatal(err)
	}
	tr := &trajeval.Trajectory{}
	for _, r := range raw {
		s := trajeval.Step{Name: r.Name}
		s.Args = decode(t, r.Args)
		s.Result = decode(t, r.Result)
		tr.Steps = append(tr.Steps, s)
	}
	tr.Finish()
	return tr
}

func decode(t testing.TB, b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func run(c *eval.Configured, t *trajeval.Trajectory) trajeval.Result {
	return c.Run(context.Background(), t)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestToolCallOrder(t *testing.T) {
	tests := []struct {
		name     string
		expected string
		strict   bool
		actual   string
		score    float64
		reason   string
	}{
		{"seed LCS example", "A B C D", false, "A X B D", 0.75, "seed 002: LCS [A B D] of 4 expected"},
		{"seed perfect match", "validate_user check_inventory create_order", false, "validate_user check_inventory create_order", 1, "seed 002 basic example"},
		{"seed strict security", "authenticate_user verify_permissions access_resource", true, "authenticate_user verify_permissions access_resource", 1, "seed 002 strict example"},
		{"seed missing sort", "search filter sort display", false, "search filter display", 0.75, "seed 002 partial credit: 3/4"},
		{"seed db transaction", "begin_transaction validate_data update_records commit_transaction", true, "begin_transaction validate_data update_records commit_transaction", 1, "seed 002 strict transaction"},
		{"seed api workflow", "get_api_token fetch_user_data enrich_data post_to_webhook log_result", false, "get_api_token fetch_user_data enrich_data post_to_webhook log_result", 1, "seed 002 API workflow"},
		{"strict extra tool", "a b", true, "a x b", 0, "strict: any difference scores 0"},
		{"strict wrong order", "a b", true, "b a", 0, "strict: order matters"},
		{"lcs extra tools free", "a b", false, "x a y b z", 1, "non-strict ignores extras"},
		{"empty actual", "a b", false, "", 0, "seed 002: empty actual calls score 0"},
		{"repeats listed twice", "a a b", false, "a b a b", 1, "repeated calls are separate positions"},
		{"case-sensitive", "Search", false, "search", 0, "names compare case-sensitively"},
		{"reversed", "a b c", false, "c b a", 1.0 / 3, "only one of three keeps its order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := fmt.Sprintf("type: tool_call_order\nstrict: %v\ntool_calls_order: [%s]\n", tt.strict, strings.Join(strings.Fields(tt.expected), ", "))
			r := run(build(t, y), names(tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s)", r.Score, tt.score, tt.reason)
			}
			wantStatus := trajeval.StatusFail
			if tt.score == 1 {
				wantStatus = trajeval.StatusPass
			}
			if r.Status != wantStatus {
				t.Errorf("status = %s, want %s", r.Status, wantStatus)
			}
		})
	}
}

func TestToolCallOrderJustification(t *testing.T) {
	r := run(build(t, "type: uipath-tool-call-order\ntoolCallsOrder: [search, filter, sort, display]\n"), names("search filter display"))
	got, _ := json.Marshal(r.Details.Notes)
	want := `{"actual":["search","filter","display"],"expected":["search","filter","sort","display"],"lcs":["search","filter","display"]}`
	if string(got) != want {
		t.Errorf("notes = %s\nwant    %s", got, want)
	}
	if len(r.Details.Missing) != 1 || r.Details.Missing[0].Tool != "sort" {
		t.Errorf("missing = %+v, want sort", r.Details.Missing)
	}
}

func TestToolCallCount(t *testing.T) {
	tests := []struct {
		name   string
		counts string
		strict bool
		actual string
		score  float64
		reason string
	}{
		{"all met", `{search: [">=", 1], book: ["==", 1]}`, false, "search search book", 1, "both constraints hold"},
		{"half met", `{search: [">=", 1], book: ["=", 2]}`, false, "search book", 0.5, "fraction of constraints met"},
		{"strict half", `{search: [">=", 1], book: ["=", 2]}`, true, "search book", 0, "strict is all or nothing"},
		{"zero with no calls", `{delete: ["=", 0]}`, false, "", 1, "UiPath bug: = 0 must hold when nothing was called"},
		{"zero with other calls", `{delete: ["==", 0]}`, false, "search", 1, "a tool never called has count 0"},
		{"not equal", `{search: ["!=", 2]}`, false, "search search", 0, "!= fails at equality"},
		{"less than", `{search: ["<", 3]}`, false, "search search", 1, "< holds"},
		{"greater", `{search: [">", 2]}`, false, "search search", 0, "> fails at equality"},
		{"less or equal", `{search: ["<=", 2]}`, false, "search search", 1, "<= holds at equality"},
		{"bare number", `{search: 2}`, false, "search search", 1, "a bare n is = n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := fmt.Sprintf("type: tool_call_count\nstrict: %v\ntool_calls_count: %s\n", tt.strict, tt.counts)
			r := run(build(t, y), names(tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s); details %+v", r.Score, tt.score, tt.reason, r.Details.Checks)
			}
		})
	}
}

func TestToolCallArgs(t *testing.T) {
	tests := []struct {
		name     string
		expected string
		flags    string
		actual   string
		score    float64
		reason   string
	}{
		{"exact match", `[{name: get_weather, args: {city: Paris}}]`, "", `[{"name":"get_weather","args":{"city":"Paris"}}]`, 1, "same keys, equal values"},
		{"subset false rejects extra keys", `[{name: get_weather, args: {city: Paris}}]`, "subset: false", `[{"name":"get_weather","args":{"city":"Paris","units":"C"}}]`, 0, "UiPath bug: subset false must reject extra actual keys"},
		{"subset true allows extra keys", `[{name: get_weather, args: {city: Paris}}]`, "subset: true", `[{"name":"get_weather","args":{"city":"Paris","units":"C"}}]`, 1, "subset: expected ⊆ actual"},
		{"numbers by value", `[{name: add, args: {a: 1, b: 2.0}}]`, "", `[{"name":"add","args":{"a":1.0,"b":2}}]`, 1, "1 = 1.0"},
		{"bool is not a number", `[{name: flag, args: {on: true}}]`, "", `[{"name":"flag","args":{"on":1}}]`, 0, "true ≠ 1, unlike Python's =="},
		{"any order", `[{name: a, args: {x: 1}}, {name: b, args: {y: 2}}]`, "", `[{"name":"b","args":{"y":2}},{"name":"a","args":{"x":1}}]`, 1, "order does not matter"},
		{"partial credit", `[{name: a, args: {x: 1}}, {name: b, args: {y: 2}}]`, "", `[{"name":"a","args":{"x":1}},{"name":"b","args":{"y":3}}]`, 0.5, "one of two matched"},
		{"strict partial", `[{name: a, args: {x: 1}}, {name: b, args: {y: 2}}]`, "strict: true", `[{"name":"a","args":{"x":1}},{"name":"b","args":{"y":3}}]`, 0, "strict is all or nothing"},
		{"no greedy false negative", `[{name: read}, {name: read, args: {path: b}}]`, "subset: true", `[{"name":"read","args":{"path":"b"}},{"name":"read","args":{"path":"a"}}]`, 1,
			"UiPath bug: greedy pairing gives the loose call the only step the strict one matches"},
		{"no greedy false negative subset", `[{name: q, args: {a: 1}}, {name: q, args: {a: 1, b: 2}}]`, "subset: true", `[{"name":"q","args":{"a":1,"b":2}},{"name":"q","args":{"a":1}}]`, 1,
			"greedy scores 0.5 here; a perfect assignment exists"},
		{"each step used once", `[{name: a, args: {x: 1}}, {name: a, args: {x: 1}}]`, "", `[{"name":"a","args":{"x":1}}]`, 0.5, "one step cannot satisfy two expected calls"},
		{"missing args any", `[{name: a}]`, "", `[{"name":"a","args":{"x":1}}]`, 1, "no args: any arguments"},
		{"nested exact", `[{name: a, args: {o: {k: 1}}}]`, "", `[{"name":"a","args":{"o":{"k":1,"j":2}}}]`, 0, "exact holds at every depth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := fmt.Sprintf("type: tool_call_args\n%s\ntool_calls: %s\n", tt.flags, tt.expected)
			r := run(build(t, y), traj(t, tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s); details %+v", r.Score, tt.score, tt.reason, r.Details)
			}
		})
	}
}

func TestToolCallArgsExplains(t *testing.T) {
	r := run(build(t, "type: tool_call_args\ntool_calls: [{name: get_weather, args: {city: New York}}]\n"),
		traj(t, `[{"name":"get_weather","args":{"city":"NYC"}},{"name":"log"}]`))
	d := r.Details
	if len(d.Missing) != 1 || len(d.Missing[0].Near) != 1 || len(d.Missing[0].Near[0].Diffs) == 0 {
		t.Fatalf("missing = %+v", d.Missing)
	}
	if got := d.Missing[0].Near[0].Diffs[0].String(); got != `args.city: expected "New York", got "NYC"` {
		t.Errorf("diff = %s", got)
	}
	if len(d.Extra) != 2 {
		t.Errorf("extra = %+v, want both steps", d.Extra)
	}
}

func TestToolCallOutput(t *testing.T) {
	tests := []struct {
		name     string
		expected string
		actual   string
		score    float64
		reason   string
	}{
		{"string equal", `[{name: lookup, output: "ok"}]`, `[{"name":"lookup","result":"ok"}]`, 1, "strings compare exactly"},
		{"json by value", `[{name: calc, output: "{\"result\": 8.0}"}]`, `[{"name":"calc","result":{"result":8}}]`, 1, "both parse as JSON: compared as values"},
		{"number vs string", `[{name: calc, output: "8"}]`, `[{"name":"calc","result":8.0}]`, 1, "\"8\" parses as the number 8"},
		{"content field", `[{name: calc, output: "done"}]`, `[{"name":"calc","result":{"content":"done"}}]`, 1, "UiPath keeps a result's content field"},
		{"different", `[{name: calc, output: "9"}]`, `[{"name":"calc","result":"8"}]`, 0, "values differ"},
		{"optimal pairing", `[{name: f, output: "a"}, {name: f, output: "b"}]`, `[{"name":"f","result":"b"},{"name":"f","result":"a"}]`, 1, "any order, one step each"},
		{"missing result", `[{name: f, output: "a"}]`, `[{"name":"f"}]`, 0, "no result does not equal an output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(build(t, "type: tool_call_output\ntool_outputs: "+tt.expected+"\n"), traj(t, tt.actual))
			if !near(r.Score, tt.score) {
				t.Errorf("score = %v, want %v (%s)", r.Score, tt.score, tt.reason)
			}
		})
	}
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"empty expected order", "type: tool_call_order\ntool_calls_order: []\n", "suite.yaml:2:19: tool_calls_order: tool_calls_order is empty"},
		{"missing order", "type: tool_call_order\nstrict: true\n", "suite.yaml:1:1: missing tool_calls_order"},
		{"misspelt key", "type: tool_call_order\ntool_call_order: [a]\n", `unknown key "tool_call_order" (did you mean "tool_calls_order"?)`},
		{"bad operator", "type: tool_call_count\ntool_calls_count: {a: [\"=>\", 1]}\n", `unknown operator "=>"`},
		{"count not a list", "type: tool_call_count\ntool_calls_count: {a: \"x\"}\n", "a count constraint is [operator, number]"},
		{"negative count", "type: tool_call_count\ntool_calls_count: {a: [\">\", -1]}\n", "must not be negative"},
		{"args not object", "type: tool_call_args\ntool_calls: [{name: a, args: [1]}]\n", "args must be an object"},
		{"args call without name", "type: tool_call_args\ntool_calls: [{args: {x: 1}}]\n", "the call has no name"},
		{"output missing", "type: tool_call_output\ntool_outputs: [{name: a}]\n", "expected output of a is missing"},
		{"strict not bool", "type: tool_call_args\nstrict: yes please\ntool_calls: [{name: a}]\n", "expected true or false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tryBuild(tt.yaml)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !errors.Is(err, trajeval.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func Example() {
	n, _ := config.Parse("suite.yaml", []byte(`
type: tool_call_order
tool_calls_order: [search, filter, sort, display]
`))
	c, _ := spec.Build(n, &spec.Env{Types: builtin.Types()})
	t := &trajeval.Trajectory{Steps: []trajeval.Step{{Name: "search"}, {Name: "filter"}, {Name: "display"}}}
	r := c.Run(context.Background(), t)
	fmt.Println(r.Score, r.Status, r.Details.Notes["lcs"])
	// Output: 0.75 fail [search filter display]
}
