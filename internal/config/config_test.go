package config_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/jsonv"
)

func mustParse(t *testing.T, src string) *config.Node {
	t.Helper()
	n, err := config.Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return n
}

// specErr returns err as a SpecError, failing the test otherwise.
func specErr(t *testing.T, err error) *trajeval.SpecError {
	t.Helper()
	var se *trajeval.SpecError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *trajeval.SpecError", err, err)
	}
	if !errors.Is(err, trajeval.ErrConfig) {
		t.Errorf("error %v does not match ErrConfig", err)
	}
	return se
}

func TestParse_positions(t *testing.T) {
	yaml := "name: demo\n" +
		"execution:\n" +
		"  evaluators:\n" +
		"    - type: tool_trajectory\n" +
		"      mode:   in_order\n" +
		"      expected: [{tool: a}, {tool: b}]\n"
	json := "{\n  \"name\": \"demo\",\n  \"cases\": [\n    {\"id\": 1, \"ok\": true}\n  ]\n}\n"
	tests := []struct {
		name            string
		src             string
		at              []string
		keyLine, keyCol int // of the last key of at (0: not a map key)
		line, col       int // of the value
		path            string
		reason          string
	}{
		{"top key", yaml, []string{"name"}, 1, 1, 1, 7, "name", "first key"},
		{"nested value", yaml, []string{"execution", "evaluators", "0", "mode"}, 5, 7, 5, 15, "execution.evaluators[0].mode", "value column after extra spaces"},
		{"list item map", yaml, []string{"execution", "evaluators", "0"}, 0, 0, 4, 7, "execution.evaluators[0]", "a map is placed at its first key"},
		{"flow item", yaml, []string{"execution", "evaluators", "0", "expected", "1", "tool"}, 6, 30, 6, 36, "execution.evaluators[0].expected[1].tool", "flow mappings inside flow lists"},
		{"json key", json, []string{"name"}, 2, 3, 2, 11, "name", "JSON is YAML: quoted keys"},
		{"json nested", json, []string{"cases", "0", "ok"}, 4, 15, 4, 21, "cases[0].ok", "JSON inside a list"},
		{"json number", json, []string{"cases", "0", "id"}, 4, 6, 4, 12, "cases[0].id", "a number value"},
		{"empty value at a line's end", "a:\n", []string{"a"}, 1, 1, 1, 3, "a", "regression (fuzz): the YAML parser placed it at column 4, past the line's end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := mustParse(t, tt.src)
			v := root.At(tt.at...)
			if v.Line != tt.line || v.Col != tt.col {
				t.Errorf("value at %d:%d, want %d:%d: %s", v.Line, v.Col, tt.line, tt.col, tt.reason)
			}
			if v.Path != tt.path || v.File != "f.yaml" {
				t.Errorf("value file %q path %q, want f.yaml %q", v.File, v.Path, tt.path)
			}
			if tt.keyLine == 0 {
				return
			}
			parent := root.At(tt.at[:len(tt.at)-1]...)
			for _, e := range parent.Entries {
				if e.Key == tt.at[len(tt.at)-1] && (e.KeyLine != tt.keyLine || e.KeyCol != tt.keyCol) {
					t.Errorf("key %s at %d:%d, want %d:%d: %s", e.Key, e.KeyLine, e.KeyCol, tt.keyLine, tt.keyCol, tt.reason)
				}
			}
		})
	}
}

func TestParse_values(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   string // jsonv.Marshal of Value()
		reason string
	}{
		{"scalars", "s: x\nn: 1\nf: 1.50\nb: true\nz: null\nq: \"1\"", `{"b":true,"f":1.50,"n":1,"q":"1","s":"x","z":null}`, "number text kept; quoted numbers stay strings"},
		{"big integer", "n: 9007199254740993", `{"n":9007199254740993}`, "exact integers"},
		{"uint64 max", "n: 18446744073709551615", `{"n":18446744073709551615}`, "beyond int64"},
		{"beyond uint64", "n: 18446744073709551616", `{"n":18446744073709551616}`, "regression: the YAML parser left 2^64 as a string"},
		{"below int64", "n: -9223372036854775809", `{"n":-9223372036854775809}`, "regression: left as a string"},
		{"exponent", "n: 1e3", `{"n":1e3}`, "regression: YAML 1.1 parsers read 1e3 as a string; JSON and YAML 1.2 say number"},
		{"json exponent", `{"n": 2.5E-3}`, `{"n":2.5E-3}`, "regression: a JSON number must stay a number"},
		{"quoted exponent", `n: "1e3"`, `{"n":"1e3"}`, "quoted text stays text"},
		{"hex", "n: 0x1F", `{"n":31}`, "YAML hex"},
		{"underscore", "n: 1_000", `{"n":1000}`, "YAML digit separators"},
		{"yaml float spellings", "a: 0.\nb: .5\nc: -.5\nd: +1.5\ne: 1.e3\nf: 1_000.5\ng: 0.10000000000000000001",
			`{"a":0,"b":0.5,"c":-0.5,"d":1.5,"e":1e3,"f":1000.5,"g":0.10000000000000000001}`,
			"regression (fuzz): YAML's 0., .5 and 1.e3 were kept as number text JSON does not accept"},
		{"not a number", "v: 1.0.0\nt: 2fa", `{"t":"2fa","v":"1.0.0"}`, "versions and names stay text"},
		{"str tag", "a: !!str 123\nb: !!str true", `{"a":"123","b":"true"}`, "regression: !!str forces text"},
		{"block scalars", "a: |\n  l1\n  l2\nb: >\n  f1\n  f2\n", `{"a":"l1\nl2\n","b":"f1 f2\n"}`, "literal and folded"},
		{"surrogate pair", `{"s": "\ud83d\ude00 caf\u00e9"}`, `{"s":"😀 café"}`, "JSON escapes"},
		{"anchors and aliases", "a: &x {k: 1}\nb: *x", `{"a":{"k":1},"b":{"k":1}}`, "an alias is the anchored value"},
		{"merge key", "base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  z: 3", `{"base":{"x":1,"y":2},"d":{"x":1,"y":2,"z":3}}`, "merge keys add the map's keys"},
		{"merge override after", "base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  x: 3", `{"base":{"x":1,"y":2},"d":{"x":3,"y":2}}`, "regression: an own key overrides a merged one (was: given twice)"},
		{"merge override before", "base: &b {x: 1, y: 2}\nd:\n  x: 3\n  <<: *b", `{"base":{"x":1,"y":2},"d":{"x":3,"y":2}}`, "an own key wins wherever it is"},
		{"merge list", "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nd:\n  <<: [*a, *b]", `{"a":{"x":1},"b":{"x":2,"y":2},"d":{"x":1,"y":2}}`, "regression: a list of maps merges, earlier first (was an error)"},
		{"list root", "- a\n- 1", `["a",1]`, "a list document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := mustParse(t, tt.src)
			if got := jsonv.Marshal(n.Value()); got != tt.want {
				t.Errorf("Value = %s, want %s: %s", got, tt.want, tt.reason)
			}
		})
	}
}

// TestParse_teach checks that the common YAML mistakes are explained in
// the words of the person who must fix them, at the place to fix.
func TestParse_teach(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
		reason    string
	}{
		{"over-indented key", "execution:\n  evaluators: []\n    threshold: 0.5\n", 3, 5,
			"indented more than the key above it, `evaluators` (line 2), whose value is already given (did you mean to nest it under `evaluators`, whose value must then move below it, or to line it up with `evaluators` at column 3?)",
			"a key deeper than a key with a value: nest or line up"},
		{"over-indented top", "name: x\n  description: y\n", 2, 3, "more than the key above it, `name` (line 1)",
			"the parser places this on line 1; the line to fix is 2"},
		{"under-indented", "evalcases:\n  - id: a\n    input: x\n   trace: y\n", 4, 4,
			"indented less than `input` (line 3) above it, and more than the `-` of the list item on line 2 (line it up with one of them: column 5 or column 3)",
			"between two levels: both are offered"},
		{"under-indented map", "a:\n    b: 1\n  c: 2\n", 3, 3, "less than `b` (line 2) above it, and more than `a` (line 1)", "between a key and its parent"},
		{"key at the dash", "evaluators:\n  - type: x\n  expected:\n  - tool: a\n", 3, 3,
			"lined up with the `-` of the list item on line 2, where only another `- ` item can start (to give the item another key, line it up with `type` at column 5; for a key beside `evaluators`, line it up with it at column 1)",
			"a key where only an item can start"},
		{"list item among keys", "evalcases:\n  - id: a\n    trace: t\n    - id: b\n", 4, 5,
			"this list item starts at the column of `trace` (line 3), a key whose value is already given (for another item of the list on line 2, line its `-` up with column 3)",
			"a list item at the wrong depth"},
		{"list item between levels", "evalcases:\n  - id: a\n    trace: t\n - id: b\n", 4, 2, "less than the `-` of the list item on line 2 above it, and more than `evalcases`", "an item between its list and the key above"},
		{"no space after colon", "execution:\n  threshold:0.5\n  evaluators: []\n", 2, 3,
			"`threshold:0.5` has no space after its colon, so YAML reads it as one word, not as a key and its value (write `threshold: 0.5`)", "key:value is one word"},
		{"no space after dash", "a:\n  - x\n  -y\n", 3, 3, "`-y` has no space after its `-`", "-y is one word"},
		{"tab indent", "execution:\n\tthreshold: 1\n", 2, 1, "YAML does not allow tabs for indentation; replace the tab at line 2 col 1 with spaces", "a tab as indentation"},
		{"tab after spaces", "execution:\n  evaluators:\n  \t- type: x\n", 3, 3, "replace the tab at line 3 col 3 with spaces", "the tab's own column"},
		{"tab after dash", "evalcases:\n  -\tid: a\n", 2, 4, "replace the tab at line 2 col 4 with spaces", "the parser points past the tab"},
		{"after a block scalar", "evalcases:\n  - id: a\n    input: |\n      text\n        more\n    trace: t\n   x: 1\n", 7, 4, "less than `trace` (line 6)", "a block scalar's lines are skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse("f.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want an error: %s", tt.src, tt.reason)
			}
			se := specErr(t, err)
			if se.Line != tt.line || se.Col != tt.col {
				t.Errorf("error at %d:%d, want %d:%d: %v (%s)", se.Line, se.Col, tt.line, tt.col, err, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not say %q: %s", err, tt.msg, tt.reason)
			}
		})
	}
}

func TestParse_errors(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
		reason    string
	}{
		{"duplicate key", "a: 1\nb: 2\na: 3\n", 3, 1, `"a"`, "a key given twice, at the second"},
		{"duplicate key nested", "x:\n  a: 1\n  a: 2\n", 3, 3, `"a"`, "nested duplicates too"},
		{"duplicate key json", `{"a": 1, "a": 2}`, 1, 10, `"a"`, "JSON duplicates too"},
		{"duplicate after merge and own", "b: &b {x: 1}\nd:\n  <<: *b\n  x: 2\n  x: 3\n", 5, 3, `"x"`, "overriding once is fine, twice is a duplicate"},
		{"unclosed flow", "a: [1, 2\n", 1, 4, "invalid YAML", "syntax error with its place"},
		{"bad indent", "key: value\n  bad: indent\n", 2, 3, "invalid YAML", "syntax error at the line to fix"},
		{"json truncated", "{\"a\": [1,\n", 1, 10, "unexpected end of JSON", "a file that opens like JSON is reported in JSON's terms, just after its last byte"},
		{"json syntax", "{\"a\": 1,, \"b\": 2}", 1, 9, "invalid JSON", "a JSON syntax error points at the offending byte"},
		{"two documents", "a: 1\n---\nb: 2\n", 3, 2, "more than one YAML document", "multi-document files are refused"},
		{"undefined alias", "a: *nope\n", 1, 4, "alias *nope has no anchor", "an alias needs its anchor"},
		{"merge non-map", "d:\n  <<: 5\n", 2, 7, "merge key", "merging a number"},
		{"inf", "n: .inf\n", 1, 4, "not a JSON number", "JSON has no infinity"},
		{"nan", "n: .nan\n", 1, 4, "not a JSON number", "nor NaN"},
		{"empty", "", 1, 1, "empty", "empty input"},
		{"blank", " \n\t\n", 1, 1, "empty", "white space only"},
		{"comment only", "# nothing\n", 1, 1, "no document", "comments only"},
		{"binary", "\x00\x01\x02ELF", 1, 1, "binary", "a NUL byte means binary"},
		{"too deep flow", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), 1, 0, "nested more than", "10,000 levels: an error, not a crash"},
		{"too deep maps", strings.Repeat("{a: ", 600) + "1" + strings.Repeat("}", 600), 1, 0, "nested more than", "deep maps"},
		{"too deep maps, JSON", strings.Repeat(`{"a": `, 600) + "1" + strings.Repeat("}", 600), 1, 3079, "nested more than", "refused from the tokens at the 514th map, where the converter would refuse it, not with JSON's complaint about YAML's keys"},
		{"too deep to parse, flow", "a: " + strings.Repeat("[", 100_000), 1, 516, "nested more than", "refused at the 513th bracket (the key is the 514th level), from the tokens, where the converter would: the YAML parser's time grows with the square of the depth (these 100 KB took a minute and a half)"},
		{"too deep to parse, block", strings.Repeat("- ", 50_000), 1, 1027, "nested more than", "refused at the 514th dash, from the tokens, not after seconds in the YAML parser"},
		{"chunks too deep to parse", "a:\n" + strings.Repeat("- "+strings.Repeat("[", 514)+strings.Repeat("]", 514)+"\n", 200), 2, 514, "nested more than", "refused at the first chunk's 512th bracket, from the tokens, where the converter would: 100 chunks 1,000 deep (200 KB) took the parser 1.9 s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse("f.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%.40q) succeeded, want an error: %s", tt.src, tt.reason)
			}
			se := specErr(t, err)
			if se.File != "f.yaml" || se.Line != tt.line || (tt.col != 0 && se.Col != tt.col) {
				t.Errorf("error at %s:%d:%d, want f.yaml:%d:%d: %v", se.File, se.Line, se.Col, tt.line, tt.col, err)
			}
			if se.Line < 1 || se.Col < 1 {
				t.Errorf("error without a place: %v", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %.300q does not mention %q: %s", err, tt.msg, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("f.yaml:%d:%d: ", se.Line, se.Col)) {
				t.Errorf("error %.200q does not start with file:line:col", err)
			}
		})
	}
}

// TestParse_blockKeys: the YAML parser's time grows with the square of a
// block map's keys, so a block map's keys are bounded (see parse.go);
// flow maps' are not.
func TestParse_blockKeys(t *testing.T) {
	keys := func(n int, indent string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%sk%d: %d\n", indent, i, i)
		}
		return b.String()
	}
	flow := "{" + strings.TrimSuffix(strings.ReplaceAll(keys(20_000, ""), "\n", ", "), ", ") + "}"
	tests := []struct {
		name, src string
		line, col int // of the error; 0: none
		reason    string
	}{
		{"1,024 keys", keys(1024, ""), 0, 0, "the bound's map is read"},
		{"1,025 keys", keys(1025, ""), 1025, 1, "refused at the key past the bound, from the tokens (40,000 keys took half a minute)"},
		{"1,025 keys under a key", "a:\n" + keys(1025, "  "), 1026, 3, "a nested map, as deep as any"},
		{"many maps of 1,024 keys", strings.Repeat("- "+strings.ReplaceAll(strings.TrimSuffix(keys(1024, ""), "\n"), "\n", "\n  ")+"\n", 8), 0, 0, "the bound is on each map: a document of such maps is read in linear time"},
		{"20,000 keys in flow style", flow, 0, 0, "a flow map is read in linear time: the way out the error suggests"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse("f.yaml", []byte(tt.src))
			if tt.line == 0 {
				if err != nil {
					t.Fatalf("Parse: %v: %s", err, tt.reason)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse succeeded, want an error at %d:%d: %s", tt.line, tt.col, tt.reason)
			}
			if se := specErr(t, err); se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, "block map of more than") {
				t.Errorf("error %v, want one at %d:%d about a block map: %s", err, tt.line, tt.col, tt.reason)
			}
		})
	}
}

func TestCanon(t *testing.T) {
	tests := []struct {
		in, want string
		reason   string
	}{
		{"max_duration_ms", "max_duration_ms", "already canonical"},
		{"maxDurationMs", "max_duration_ms", "camelCase"},
		{"MaxDurationMs", "max_duration_ms", "PascalCase"},
		{"max-duration-ms", "max_duration_ms", "kebab-case"},
		{"tool-calls-order", "tool_calls_order", "kebab-case"},
		{"IN_ORDER", "in_order", "SCREAMING_SNAKE"},
		{"in order", "in_order", "a space"},
		{"HTTPServer", "http_server", "an acronym then a word"},
		{"maxTokens2", "max_tokens2", "a trailing digit"},
		{"llm2Calls", "llm2_calls", "a digit before an upper-case letter"},
		{"max_Duration", "max_duration", "no double underscore"},
		{"evalcases", "evalcases", "one word"},
		{"max_2x", "max_2x", "lower case, digits and underscores are canonical as they are"},
		{"maxé", "maxé", "a letter past ASCII goes the long way and stays"},
		{"Éclair", "éclair", "an upper-case letter past ASCII is lowered"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := config.Canon(tt.in); got != tt.want {
				t.Errorf("Canon(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

func TestNode_Enum(t *testing.T) {
	values := []string{"any_order", "in_order", "exact"}
	tests := []struct {
		in     string
		want   string
		hint   string
		reason string
	}{
		{"in_order", "in_order", "", "as listed"},
		{"IN_ORDER", "in_order", "", "ADK's upper case"},
		{"in-order", "in_order", "", "kebab-case"},
		{"inOrder", "in_order", "", "regression: camelCase was lowered before Canon and became inorder"},
		{"AnyOrder", "any_order", "", "PascalCase"},
		{"Exact", "exact", "", "case-insensitive"},
		{"inorder", "", `did you mean "in_order"?`, "a run-together word is a typo, with a suggestion"},
		{"random", "", "one of: any_order, in_order, exact", "far from every value: list them"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			n := mustParse(t, "mode: "+tt.in).Get("mode")
			got, err := n.Enum(values...)
			if tt.want != "" {
				if err != nil || got != tt.want {
					t.Errorf("Enum(%q) = %q, %v; want %q: %s", tt.in, got, err, tt.want, tt.reason)
				}
				return
			}
			if err == nil {
				t.Fatalf("Enum(%q) = %q, want an error: %s", tt.in, got, tt.reason)
			}
			se := specErr(t, err)
			if se.Hint != tt.hint || se.Line != 1 || se.Col != 7 {
				t.Errorf("error %v (hint %q), want hint %q at 1:7: %s", err, se.Hint, tt.hint, tt.reason)
			}
		})
	}
}

func TestNode_Get(t *testing.T) {
	n := mustParse(t, "max_duration_ms: 5\ntoolCallsOrder: [a]\nargs: {maxDurationMs: 1}\n")
	for _, k := range []string{"max_duration_ms", "maxDurationMs", "max-duration-ms", "MaxDurationMs"} {
		if v := n.Get(k); v == nil || v.Text != "5" {
			t.Errorf("Get(%q) = %v, want the max_duration_ms node", k, v)
		}
	}
	for _, k := range []string{"tool_calls_order", "tool-calls-order", "toolCallsOrder"} {
		if !n.Has(k) {
			t.Errorf("Has(%q) = false, want true (any spelling)", k)
		}
	}
	if n.Has("missing") || n.Get("max_duration_ms").Get("x") != nil {
		t.Error("Get of an absent key or on a scalar must be nil")
	}
	var nilNode *config.Node
	if nilNode.Get("x") != nil || nilNode.Value() != nil || nilNode.Check("a") != nil {
		t.Error("a nil node must answer as absent")
	}
	// User data is never respelled.
	if args := n.Get("args").Value().(map[string]any); args["maxDurationMs"] == nil {
		t.Errorf("Value() respelled a user key: %v", args)
	}
	if v, k := n.First("timeout", "maxDurationMs"); v == nil || k != "maxDurationMs" {
		t.Errorf("First = %v, %q; want the node and the key as given", v, k)
	}
}

func TestNode_Check(t *testing.T) {
	allowed := []string{"type", "mode", "expected", "minimums", "max_duration_ms"}
	tests := []struct {
		name      string
		src       string
		line, col int
		msg, hint string
		reason    string
	}{
		{"ok", "type: x\nmaxDurationMs: 1\nexpected: []", 0, 0, "", "", "any spelling of allowed keys"},
		{"typo", "type: x\nexpcted: []", 2, 1, `unknown key "expcted"`, `did you mean "expected"?`, "a close key is suggested, as spelled in the allowed list"},
		{"typo camel", "type: x\nmaxDurationMS: 1\nminimms: {}", 3, 1, `unknown key "minimms"`, `did you mean "minimums"?`, "first unknown key"},
		{"far", "zzzzzzzz: 1", 1, 1, `unknown key "zzzzzzzz"`, "allowed: expected, max_duration_ms, minimums, mode, type", "nothing close: list the keys"},
		{"two spellings", "max_duration_ms: 1\nmaxDurationMs: 2", 2, 1, `key "maxDurationMs" repeats "max_duration_ms"`, "", "one key under two spellings"},
		{"far, keys allowed twice", "zzzzzzzz: 1", 1, 1, `unknown key "zzzzzzzz"`, "allowed: expected, max_duration_ms, minimums, mode, type", "a key the caller lists twice (a suite's keys and a dialect's overlap) is named once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allowed := allowed
			if strings.Contains(tt.name, "twice") {
				allowed = append(allowed, allowed...)
			}
			err := mustParse(t, tt.src).Check(allowed...)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("Check: %v: %s", err, tt.reason)
				}
				return
			}
			if err == nil {
				t.Fatalf("Check passed, want %q: %s", tt.msg, tt.reason)
			}
			se := specErr(t, err)
			if se.Line != tt.line || se.Col != tt.col || se.Msg != tt.msg || se.Hint != tt.hint {
				t.Errorf("Check = %v (at %d:%d, msg %q, hint %q); want %d:%d %q %q: %s", err, se.Line, se.Col, se.Msg, se.Hint, tt.line, tt.col, tt.msg, tt.hint, tt.reason)
			}
		})
	}
}

func TestNode_accessors(t *testing.T) {
	n := mustParse(t, "s: x\nn: 2.0\ni: 3\nb: false\nl: [a, 2]\nm: {k: v}\nneg: -1\nbig: 1e400\n")
	if s, err := n.Get("s").Str(); s != "x" || err != nil {
		t.Errorf("Str = %q, %v", s, err)
	}
	if _, err := n.Get("n").Str(); err == nil || !strings.Contains(err.Error(), "f.yaml:2:4") {
		t.Errorf("Str of a number = %v, want an error at 2:4", err)
	}
	if i, err := n.Get("n").Int(); i != 2 || err != nil {
		t.Errorf("Int(2.0) = %d, %v; want 2 (a whole number)", i, err)
	}
	if _, err := mustParse(t, "x: 2.5").Get("x").Int(); err == nil {
		t.Error("Int(2.5) succeeded, want an error")
	}
	if f, err := n.Get("i").Float(); f != 3 || err != nil {
		t.Errorf("Float = %v, %v", f, err)
	}
	if _, err := n.Get("neg").NonNegative(); err == nil {
		t.Error("NonNegative(-1) succeeded")
	}
	if _, err := n.Get("big").Float(); err == nil {
		t.Error("Float(1e400) succeeded, want out of range")
	}
	if b, err := n.Get("b").BoolValue(); b || err != nil {
		t.Errorf("BoolValue = %v, %v", b, err)
	}
	if _, err := n.Get("s").BoolValue(); err == nil {
		t.Error("BoolValue of a string succeeded")
	}
	if l, err := n.Get("l").Strings(); err != nil || strings.Join(l, ",") != "a,2" {
		t.Errorf("Strings = %q, %v; want names, numbers as text", l, err)
	}
	if l, err := n.Get("s").Strings(); err != nil || len(l) != 1 {
		t.Errorf("Strings of one name = %q, %v", l, err)
	}
	if _, err := n.Get("m").List(); err == nil || !strings.Contains(err.Error(), "expected a list, got a map") {
		t.Errorf("List of a map = %v", err)
	}
	if es, err := n.Get("m").MapEntries(); err != nil || len(es) != 1 || es[0].Key != "k" {
		t.Errorf("MapEntries = %v, %v", es, err)
	}
	if got := n.At("l", "1"); got.Text != "2" {
		t.Errorf("At(l, 1) = %v", got)
	}
	if got := n.At("l", "9"); got != n.Get("l") {
		t.Errorf("At past the end = %v, want the deepest node found", got)
	}
}

func ExampleParse() {
	n, err := config.Parse("suite.yaml", []byte("evaluators:\n  - type: tool_trajectory\n    mode: IN_ORDER\n"))
	if err != nil {
		panic(err)
	}
	ev := n.Get("evaluators").Items[0]
	mode, _ := ev.Get("mode").Enum("any_order", "in_order", "exact")
	fmt.Println(ev.Path, mode, ev.Get("mode").Line, ev.Get("mode").Col)
	// Output: evaluators[0] in_order 3 11
}

func ExampleNode_Check() {
	n, _ := config.Parse("suite.yaml", []byte("type: tool_trajectory\nexpcted: []\n"))
	fmt.Println(n.Check("type", "mode", "expected"))
	// Output: suite.yaml:2:1: expcted: unknown key "expcted" (did you mean "expected"?)
}

func ExampleCanon() {
	fmt.Println(config.Canon("maxDurationMs"), config.Canon("tool-calls-order"))
	// Output: max_duration_ms tool_calls_order
}

// An alias-heavy file ("billion laughs") parses quickly because aliases
// share their node, but Value() expands every alias: nine levels of nine
// aliases would build 9^9 strings.
func TestNode_Value_aliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 9 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	_, err := config.Parse("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("error %v, want the expansion bound", err)
	}
	// A few aliases stay fine.
	n, err := config.Parse("ok.yaml", []byte("a: &a {x: 1}\nb: *a\nc: *a\n"))
	if err != nil || n.Get("c").Value() == nil {
		t.Fatalf("small aliases: %v", err)
	}
}

func TestParse_textCol(t *testing.T) {
	n := mustParse(t, "a: se(arch\nb: \"se(arch\"\nc: 'it''s'\nd: \"tab\\t\"\ne: |\n  x\nf: two\n  lines\n")
	for key, want := range map[string]int{"a": 4, "b": 5, "c": 0, "d": 0, "e": 0, "f": 0} {
		if got := n.Get(key).TextCol; got != want {
			t.Errorf("%s: TextCol %d, want %d (only text written on one line as it is has columns)", key, got, want)
		}
	}
}

// TestParse_emptyValuePlace: a value written as nothing is placed just
// after its key's colon (or its item's dash), whether or not the input
// ends on its line, so a part of a document places it as the whole does.
func TestParse_emptyValuePlace(t *testing.T) {
	tests := []struct {
		name, doc string
		line, col int
		reason    string
	}{
		{"at the end", "a: ", 1, 3, "the input ends after the blanks"},
		{"before more", "a: \nb: 1\n", 1, 3, "the input goes on"},
		{"no blank", "a:\n", 1, 3, "just after the colon"},
		{"blanks and a comment", "a:   # c\n", 1, 3, "a comment is not the value"},
		{"an item", "x:\n  - 0: \n", 2, 7, "a key in a list item"},
		{"a dash", "- \n", 1, 2, "an empty item"},
		{"written", "a: ~\n", 1, 4, "a null written out keeps its own place"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := config.Parse("f.yaml", []byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			n := root
			if n.Kind == config.List {
				n = n.Items[0]
			}
			for n.Kind == config.Map {
				n = n.Entries[0].Value
				if n.Kind == config.List {
					n = n.Items[0]
				}
			}
			if n.Kind != config.Null || n.Line != tt.line || n.Col != tt.col {
				t.Errorf("%s at %d:%d, want null at %d:%d: %s", n.Kind, n.Line, n.Col, tt.line, tt.col, tt.reason)
			}
		})
	}
}
