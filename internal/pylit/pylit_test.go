package pylit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pylit"
)

func TestParseValue(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the value as JSON; "" when ParseValue must fail
		err      string // part of the error, when it must fail
		reason   string
	}{
		{"dict repr", `[{'tool_name': 'get_weather', 'tool_input': {'city': 'Paris'}}]`, `[{"tool_input":{"city":"Paris"},"tool_name":"get_weather"}]`, "", "what pandas writes for a list of dicts"},
		{"constants", `{'a': True, 'b': False, 'c': None}`, `{"a":true,"b":false,"c":null}`, "", "Python's constants are capitalised"},
		{"json text", `{"a": [1, 2.5, "x"]}`, `{"a":[1,2.5,"x"]}`, "", "JSON without true/false/null is Python too"},
		{"tuple", `('x', 1.5)`, `["x",1.5]`, "", "a tuple is a list"},
		{"one-tuple", `(1,)`, `[1]`, "", "a trailing comma makes a tuple"},
		{"group", `(1)`, `1`, "", "parentheses alone only group"},
		{"empty tuple", `()`, `[]`, "", "() is the empty tuple"},
		{"trailing comma", "[1, 2,]", `[1,2]`, "", "Python allows a trailing comma"},
		{"big int", `9007199254740993`, `9007199254740993`, "", "integers stay exact"},
		{"underscores", `1_000_000`, `1000000`, "", "_ between digits"},
		{"hex", `0xFF`, `255`, "", "hex integers are written in decimal"},
		{"octal binary", `[0o17, 0b101, -0x10]`, `[15,5,-16]`, "", "octal, binary and a sign"},
		{"zero", `[0, 00, -0]`, `[0,0,0]`, "", "zeros may repeat; -0 is 0"},
		{"leading zero", `012`, "", "leading zeros", "Python 3 refuses 012"},
		{"negative", `-5`, `-5`, "", "a sign"},
		{"plus", `+5`, `5`, "", "a unary plus on a literal"},
		{"float", `1.5`, `1.5`, "", "a float"},
		{"float exponent", `1e5`, `100000.0`, "", "1e5 is a float, written as Python's repr writes it"},
		{"float point", `[5., .5, 1_0.2_5]`, `[5.0,0.5,10.25]`, "", "Python's point floats"},
		{"float tiny", `0.00001`, `1e-05`, "", "repr's exponent form below 1e-4"},
		{"float huge", `1e16`, `1e+16`, "", "repr's exponent form from 1e16"},
		{"float rounds", `0.10000000000000001`, `0.1`, "", "a float is read to the nearest float64, as Python reads it"},
		{"float inf", `1e400`, "", "too large", "Python reads it as inf, which JSON cannot hold"},
		{"imaginary", `2j`, "", "imaginary", "complex numbers have no JSON form"},
		{"bad number", `1.2.3`, "", "invalid number", "two points"},
		{"number then name", `1abc`, "", "invalid number", "Python refuses it too"},
		{"escapes", `'it\'s \u00e9\x41\101\n'`, `"it's éAA\n"`, "", "Python's escapes"},
		{"unknown escape", `'a\qb'`, `"a\\qb"`, "", "an unknown escape keeps its backslash"},
		{"raw", `r'a\nb\''`, `"a\\nb\\'"`, "", "a raw string keeps backslashes, and \\' does not close it"},
		{"u prefix", `U"x"`, `"x"`, "", "u is allowed, in either case"},
		{"triple", "'''a\n'b'\n'''", `"a\n'b'\n"`, "", "triple quotes hold line breaks and quotes"},
		{"triple double", `"""say "hi" """`, `"say \"hi\" "`, "", "triple double quotes"},
		{"continuation", "'a\\\nb'", `"ab"`, "", "a backslash before a line break joins the lines"},
		{"concatenation", `'a' "b" r'\c'`, `"ab\\c"`, "", "adjacent strings are joined"},
		{"unicode", `'日本'`, `"日本"`, "", "text as it is"},
		{"astral escape", `'\U0001F600'`, `"😀"`, "", "\\U takes 8 hex digits"},
		{"surrogate", `'\ud83d'`, "", "surrogate", "a lone surrogate has no UTF-8 form"},
		{"truncated hex", `'\x4'`, "", "truncated", "\\x takes two digits"},
		{"named escape", `'\N{BULLET}'`, "", `\N{name}`, "the name table is not carried"},
		{"bytes", `b'x'`, "", "bytes", "bytes have no JSON form"},
		{"f-string", `f'{x}'`, "", "f-string", "an f-string runs code"},
		{"line break", "'a\nb'", "", "line break", "a one-quote string ends at its line"},
		{"unclosed string", `'abc`, "", "never closed", "no closing quote"},
		{"int key", `{1: 'a', True: 'b', None: 'c', 1.5: 'd'}`, `{"1":"a","1.5":"d","null":"c","true":"b"}`, "", "json.dumps writes a non-string key as its text"},
		{"tuple key", `{(1, 2): 'a'}`, "", "dict key", "a tuple key has no JSON form"},
		{"set", `{'a', 'b'}`, "", "set", "sets have no JSON form"},
		{"comment", "[1, # one\n 2]", `[1,2]`, "", "comments and line breaks between tokens"},
		{"bare word", `Oslo`, "", "name", "a bare word is no literal"},
		{"keyword", `[lambda]`, "", "keyword", "a Python keyword is no value"},
		{"call", `datetime(2024, 1, 1)`, "", "name", "a constructor call is no literal"},
		{"operator", `1 + 2`, "", "not evaluated", "expressions are not evaluated"},
		{"trailing", `{'a': 1} x`, "", "after the end", "nothing may follow the value"},
		{"unclosed list", `[1, 2`, "", "never closed", "the list is not closed"},
		{"missing comma", `[1 2]`, "", "expected ','", "elements need commas"},
		{"ellipsis", `...`, "", "Ellipsis", "... has no JSON form"},
		{"empty", ``, "", "end of the text", "no value at all"},
		{"not utf-8", "'\xff'", "", "UTF-8", "the text must be UTF-8"},
		{"deep", strings.Repeat("[", 300) + strings.Repeat("]", 300), "", "nested too deep", "Python's parser stops at 200 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pylit.ParseValue(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("ParseValue(%q) = %s, want an error: %s", tt.in, jsonv.Marshal(got), tt.reason)
				}
				if !strings.Contains(err.Error(), tt.err) || !errors.Is(err, pylit.ErrSyntax) {
					t.Errorf("ParseValue(%q) error = %v, want one with %q that is ErrSyntax: %s", tt.in, err, tt.err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseValue(%q): %v (%s)", tt.in, err, tt.reason)
			}
			if s := jsonv.Marshal(got); s != tt.want {
				t.Errorf("ParseValue(%q) = %s, want %s: %s", tt.in, s, tt.want, tt.reason)
			}
		})
	}
}

func TestSyntaxError_Error(t *testing.T) {
	tests := []struct {
		name, in, want, reason string
	}{
		{"column", `[1, 2 3]`, "line 1, column 7: expected ',' or ']' after the list element, found '3' (separate the elements with commas)", "the column of the unexpected token, and a hint"},
		{"line", "[1,\n 2,\n x]", `line 3, column 2: x is a name, not a literal (quote it: 'x')`, "line and column on a later line"},
		{"characters", `['é', x]`, `line 1, column 7: x is a name, not a literal (quote it: 'x')`, "the column counts characters, not bytes"},
		{"unclosed", `{'a': [1`, `line 1, column 7: '[' is never closed (add ']' at the end)`, "an unclosed bracket is placed at the bracket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pylit.ParseValue(tt.in)
			if err == nil || err.Error() != tt.want {
				t.Errorf("ParseValue(%q) error = %v, want %s: %s", tt.in, err, tt.want, tt.reason)
			}
		})
	}
}

func TestParseCalls(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the calls as JSON [{name: args}], with "+N" after a name with N positional arguments; "" when it must fail
		err      string
		reason   string
	}{
		{"list", `[get_weather(city="Paris", days=1), f(a=[1,2], b={'k': True})]`, `[{"get_weather":{"city":"Paris","days":1}},{"f":{"a":[1,2],"b":{"k":true}}}]`, "", "BFCL's prompting format"},
		{"dotted", `[math.hypot(x=3, y=4)]`, `[{"math.hypot":{"x":3,"y":4}}]`, "", "a dotted name"},
		{"bare call", `f(a=1)`, `[{"f":{"a":1}}]`, "", "one call without brackets"},
		{"bare tuple", `f(a=1), g(b=2)`, `[{"f":{"a":1}},{"g":{"b":2}}]`, "", "calls separated by commas are a tuple"},
		{"tuple", `(f(a=1), g(b=2),)`, `[{"f":{"a":1}},{"g":{"b":2}}]`, "", "a tuple of calls"},
		{"empty", `[]`, `[]`, "", "no call"},
		{"no arguments", `[f()]`, `[{"f":{}}]`, "", "a call without arguments"},
		{"name value", `[f(unit=celsius)]`, `[{"f":{"unit":"celsius"}}]`, "", "BFCL reads a bare name as its text"},
		{"nested call", `[f(when=date(year=2024))]`, `[{"f":{"when":{"date":{"year":2024}}}}]`, "", "a call with keywords as a value is {name: args}"},
		{"call text", `[f(x=float("inf"))]`, `[{"f":{"x":"float(\"inf\")"}}]`, "", "a call without keywords is kept as text"},
		{"ellipsis", `[f(x=...)]`, `[{"f":{"x":"..."}}]`, "", "BFCL reads ... as \"...\""},
		{"float kept", `[f(x=2.0, y=2)]`, `[{"f":{"x":2.0,"y":2}}]`, "", "a float stays a float for BFCL's type checks"},
		{"positional", `[f(1, 'a', b=2)]`, `[{"f+2":{"b":2}}]`, "", "positional arguments are counted and dropped, as BFCL drops them"},
		{"multiline", "[\n  f(a=1),\n  g(b=2)\n]", `[{"f":{"a":1}},{"g":{"b":2}}]`, "", "line breaks inside brackets"},
		{"not a call", `[f(a=1), 2]`, "", "expected a function call", "every element is a call"},
		{"uncalled", `[f]`, "", "not called", "a name alone is no call"},
		{"kwargs", `[f(**d)]`, "", "**kwargs", "unpacking is not read"},
		{"args", `[f(*d)]`, "", "*args", "unpacking is not read"},
		{"repeated", `[f(time=31, b=1, time=30)]`, `[{"f":{"b":1,"time":30}}]`, "", "BFCL's decoder (Python's ast.parse) keeps a repeated keyword's last value"},
		{"tuple kept", `[f(a=(2, 3), b=[(1,), ()])]`, `[{"f":{"a":"(2,3)","b":["(1)","()"]}}]`, "", "a tuple stays a tuple, at any depth, as BFCL's decoder keeps it"},
		{"parenthesised", `[f(a=(2))]`, `[{"f":{"a":2}}]`, "", "parentheses without a comma make no tuple"},
		{"positional after keyword", `[f(a=1, 2)]`, "", "positional argument follows", "Python refuses it"},
		{"operator", `[f(a=2*3)]`, "", "not evaluated", "BFCL would eval it; a reader does not"},
		{"unary plus", `[f(a=+5)]`, "", "unary +", "BFCL reads +5 as -5"},
		{"negative", `[f(a=-5, b=-1.5)]`, `[{"f":{"a":-5,"b":-1.5}}]`, "", "a negative number"},
		{"attribute value", `[f(a=x.y)]`, "", "attribute", "BFCL refuses an attribute as a value"},
		{"set value", `[f(a={1, 2})]`, "", "set", "BFCL refuses a set"},
		{"text", `I cannot help with that.`, "", "", "a text answer is no call list"},
		{"trailing text", `[f(a=1)] done`, "", "after the end", "nothing may follow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pylit.ParseCalls(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("ParseCalls(%q) = %v, want an error: %s", tt.in, got, tt.reason)
				}
				if !strings.Contains(err.Error(), tt.err) {
					t.Errorf("ParseCalls(%q) error = %v, want one with %q: %s", tt.in, err, tt.err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCalls(%q): %v (%s)", tt.in, err, tt.reason)
			}
			out := []any{}
			for _, c := range got {
				name := c.Name
				if c.Positional > 0 {
					name += "+" + string(rune('0'+c.Positional))
				}
				out = append(out, map[string]any{name: showTuples(c.Args)})
			}
			if s := jsonv.Marshal(out); s != tt.want {
				t.Errorf("ParseCalls(%q) = %s, want %s: %s", tt.in, s, tt.want, tt.reason)
			}
		})
	}
}

func TestDecodePrompting(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the calls as JSON [{name: args}]; "" when it must fail
		err      string // the error, when it must fail
		reason   string
	}{
		{"list", `[get_weather(city="Paris")]`, `[{"get_weather":{"city":"Paris"}}]`, "", "BFCL's prompting format"},
		{"bare", `get_weather(city="Paris")`, `[{"get_weather":{"city":"Paris"}}]`, "", "brackets are added"},
		{"bare several", `f(a=1), g(b=2)`, `[{"f":{"a":1}},{"g":{"b":2}}]`, "", "brackets are added around calls separated by commas"},
		{"fence", "```\n[f(a=1)]\n```", `[{"f":{"a":1}}]`, "", "backticks and line breaks are trimmed"},
		{"half bracket", `[f(a=1)`, `[{"f":{"a":1}}]`, "", "each bracket is added when missing"},
		{"fence with language", "```python\n[f(a=1)]\n```", "", `line 1, column 4: python is not called: expected '(' after it, found '['`, "BFCL trims backticks only, so the language name stays and fails"},
		{"text", "Sure! get_weather(city='Paris')", "", `line 1, column 1: Sure is not called: expected '(' after it, found '!'`, "leading words are not stripped, as in BFCL; the column is in the text as given"},
		{"text later line", "  \n[f(a=1),\n g(b=2) x]", "", `line 3, column 9: expected ',' or ']' after the call, found "x"`, "the line counts in the text as given"},
		{"words", `I cannot help with that.`, "", `line 1, column 1: I is not called: expected '(' after it, found "cannot"`, "a text answer fails"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pylit.DecodePrompting(tt.in)
			if tt.want == "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("DecodePrompting(%q) = %v, %v; want the error %q: %s", tt.in, got, err, tt.err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodePrompting(%q): %v (%s)", tt.in, err, tt.reason)
			}
			out := []any{}
			for _, c := range got {
				out = append(out, map[string]any{c.Name: c.Args})
			}
			if s := jsonv.Marshal(out); s != tt.want {
				t.Errorf("DecodePrompting(%q) = %s, want %s: %s", tt.in, s, tt.want, tt.reason)
			}
		})
	}
}

// showTuples writes each pylit.Tuple as a string "(a,b)" of its
// elements' JSON, so that a test's JSON tells tuples from lists.
func showTuples(v any) any {
	switch x := v.(type) {
	case pylit.Tuple:
		var parts []string
		for _, e := range x {
			parts = append(parts, jsonv.Marshal(showTuples(e)))
		}
		return "(" + strings.Join(parts, ",") + ")"
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = showTuples(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = showTuples(e)
		}
		return out
	}
	return v
}

func TestJSON(t *testing.T) {
	calls, err := pylit.ParseCalls(`f(a=(1, (2, 3)), b={'k': (4,)})`)
	if err != nil {
		t.Fatal(err)
	}
	args := calls[0].Args
	if !pylit.HasTuple(args) {
		t.Fatalf("HasTuple(%v) = false, want true: the arguments hold tuples", args)
	}
	j := pylit.JSON(args)
	if pylit.HasTuple(j) {
		t.Errorf("JSON(%v) still holds a tuple", args)
	}
	if got, want := jsonv.Marshal(j), `{"a":[1,[2,3]],"b":{"k":[4]}}`; got != want {
		t.Errorf("JSON = %s, want %s: every tuple becomes a list", got, want)
	}
	if _, ok := args["a"].(pylit.Tuple); !ok {
		t.Errorf("JSON changed its argument: a is %T", args["a"])
	}
}
