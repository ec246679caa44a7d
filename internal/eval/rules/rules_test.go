package rules_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/rules"
	"github.com/trajeval/trajeval/internal/eval/rules/pattern"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// traj reads a trajectory written as calls separated by spaces: a call is
// a name, optionally followed by JSON arguments without spaces
// (delete{"force":true}) and @G for parallel group G; "/" starts the
// next turn.
func traj(t *testing.T, calls string) *trajeval.Trajectory {
	t.Helper()
	tr := &trajeval.Trajectory{}
	turn := 1
	for _, f := range strings.Fields(calls) {
		if f == "/" {
			turn++
			continue
		}
		s := trajeval.Step{Index: len(tr.Steps) + 1, Turn: turn}
		if name, g, ok := strings.Cut(f, "@"); ok {
			n, err := strconv.Atoi(g)
			if err != nil {
				t.Fatal(err)
			}
			f, s.ParallelGroup = name, n
		}
		if i := strings.IndexByte(f, '{'); i >= 0 {
			v, err := jsonv.Decode([]byte(f[i:]))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			f, s.Args = f[:i], v
		}
		s.Name = f
		tr.Steps = append(tr.Steps, s)
	}
	for i := range turn {
		tr.Turns = append(tr.Turns, trajeval.Turn{Turn: i + 1})
	}
	return tr
}

func tool(name string) rules.Tool { return rules.Tool{Name: name} }

func withArgs(name, args string) rules.Tool {
	v, err := jsonv.Decode([]byte(args))
	if err != nil {
		panic(err)
	}
	return rules.Tool{Name: name, Args: v}
}

func run(t *testing.T, o rules.Options, calls string) *trajeval.Details {
	t.Helper()
	e, err := rules.New(o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Evaluate(context.Background(), traj(t, calls))
	if err != nil {
		t.Fatal(err)
	}
	if want := float64(out.Details.Hits) / float64(len(o.Rules)); out.Score != want {
		t.Errorf("score %v, want held/rules = %v", out.Score, want)
	}
	return out.Details
}

func TestEvaluator_Evaluate(t *testing.T) {
	tests := []struct {
		name   string
		rule   rules.Rule
		calls  string
		holds  bool
		msg    string // the failure's explanation, when it fails
		reason string
	}{
		{"never holds", rules.Rule{Kind: rules.Never, Tool: tool("delete")}, "search read", true, "", "delete never called"},
		{"never breaks", rules.Rule{Kind: rules.Never, Tool: tool("delete")}, "search delete{\"id\":1} delete", false,
			`step 2 (turn 1) delete {"id":1}: delete must never be called (and 1 more such calls)`, "the first offending call is named"},
		{"never with args holds", rules.Rule{Kind: rules.Never, Tool: withArgs("delete", `{"force":true}`)}, `delete{"force":false}`, true, "", "only forced deletes are forbidden"},
		{"never with args breaks", rules.Rule{Kind: rules.Never, Tool: withArgs("delete", `{"force":true}`)}, `delete{"force":false} delete{"force":true,"id":3}`, false,
			`step 2 (turn 1) delete {"force":true,"id":3}: delete must never be called`, "partial arguments: extra keys allowed"},
		{"never on empty", rules.Rule{Kind: rules.Never, Tool: tool("delete")}, "", true, "", "nothing called breaks no never"},

		{"at_most holds", rules.Rule{Kind: rules.AtMost, Tool: tool("search"), N: 2}, "search search read", true, "", "two is at most two"},
		{"at_most breaks", rules.Rule{Kind: rules.AtMost, Tool: tool("search"), N: 2}, "search search read search", false,
			"step 4 (turn 1) search {}: call 3 of search, at most 2 allowed (3 in all)", "the call over the limit is named"},
		{"at_most 0 on empty", rules.Rule{Kind: rules.AtMost, Tool: tool("search"), N: 0}, "", true, "", "zero calls is at most zero"},
		{"at_least holds", rules.Rule{Kind: rules.AtLeast, Tool: tool("read"), N: 2}, "read x read", true, "", "two reads"},
		{"at_least breaks", rules.Rule{Kind: rules.AtLeast, Tool: tool("read"), N: 2}, "read x", false, "read called 1 time, at least 2 wanted", "one read"},
		{"at_least on empty", rules.Rule{Kind: rules.AtLeast, Tool: tool("read"), N: 1}, "", false, "read called 0 times, at least 1 wanted (no calls at all)", "an empty trajectory calls nothing"},
		{"at_least 0 on empty", rules.Rule{Kind: rules.AtLeast, Tool: tool("read"), N: 0}, "", true, "", "at least zero always holds"},
		{"at_least near miss", rules.Rule{Kind: rules.AtLeast, Tool: withArgs("read", `{"id":2}`), N: 1}, `read{"id":1}`, false,
			`read {"id":2} called 0 times, at least 1 wanted; step 1 (turn 1) read {"id":1} differs: args.id: expected 2, got 1`, "the argument that differed is named"},
		{"exactly holds", rules.Rule{Kind: rules.Exactly, Tool: tool("pay"), N: 1}, "cart pay", true, "", "one payment"},
		{"exactly too many", rules.Rule{Kind: rules.Exactly, Tool: tool("pay"), N: 1}, "pay pay", false, "step 2 (turn 1) pay {}: call 2 of pay, at most 1 allowed (2 in all)", "a second payment"},
		{"exactly too few", rules.Rule{Kind: rules.Exactly, Tool: tool("pay"), N: 1}, "cart", false, "pay called 0 times, at least 1 wanted", "no payment"},
		{"exactly 0", rules.Rule{Kind: rules.Exactly, Tool: tool("pay"), N: 0}, "cart", true, "", "exactly zero is never"},

		{"before holds", rules.Rule{Kind: rules.Before, Tool: tool("check"), Then: tool("buy")}, "check x buy buy", true, "", "every buy has a check earlier"},
		{"before vacuous", rules.Rule{Kind: rules.Before, Tool: tool("check"), Then: tool("buy")}, "x y", true, "", "no buy: nothing to check"},
		{"before breaks", rules.Rule{Kind: rules.Before, Tool: tool("check"), Then: tool("buy")}, "buy check buy", false,
			"step 1 (turn 1) buy {}: no call of check before it", "the first buy comes first"},
		{"before parallel", rules.Rule{Kind: rules.Before, Tool: tool("check"), Then: tool("buy")}, "check@1 buy@1", false,
			"step 2 (turn 1) buy {}: the only earlier calls of check were issued together with it", "calls of one response are not before one another"},
		{"before parallel, earlier response", rules.Rule{Kind: rules.Before, Tool: tool("check"), Then: tool("buy")}, "check@1 check@2 buy@2", true, "", "a check of an earlier response counts"},

		{"after holds", rules.Rule{Kind: rules.After, Tool: tool("edit"), Then: tool("test")}, "edit edit test", true, "", "both edits are followed by a test"},
		{"after vacuous", rules.Rule{Kind: rules.After, Tool: tool("edit"), Then: tool("test")}, "test", true, "", "no edit"},
		{"after breaks", rules.Rule{Kind: rules.After, Tool: tool("edit"), Then: tool("test")}, "edit test edit x edit", false,
			"step 3 (turn 1) edit {}: no call of test after it (2 calls of edit are not followed by one)", "the first unfollowed edit is named"},
		{"after parallel", rules.Rule{Kind: rules.After, Tool: tool("edit"), Then: tool("test")}, "edit@4 test@4", false,
			"step 1 (turn 1) edit {}: no call of test after it", "a test issued with the edit cannot test it"},

		{"immediately_after holds", rules.Rule{Kind: rules.ImmediatelyAfter, Tool: tool("auth"), Then: tool("pay")}, "x auth pay auth pay", true, "", "each pay right after an auth"},
		{"immediately_after breaks", rules.Rule{Kind: rules.ImmediatelyAfter, Tool: tool("auth"), Then: tool("pay")}, "auth x pay", false,
			"step 3 (turn 1) pay {}: right after step 2 (turn 1) x {}, not auth", "a call between"},
		{"immediately_after at start", rules.Rule{Kind: rules.ImmediatelyAfter, Tool: tool("auth"), Then: tool("pay")}, "pay", false,
			"step 1 (turn 1) pay {}: the first call, not right after auth", "nothing before the first call"},
		{"immediately_after vacuous", rules.Rule{Kind: rules.ImmediatelyAfter, Tool: tool("auth"), Then: tool("pay")}, "auth", true, "", "no pay"},

		{"within holds", rules.Rule{Kind: rules.Within, Tool: tool("error"), Then: tool("retry"), N: 2}, "error x retry", true, "", "retry two steps after"},
		{"within breaks", rules.Rule{Kind: rules.Within, Tool: tool("error"), Then: tool("retry"), N: 1}, "error x retry", false,
			"step 1 (turn 1) error {}: no call of retry in the 1 step after it (the next is step 3 (turn 1) retry {}, 2 steps after)", "the retry came too late"},
		{"within cut off", rules.Rule{Kind: rules.Within, Tool: tool("error"), Then: tool("retry"), N: 3}, "x error", false,
			"step 2 (turn 1) error {}: no call of retry in the 3 steps after it (the calls end 0 steps after it)", "the trajectory ended"},
		{"within vacuous", rules.Rule{Kind: rules.Within, Tool: tool("error"), Then: tool("retry"), N: 1}, "x", true, "", "no error"},
		{"within parallel", rules.Rule{Kind: rules.Within, Tool: tool("error"), Then: tool("retry"), N: 3}, "error@1 retry@1 x retry", true, "", "the retry of the same response does not count, the later one does"},

		{"first holds", rules.Rule{Kind: rules.First, Tool: tool("plan")}, "plan x", true, "", "plan first"},
		{"first breaks", rules.Rule{Kind: rules.First, Tool: tool("plan")}, "x plan", false, "step 1 (turn 1) x {}: the first call is not plan", "x first"},
		{"first empty", rules.Rule{Kind: rules.First, Tool: tool("plan")}, "", false, "no calls: the first call should be plan", "an empty trajectory has no first call"},
		{"first response", rules.Rule{Kind: rules.First, Tool: tool("plan")}, "x@1 plan@1 y", true, "", "plan issued in the first response"},
		{"last holds", rules.Rule{Kind: rules.Last, Tool: tool("answer")}, "x answer", true, "", "answer last"},
		{"last breaks", rules.Rule{Kind: rules.Last, Tool: tool("answer")}, "answer x@2 y@2", false,
			"the last response (step 2 (turn 1) x {}, step 3 (turn 1) y {}) does not call answer", "the last response is named whole"},
		{"last response", rules.Rule{Kind: rules.Last, Tool: tool("answer")}, "x answer@2 y@2", true, "", "answer issued in the last response"},
		{"last empty", rules.Rule{Kind: rules.Last, Tool: tool("answer")}, "", false, "no calls: the last call should be answer", "no last call"},

		{"no_repeat holds", rules.Rule{Kind: rules.NoRepeat, Tool: tool("search")}, `search{"q":"a"} search{"q":"b"} search{"q":"a"}`, true, "", "different arguments, and a repeat that is not consecutive"},
		{"no_repeat breaks", rules.Rule{Kind: rules.NoRepeat, Tool: tool("search")}, `search{"q":"a","n":1} search{"n":1.0,"q":"a"}`, false,
			`step 2 (turn 1) search {"n":1.0,"q":"a"}: repeats step 1 with the same arguments`, "numbers compare by value"},
		{"no_repeat empty args", rules.Rule{Kind: rules.NoRepeat, Tool: tool("ping")}, `ping ping{}`, false,
			"step 2 (turn 1) ping {}: repeats step 1 with the same arguments", "no arguments is {}"},
		{"no_repeat other tool", rules.Rule{Kind: rules.NoRepeat, Tool: tool("search")}, `read read`, true, "", "only search is watched"},
		{"no_repeat step between", rules.Rule{Kind: rules.NoRepeat, Tool: tool("search")}, `search{"q":"a"} read search{"q":"a"}`, true, "", "consecutive means the very next step, whatever its tool: another call between allows the repeat"},

		{"pattern holds", rules.Rule{Kind: rules.Pattern, Pattern: "search+ read_document{2,} synthesize"}, "search read_document read_document synthesize", true, "", "the brief's example"},
		{"pattern breaks", rules.Rule{Kind: rules.Pattern, Pattern: "search+ read_document{2,} synthesize"}, "search read_document synthesize", false,
			"steps 1–2 (search read_document) fit; step 3 (turn 1) synthesize {} does not: expected read_document", "one document is not two"},
		{"pattern ends early", rules.Rule{Kind: rules.Pattern, Pattern: "search+ synthesize"}, "search search", false,
			"steps 1–2 (search search) fit; then the calls end: expected search or synthesize", "the synthesis never came"},
		{"pattern empty", rules.Rule{Kind: rules.Pattern, Pattern: "search+"}, "", false, "no calls: expected search", "nothing called"},
		{"pattern first wrong", rules.Rule{Kind: rules.Pattern, Pattern: "a b?"}, "b", false, "step 1 (turn 1) b {} does not fit: expected a", "the first call is wrong"},
		{"pattern quoted name", rules.Rule{Kind: rules.Pattern, Pattern: "'read file' | x"}, "y", false, "step 1 (turn 1) y {} does not fit: expected 'read file' or x", "a name with a space is written quoted, as in the pattern"},
		{"pattern where holds", rules.Rule{Kind: rules.Pattern, Pattern: "search+ refund", Where: map[string]rules.Tool{"refund": withArgs("", `{"amount":{"$lt":100}}`)}},
			`search refund{"amount":50}`, true, "", "a small refund"},
		{"pattern where breaks", rules.Rule{Kind: rules.Pattern, Pattern: "search+ refund", Where: map[string]rules.Tool{"refund": withArgs("", `{"amount":{"$lt":100}}`)}},
			`search refund{"amount":150}`, false,
			`step 1 (search) fits; step 2 (turn 1) refund {"amount":150} does not: expected search or refund (refund {"amount":{"$lt":100}}); args.amount: expected {"$lt":100}, got 150`,
			"the argument condition of the item is explained"},
		{"pattern where alias", rules.Rule{Kind: rules.Pattern, Pattern: "small* big?", Where: map[string]rules.Tool{
			"small": withArgs("refund", `{"amount":{"$lt":100}}`), "big": withArgs("refund", `{"amount":{"$gte":100}}`)}},
			`refund{"amount":5} refund{"amount":500}`, true, "", "two items of one tool with different conditions"},
		{"pattern wildcard", rules.Rule{Kind: rules.Pattern, Pattern: ". delete"}, "a b delete", false,
			"step 1 (a) fits; step 2 (turn 1) b {} does not: expected delete", "the wildcard takes one call"},
		{"pattern contains", rules.Rule{Kind: rules.Pattern, Pattern: ".* delete .*"}, "a delete b", true, "", "wildcards around make a containment test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := run(t, rules.Options{Rules: []rules.Rule{tt.rule}}, tt.calls)
			c := d.Checks[0]
			if got := c.Status == trajeval.CheckPass; got != tt.holds {
				t.Fatalf("holds = %v (%s), want %v: %s", got, c.Message, tt.holds, tt.reason)
			}
			if !tt.holds && c.Message != tt.msg {
				t.Errorf("message:\n got %s\nwant %s\n(%s)", c.Message, tt.msg, tt.reason)
			}
		})
	}
}

func TestEvaluator_Evaluate_perTurn(t *testing.T) {
	o := rules.Options{PerTurn: true, Rules: []rules.Rule{
		{Kind: rules.First, Tool: tool("plan")},
		{Kind: rules.AtMost, Tool: tool("search"), N: 1},
		{Name: "answers", Kind: rules.Last, Tool: tool("answer")},
	}}
	d := run(t, o, "plan search answer / plan search search answer / search answer")
	want := []struct{ status, msg string }{
		{"fail", "turn 3: step 8 (turn 3) search {}: the first call is not plan"},
		{"fail", "turn 2: step 6 (turn 2) search {}: call 2 of search, at most 1 allowed (2 in all)"},
		{"pass", ""},
	}
	if d.Hits != 1 {
		t.Errorf("hits %d, want 1: each rule holds only if it holds in every turn", d.Hits)
	}
	for i, w := range want {
		if c := d.Checks[i]; c.Status != w.status || c.Message != w.msg {
			t.Errorf("rule %d (%s): got %s %q, want %s %q", i+1, c.Name, c.Status, c.Message, w.status, w.msg)
		}
	}
	if d.Checks[2].Name != "answers" || d.Checks[0].Name != "first plan" {
		t.Errorf("check names %q, %q: a rule's name, else the rule as written", d.Checks[2].Name, d.Checks[0].Name)
	}

	// A pattern per turn matches each turn's calls as a whole.
	d = run(t, rules.Options{PerTurn: true, Rules: []rules.Rule{{Kind: rules.Pattern, Pattern: "plan? search+ answer"}}},
		"plan search answer / search search answer / search")
	if c := d.Checks[0]; c.Status != "fail" || c.Message != "turn 3: step 7 (search) fits; then the calls end: expected search or answer" {
		t.Errorf("pattern per turn: %+v", c)
	}

	// Over the whole trajectory, the same calls keep the first rule and
	// break the count.
	d = run(t, rules.Options{Rules: o.Rules}, "plan search answer / plan search search answer / search answer")
	if d.Checks[0].Status != "pass" || d.Checks[1].Status != "fail" {
		t.Errorf("whole trajectory: %+v", d.Checks)
	}
}

func TestEvaluator_Evaluate_perTurnEveryTurn(t *testing.T) {
	// Turn 2 has no calls: at_least breaks there, never holds.
	o := rules.Options{PerTurn: true, Rules: []rules.Rule{
		{Kind: rules.AtLeast, Tool: tool("search"), N: 1},
		{Kind: rules.Never, Tool: tool("delete")},
	}}
	d := run(t, o, "search / / search")
	if c := d.Checks[0]; c.Status != "fail" || c.Message != "turn 2: search called 0 times, at least 1 wanted (no calls at all)" {
		t.Errorf("at_least: %+v", c)
	}
	if d.Checks[1].Status != "pass" {
		t.Errorf("never: %+v", d.Checks[1])
	}
	d = run(t, rules.Options{PerTurn: true, Rules: o.Rules[:1]}, "x / x / search")
	if c := d.Checks[0]; c.Message != "turn 1: search called 0 times, at least 1 wanted (broken in 2 turns of 3)" {
		t.Errorf("the count of broken turns is missing: %q", c.Message)
	}
}

func TestNew_errors(t *testing.T) {
	tests := []struct {
		name   string
		o      rules.Options
		rule   int
		field  string
		msg    string
		reason string
	}{
		{"no rules", rules.Options{}, -1, "", "tool_rules has no rules (give at least one rule, e.g. never: delete)", "nothing to check is not a pass"},
		{"unknown kind", rules.Options{Rules: []rules.Rule{{Kind: "sometimes", Tool: tool("a")}}}, 0, "", `rule 1: unknown rule kind "sometimes" (one of never, at_most, at_least, exactly, before, after, immediately_after, within, first, last, no_repeat, pattern)`, "a kind must be known"},
		{"empty tool", rules.Options{Rules: []rules.Rule{{Kind: rules.Never}}}, 0, "tool", "rule 1: the tool name is empty", "a rule needs its tool"},
		{"empty then", rules.Options{Rules: []rules.Rule{{Kind: rules.Before, Tool: tool("a")}}}, 0, "then", "rule 1: the tool name is empty", "before needs B"},
		{"negative", rules.Options{Rules: []rules.Rule{{Kind: rules.Never, Tool: tool("a")}, {Kind: rules.AtMost, Tool: tool("a"), N: -1}}}, 1, "n", "rule 2: at_most: the count must not be negative, got -1", "a count ≥ 0"},
		{"within 0", rules.Options{Rules: []rules.Rule{{Kind: rules.Within, Tool: tool("a"), Then: tool("b")}}}, 0, "n", "rule 1: within: steps must be at least 1, got 0 (1 is the next step)", "a window of no steps checks nothing"},
		{"syntax", rules.Options{Rules: []rules.Rule{{Kind: rules.Pattern, Pattern: "search+ read)"}}}, 0, "pattern", "rule 1: pattern: unexpected ')' at column 13", "the column of the error"},
		{"unused where", rules.Options{Rules: []rules.Rule{{Kind: rules.Pattern, Pattern: "a+", Where: map[string]rules.Tool{"b": tool("b")}}}}, 0, "where.b",
			`rule 1: where names "b", which the pattern does not use (a where key is an item of the pattern)`, "a condition that applies to nothing is a mistake"},
		{"where elsewhere", rules.Options{Rules: []rules.Rule{{Kind: rules.Never, Tool: tool("a"), Where: map[string]rules.Tool{"a": tool("a")}}}}, 0, "where",
			"rule 1: never takes no where: only a pattern has items", "where only applies to patterns"},
		{"from", rules.Options{Rules: []rules.Rule{{Kind: rules.Never, Tool: rules.Tool{Name: "a", Args: map[string]any{"x": map[string]any{"$from": "search.result.id"}}}}}}, 0, "tool",
			"rule 1: $from is not taken in tool_rules (a rule checks each call on its own); check where a value came from with tool_trajectory's $from or the grounding evaluator",
			"a $from in a rule would never match: the rule would be ignored in silence"},
		{"bad args", rules.Options{Rules: []rules.Rule{{Kind: rules.Never, Tool: rules.Tool{Name: "a", Args: map[string]any{"x": map[string]any{"$regex": "("}}}}}}, 0, "tool",
			"", "an operator that does not compile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rules.New(tt.o)
			var oe *rules.OptionError
			if !errors.As(err, &oe) {
				t.Fatalf("got %v, want an *OptionError: %s", err, tt.reason)
			}
			if oe.Rule != tt.rule || oe.Field != tt.field {
				t.Errorf("placed at rule %d field %q, want %d %q", oe.Rule, oe.Field, tt.rule, tt.field)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("error %q, want %q: %s", err.Error(), tt.msg, tt.reason)
			}
		})
	}
	_, err := rules.New(rules.Options{})
	if !errors.Is(err, rules.ErrNoRules) {
		t.Errorf("no rules: %v is not ErrNoRules", err)
	}
	_, err = rules.New(rules.Options{Rules: []rules.Rule{{Kind: rules.Pattern, Pattern: "(a"}}})
	var se *pattern.SyntaxError
	if !errors.As(err, &se) || se.Col != 1 {
		t.Errorf("a syntax error must unwrap to *pattern.SyntaxError with its column: %v", err)
	}
	_, err = rules.New(rules.Options{Rules: []rules.Rule{{Kind: rules.Never, Tool: rules.Tool{Name: "a", Args: map[string]any{"x": map[string]any{"$regex": "("}}}}}})
	var ce *argmatch.CompileError
	if !errors.As(err, &ce) {
		t.Errorf("an argument error must unwrap to *argmatch.CompileError: %v", err)
	}
	_, err = rules.New(rules.Options{Rules: []rules.Rule{
		{Kind: rules.Pattern, Pattern: "(a"}, {Kind: rules.Never, Tool: rules.Tool{Name: "ok"}}, {Kind: rules.Never},
	}})
	var got []int
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			var oe *rules.OptionError
			if errors.As(e, &oe) {
				got = append(got, oe.Rule)
			}
		}
	}
	if !slices.Equal(got, []int{0, 2}) {
		t.Errorf("two bad rules: errors of rules %v, want [0 2] (every bad rule, not only the first): %v", got, err)
	}
}

func TestEvaluator_Evaluate_argsOptions(t *testing.T) {
	// The evaluator's mode and string options apply to tools that set none.
	o := rules.Options{
		ArgsMatch: trajeval.ArgsMatch{Mode: trajeval.ArgsExact},
		Strings:   argmatch.Options{CaseInsensitive: true},
		Rules: []rules.Rule{
			{Kind: rules.Never, Tool: withArgs("delete", `{"path":"/TMP"}`)},
			{Kind: rules.Never, Tool: rules.Tool{Name: "delete", Args: map[string]any{"path": "/etc"}, ArgsMatch: trajeval.ArgsMatch{Mode: trajeval.ArgsPartial}}},
		},
	}
	d := run(t, o, `delete{"path":"/tmp","force":true} delete{"path":"/etc","force":true}`)
	if d.Checks[0].Status != "pass" {
		t.Errorf("exact mode: an extra key makes another call: %+v", d.Checks[0])
	}
	if d.Checks[1].Status != "fail" {
		t.Errorf("a tool's own partial mode wins: %+v", d.Checks[1])
	}
}

func Example() {
	e, err := rules.New(rules.Options{Rules: []rules.Rule{
		{Kind: rules.Never, Tool: rules.Tool{Name: "delete", Args: map[string]any{"force": true}}},
		{Kind: rules.Before, Tool: rules.Tool{Name: "search"}, Then: rules.Tool{Name: "answer"}},
		{Name: "research shape", Kind: rules.Pattern, Pattern: "search+ read{2,} answer"},
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	tr := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Index: 1, Turn: 1, Name: "search", Args: map[string]any{"q": "go"}},
		{Index: 2, Turn: 1, Name: "read", Args: map[string]any{"id": json.Number("1")}},
		{Index: 3, Turn: 1, Name: "answer"},
	}}
	out, _ := e.Evaluate(context.Background(), tr)
	fmt.Printf("score %.2f\n", out.Score)
	for _, c := range out.Details.Checks {
		fmt.Println(c.Status, c.Name)
		if c.Message != "" {
			fmt.Println("   ", c.Message)
		}
	}
	// Output:
	// score 0.67
	// pass never delete {"force":true}
	// pass before [search, answer]
	// fail research shape
	//     steps 1–2 (search read) fit; step 3 (turn 1) answer {} does not: expected read
}
