package check_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
)

// step is one call with JSON arguments.
func step(t *testing.T, name, args string) trajeval.Step {
	t.Helper()
	s := trajeval.Step{Name: name}
	if args != "" {
		d := json.NewDecoder(strings.NewReader(args))
		d.UseNumber()
		var v map[string]any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("args %s: %v", args, err)
		}
		s.Args = v
	}
	return s
}

func traj(steps ...trajeval.Step) *trajeval.Trajectory {
	t := &trajeval.Trajectory{Steps: steps}
	t.Finish()
	return t
}

func score(t *testing.T, ev trajeval.Evaluator, tr *trajeval.Trajectory) float64 {
	t.Helper()
	if err := check.Validate(ev); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	out, err := ev.Evaluate(context.Background(), tr)
	if err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	return out.Score
}

// TestOperators: every operator, each with a value it matches and one it
// does not.
func TestOperators(t *testing.T) {
	tests := []struct {
		name    string
		want    any
		yes, no string // the actual value of argument v, as JSON
		reason  string
	}{
		{"Regex", check.Regex("^Par"), `"Paris"`, `"Lyon"`, "unanchored RE2, anchored by ^"},
		{"Regex case", check.Regex("(?i)paris"), `"PARIS"`, `42`, "a number never matches a regex"},
		{"Contains text", check.Contains("York"), `"New York"`, `"Boston"`, "a substring"},
		{"Contains element", check.Contains(2), `[1, 2, 3]`, `[1, 3]`, "an array element"},
		{"Gt", check.Gt(1), `2`, `1`, "strictly greater"},
		{"Gte", check.Gte(1), `1`, `0.5`, "greater or equal"},
		{"Lt", check.Lt(1), `0`, `1`, "strictly less"},
		{"Lte", check.Lte(1), `1.0`, `1.5`, "1 = 1.0"},
		{"Approx", check.Approx(0.3), `0.30000000001`, `0.31`, "within 1e-9"},
		{"Near abs", check.Near(100, 0.5, 0), `100.4`, `101`, "within the absolute tolerance"},
		{"Near rel", check.Near(100, 0, 0.01), `100.9`, `102`, "within 1%"},
		{"Type", check.Type("integer"), `3`, `3.5`, "an integer has no fraction"},
		{"Type list", check.Type("string", "null"), `null`, `true`, "any of the types"},
		{"Any", check.Any(), `{"x": 1}`, ``, "present, whatever its value; absent fails"},
		{"OneOf", check.OneOf("a", check.Regex("^b")), `"bee"`, `"c"`, "any of the patterns"},
		{"Not", check.Not(check.Regex("^a")), `"b"`, `"apple"`, "the negation"},
		{"literal number", 5, `5.0`, `6`, "Go numbers compare by JSON value"},
		{"literal nested", map[string]any{"a": []int{1, 2}}, `{"a": [1, 2], "b": 0}`, `{"a": [2, 1]}`, "partial: extra keys allowed; arrays in order"},
		{"literal dollar key", map[string]any{"$ref": "x"}, `{"$ref": "x"}`, `{"ref": "x"}`, "a key starting with $ is literal in Args"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := check.InOrder(check.Call("f", check.Args{"v": tc.want}))
			if got := score(t, ev, traj(step(t, "f", `{"v": `+tc.yes+`}`))); got != 1 {
				t.Errorf("%v against %s: score %v, want 1: %s", tc.want, tc.yes, got, tc.reason)
			}
			no := `{}`
			if tc.no != "" {
				no = `{"v": ` + tc.no + `}`
			}
			if got := score(t, ev, traj(step(t, "f", no))); got != 0 {
				t.Errorf("%v against %s: score %v, want 0: %s", tc.want, no, got, tc.reason)
			}
		})
	}
}

// TestBadSettings: every bad setting is an error from Validate and from
// Evaluate, never a panic nor a score.
func TestBadSettings(t *testing.T) {
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		want   string
		reason string
	}{
		{"invalid regex", check.InOrder(check.Call("a", check.Args{"q": check.Regex("(")})), "invalid regular expression", "RE2 must compile"},
		{"empty tool", check.AnyOrder(check.Call("")), "empty tool name", "a call needs a tool"},
		{"negative minimum", check.AnyOrder(check.Minimum("a", -1)), "at least 0", "a count is never negative"},
		{"empty minimum tool", check.AnyOrder(check.Minimum("", 1)), "empty", "a minimum needs a tool"},
		{"minimum in order", check.InOrder(check.Call("a"), check.Minimum("a", 1)), "does not take the Minimum option", "minimums count in AnyOrder only"},
		{"latency in subset", check.Subset(check.Call("a", check.MaxDuration(time.Second))), "does not check latency", "Subset checks no latency"},
		{"negative latency", check.InOrder(check.Call("a", check.MaxDuration(-time.Second))), "must not be negative", "a negative limit is never met"},
		{"unknown score", check.InOrder(check.Call("a"), check.Score("median")), `unknown score "median"`, "a score is one of the five"},
		{"nil option", check.InOrder(nil), "nil option", "a nil option is a mistake"},
		{"nil call option", check.InOrder(check.Call("a", nil)), "nil option", "a nil call option is a mistake"},
		{"NaN argument", check.InOrder(check.Call("a", check.Args{"x": math.NaN()})), "not a JSON number", "NaN has no JSON form"},
		{"unknown type", check.InOrder(check.Call("a", check.Args{"x": check.Type("float")})), "unknown type float", "JSON types only"},
		{"empty OneOf", check.InOrder(check.Call("a", check.Args{"x": check.OneOf()})), "non-empty list", "OneOf needs a pattern"},
		{"negative tolerance", check.InOrder(check.Call("a", check.Args{"x": check.Near(1, -1, 0)})), "≥ 0", "a tolerance is never negative"},
		{"no limits", check.ExecutionMetrics(check.Limits{}), "sets no limit", "a budget must set a limit"},
		{"negative limit", check.ExecutionMetrics(check.Limits{MaxToolCalls: new(-1)}), "must not be negative", "a limit is never negative"},
		{"ratio over 1", check.ExecutionMetrics(check.Limits{ExplorationRatio: new(1.5)}), "between 0 and 1", "a ratio is a share"},
		{"order without calls", check.ToolCallOrder(), "empty", "UiPath calls it invalid criteria"},
		{"order with args", check.ToolCallOrder(check.Call("a", check.Args{"x": 1})), "names only", "order compares names"},
		{"count operator", check.ToolCallCount(check.CountOf("a", "=>", 1)), `unknown operator "=>"`, "one of = == != > < >= <="},
		{"count negative", check.ToolCallCount(check.CountOf("a", ">=", -1)), "must not be negative", "a count is never negative"},
		{"count empty", check.ToolCallCount(check.Strict), "empty", "no constraint"},
		{"args mode", check.ToolCallArgs(check.Call("a"), check.IgnoreArgs), "do not apply", "UiPath compares exactly or by subset"},
		{"output missing", check.ToolCallOutput(check.Call("a")), "no expected result", "an output check needs Returns"},
		{"returns elsewhere", check.InOrder(check.Call("a", check.Returns(1))), "does not compare results", "Returns only in ToolCallOutput"},
		{"unknown match", check.ToolCorrectness(check.Call("a"), check.Match("names")), `unknown match "names"`, "one of the three"},
		{"bad From path", check.InOrder(check.Call("a", check.Args{"x": check.From("search.result[")})), `path "search.result[", column 15`, "the column in the path"},
		{"From without result", check.InOrder(check.Call("a", check.Args{"x": check.From("search.items")})), "comes .result or .args", "a source is a result or arguments"},
		{"bad grounding path", check.Grounding(check.GroundingSettings{Ignore: []string{"a..b"}}), `ignore[0]: path "a..b", column 3`, "the list item and column"},
		{"negative MinLength", check.Grounding(check.GroundingSettings{MinLength: -2}), "must not be negative", "a length is never negative"},
		{"bad pattern", check.ToolErrors(check.ErrorPattern("(")), "invalid pattern", "RE2 must compile"},
		{"empty pattern", check.ToolErrors(check.ErrorPattern("")), "empty", "an empty pattern matches everything"},
		{"efficiency options", check.Efficiency(check.Strict), "does not take the Strict option", "ignored options are errors"},
		{"no tools", check.ToolCallValidity(nil), "no tool definitions", "validity needs tools"},
		{"duplicate tools", check.ToolCallValidity([]check.Tool{{Name: "a"}, {Name: "a"}}), "defined twice", "one definition per tool"},
		{"bad schema", check.ToolCallValidity([]check.Tool{{Name: "a", Parameters: map[string]any{"type": 5}}}), "invalid JSON Schema", "a schema must compile"},
		{"schema not an object", check.ToolCallValidity([]check.Tool{{Name: "a", Parameters: "[1]"}}), "must be a JSON object", "a schema is an object"},
		{"no tools for names", check.ToolNameReliability(nil), "no tool definitions", "reliability needs tools"},
		{"empty tool name", check.ToolDescriptionReliability([]check.Tool{{Name: ""}}), "empty name", "a tool needs a name"},
		{"calls to a budget", check.ToolErrors(check.Call("a")), "takes no expected calls", "ToolErrors looks at every call"},
		{"no rules", check.Rules(), "has no rules", "nothing to check is not a pass"},
		{"rules with calls", check.Rules(check.Call("a")), "takes no expected calls", "a call is not a rule"},
		{"rule elsewhere", check.InOrder(check.Call("a"), check.Never("b")), "does not take the Rule option", "rules belong to Rules"},
		{"negative count", check.Rules(check.AtMost("a", -1)), "must not be negative", "a count is never negative"},
		{"window 0", check.Rules(check.Within(check.Call("a"), check.Call("b"), 0)), "at least 1", "a window of no steps"},
		{"rule empty tool", check.Rules(check.Never("")), "empty tool name", "a rule needs its tool"},
		{"rule latency", check.Rules(check.Before(check.Call("a", check.MaxDuration(time.Second)), check.Call("b"))), "does not check latency", "rules check order, not latency"},
		{"rule syntax", check.Rules(check.Pattern("a | | b")), "empty alternative before '|' at column 5", "the column of a syntax error"},
		{"rule where unused", check.Rules(check.Pattern("a", check.Where("b", check.Call("b")))), `where names "b"`, "a condition that applies to nothing"},
		{"rule bad args", check.Rules(check.Never("a", check.Args{"q": check.Regex("(")})), "invalid regular expression", "RE2 must compile"},
		{"per turn elsewhere", check.InOrder(check.Call("a"), check.PerTurn), "does not take the PerTurn option", "PerTurn is a Rules option"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := check.Validate(tc.ev)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want an error containing %q: %s", err, tc.want, tc.reason)
			}
			if !errors.Is(err, check.ErrSetting) {
				t.Errorf("error %v does not match ErrSetting", err)
			}
			out, eerr := tc.ev.Evaluate(context.Background(), traj())
			if eerr == nil || eerr.Error() != err.Error() {
				t.Errorf("Evaluate = %v, %v; want the setting error %v", out, eerr, err)
			}
		})
	}
}

// TestSequences: the four modes, argument modes and string rules, and
// scores, on small trajectories.
func TestSequences(t *testing.T) {
	ab := traj(step(t, "a", `{"x": " Paris ", "y": 1}`), step(t, "b", ""))
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		tr     *trajeval.Trajectory
		want   float64
		reason string
	}{
		{"in order gap", check.InOrder(check.Call("a"), check.Call("b")), traj(step(t, "a", ""), step(t, "c", ""), step(t, "b", "")), 1, "other calls may sit between"},
		{"in order swapped", check.InOrder(check.Call("b"), check.Call("a")), ab, 0.5, "only one of two in order"},
		{"any order swapped", check.AnyOrder(check.Call("b"), check.Call("a")), ab, 1, "order does not count"},
		{"exact extra", check.Exact(check.Call("a")), ab, 0.5, "max(|E|, |A|)"},
		{"exact nothing", check.Exact(), traj(), 1, "nothing expected, nothing done"},
		{"subset", check.Subset(check.Call("a")), ab, 0.5, "b is not allowed"},
		{"nil trajectory", check.InOrder(check.Call("a")), nil, 0, "a nil trajectory is an empty one"},
		{"partial args", check.InOrder(check.Call("a", check.Args{"y": 1})), ab, 1, "other keys allowed"},
		{"exact args per call", check.InOrder(check.Call("a", check.Args{"y": 1}, check.ExactArgs)), ab, 0, "x is not expected"},
		{"exact args for all", check.InOrder(check.Call("a", check.Args{"y": 1}), check.ExactArgs), ab, 0, "the default mode of the calls"},
		{"per call wins", check.InOrder(check.Call("a", check.Args{"y": 1}, check.PartialArgs), check.ExactArgs), ab, 1, "a call's own mode wins"},
		{"subset args", check.InOrder(check.Call("a", check.Args{"x": " Paris ", "y": 1, "z": 2}, check.SubsetArgs)), ab, 1, "expected keys may be missing"},
		{"ignore args", check.InOrder(check.Call("a", check.Args{"y": 2}, check.IgnoreArgs)), ab, 1, "arguments not compared"},
		{"paths", check.InOrder(check.Call("a", check.Args{"y": 1, "x": "other"}, check.ArgPaths("y"))), ab, 1, "only y is compared"},
		{"case and space", check.InOrder(check.Call("a", check.Args{"x": "PARIS"}), check.IgnoreCase, check.TrimSpace), ab, 1, "string rules"},
		{"no string rules", check.InOrder(check.Call("a", check.Args{"x": "PARIS"})), ab, 0, "strings compare exactly by default"},
		{"f1", check.AnyOrder(check.Call("a"), check.Call("c"), check.ScoreF1), ab, 0.5, "P = R = 1/2"},
		{"max", check.InOrder(check.Call("a"), check.ScoreMax), ab, 0.5, "hits / max(|E|, |A|)"},
		{"binary", check.InOrder(check.Call("a"), check.Call("c"), check.ScoreBinary), ab, 0, "all or nothing"},
		{"recall", check.AnyOrder(check.Call("a"), check.Call("c"), check.ScoreRecall), ab, 0.5, "hits / |E|"},
		{"minimum unmet", check.AnyOrder(check.Minimum("a", 2)), ab, 0, "one call of a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := score(t, tc.ev, tc.tr); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("score %v, want %v: %s", got, tc.want, tc.reason)
			}
		})
	}
}

// TestOthers: UiPath's and Dokimos's evaluators on one trajectory.
func TestOthers(t *testing.T) {
	ok := trajeval.Step{Name: "fetch", Args: map[string]any{"url": "u"}, Result: `{"status": 200}`}
	failed := trajeval.Step{Name: "fetch", Args: map[string]any{"url": "u"}, Error: new(true), ErrorMessage: "timeout"}
	blank := trajeval.Step{Name: "save"}
	tr := traj(ok, failed, blank)
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		want   float64
		reason string
	}{
		{"args", check.ToolCallArgs(check.Call("fetch", check.Args{"url": "u"}), check.Call("save", check.Args{"x": 1})), 0.5, "save has no x"},
		{"args strict", check.ToolCallArgs(check.Call("fetch", check.Args{"url": "u"}), check.Call("save", check.Args{"x": 1}), check.Strict), 0, "all or nothing"},
		{"args subset", check.ToolCallArgs(check.Call("fetch", check.Args{}), check.SubsetArgs), 1, "expected keys only"},
		{"output", check.ToolCallOutput(check.Call("fetch", check.Returns(map[string]any{"status": 200}))), 1, "a JSON string result equals the object"},
		{"output differs", check.ToolCallOutput(check.Call("fetch", check.Returns(404))), 0, "another value"},
		{"order strict", check.ToolCallOrder(check.Call("fetch"), check.Call("save"), check.Strict), 0, "not exactly the list"},
		{"count strict", check.ToolCallCount(check.CountOf("fetch", "=", 2), check.Strict), 1, "= is =="},
		{"errors", check.ToolErrors(), 1.0 / 3, "the failed call and the blank one"},
		{"errors blank ok", check.ToolErrors(check.BlankResultOK), 2.0 / 3, "a blank result succeeds"},
		{"errors pattern", check.ToolErrors(check.BlankResultOK, check.ErrorPattern("200")), 1.0 / 3, "a result matching the pattern fails"},
		{"efficiency", check.Efficiency(), 2.0 / 3, "the second fetch repeats the first"},
		{"correctness names", check.ToolCorrectness(check.Call("fetch"), check.Call("read")), 0.5, "{fetch, read} against {fetch, save}"},
		{"correctness order", check.ToolCorrectness(check.MatchOrder, check.Call("fetch"), check.Call("save")), 2.0 / 3, "LCS 2 over max(2, 3)"},
		{"name reliability", check.ToolNameReliability([]check.Tool{{Name: "search_with_llm"}}), 2.0 / 3, "snake_case and concise, but names its implementation"},
		{"name blocklist", check.ToolNameReliability([]check.Tool{{Name: "fetch_v2"}}, "v2"), 2.0 / 3, "a blocked word"},
		{"description reliability", check.ToolDescriptionReliability([]check.Tool{{Name: "s", Parameters: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}}), 3.0 / 4, "q has no description"},
		{"validity strict", check.ToolCallValidity([]check.Tool{{Name: "fetch", Parameters: json.RawMessage(`{"type": "object", "properties": {}}`)}, {Name: "save"}}, check.Strict), 1.0 / 3, "url is not a property"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := score(t, tc.ev, tr); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("score %v, want %v: %s", got, tc.want, tc.reason)
			}
		})
	}
}

// TestType: every evaluator names its type as a suite file does.
func TestType(t *testing.T) {
	type typed interface{ Type() string }
	for want, ev := range map[string]trajeval.Evaluator{
		"tool_trajectory":              check.InOrder(),
		"execution_metrics":            check.ExecutionMetrics(check.Limits{MaxTokens: new(1)}),
		"tool_call_order":              check.ToolCallOrder(check.Call("a")),
		"tool_call_count":              check.ToolCallCount(check.CountOf("a", ">", 0)),
		"tool_call_args":               check.ToolCallArgs(check.Call("a")),
		"tool_call_output":             check.ToolCallOutput(check.Call("a", check.Returns("x"))),
		"tool_correctness":             check.ToolCorrectness(check.Call("a")),
		"tool_error":                   check.ToolErrors(),
		"tool_efficiency":              check.Efficiency(),
		"tool_call_validity":           check.ToolCallValidity([]check.Tool{{Name: "a"}}),
		"tool_name_reliability":        check.ToolNameReliability([]check.Tool{{Name: "a"}}),
		"tool_description_reliability": check.ToolDescriptionReliability([]check.Tool{{Name: "a"}}),
	} {
		tv, ok := ev.(typed)
		if !ok || tv.Type() != want {
			t.Errorf("evaluator %v: Type() missing or not %s", ev, want)
		}
		if err := check.Validate(ev); err != nil {
			t.Errorf("%s: %v", want, err)
		}
	}
}

func TestForAgent(t *testing.T) {
	steps := &trajeval.Trajectory{
		Steps: []trajeval.Step{{Name: "a", Agent: "root"}, {Name: "b", Agent: "billing-eu"}},
	}
	steps.Finish()
	tests := []struct {
		name    string
		ev      trajeval.Evaluator
		score   float64
		setting string // a setting error, if any
		reason  string
	}{
		{"glob", check.ForAgent(check.Exact(check.Call("b")), "billing-*"), 1, "", "a glob takes in billing-eu"},
		{"bad glob", check.ForAgent(check.Exact(), "billing-["), 0, `agent "billing-[" is not a valid glob`, "refused before running"},
		{"no agent", check.ForAgent(check.Exact()), 0, "names no agent", "no name would score nothing"},
		{"inner error first", check.ForAgent(check.Exact(check.Call("")), "x["), 0, "empty tool name", "the evaluator's own mistake is reported"},
		{"nil evaluator", check.ForAgent(nil, "root"), 0, "a nil evaluator", "never a panic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := check.Validate(tt.ev)
			if tt.setting != "" {
				if err == nil || !strings.Contains(err.Error(), tt.setting) || !errors.Is(err, check.ErrSetting) {
					t.Fatalf("Validate = %v, want a setting error with %q: %s", err, tt.setting, tt.reason)
				}
				return
			}
			out, err := tt.ev.Evaluate(context.Background(), steps)
			if err != nil || out.Score != tt.score {
				t.Errorf("Evaluate = %v, %v; want %v: %s", out.Score, err, tt.score, tt.reason)
			}
		})
	}
}

func TestForAgent_whole(t *testing.T) {
	tr := &trajeval.Trajectory{
		Steps: []trajeval.Step{
			{Name: "find", Agent: "root", Result: map[string]any{"id": "INV-42"}},
			{Name: "pay", Agent: "billing", Args: map[string]any{"invoice": "INV-42"}},
		},
		Agents: []trajeval.Agent{{Name: "billing", Parent: "root"}},
	}
	tr.Finish()
	tests := []struct {
		name   string
		ev     trajeval.Evaluator
		reason string
	}{
		{"grounding", check.Grounding(check.GroundingSettings{}), "billing's value comes from root's result, a source though another agent's"},
		{"from", check.Exact(check.Call("pay", check.Args{"invoice": check.From("find.result.id")})),
			"billing's invoice comes from root's find, an earlier call though another agent's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := check.ForAgent(tt.ev, "billing").Evaluate(context.Background(), tr)
			if err != nil || out.Score != 1 {
				t.Errorf("Evaluate = %v, %v (%+v); want 1: %s", out.Score, err, out.Details, tt.reason)
			}
		})
	}
}
