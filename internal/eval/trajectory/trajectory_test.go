package trajectory_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	_ "github.com/trajeval/trajeval/internal/eval/trajectory"
)

// steps builds a trajectory from a shorthand: "a b(x=1) c" is three calls;
// arguments are JSON after the name: `read{"path":"b"}`; a number after @
// is the duration in ms (`search@120`); "[a b]" is a parallel group.
func steps(t *testing.T, s string) *trajeval.Trajectory {
	t.Helper()
	tr := &trajeval.Trajectory{}
	group, inGroup := 0, false
	for _, tok := range fields(s) {
		if strings.HasPrefix(tok, "[") {
			group++
			inGroup = true
			tok = tok[1:]
		}
		end := strings.HasSuffix(tok, "]")
		tok = strings.TrimSuffix(tok, "]")
		st := trajeval.Step{Turn: 1}
		if i := strings.Index(tok, "@"); i >= 0 {
			var d float64
			if err := json.Unmarshal([]byte(tok[i+1:]), &d); err != nil {
				t.Fatal(err)
			}
			st.DurationMS = &d
			tok = tok[:i]
		}
		if i := strings.Index(tok, "{"); i >= 0 {
			d := json.NewDecoder(strings.NewReader(tok[i:]))
			d.UseNumber()
			if err := d.Decode(&st.Args); err != nil {
				t.Fatalf("args of %s: %v", tok, err)
			}
			tok = tok[:i]
		} else {
			st.Args = map[string]any{}
		}
		st.Name = tok
		if inGroup {
			st.ParallelGroup = group
		}
		if end {
			inGroup = false
		}
		tr.Steps = append(tr.Steps, st)
	}
	tr.Finish()
	return tr
}

// fields splits on spaces outside JSON objects and strings.
func fields(s string) []string {
	var out []string
	var cur strings.Builder
	depth, inStr, esc := 0, false, false
	for _, r := range s {
		switch {
		case inStr:
			inStr = !(r == '"' && !esc)
			esc = r == '\\' && !esc
		case r == '"':
			inStr = true
		case r == '{':
			depth++
		case r == '}':
			depth--
		case r == ' ' && depth == 0:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func build(t *testing.T, yaml string) *eval.Configured {
	t.Helper()
	n, err := config.Parse("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	c, err := spec.Build(n, &spec.Env{Types: builtin.Types()})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return c
}

func run(t *testing.T, yaml, actual string) trajeval.Result {
	t.Helper()
	return build(t, yaml).Run(context.Background(), steps(t, actual))
}

type seedCase struct {
	name   string
	actual string
	pass   bool
	reason string
}

func checkPass(t *testing.T, yaml string, cases []seedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, yaml, tc.actual)
			if got := r.Status == trajeval.StatusPass; got != tc.pass {
				t.Errorf("%s: status %s (score %v), want pass=%v: %s", tc.actual, r.Status, r.Score, tc.pass, tc.reason)
			}
		})
	}
}

// The examples of AgentV's tool_trajectory page.
func TestToolTrajectory_Seed000(t *testing.T) {
	t.Run("any_order", func(t *testing.T) {
		checkPass(t, `
type: tool_trajectory
mode: any_order
expected: [{tool: search}, {tool: read_document}, {tool: summarize}]`, []seedCase{
			{"in order", "search read_document summarize", true, "all called"},
			{"reordered", "read_document search summarize", true, "order does not matter"},
			{"repeat", "search search read_document summarize", true, "repeats are fine"},
			{"missing", "search summarize", false, "read_document missing"},
		})
	})
	t.Run("in_order", func(t *testing.T) {
		checkPass(t, `
type: tool_trajectory
mode: in_order
expected: [{tool: fetch_data}, {tool: process}, {tool: save}]`, []seedCase{
			{"sequence", "fetch_data process save", true, "the exact sequence"},
			{"extra between", "fetch_data log process save", true, "extra tools ok"},
			{"wrong order", "process fetch_data save", false, "wrong order"},
			{"missing", "fetch_data save", false, "missing process"},
		})
	})
	t.Run("exact", func(t *testing.T) {
		checkPass(t, `
type: tool_trajectory
mode: exact
expected: [{tool: init}, {tool: process}, {tool: cleanup}]`, []seedCase{
			{"exact", "init process cleanup", true, "same order and count"},
			{"extra call", "init process process cleanup", false, "extra call"},
			{"unexpected tool", "init log process cleanup", false, "unexpected tool"},
		})
	})
	t.Run("minimums", func(t *testing.T) {
		checkPass(t, `
type: tool_trajectory
mode: any_order
minimums: {search: 2, read_document: 3}`, []seedCase{
			{"enough", "search search read_document read_document read_document", true, "both minimums met"},
			{"one search", "search read_document read_document read_document", false, "search needs 2"},
		})
	})
	t.Run("argument validation", func(t *testing.T) {
		checkPass(t, `
type: tool_trajectory
mode: in_order
expected:
  - tool: search
    args:
      query: "Python programming"
  - tool: filter
    args:
      category: "tutorial"
      limit: 10
  - tool: summarize
    args: any`, []seedCase{
			{"match", `search{"query":"Python programming"} filter{"category":"tutorial","limit":10.0,"lang":"en"} summarize{"x":1}`, true, "partial args, 10 = 10.0, summarize any"},
			{"wrong query", `search{"query":"Java"} filter{"category":"tutorial","limit":10} summarize`, false, "query differs"},
			{"string limit", `search{"query":"Python programming"} filter{"category":"tutorial","limit":"10"} summarize`, false, "a number is never a string"},
		})
	})
	t.Run("duration limits", func(t *testing.T) {
		checkPass(t, `
type: tool_trajectory
mode: any_order
expected:
  - tool: search
    max_duration_ms: 2000
  - tool: process
    max_duration_ms: 5000`, []seedCase{
			{"fast", "search@1500 process@4000", true, "within limits"},
			{"slow search", "search@2500 process@4000", false, "search over its limit"},
			{"boundary", "search@2000 process@5000", true, "the limit is inclusive"},
		})
	})
}

// The examples of AgentV's tool trajectory guide.
func TestToolTrajectory_Seed001(t *testing.T) {
	t.Run("minimum counts", func(t *testing.T) {
		checkPass(t, `
name: tool-usage
type: tool_trajectory
mode: any_order
minimums:
  knowledgeSearch: 2
  documentRetrieve: 1`, []seedCase{
			{"met", "knowledgeSearch documentRetrieve knowledgeSearch", true, "both met in any order"},
			{"short", "knowledgeSearch documentRetrieve", false, "knowledgeSearch needs 2"},
		})
	})
	t.Run("sequential", func(t *testing.T) {
		checkPass(t, `
name: workflow-sequence
type: tool_trajectory
mode: in_order
expected: [{tool: fetchData}, {tool: validateSchema}, {tool: transformData}, {tool: saveResults}]`, []seedCase{
			{"gaps", "fetchData log validateSchema transformData cache saveResults", true, "other tools may sit between"},
			{"swap", "fetchData transformData validateSchema saveResults", false, "out of sequence"},
		})
	})
	t.Run("argument matching", func(t *testing.T) {
		checkPass(t, `
name: search-validation
type: tool_trajectory
mode: in_order
expected:
  - tool: search
    args: { query: "machine learning" }
  - tool: process
    args: any
  - tool: saveResults`, []seedCase{
			{"partial", `search{"query":"machine learning","limit":5} process{"a":1} saveResults{"path":"x"}`, true, "only specified keys are checked"},
			{"wrong", `search{"query":"deep learning"} process saveResults`, false, "query differs"},
		})
	})
	t.Run("latency", func(t *testing.T) {
		yaml := `
name: perf-check
type: tool_trajectory
mode: in_order
expected:
  - tool: Read
    max_duration_ms: 100
  - tool: Edit
    max_duration_ms: 500
  - tool: Write`
		checkPass(t, yaml, []seedCase{
			{"fast", "Read@45 Edit@300 Write@900", true, "within limits; Write has none"},
			{"slow edit", "Read@45 Edit@700 Write", false, "Edit over 500ms"},
		})
		// 3 expected tools + 2 latency assertions = 5 aspects.
		if r := run(t, yaml, "Read@45 Edit@700 Write"); !near(r.Score, 4.0/5) {
			t.Errorf("score %v, want 4/5: 3 hits + 1 latency pass of 5 aspects", r.Score)
		}
		// No duration: the check is skipped, neither hit nor miss, with a warning.
		r := run(t, yaml, "Read Edit@300 Write")
		if !near(r.Score, 1) || len(r.Details.Warnings) != 1 {
			t.Errorf("score %v warnings %v, want 1 and one warning: a step without duration skips its check", r.Score, r.Details.Warnings)
		}
	})
	t.Run("exact", func(t *testing.T) {
		checkPass(t, `
name: auth-sequence
type: tool_trajectory
mode: exact
expected: [{tool: checkCredentials}, {tool: generateToken}, {tool: auditLog}]`, []seedCase{
			{"strict", "checkCredentials generateToken auditLog", true, "the exact sequence"},
			{"trailing extra", "checkCredentials generateToken auditLog auditLog", false, "AgentV scored this 1.0; extra calls count"},
		})
	})
}

// The trajectory examples of ADK's shopping-agent exercise, in trajeval's modes.
func TestToolTrajectory_Seed003(t *testing.T) {
	expected := `
expected:
  - {tool: search_products, args: {query: laptop}}
  - {tool: get_product_details, args: {product_id: P001}}
  - {tool: check_inventory, args: {product_id: P001}}`
	S, D, I := `search_products{"query":"laptop"}`, `get_product_details{"product_id":"P001"}`, `check_inventory{"product_id":"P001"}`
	cases := []struct {
		name                   string
		actual                 string
		exact, inOrder, anyOrd bool
	}{
		{"exact match", S + " " + D + " " + I, true, true, true},
		{"extra tool", S + ` search_products{"query":"gaming laptop"} ` + D + " " + I, false, true, true},
		{"wrong order", S + " " + I + " " + D, false, false, true},
		{"missing tool", S + " " + I, false, false, false},
		{"wrong argument", `search_products{"query":"phone"} ` + D + " " + I, false, false, false},
	}
	for _, tc := range cases {
		for mode, want := range map[string]bool{"exact": tc.exact, "in_order": tc.inOrder, "any_order": tc.anyOrd} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				r := run(t, "type: tool_trajectory\nmode: "+mode+expected, tc.actual)
				if got := r.Status == trajeval.StatusPass; got != want {
					t.Errorf("pass=%v, want %v (score %v)", got, want, r.Score)
				}
			})
		}
	}
	// Expected: [tool_a(x=1), tool_b(y=2)] and the pass/fail lists per match type.
	ab := `
expected:
  - {tool: tool_a, args: {x: 1}}
  - {tool: tool_b, args: {y: 2}}`
	A, B, C := `tool_a{"x":1}`, `tool_b{"y":2}`, `tool_c`
	for _, tc := range []struct {
		mode, actual string
		pass         bool
	}{
		{"exact", A + " " + B, true}, {"exact", A + " " + C + " " + B, false}, {"exact", B + " " + A, false}, {"exact", A, false},
		{"in_order", A + " " + B, true}, {"in_order", A + " " + C + " " + B, true}, {"in_order", B + " " + A, false}, {"in_order", A, false},
		{"any_order", A + " " + B, true}, {"any_order", B + " " + A, true}, {"any_order", A + " " + C + " " + B, true}, {"any_order", A, false},
		{"any_order", `tool_a{"x":2} ` + B, false},
	} {
		t.Run(tc.mode+" "+tc.actual, func(t *testing.T) {
			r := run(t, "type: tool_trajectory\nmode: "+tc.mode+ab, tc.actual)
			if got := r.Status == trajeval.StatusPass; got != tc.pass {
				t.Errorf("pass=%v, want %v (score %v)", got, tc.pass, r.Score)
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// The examples and rules of docs/scoring.md §3, with their scores.
func TestToolTrajectory_Semantics(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		actual string
		score  float64
		reason string
	}{
		{"no greedy cascade", "mode: in_order\nexpected: [A, X, B]", "A B", 2.0 / 3, "a missing item must not fail later ones (AgentV: 1/3)"},
		{"optimal any_order", "mode: any_order\nexpected: [{tool: read}, {tool: read, args: {path: b}}]", `read{"path":"b"} read{"path":"a"}`, 1, "the unconstrained item takes the other read (greedy: 0.5)"},
		{"in_order looks ahead", "mode: in_order\nexpected: [{tool: read, args: {path: b}}]", `read{"path":"a"} read{"path":"b"}`, 1, "a same-named step with other args does not consume the item (AgentV: 0)"},
		{"exact counts extras", "mode: exact\nexpected: [A, B]", "A B C", 2.0 / 3, "max(|E|,|A|) in the denominator (AgentV: 1.0)"},
		{"exact short", "mode: exact\nexpected: [A, B, C]", "A B", 2.0 / 3, "missing positions are misses"},
		{"unmatched latency item", "mode: in_order\nexpected: [A, {tool: Z, max_duration_ms: 5}]", "A", 1.0 / 3, "an unmatched item with a limit fails its latency check too"},
		{"latency skip", "mode: in_order\nexpected: [{tool: A, max_duration_ms: 5}]", "A", 1, "no duration: removed from the denominator"},
		{"latency prefers the fast step", "mode: any_order\nexpected: [{tool: search, max_duration_ms: 100}]", "search@200 search@50", 1, "among largest matchings, the most latency passes"},
		{"latency prefers the fast step in order", "mode: in_order\nexpected: [{tool: search, max_duration_ms: 100}, done]", "search@200 search@50 done", 1, "the later, faster search keeps the order"},
		{"latency skip over a failed check, any order", "mode: any_order\nexpected: [{tool: A, max_duration_ms: 100}]", "A@200 A", 1, "the same rule in any_order: the matching of best score"},
		{"latency pass and fail or two skips", "mode: any_order\nexpected: [{tool: A, max_duration_ms: 100}, {tool: A, max_duration_ms: 100}]", "A@50 A@200 A A", 1, "a pass and a skip, or two skips, score 1; the pass and the earlier, failing step would score 3/4"},
		{"latency skip over a failed check", "mode: in_order\nexpected: [{tool: A, max_duration_ms: 100}]", "A@200 A", 1, "the alignment of best score: the step without a duration skips the check (1/1), the slow one fails it (1/2)"},
		{"empty exact, empty actual", "mode: exact\nexpected: []", "", 1, "nothing expected, nothing done"},
		{"empty exact, some actual", "mode: exact\nexpected: []", "A", 0, "exact with nothing expected means no calls"},
		{"empty in_order", "mode: in_order\nexpected: []", "A", 1, "in_order with nothing expected scores 1"},
		{"empty any_order", "mode: any_order\nexpected: []", "A", 1, "any_order with nothing expected scores 1"},
		{"any_order counts minimums", "mode: any_order\nexpected: [A]\nminimums: {B: 2}", "A B", 0.5, "expected and minimums both count: (1 + 0) / (1 + 1)"},
		{"subset", "mode: subset\nexpected: [A, B]", "A B C A", 0.75, "allowed / |A|, items reusable"},
		{"subset empty", "mode: subset\nexpected: [A]", "", 1, "empty A scores 1"},
		{"precision", "mode: any_order\nscore: precision\nexpected: [A, B]", "A C D E", 0.25, "hits / |A|"},
		{"f1", "mode: any_order\nscore: f1\nexpected: [A, B]", "A C", 0.5, "P = 1/2, R = 1/2"},
		{"max", "mode: in_order\nscore: max\nexpected: [A, B]", "A B C D", 0.5, "hits / max(|E|,|A|), Dokimos's IN_ORDER"},
		{"binary", "mode: in_order\nscore: binary\nexpected: [A, B]", "A", 0, "1 only when the recall score is 1"},
		{"strict", "mode: strict\nexpected: [A, B]", "A B", 1, "Dokimos STRICT = exact + binary"},
		{"strict extra", "mode: strict\nexpected: [A, B]", "A B C", 0, "binary"},
		{"superset", "mode: superset\nexpected: [A, B]", "C B A", 1, "Dokimos SUPERSET = any_order + binary, extras allowed"},
		{"dokimos args exact", "mode: superset\nexpected: [{tool: A, args: {x: 1}}]", `A{"x":1,"y":2}`, 0, "Dokimos modes default to exact arguments"},
		{"recall", "mode: recall\nexpected: [A, B]", "A C", 0.5, "matched / expected"},
		{"parallel in order", "mode: in_order\nexpected: [A, B, C]", "[B A] C", 1, "steps of one parallel group are unordered"},
		{"parallel exact", "mode: exact\nexpected: [A, B, C]", "[B A] C", 1, "any permutation of a group"},
		{"parallel is not a licence", "mode: in_order\nexpected: [A, B, C]", "B [A C]", 2.0 / 3, "B before the group cannot follow A"},
		{"numbers by value", "mode: in_order\nargs_match: exact\nexpected: [{tool: A, args: {n: 1}}]", `A{"n":1.0}`, 1, "1 = 1.0"},
		{"big integers exact", "mode: in_order\nexpected: [{tool: A, args: {n: 9007199254740993}}]", `A{"n":9007199254740992}`, 0, "2^53+1 ≠ 2^53"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "type: tool_trajectory\n"+tc.yaml, tc.actual)
			if r.Status == trajeval.StatusError {
				t.Fatal(r.Error)
			}
			if !near(r.Score, tc.score) {
				t.Errorf("score %v, want %v: %s", r.Score, tc.score, tc.reason)
			}
		})
	}
}

// A result explains itself: alignment, missing items with the argument
// paths that differ, close names, extra steps.
func TestToolTrajectory_Explains(t *testing.T) {
	r := run(t, `
type: tool_trajectory
mode: in_order
expected:
  - {tool: get_weather, args: {city: New York}}
  - {tool: send}`, `getWeather{"city":"NYC"} get_weather{"city":"NYC"} log`)
	d := r.Details
	if len(d.Missing) != 2 {
		t.Fatalf("missing %+v, want both calls", d.Missing)
	}
	got := d.Missing[0].Near
	if len(got) == 0 || len(got[0].Diffs) != 1 || got[0].Diffs[0].String() != `args.city: expected "New York", got "NYC"` {
		t.Errorf("near misses %+v, want the differing path args.city", got)
	}
	if len(d.Extra) != 3 {
		t.Errorf("extra %+v, want all three steps", d.Extra)
	}
	r = run(t, "type: tool_trajectory\nmode: in_order\nexpected: [get_weather]", "getWeather")
	if n := r.Details.Missing[0].Near; len(n) != 1 || !strings.Contains(n[0].Why, "close name") {
		t.Errorf("near %+v, want getWeather as a close name for get_weather", n)
	}
}

func TestToolTrajectory_ConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want, reason string
	}{
		{"no expected", "type: tool_trajectory\nmode: in_order", "needs expected", "in_order without expected"},
		{"any_order empty", "type: tool_trajectory\nmode: any_order", "expected or minimums", "a mode without what it needs"},
		{"bad mode", "type: tool_trajectory\nmode: inorder\nexpected: [a]", `did you mean "in_order"`, "a close mode name"},
		{"minimums in order", "type: tool_trajectory\nmode: in_order\nexpected: [a]\nminimums: {a: 1}", "only count in any_order", "AgentV silently ignored one of them"},
		{"typo key", "type: tool_trajectory\nmode: in_order\nexpcted: [a]", `did you mean "expected"`, "a misspelt key"},
		{"item key", "type: tool_trajectory\nmode: in_order\nexpected: [{tool: a, arg: {}}]", `did you mean "args"`, "a misspelt item key"},
		{"bad operator", "type: tool_trajectory\nexpected: [{tool: a, args: {x: {$regexp: a}}}]", "did you mean $regex", "an unknown operator"},
		{"bad regex", "type: tool_trajectory\nexpected: [{tool: a, args: {x: {$regex: '('}}}]", "invalid regular expression", "a regex that does not compile"},
		{"bad operator in a list", "type: tool_trajectory\nexpected: [{tool: a, args: {items: [1, {$regx: a}]}}]", "s.yaml:2:41: expected[0].args.items[1]: unknown operator $regx", "the place names an index in brackets, as results do"},
		{"args kind", "type: tool_trajectory\nexpected: [{tool: a, args: [1]}]", "args must be a map", "args is a map or any"},
		{"dokimos score", "type: tool_trajectory\nmode: strict\nscore: f1\nexpected: [a]", "already scores binary", "mode and score disagree"},
		{"negative minimum", "type: tool_trajectory\nminimums: {a: -1}", "at least 0", "a count is never negative"},
		{"empty tool", "type: tool_trajectory\nexpected:\n  - a\n  - {tool: ''}", "s.yaml:4:6: expected[1]: the tool name is empty", "an empty tool name matches nothing"},
		{"empty minimum tool", "type: tool_trajectory\nminimums: {'': 1}", "s.yaml:2:16: minimums.: the tool name is empty", "a minimum needs a tool"},
		{"negative latency", "type: tool_trajectory\nexpected: [{tool: a, max_duration_ms: -1}]", "must not be negative", "a negative limit is never met"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := config.Parse("s.yaml", []byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			_, err = spec.Build(n, &spec.Env{Types: builtin.Types()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q: %s", err, tc.want, tc.reason)
			}
			if !strings.HasPrefix(err.Error(), "s.yaml:") {
				t.Errorf("error %q does not start with its file and line", err)
			}
		})
	}
}

// TestToolTrajectory_zeroMinimum: AgentV accepts minimums: {tool: 0}, a
// minimum that always holds; trajeval accepts it, counts it as met and
// warns, with its place, that it checks nothing.
func TestToolTrajectory_zeroMinimum(t *testing.T) {
	n, err := config.Parse("s.yaml", []byte("type: tool_trajectory\nminimums: {a: 1, b: 0}"))
	if err != nil {
		t.Fatal(err)
	}
	var warnings []trajeval.Warning
	c, err := spec.Build(n, &spec.Env{Types: builtin.Types(), Warn: func(w trajeval.Warning) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatalf("Build: %v; a minimum of 0 is accepted, as in AgentV", err)
	}
	if len(warnings) != 1 || warnings[0].Line != 2 || !strings.Contains(warnings[0].String(), "s.yaml:2: minimums.b: minimum 0 for b always holds") {
		t.Errorf("warnings %v, want one at s.yaml:2 saying minimum 0 for b checks nothing", warnings)
	}
	r := c.Run(context.Background(), steps(t, "a"))
	if r.Score != 1 || r.Status != trajeval.StatusPass {
		t.Errorf("score %v %s, want 1 pass: the minimum of 0 is met without any call of b", r.Score, r.Status)
	}
}

// TestEvaluator_impossibleDuration: a negative duration is corrupt data; it
// must never pass a latency limit as a very fast call.
func TestEvaluator_impossibleDuration(t *testing.T) {
	for _, tt := range []struct {
		name string
		step trajeval.Step
	}{
		{"negative duration_ms", trajeval.Step{Name: "a", DurationMS: new(-5.0)}},
		{"end before start", trajeval.Step{Name: "a", StartTime: time.Unix(10, 0), EndTime: time.Unix(9, 0)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := build(t, "type: tool_trajectory\nmode: in_order\nexpected:\n  - {tool: a, max_duration_ms: 100}\n").Run(context.Background(), &trajeval.Trajectory{Steps: []trajeval.Step{tt.step}})
			var latency *trajeval.Check
			for i, c := range res.Details.Checks {
				if strings.HasPrefix(c.Name, "latency") {
					latency = &res.Details.Checks[i]
				}
			}
			if latency == nil || latency.Status != trajeval.CheckSkip || !strings.Contains(latency.Message, "impossible duration") {
				t.Fatalf("latency check %+v, want skipped as an impossible duration", latency)
			}
			if len(res.Details.Warnings) == 0 {
				t.Error("no warning: a latency limit that could not be checked must say so")
			}
		})
	}
}
