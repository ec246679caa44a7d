package bfcl_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/bfcl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestConverters holds values whose conversion was computed by BFCL's own
// java_type_converter and js_type_converter (run on these inputs).
func TestConverters(t *testing.T) {
	tests := []struct {
		lang, value, typ, nested string
		want                     string // the value as JSON
		reason                   string
	}{
		{"java", "123", "integer", "", `123`, "an int"},
		{"java", "١٢", "integer", "", `12`, `Python's \d and int() read any decimal digits`},
		{"java", "3.14f", "float", "", `3.14`, "a Java float literal"},
		{"java", "3.14", "float", "", `"3.14"`, "without f it is no float: the text stays"},
		{"java", "123L", "long", "", `123`, "a long literal"},
		{"java", "new int[]{1, 2, 3}", "Array", "integer", `[1,2,3]`, "an array, each element converted"},
		{"java", `new String[]{"a", "b"}`, "Array", "String", `["\"a\"","\"b\""]`, "String elements of an Array keep their quotes"},
		{"java", "new long[]{1L, 2, 3L}", "Array", "long", `[1,"2",3]`, "an element that is not a long stays text"},
		{"java", `new ArrayList<>(Arrays.asList("a", "b"))`, "ArrayList", "String", `["a","b"]`, "String elements of an ArrayList lose their quotes"},
		{"java", `new HashMap<String, String>() {{ put("key", "value"); }}`, "HashMap", "", `{"key":"value"}`, "a HashMap's puts"},
		{"java", "'a'", "char", "", `"'a'"`, `BFCL's char pattern ^\'.$\' never matches: the text stays`},
		{"js", "'abc'", "String", "", `"abc"`, "quotes go"},
		{"js", "5n", "Bigint", "", `5`, "a BigInt literal"},
		{"js", "5", "float", "", `5.0`, "an integer text is a float here"},
		{"js", "[1, 2, 3]", "array", "integer", `[1,2,3]`, "an array"},
		{"js", "['a', 'b']", "array", "String", `["a","b"]`, "quoted elements"},
		{"js", "[[1, 2], [3]]", "array", "integer", `[[1,2],[3]]`, "a 2D array"},
		{"js", "new Array(1, 2)", "array", "", `[1,2]`, "new Array(...)"},
		{"js", "[1_0, 0x1, 1e3, inf]", "array", "", `[10,"0x1",1000.0,1e999]`, "Python's int() and float() on each element"},
		{"js", "{key: 'value', n: 2}", "dict", "", `{"key":"value","n":2}`, "an object literal"},
		{"js", "{a: [1, 2], b: {c: 3}}", "dict", "", `{"a":[1,2],"b":"{c: 3"}`, "BFCL's \\{(.*?)\\} stops at the first }"},
		{"js", "{a: 1, b, c: x:y, :z, d:}", "dict", "", `{"":"z","a":"1, b","c":"x:y","d":""}`, "the pair pattern's lookahead, written out"},
		{"js", "{a:1,  ,:b:2}", "dict", "", `{"a":"1,","b":2}`, "the lookahead gives back white space"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.value, func(t *testing.T) {
			conv := bfcl.JavaConvert
			if tt.lang == "js" {
				conv = bfcl.JSConvert
			}
			v, err := conv(tt.value, tt.typ, tt.nested)
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonv.Marshal(v); got != tt.want {
				t.Errorf("%s %s(%q) = %s, want %s: %s", tt.lang, tt.typ, tt.value, got, tt.want, tt.reason)
			}
		})
	}
}

const javaDocs = `[{"name": "f", "parameters": {"type": "dict", "properties": {
  "n": {"type": "integer"}, "x": {"type": "float"}, "ok": {"type": "boolean"},
  "xs": {"type": "Array", "items": {"type": "integer"}}, "m": {"type": "HashMap"},
  "s": {"type": "String"}, "set": {"type": "Set"}}, "required": ["n"]}}]`

const jsDocs = `[{"name": "f", "parameters": {"type": "dict", "properties": {
  "n": {"type": "integer"}, "big": {"type": "Bigint"}, "s": {"type": "String"},
  "xs": {"type": "array", "items": {"type": "String"}}, "d": {"type": "dict"}}, "required": ["n"]}}]`

func TestChecker_javaScript(t *testing.T) {
	tests := []struct {
		name, category, docs, truth, got string
		errorType                        string // "" when the step passes
		reason                           string
	}{
		{"java values", "simple_java", javaDocs, `[{"f": {"n": [5], "x": [2.5, ""], "ok": [true, ""], "xs": [[1, 2], ""], "m": [{"k": ["v"]}, ""], "s": ["hello", ""]}}]`,
			`[{"f": {"n": "5", "x": "2.5f", "ok": "true", "xs": "new int[]{1, 2}", "m": "new HashMap<String, String>() {{ put(\"k\", \"v\"); }}", "s": "Hello"}}]`, "", "each value converted from Java source, then checked as Python values"},
		{"java not a string", "simple_java", javaDocs, `[{"f": {"n": [5]}}]`, `[{"f": {"n": 5}}]`, "type_error:java", "a Java value is source text"},
		{"java float without f", "simple_java", javaDocs, `[{"f": {"n": [5], "x": [2.5]}}]`, `[{"f": {"n": "5", "x": "2.5"}}]`, "type_error:simple", "2.5 is a double literal: the text stays a string"},
		{"java wrong value", "simple_java", javaDocs, `[{"f": {"n": [5]}}]`, `[{"f": {"n": "6"}}]`, "value_error:others", "6 is not allowed"},
		{"js values", "simple_javascript", jsDocs, `[{"f": {"n": [5], "big": [7, ""], "s": ["abc", ""], "xs": [["a", "b"], ""], "d": [{"k": ["v"], "n": [2]}, ""]}}]`,
			`[{"f": {"n": "5", "big": "7n", "s": "'ABC'", "xs": "['a', 'b']", "d": "{k: 'v', n: 2}"}}]`, "", "each value converted from JavaScript source"},
		{"js not a string", "simple_javascript", jsDocs, `[{"f": {"n": [5]}}]`, `[{"f": {"n": 5}}]`, "type_error:js", "a JavaScript value is source text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fns, err := bfcl.ParseFunctions(mustJSON(t, tt.docs))
			if err != nil {
				t.Fatal(err)
			}
			gt, err := bfcl.ParseGroundTruth(mustJSON(t, tt.truth))
			if err != nil {
				t.Fatal(err)
			}
			c, err := bfcl.New(bfcl.Options{Category: tt.category, Functions: fns, GroundTruth: gt})
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Evaluate(context.Background(), &trajeval.Trajectory{Steps: steps(t, tt.got)})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := out.Details.Notes["error_type"].(string)
			if got != tt.errorType {
				t.Errorf("error_type %q (%v), want %q: %s", got, out.Details.Notes["error"], tt.errorType, tt.reason)
			}
		})
	}
}

func TestChecker_javaNotScored(t *testing.T) {
	fns, _ := bfcl.ParseFunctions(mustJSON(t, javaDocs))
	gt, _ := bfcl.ParseGroundTruth(mustJSON(t, `[{"f": {"n": [5], "set": [""]}}]`))
	c, err := bfcl.New(bfcl.Options{Category: "simple_java", Functions: fns, GroundTruth: gt})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Evaluate(context.Background(), &trajeval.Trajectory{Steps: steps(t, `[{"f": {"n": "5", "set": "new HashSet<>()"}}]`)})
	if err == nil || !strings.Contains(err.Error(), "NotImplementedError") {
		t.Errorf("Evaluate: %v, want an error: BFCL's converter raises for Set, so the case is not scored", err)
	}
	text := `[f(n="5")]`
	_, err = c.Evaluate(context.Background(), &trajeval.Trajectory{Turns: []trajeval.Turn{{Turn: 1, FinalResponse: &text}}})
	if err == nil || !strings.Contains(err.Error(), "tree-sitter") {
		t.Errorf("Evaluate: %v, want an error: BFCL reads Java text with tree-sitter", err)
	}
	py, _ := bfcl.ParseFunctions(mustJSON(t, docs))
	one, _ := bfcl.ParseGroundTruth(mustJSON(t, `[{"weather": {"city": ["Paris"]}}]`))
	if _, err := bfcl.New(bfcl.Options{Category: "simple_java", Functions: py, GroundTruth: one}); err == nil {
		t.Error("New: a Python document (type string) under simple_java, want an error")
	}
}

// FuzzConverters checks BFCL's Java and JavaScript converters on any
// text and type: they never panic, and what they give is a value of the
// checker's data model.
func FuzzConverters(f *testing.F) {
	for _, s := range []string{
		`new HashMap<String, Object>() {{ put("a", 1L); put("b", "x"); }}`,
		`new ArrayList<Integer>() {{ add(1); add(2); }}`,
		`new int[]{1, 2, 3}`,
		`{a: [1, 2], b: {c: 3}, 'd': "e"}`,
		`[[1, 2], [3, '4']]`,
		`١٢٣`, `-1_000.5e3`, `inf`, `5n`, `'x'`,
	} {
		f.Add(s, 0)
	}
	javaTypes := []string{"byte", "integer", "float", "double", "long", "boolean", "char", "Array", "ArrayList", "HashMap", "String", "any"}
	jsTypes := []string{"String", "integer", "float", "Bigint", "Boolean", "dict", "array", "any"}
	f.Fuzz(func(t *testing.T, s string, n int) {
		k := int(uint(n) % 64)
		if _, err := bfcl.JavaConvert(s, javaTypes[k%len(javaTypes)], javaTypes[k/len(javaTypes)%len(javaTypes)]); err != nil {
			t.Fatalf("java %q: %v", s, err)
		}
		if _, err := bfcl.JSConvert(s, jsTypes[k%len(jsTypes)], jsTypes[k/len(jsTypes)%len(jsTypes)]); err != nil {
			t.Fatalf("js %q: %v", s, err)
		}
	})
}
