package bfcl_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/bfcl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// docs are the function documents the tests share.
const docs = `[
 {"name": "area", "parameters": {"type": "dict", "properties": {
   "base": {"type": "integer"}, "height": {"type": "float"}, "unit": {"type": "string"},
   "exact": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}},
   "sizes": {"type": "array", "items": {"type": "float"}},
   "point": {"type": "tuple", "items": {"type": "integer"}},
   "opts": {"type": "dict"}, "rows": {"type": "array", "items": {"type": "dict"}},
   "note": {"type": "any"}}, "required": ["base"]}},
 {"name": "math.hypot", "parameters": {"type": "dict", "properties": {
   "x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x", "y"]}},
 {"name": "weather", "parameters": {"type": "dict", "properties": {
   "city": {"type": "string"}, "unit": {"type": "string"}}, "required": ["city"]}}
]`

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonv.Decode([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

// steps reads [{name: args}, ...].
func steps(t *testing.T, s string) []trajeval.Step {
	t.Helper()
	var out []trajeval.Step
	for i, c := range mustJSON(t, s).([]any) {
		for name, args := range c.(map[string]any) {
			out = append(out, trajeval.Step{Index: i + 1, Name: name, Args: args})
		}
	}
	return out
}

func checker(t *testing.T, category, groundTruth string, m bfcl.Matching) *bfcl.Checker {
	t.Helper()
	fns, err := bfcl.ParseFunctions(mustJSON(t, docs))
	if err != nil {
		t.Fatal(err)
	}
	gt, err := bfcl.ParseGroundTruth(mustJSON(t, groundTruth))
	if err != nil {
		t.Fatal(err)
	}
	if category == "simple" || category == "live_simple" {
		// A simple entry is checked against its first document: put the
		// expected one first.
		k := 0
		for i, f := range fns {
			if f.Name == gt[0].Name {
				k = i
			}
		}
		fns[0], fns[k] = fns[k], fns[0]
	}
	c, err := bfcl.New(bfcl.Options{Category: category, Functions: fns, GroundTruth: gt, Matching: m})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChecker_Evaluate(t *testing.T) {
	const area = `[{"area": {"base": [10], "height": [5.0, ""], "unit": ["square meters", ""], "exact": [true, ""],
		"tags": [["Red", "blue"], ""], "sizes": [[1.5, 2.0], ""], "point": [[1, 2], ""],
		"opts": [{"mode": ["Fast", "quick"], "depth": [2, ""]}, ""], "rows": [[{"k": ["a"]}, {"k": ["b"]}], ""],
		"note": ["any text", ""]}}]`
	tests := []struct {
		name, category, truth, got string
		errorType                  string // "" when the steps pass
		reason                     string
	}{
		{"exact answer", "simple", area, `[{"area": {"base": 10}}]`, "", "the optional parameters may be left out"},
		{"wrong name", "simple", area, `[{"areas": {"base": 10}}]`, "simple_function_checker:wrong_func_name", "names are compared exactly"},
		{"name case", "simple", area, `[{"Area": {"base": 10}}]`, "simple_function_checker:wrong_func_name", "names are case-sensitive"},
		{"two calls for simple", "simple", area, `[{"area": {"base": 10}}, {"area": {"base": 10}}]`, "simple_function_checker:wrong_count", "simple takes exactly one call"},
		{"no call for simple", "simple", area, `[]`, "simple_function_checker:wrong_count", "no call is the wrong count"},
		{"missing required", "simple", area, `[{"area": {"height": 5.0}}]`, "simple_function_checker:missing_required", "base is required by the document"},
		{"unexpected param", "simple", area, `[{"area": {"base": 10, "color": "red"}}]`, "simple_function_checker:unexpected_param", "color is in neither the document nor the answer"},
		{"param not in answer", "simple", `[{"area": {"base": [10]}}]`, `[{"area": {"base": 10, "unit": "m"}}]`, "simple_function_checker:unexpected_param", "unit is documented but the possible answer does not list it"},
		{"missing optional not allowed", "simple", `[{"area": {"base": [10], "unit": ["m"]}}]`, `[{"area": {"base": 10}}]`, "simple_function_checker:missing_optional", `unit has no "" among its allowed values`},
		{"string for integer", "simple", area, `[{"area": {"base": "10"}}]`, "type_error:simple", "strict types: a string is not an integer"},
		{"float for integer", "simple", area, `[{"area": {"base": 10.0}}]`, "type_error:simple", "10.0 is a float, not an integer"},
		{"bool for integer", "simple", area, `[{"area": {"base": true}}]`, "type_error:simple", "a boolean is never a number"},
		{"int for float", "simple", area, `[{"area": {"base": 10, "height": 5}}]`, "", "an integer is accepted for a float, and compared by value"},
		{"float value", "simple", area, `[{"area": {"base": 10, "height": 5.5}}]`, "value_error:others", "a number must equal an allowed value"},
		{"integer value", "simple", area, `[{"area": {"base": 11}}]`, "value_error:others", "11 is not allowed"},
		{"boolean value", "simple", area, `[{"area": {"base": 10, "exact": false}}]`, "value_error:others", "false is not allowed"},
		{"string normalised", "simple", area, `[{"area": {"base": 10, "unit": "Square-Meters."}}]`, "", "case, spaces and - . are ignored"},
		{"string quotes", "simple", `[{"weather": {"city": ["it's"]}}]`, `[{"weather": {"city": "IT\"S"}}]`, "", `' and " are the same after normalisation`},
		{"string wrong", "simple", area, `[{"area": {"base": 10, "unit": "feet"}}]`, "value_error:string", "feet is not allowed"},
		{"any is a string", "simple", area, `[{"area": {"base": 10, "note": "Any_Text"}}]`, "", "any is checked as a normalised string"},
		{"any not a string", "simple", area, `[{"area": {"base": 10, "note": 3}}]`, "type_error:simple", "any maps to Python's str"},
		{"list element-wise", "simple", area, `[{"area": {"base": 10, "tags": ["red", "BLUE"]}}]`, "", "list strings are normalised element by element"},
		{"list order", "simple", area, `[{"area": {"base": 10, "tags": ["blue", "red"]}}]`, "value_error:list/tuple", "lists compare in order"},
		{"list nested type", "simple", `[{"area": {"base": [10], "tags": [["red", "blue"]]}}]`, `[{"area": {"base": 10, "tags": ["red", 2]}}]`, "type_error:nested", "items.type string: 2 is not a string"},
		{"optional list skips nested type", "simple", area, `[{"area": {"base": 10, "tags": ["red", 2]}}]`, "value_error:list/tuple", `as in BFCL, an allowed "" passes the nested type check; the value check then fails`},
		{"list int for float items", "simple", `[{"area": {"base": [10], "sizes": [[1.5, 2.0]]}}]`, `[{"area": {"base": 10, "sizes": [1.5, 2]}}]`, "type_error:nested", "BFCL accepts an int for a float only at the top level"},
		{"empty list is the optional", "simple", area, `[{"area": {"base": 10, "tags": []}}]`, "", `as in BFCL, an allowed "" compares equal to an empty list`},
		{"tuple", "simple", area, `[{"area": {"base": 10, "point": [1, 2]}}]`, "", "a tuple is a JSON array"},
		{"list not a list", "simple", area, `[{"area": {"base": 10, "tags": "red"}}]`, "type_error:simple", "a string is not an array"},
		{"dict by key", "simple", area, `[{"area": {"base": 10, "opts": {"mode": "QUICK"}}}]`, "", "dict values are normalised, depth may be left out"},
		{"dict unexpected key", "simple", area, `[{"area": {"base": 10, "opts": {"mode": "fast", "x": 1}}}]`, "value_error:dict_key", "x is not an allowed key"},
		{"dict wrong value", "simple", area, `[{"area": {"base": 10, "opts": {"mode": "slow"}}}]`, "value_error:dict_value", "slow is not allowed for mode"},
		{"dict missing key", "simple", `[{"area": {"base": [10], "opts": [{"mode": ["fast"], "depth": [2]}]}}]`, `[{"area": {"base": 10, "opts": {"mode": "fast"}}}]`, "value_error:dict_key", "depth has no \"\""},
		{"list of dicts", "simple", area, `[{"area": {"base": 10, "rows": [{"k": "A"}, {"k": "b"}]}}]`, "", "each dict in order"},
		{"list of dicts count", "simple", area, `[{"area": {"base": 10, "rows": [{"k": "a"}]}}]`, "value_error:list_dict_count", "one dict where two are expected"},
		{"list of dicts order", "simple", `[{"area": {"base": [10], "rows": [[{"k": ["a"]}, {"k": ["b"]}]]}}]`, `[{"area": {"base": 10, "rows": [{"k": "b"}, {"k": "a"}]}}]`, "value_error:dict_value", "dicts compare in order"},
		{"last allowed entry's error", "simple", area, `[{"area": {"base": 10, "rows": [{"k": "b"}, {"k": "a"}]}}]`, "value_error:list_dict_count", `as in BFCL, the error reported is the last allowed entry's: "" is an empty list`},
		{"variable", "simple", `[{"area": {"base": ["n"]}}]`, `[{"area": {"base": "n"}}]`, "", "an allowed string for an integer makes it a variable: the string is accepted"},
		{"variable exact", "simple", `[{"area": {"base": ["n"]}}]`, `[{"area": {"base": "N"}}]`, "value_error:others", "a variable is compared without normalisation"},
		{"dict nothing allowed", "simple", `[{"area": {"base": [10], "opts": [""]}}]`, `[{"area": {"base": 10, "opts": {"mode": "fast"}}}]`, "dict_checker:unclear", "only \"\" is allowed: no dict can match"},
		{"true equals 1", "simple", `[{"area": {"base": [10], "exact": [1]}}]`, `[{"area": {"base": 10, "exact": true}}]`, "", "Python's True == 1: an allowed 1 makes the parameter a variable, and true equals it"},
		{"arguments not an object", "simple", area, `[{"area": "base=10"}]`, "ast_decoder:decoder_wrong_output_format", "the arguments of a call are an object"},
		{"multiple", "multiple", `[{"weather": {"city": ["Paris"]}}]`, `[{"weather": {"city": "paris"}}]`, "", "multiple checks the one call against the document of its name"},
		{"multiple count", "multiple", `[{"weather": {"city": ["Paris"]}}]`, `[{"weather": {"city": "Paris"}}, {"weather": {"city": "Paris"}}]`, "multiple_function_checker:wrong_count", "one call expected"},
		{"multiple wrong function", "multiple", `[{"weather": {"city": ["Paris"]}}]`, `[{"math.hypot": {"x": 1, "y": 2}}]`, "simple_function_checker:wrong_func_name", "the model chose another function"},
		{"parallel any order", "parallel", `[{"weather": {"city": ["Paris"]}}, {"weather": {"city": ["Rome"]}}]`, `[{"weather": {"city": "Rome"}}, {"weather": {"city": "Paris"}}]`, "", "parallel calls may come in any order"},
		{"parallel count", "parallel", `[{"weather": {"city": ["Paris"]}}, {"weather": {"city": ["Rome"]}}]`, `[{"weather": {"city": "Rome"}}]`, "parallel_function_checker_no_order:wrong_count", "two calls expected"},
		{"parallel no match", "parallel_multiple", `[{"weather": {"city": ["Paris"]}}, {"math.hypot": {"x": [1], "y": [2]}}]`, `[{"weather": {"city": "Oslo"}}, {"math.hypot": {"x": 1, "y": 2}}]`, "parallel_function_checker_no_order:cannot_find_match", "no step passes the Paris call"},
		{"live prefix", "live_parallel", `[{"weather": {"city": ["Paris"]}}, {"weather": {"city": ["Rome"]}}]`, `[{"weather": {"city": "Rome"}}, {"weather": {"city": "Paris"}}]`, "", "live_ categories follow the same rules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checker(t, tt.category, tt.truth, bfcl.Official)
			out, err := c.Evaluate(context.Background(), &trajeval.Trajectory{Steps: steps(t, tt.got)})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := out.Details.Notes["error_type"].(string)
			if got != tt.errorType {
				t.Errorf("error_type %q (%v), want %q: %s", got, out.Details.Notes["error"], tt.errorType, tt.reason)
			}
			if want := map[bool]float64{true: 1, false: 0}[tt.errorType == ""]; out.Score != want {
				t.Errorf("score %v, want %v: %s", out.Score, want, tt.reason)
			}
		})
	}
}

// firstFitTrap is a parallel entry where BFCL's first fit fails: the
// first expected call (any unit) takes step 1, which the second (unit
// celsius only) needed; step 2 (fahrenheit) then passes neither.
const firstFitTrap = `[{"weather": {"city": ["Paris"], "unit": ["", "celsius", "fahrenheit"]}},
	{"weather": {"city": ["Paris"], "unit": ["celsius"]}}]`

const trapSteps = `[{"weather": {"city": "Paris", "unit": "celsius"}}, {"weather": {"city": "Paris", "unit": "fahrenheit"}}]`

func TestChecker_Matching(t *testing.T) {
	tests := []struct {
		name     string
		matching bfcl.Matching
		truth    string
		got      string
		score    float64
		changed  bool
		reason   string
	}{
		{"official first fit fails", bfcl.Official, firstFitTrap, trapSteps, 0, false, "BFCL pairs expected call 1 with step 1 and finds nothing for call 2"},
		{"optimal passes", bfcl.Optimal, firstFitTrap, trapSteps, 1, true, "pairing 1→step 2, 2→step 1 passes both"},
		{"both pass", bfcl.Optimal, firstFitTrap, `[{"weather": {"city": "Paris", "unit": "fahrenheit"}}, {"weather": {"city": "Paris", "unit": "celsius"}}]`, 1, false, "first fit finds the pairing too: no change to report"},
		{"both fail", bfcl.Optimal, firstFitTrap, `[{"weather": {"city": "Paris", "unit": "fahrenheit"}}, {"weather": {"city": "Paris", "unit": "kelvin"}}]`, 0, false, "no pairing passes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checker(t, "parallel", tt.truth, tt.matching)
			out, err := c.Evaluate(context.Background(), &trajeval.Trajectory{Steps: steps(t, tt.got)})
			if err != nil {
				t.Fatal(err)
			}
			if out.Score != tt.score {
				t.Errorf("score %v, want %v (%v): %s", out.Score, tt.score, out.Details.Notes, tt.reason)
			}
			_, changed := out.Details.Notes["official_valid"]
			if changed != tt.changed {
				t.Errorf("official_valid noted: %v, want %v: %s", changed, tt.changed, tt.reason)
			}
			if tt.changed && (len(out.Details.Warnings) != 1 || !strings.Contains(out.Details.Warnings[0], "first-fit")) {
				t.Errorf("warnings %q, want one explaining the first-fit difference", out.Details.Warnings)
			}
			if tt.score == 1 && len(out.Details.Matched) != 2 {
				t.Errorf("matched %v, want both calls paired", out.Details.Matched)
			}
		})
	}
}

func TestChecker_textAnswer(t *testing.T) {
	c := checker(t, "simple", `[{"weather": {"city": ["Paris"]}}]`, bfcl.Official)
	text := "I cannot call tools."
	out, err := c.Evaluate(context.Background(), &trajeval.Trajectory{Turns: []trajeval.Turn{{Turn: 1, FinalResponse: &text}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Details.Notes["error_type"]; got != "ast_decoder:decoder_failed" || out.Score != 0 {
		t.Errorf("error_type %v score %v, want ast_decoder:decoder_failed and 0: a text answer is a decoding failure", got, out.Score)
	}
	want := `Invalid syntax. Failed to decode AST. line 1, column 1: I is not called: expected '(' after it, found "cannot"`
	if errs, _ := out.Details.Notes["error"].([]string); len(errs) != 1 || !strings.HasPrefix(errs[0], want) {
		t.Errorf("error %v, want BFCL's words and the decoder's reason, placed: %s", out.Details.Notes["error"], want)
	}
}

func TestChecker_explains(t *testing.T) {
	c := checker(t, "simple", `[{"weather": {"city": ["Paris"]}}]`, bfcl.Official)
	out, _ := c.Evaluate(context.Background(), &trajeval.Trajectory{Steps: steps(t, `[{"weather": {"city": "Oslo"}}]`)})
	d := out.Details
	if len(d.Missing) != 1 || len(d.Missing[0].Near) != 1 || len(d.Missing[0].Near[0].Diffs) != 1 {
		t.Fatalf("missing %+v, want the call with one near miss and its argument difference", d.Missing)
	}
	if diff := d.Missing[0].Near[0].Diffs[0]; diff.Path != "args.city" || diff.Got != `"Oslo"` || diff.Want != `one of ["Paris"]` {
		t.Errorf("diff %v, want args.city: expected one of [\"Paris\"], got \"Oslo\"", diff)
	}
}

func TestUnderscoreToDot(t *testing.T) {
	fns, _ := bfcl.ParseFunctions(mustJSON(t, docs))
	fns[0], fns[1] = fns[1], fns[0]
	gt, _ := bfcl.ParseGroundTruth(mustJSON(t, `[{"math.hypot": {"x": [1], "y": [2]}}]`))
	for _, dot := range []bool{false, true} {
		c, err := bfcl.New(bfcl.Options{Category: "simple", Functions: fns, GroundTruth: gt, UnderscoreToDot: dot})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := c.Evaluate(context.Background(), &trajeval.Trajectory{Steps: steps(t, `[{"math_hypot": {"x": 1, "y": 2}}]`)})
		if want := map[bool]float64{false: 0, true: 1}[dot]; out.Score != want {
			t.Errorf("underscore_to_dot %v: score %v, want %v", dot, out.Score, want)
		}
	}
}

func TestNew(t *testing.T) {
	fns, _ := bfcl.ParseFunctions(mustJSON(t, docs))
	one, _ := bfcl.ParseGroundTruth(mustJSON(t, `[{"weather": {"city": ["Paris"]}}]`))
	two, _ := bfcl.ParseGroundTruth(mustJSON(t, `[{"weather": {"city": ["Paris"]}}, {"weather": {"city": ["Rome"]}}]`))
	unknown, _ := bfcl.ParseGroundTruth(mustJSON(t, `[{"nope": {}}]`))
	tests := []struct {
		name string
		opts bfcl.Options
		key  string
	}{
		{"python documents for java", bfcl.Options{Category: "simple_java", Functions: fns, GroundTruth: one}, "functions"},
		{"irrelevance", bfcl.Options{Category: "irrelevance", Functions: fns, GroundTruth: one}, "category"},
		{"optimal for simple", bfcl.Options{Category: "simple", Functions: fns, GroundTruth: one, Matching: bfcl.Optimal}, "matching"},
		{"no functions", bfcl.Options{Category: "simple", GroundTruth: one}, "functions"},
		{"two for simple", bfcl.Options{Category: "simple", Functions: fns, GroundTruth: two}, "ground_truth"},
		{"undocumented", bfcl.Options{Category: "multiple", Functions: fns, GroundTruth: unknown}, "ground_truth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bfcl.New(tt.opts)
			var oe *bfcl.OptionError
			if !errors.As(err, &oe) || oe.Key != tt.key {
				t.Errorf("New: %v, want an OptionError at %s", err, tt.key)
			}
		})
	}
}

func TestCategory(t *testing.T) {
	tests := []struct{ id, cat string }{
		{"simple_python_0", "simple_python"},
		{"parallel_multiple_12", "parallel_multiple"},
		{"live_simple_3-3-0", "live_simple"},
		{"multiple_199", "multiple"},
		{"nonumber", ""},
	}
	for _, tt := range tests {
		if got, _ := bfcl.Category(tt.id); got != tt.cat {
			t.Errorf("Category(%q) = %q, want %q", tt.id, got, tt.cat)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"April 1, 2024 'x' a*b^c/d_e-f.", `april12024"x"abcdef`, "spaces and , . / - _ * ^ go, ' becomes \""},
		{"İi", "i\u0307i", "Python's full lowercase mapping: İ is i and a combining dot"},
		{"ΣΑΣ", "σας", "a Σ ending a word is ς, one starting it σ"},
		{"Σ", "σ", "a Σ alone is no word's end: nothing cased before it"},
		{"ΑΣ'Β", `ασ"β`, "the apostrophe is case-ignorable: a cased letter follows the Σ"},
		{"ΑΣ\u0301", "ας\u0301", "a combining accent is case-ignorable: the word ends"},
		{"ΑΣ1", "ας1", "a digit is not cased: the word ends"},
		{"ΑΣ ΒΑ", "ασβα", "the space goes first, so Σ is inside ΑΣΒΑ"},
	}
	for _, tt := range tests {
		if got := bfcl.Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestParse_errors(t *testing.T) {
	tests := []struct{ name, functions, truth string }{
		{"unknown type", `[{"name": "f", "parameters": {"properties": {"a": {"type": "object"}}}}]`, ""},
		{"nameless", `[{"parameters": {}}]`, ""},
		{"values not a list", "", `[{"f": {"a": 1}}]`},
		{"two functions in one call", "", `[{"f": {}, "g": {}}]`},
		{"not a list", "", `{"f": {}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.functions != "" {
				_, err = bfcl.ParseFunctions(mustJSON(t, tt.functions))
			} else {
				_, err = bfcl.ParseGroundTruth(mustJSON(t, tt.truth))
			}
			if err == nil {
				t.Error("no error for a malformed input")
			}
		})
	}
}

// TestChecker_pythonExact holds the inputs where reading BFCL's Python
// (its decoder, ast_parse and resolve_ast_by_type, and the checker's
// standardize_string and ==) gives another verdict than a reading in Go
// terms would. got is a prompting model's text answer, or, starting with
// "json:", decoded calls.
func TestChecker_pythonExact(t *testing.T) {
	const area = `[{"area": {"base": [10], "height": [0.06, ""], "tags": [["Red", "blue"], ""], "point": [[1, 2], ""]}}]`
	tests := []struct {
		name, truth, got string
		errorType        string // "" when the steps pass
		reason           string
	}{
		{"tuple for array", area, `[area(base=10, tags=("red", "blue"))]`, "type_error:simple", "resolve_ast_by_type keeps a tuple, and type(value) == list fails for a tuple"},
		{"tuple for tuple", area, `[area(base=10, point=(1, 2))]`, "", "simple_function_checker makes a tuple a list where the document says tuple"},
		{"nested tuple", area, `[area(base=10, tags=["red", ("blue",)])]`, "value_error:list/tuple", `the allowed "" lets the nested type check pass; a tuple element then equals no list element`},
		{"list for array", area, `[area(base=10, tags=["red", "blue"])]`, "", "a list is an array"},
		{"json string", area, `[{"area": {"base": 10}}]`, "ast_decoder:decoder_failed", "the prompting decoder finds a dict where a call must be (assert isinstance(elem, ast.Call))"},
		{"empty list text", area, `[]`, "simple_function_checker:wrong_count", "[] decodes to no call: the wrong count, not a decoding failure"},
		{"repeated keyword", area, `[area(base=11, base=10)]`, "", "ast.parse accepts a repeated keyword; the dict of keywords keeps the last value"},
		{"repeated keyword last wrong", area, `[area(base=10, base=11)]`, "value_error:others", "the last value is the one checked"},
		{"dotted capital I", `[{"weather": {"city": ["Istanbul"]}}]`, `[weather(city="İstanbul")]`, "value_error:string", `Python's "İ".lower() is "i̇", two characters, not "i"`},
		{"dotted capital I both", `[{"weather": {"city": ["İSTANBUL"]}}]`, `[weather(city="İstanbul")]`, "", "both sides lower to i̇stanbul"},
		{"final sigma", `[{"weather": {"city": ["οδοσ"]}}]`, `[weather(city="ΟΔΟΣ")]`, "value_error:string", "Σ at the end of a word lowers to ς in Python"},
		{"final sigma matched", `[{"weather": {"city": ["οδος"]}}]`, `[weather(city="ΟΔΟΣ")]`, "", "ΟΔΟΣ lowers to οδος"},
		{"sigma after removal", `[{"weather": {"city": ["οδοσ βας"]}}]`, `[weather(city="ΟΔΟΣ ΒΑΣ")]`, "", "spaces go before lowering: ΟΔΟΣΒΑΣ's first Σ is inside the word"},
		{"sigma before quote", `[{"weather": {"city": ["οδος\""]}}]`, `[weather(city="ΟΔΟΣ'")]`, "", "an apostrophe is case-ignorable, and ' becomes \" only after lowering"},
		{"float digits", area, `json:[{"area": {"base": 10, "height": 0.0600000000000000001}}]`, "", "json.loads reads the float as the float64 of 0.06"},
		{"float digits in text", area, `[area(base=10, height=0.0600000000000000001)]`, "", "ast.parse reads the float as the float64 of 0.06"},
		{"big int exact", `[{"area": {"base": [10000000000000000000000]}}]`, `json:[{"area": {"base": 10000000000000000000001}}]`, "value_error:others", "a Python int is exact, whatever its size"},
		{"int made float", `[{"area": {"base": [10], "height": [9007199254740992.0]}}]`, `json:[{"area": {"base": 10, "height": 9007199254740993}}]`, "", "float(9007199254740993) is 9007199254740992.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checker(t, "simple", tt.truth, bfcl.Official)
			tr := &trajeval.Trajectory{}
			if js, ok := strings.CutPrefix(tt.got, "json:"); ok {
				tr.Steps = steps(t, js)
			} else {
				tr.Turns = []trajeval.Turn{{Turn: 1, FinalResponse: &tt.got}}
			}
			out, err := c.Evaluate(context.Background(), tr)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := out.Details.Notes["error_type"].(string)
			if got != tt.errorType {
				t.Errorf("error_type %q (%v), want %q: %s", got, out.Details.Notes["error"], tt.errorType, tt.reason)
			}
			if want := map[bool]float64{true: 1, false: 0}[tt.errorType == ""]; out.Score != want {
				t.Errorf("score %v, want %v: %s", out.Score, want, tt.reason)
			}
		})
	}
}
