package argmatch_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// js decodes JSON text into the data model; "" is nil (no arguments).
func js(t testing.TB, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := jsonv.Decode([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

var (
	partial  = trajeval.ArgsMatch{}
	superset = trajeval.ArgsMatch{Mode: trajeval.ArgsPartial}
	exact    = trajeval.ArgsMatch{Mode: trajeval.ArgsExact}
	subset   = trajeval.ArgsMatch{Mode: trajeval.ArgsSubset}
	ignore   = trajeval.ArgsMatch{Mode: trajeval.ArgsIgnore}
)

func paths(p ...string) trajeval.ArgsMatch {
	if p == nil {
		p = []string{} // an empty list, not "no list"
	}
	return trajeval.ArgsMatch{Paths: p}
}

func TestMatcher_Match(t *testing.T) {
	trim := argmatch.Options{Trim: true}
	fold := argmatch.Options{CaseInsensitive: true}
	tests := []struct {
		name      string
		mode      trajeval.ArgsMatch
		opt       argmatch.Options
		want, got string
		match     bool
		reason    string
	}{
		// Modes.
		{"no args", partial, argmatch.Options{}, ``, `{"x":1}`, true, "no expected arguments match anything"},
		{"no args exact", exact, argmatch.Options{}, ``, `{"x":1}`, true, "no expected arguments match anything, in any mode"},
		{"ignore", ignore, argmatch.Options{}, `{"a":1}`, `{"a":2}`, true, "ignore always matches"},
		{"partial equal", partial, argmatch.Options{}, `{"a":1}`, `{"a":1}`, true, "same arguments"},
		{"partial extra top", partial, argmatch.Options{}, `{"a":1}`, `{"a":1,"b":2}`, true, "extra actual keys allowed at the top"},
		{"partial extra deep", partial, argmatch.Options{}, `{"a":{"b":{"c":1}}}`, `{"a":{"b":{"c":1,"d":2},"e":3},"f":4}`, true, "extra actual keys allowed at every depth"},
		{"partial extra in array element", partial, argmatch.Options{}, `{"items":[{"id":1}]}`, `{"items":[{"id":1,"qty":2}]}`, true, "objects inside arrays are partial too"},
		{"partial missing key", partial, argmatch.Options{}, `{"a":1,"b":2}`, `{"a":1}`, false, "every expected key must be present"},
		{"partial missing deep", partial, argmatch.Options{}, `{"a":{"b":1}}`, `{"a":{}}`, false, "recursively"},
		{"partial wrong deep", partial, argmatch.Options{}, `{"a":{"b":1}}`, `{"a":{"b":2}}`, false, "nested value differs"},
		{"superset alias", superset, argmatch.Options{}, `{"a":1}`, `{"a":1,"b":2}`, true, "superset is partial"},
		{"empty expected object", partial, argmatch.Options{}, `{}`, `{"a":1}`, true, "{} is a subset of everything"},
		{"no actual args", partial, argmatch.Options{}, `{}`, ``, true, "a call without arguments has {}"},
		{"no actual args, key wanted", partial, argmatch.Options{}, `{"a":1}`, ``, false, "{} lacks a"},
		{"exact equal", exact, argmatch.Options{}, `{"a":1,"b":{"c":[1,2]}}`, `{"b":{"c":[1,2]},"a":1}`, true, "key order never matters"},
		{"exact extra top", exact, argmatch.Options{}, `{"a":1}`, `{"a":1,"b":2}`, false, "exact forbids extra keys"},
		{"exact extra deep", exact, argmatch.Options{}, `{"a":{"b":1}}`, `{"a":{"b":1,"c":2}}`, false, "at every depth"},
		{"exact extra in array element", exact, argmatch.Options{}, `{"a":[{"b":1}]}`, `{"a":[{"b":1,"c":2}]}`, false, "inside arrays too"},
		{"exact missing", exact, argmatch.Options{}, `{"a":1,"b":2}`, `{"a":1}`, false, "exact needs every key"},
		{"exact empty", exact, argmatch.Options{}, `{}`, `{}`, true, "empty against empty"},
		{"exact empty vs args", exact, argmatch.Options{}, `{}`, `{"a":1}`, false, "{} exact means no arguments"},
		{"subset fewer", subset, argmatch.Options{}, `{"a":1,"b":2}`, `{"a":1}`, true, "omissions allowed"},
		{"subset empty actual", subset, argmatch.Options{}, `{"a":1}`, `{}`, true, "nothing given is a subset"},
		{"subset extra", subset, argmatch.Options{}, `{"a":1}`, `{"a":1,"b":2}`, false, "every actual key must be expected"},
		{"subset wrong value", subset, argmatch.Options{}, `{"a":1,"b":2}`, `{"a":2}`, false, "present keys must match"},
		{"subset recursive omission", subset, argmatch.Options{}, `{"a":{"b":1,"c":2}}`, `{"a":{"b":1}}`, true, "recursively: nested omissions allowed"},
		{"subset recursive extra", subset, argmatch.Options{}, `{"a":{"b":1}}`, `{"a":{"b":1,"x":1}}`, false, "recursively: nested extra keys fail"},
		// Dot-path lists.
		{"paths compared", paths("a"), argmatch.Options{}, `{"a":1,"b":2}`, `{"a":1,"b":3}`, true, "only listed paths count"},
		{"paths differ", paths("a"), argmatch.Options{}, `{"a":1}`, `{"a":2}`, false, "a listed path differs"},
		{"paths nested", paths("user.id"), argmatch.Options{}, `{"user":{"id":7,"name":"x"}}`, `{"user":{"id":7,"name":"y"}}`, true, "dot-path into objects"},
		{"paths into array", paths("items.1.id"), argmatch.Options{}, `{"items":[{"id":1},{"id":2}]}`, `{"items":[{"id":9},{"id":2}]}`, true, "a numeric segment indexes arrays"},
		{"paths bracket index", paths("items[1].id"), argmatch.Options{}, `{"items":[{"id":1},{"id":2}]}`, `{"items":[{"id":1},{"id":3}]}`, false, "items[1] is items.1, as $from writes it: compared, not skipped"},
		{"paths quoted key", paths(`["a.b"]`), argmatch.Options{}, `{"a.b":1}`, `{"a.b":2}`, false, "a key with a dot, quoted"},
		{"paths into array differ", paths("items.1.id"), argmatch.Options{}, `{"items":[{"id":1},{"id":2}]}`, `{"items":[{"id":1},{"id":3}]}`, false, "a numeric segment indexes arrays"},
		{"paths missing in expected", paths("a", "zzz"), argmatch.Options{}, `{"a":1}`, `{"a":1,"zzz":5}`, true, "a path missing in expected is skipped"},
		{"paths only missing in expected", paths("zzz"), argmatch.Options{}, `{"a":1}`, `{"a":2}`, true, "every path skipped: match"},
		{"paths missing in actual", paths("a"), argmatch.Options{}, `{"a":1}`, `{"b":1}`, false, "a path missing in actual differs"},
		{"paths array index out of range", paths("items.5"), argmatch.Options{}, `{"items":[1,2,3,4,5,6]}`, `{"items":[1]}`, false, "missing in actual"},
		{"paths exact value", paths("u"), argmatch.Options{}, `{"u":{"id":1}}`, `{"u":{"id":1,"x":2}}`, false, "a path's value compares exactly"},
		{"paths empty list", paths(), argmatch.Options{}, `{"a":1}`, `{"a":2}`, true, "no paths: nothing compared"},
		// Arrays.
		{"array equal", partial, argmatch.Options{}, `{"a":[1,2,3]}`, `{"a":[1,2,3]}`, true, "element by element"},
		{"array longer", partial, argmatch.Options{}, `{"a":[1,2]}`, `{"a":[1,2,3]}`, false, "equal length, even in partial"},
		{"array shorter", partial, argmatch.Options{}, `{"a":[1,2,3]}`, `{"a":[1,2]}`, false, "equal length"},
		{"array order", partial, argmatch.Options{}, `{"a":[1,2]}`, `{"a":[2,1]}`, false, "arrays are ordered"},
		{"array vs object", partial, argmatch.Options{}, `{"a":[]}`, `{"a":{}}`, false, "different kinds"},
		// Values.
		{"1 = 1.0", partial, argmatch.Options{}, `{"n":1}`, `{"n":1.0}`, true, "numbers by value"},
		{"1 = 1e0", exact, argmatch.Options{}, `{"n":1}`, `{"n":1e0}`, true, "numbers by value"},
		{"10e-1 = 1", exact, argmatch.Options{}, `{"n":10e-1}`, `{"n":1}`, true, "numbers by value"},
		{"2^53+1", partial, argmatch.Options{}, `{"n":9007199254740993}`, `{"n":9007199254740992}`, false, "exact integers"},
		{"-0 = 0", partial, argmatch.Options{}, `{"n":-0}`, `{"n":0}`, true, "zero is zero"},
		{"string exact", partial, argmatch.Options{}, `{"s":"NYC"}`, `{"s":"nyc"}`, false, "strings compare exactly"},
		{"string space", partial, argmatch.Options{}, `{"s":"NYC"}`, `{"s":" NYC "}`, false, "white space counts by default"},
		{"trim", partial, trim, `{"s":"NYC"}`, `{"s":" NYC\n"}`, true, "Trim ignores surrounding space"},
		{"trim keeps inner", partial, trim, `{"s":"New York"}`, `{"s":"New  York"}`, false, "Trim is only the ends"},
		{"case insensitive", partial, fold, `{"s":"NYC"}`, `{"s":"nyc"}`, true, "CaseInsensitive folds case"},
		{"case insensitive still exact", partial, fold, `{"s":"NYC"}`, `{"s":"nyc "}`, false, "folding is not trimming"},
		{"null vs missing", partial, argmatch.Options{}, `{"a":null}`, `{}`, false, "null is not a missing key"},
		{"null vs null", partial, argmatch.Options{}, `{"a":null}`, `{"a":null}`, true, "null matches null"},
		{"missing vs null exact", exact, argmatch.Options{}, `{}`, `{"a":null}`, false, "a null key is still a key"},
		{"null vs empty string", partial, argmatch.Options{}, `{"a":null}`, `{"a":""}`, false, "null is not empty"},
		{"bool vs number", partial, argmatch.Options{}, `{"a":true}`, `{"a":1}`, false, "a bool is never a number"},
		{"number vs bool", partial, argmatch.Options{}, `{"a":0}`, `{"a":false}`, false, "a number is never a bool"},
		{"number vs string", partial, argmatch.Options{}, `{"a":1}`, `{"a":"1"}`, false, "a number is never a string"},
		{"string vs number", partial, argmatch.Options{}, `{"a":"1"}`, `{"a":1}`, false, "a string is never a number"},
		// Operators.
		{"$regex", partial, argmatch.Options{}, `{"c":{"$regex":"^New"}}`, `{"c":"New York"}`, true, "RE2 match"},
		{"$regex unanchored", partial, argmatch.Options{}, `{"c":{"$regex":"York"}}`, `{"c":"New York"}`, true, "unanchored"},
		{"$regex no match", partial, argmatch.Options{}, `{"c":{"$regex":"^York"}}`, `{"c":"New York"}`, false, "anchor respected"},
		{"$regex non-string", partial, argmatch.Options{}, `{"c":{"$regex":"1"}}`, `{"c":1}`, false, "a number is not text"},
		{"$regex missing", partial, argmatch.Options{}, `{"c":{"$regex":".*"}}`, `{}`, false, "the key must be present"},
		{"$contains string", partial, argmatch.Options{}, `{"q":{"$contains":"York"}}`, `{"q":"New York"}`, true, "substring"},
		{"$contains string no", partial, argmatch.Options{}, `{"q":{"$contains":"york"}}`, `{"q":"New York"}`, false, "case-sensitive by default"},
		{"$contains string folded", partial, fold, `{"q":{"$contains":"york"}}`, `{"q":"New York"}`, true, "CaseInsensitive applies"},
		{"$contains array", partial, argmatch.Options{}, `{"tags":{"$contains":"b"}}`, `{"tags":["a","b"]}`, true, "an element equals"},
		{"$contains array no", partial, argmatch.Options{}, `{"tags":{"$contains":"c"}}`, `{"tags":["a","b"]}`, false, "no element equals"},
		{"$contains array object", partial, argmatch.Options{}, `{"items":{"$contains":{"id":2}}}`, `{"items":[{"id":1},{"id":2,"q":1}]}`, true, "an element matches partially"},
		{"$contains array number", partial, argmatch.Options{}, `{"ns":{"$contains":1}}`, `{"ns":[2,1.0]}`, true, "elements by value"},
		{"$contains array not string", partial, argmatch.Options{}, `{"ns":{"$contains":"1"}}`, `{"ns":[1]}`, false, "a number is never a string"},
		{"$contains on number", partial, argmatch.Options{}, `{"n":{"$contains":"1"}}`, `{"n":12}`, false, "only strings and arrays contain"},
		{"$gt big", partial, argmatch.Options{}, `{"n":{"$gt":9007199254740992}}`, `{"n":9007199254740993}`, true, "exact on big integers (float64 says equal)"},
		{"$gt equal", partial, argmatch.Options{}, `{"n":{"$gt":5}}`, `{"n":5.0}`, false, "strict"},
		{"$gte equal", partial, argmatch.Options{}, `{"n":{"$gte":5}}`, `{"n":5.0}`, true, "inclusive"},
		{"$lt big", partial, argmatch.Options{}, `{"n":{"$lt":9007199254740993}}`, `{"n":9007199254740992}`, true, "exact on big integers"},
		{"$lt equal", partial, argmatch.Options{}, `{"n":{"$lt":1}}`, `{"n":1e0}`, false, "strict"},
		{"$lte big", partial, argmatch.Options{}, `{"n":{"$lte":9007199254740992}}`, `{"n":9007199254740993}`, false, "exact on big integers"},
		{"$lte equal", partial, argmatch.Options{}, `{"n":{"$lte":-1}}`, `{"n":-1}`, true, "inclusive"},
		{"$gt string", partial, argmatch.Options{}, `{"n":{"$gt":1}}`, `{"n":"2"}`, false, "a string is not a number"},
		{"$approx default", partial, argmatch.Options{}, `{"x":{"$approx":3.14}}`, `{"x":3.1400000000001}`, true, "default tolerance 1e-9"},
		{"$approx default far", partial, argmatch.Options{}, `{"x":{"$approx":3.14}}`, `{"x":3.1401}`, false, "beyond 1e-9"},
		{"$approx abs in", partial, argmatch.Options{}, `{"x":{"$approx":{"value":100,"abs":0.5}}}`, `{"x":100.4}`, true, "within abs"},
		{"$approx abs out", partial, argmatch.Options{}, `{"x":{"$approx":{"value":100,"abs":0.5}}}`, `{"x":99.4}`, false, "beyond abs"},
		{"$approx rel in", partial, argmatch.Options{}, `{"x":{"$approx":{"value":200,"rel":0.01}}}`, `{"x":201.9}`, true, "within 1% of 200"},
		{"$approx rel out", partial, argmatch.Options{}, `{"x":{"$approx":{"value":200,"rel":0.01}}}`, `{"x":202.1}`, false, "beyond 1% of 200"},
		{"$approx either", partial, argmatch.Options{}, `{"x":{"$approx":{"value":200,"abs":3,"rel":0.001}}}`, `{"x":202.5}`, true, "either tolerance is enough"},
		{"$approx string", partial, argmatch.Options{}, `{"x":{"$approx":1}}`, `{"x":"1"}`, false, "a string is not a number"},
		{"$type string", partial, argmatch.Options{}, `{"x":{"$type":"string"}}`, `{"x":"a"}`, true, "type name"},
		{"$type integer 1.0", partial, argmatch.Options{}, `{"x":{"$type":"integer"}}`, `{"x":1.0}`, true, "1.0 is an integer"},
		{"$type integer 1.5", partial, argmatch.Options{}, `{"x":{"$type":"integer"}}`, `{"x":1.5}`, false, "1.5 is not"},
		{"$type integer string", partial, argmatch.Options{}, `{"x":{"$type":"integer"}}`, `{"x":"1"}`, false, "a numeric string is not an integer"},
		{"$type number", partial, argmatch.Options{}, `{"x":{"$type":"number"}}`, `{"x":1}`, true, "an integer is a number"},
		{"$type boolean not number", partial, argmatch.Options{}, `{"x":{"$type":"number"}}`, `{"x":true}`, false, "a bool is never a number"},
		{"$type null", partial, argmatch.Options{}, `{"x":{"$type":"null"}}`, `{"x":null}`, true, "null type"},
		{"$type list", partial, argmatch.Options{}, `{"x":{"$type":["string","null"]}}`, `{"x":null}`, true, "any of a list"},
		{"$type list no", partial, argmatch.Options{}, `{"x":{"$type":["string","null"]}}`, `{"x":[]}`, false, "none of the list"},
		{"$type object", partial, argmatch.Options{}, `{"x":{"$type":"object"}}`, `{"x":{}}`, true, "object type"},
		{"$any present", partial, argmatch.Options{}, `{"x":{"$any":true}}`, `{"x":null}`, true, "any value, even null"},
		{"$any missing", partial, argmatch.Options{}, `{"x":{"$any":true}}`, `{"y":1}`, false, "$any requires presence"},
		{"$any missing exact", exact, argmatch.Options{}, `{"x":{"$any":true}}`, `{}`, false, "$any requires presence in exact too"},
		{"$any missing path", paths("x"), argmatch.Options{}, `{"x":{"$any":true}}`, `{}`, false, "and in path mode"},
		{"$oneOf", partial, argmatch.Options{}, `{"u":{"$oneOf":["c","f"]}}`, `{"u":"f"}`, true, "one of the values"},
		{"$oneOf no", partial, argmatch.Options{}, `{"u":{"$oneOf":["c","f"]}}`, `{"u":"k"}`, false, "none of the values"},
		{"$oneOf patterns", partial, argmatch.Options{}, `{"u":{"$oneOf":[1,{"$regex":"^x"}]}}`, `{"u":"xyz"}`, true, "members may be operators"},
		{"$oneOf by value", partial, argmatch.Options{}, `{"u":{"$oneOf":[1,2]}}`, `{"u":2.0}`, true, "numbers by value"},
		{"$not", partial, argmatch.Options{}, `{"c":{"$not":"Paris"}}`, `{"c":"London"}`, true, "anything but"},
		{"$not no", partial, argmatch.Options{}, `{"c":{"$not":"Paris"}}`, `{"c":"Paris"}`, false, "not that"},
		{"$not regex", partial, argmatch.Options{}, `{"c":{"$not":{"$regex":"^P"}}}`, `{"c":"Paris"}`, false, "negated operator"},
		{"$not missing", partial, argmatch.Options{}, `{"c":{"$not":"Paris"}}`, `{}`, false, "the key must still be present"},
		{"$$key literal", partial, argmatch.Options{}, `{"$$ref":"x"}`, `{"$ref":"x"}`, true, "$$ref is the literal key $ref"},
		{"$$key literal differs", partial, argmatch.Options{}, `{"$$ref":"x"}`, `{"$ref":"y"}`, false, "compared as a value"},
		{"$$key literal nested", exact, argmatch.Options{}, `{"a":{"$$ref":"x"}}`, `{"a":{"$ref":"x"}}`, true, "at any depth, also in exact"},
		{"$regex trim", partial, trim, `{"c":{"$regex":"^NY$"}}`, `{"c":" NY "}`, true, "Trim applies before the regex"},
		{"operator in array", partial, argmatch.Options{}, `{"a":[{"$gt":1},{"$type":"string"}]}`, `{"a":[2,"x"]}`, true, "operators at array positions"},
		{"operator in subset", subset, argmatch.Options{}, `{"a":{"$regex":"x"},"b":1}`, `{"a":"xx"}`, true, "operators in subset mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := argmatch.New(js(t, tt.want), tt.mode, tt.opt)
			if err != nil {
				t.Fatalf("New(%s): %v", tt.want, err)
			}
			got := js(t, tt.got)
			if m.Match(got) != tt.match {
				t.Errorf("Match(want %s, got %s, mode %+v) = %v, want %v: %s", tt.want, tt.got, tt.mode, !tt.match, tt.match, tt.reason)
			}
			// Diff must agree with Match.
			if d := m.Diff(got); (d == nil) != tt.match {
				t.Errorf("Diff = %v, but Match = %v: %s", d, tt.match, tt.reason)
			}
			// Arguments kept as text, as readers keep them, match alike.
			if tt.got != "" && m.Match(json.RawMessage(tt.got)) != tt.match {
				t.Errorf("Match(text %s) = %v, want %v: %s", tt.got, !tt.match, tt.match, tt.reason)
			}
		})
	}
}

func TestNew_errors(t *testing.T) {
	tests := []struct {
		name   string
		args   string
		path   string // below args, as Path.String writes it
		msg    string // a part of Error()
		reason string
	}{
		{"unknown operator", `{"city":{"$regx":"^N"}}`, "city", `args.city: unknown operator $regx (did you mean $regex?)`, "a close operator is suggested"},
		{"unknown operator far", `{"city":{"$frobnicate":1}}`, "city", `unknown operator $frobnicate (write $$frobnicate for a literal key)`, "no close operator: say how to write a literal"},
		{"operator with other keys", `{"city":{"$regex":"^N","x":1}}`, "city", `operator $regex must be the only key`, "an operator object has one key"},
		{"operator with literal $$", `{"city":{"$regex":"^N","$$x":1}}`, "city", `must be the only key`, "$$x is a literal key beside the operator"},
		{"bad regex", `{"city":{"$regex":"("}}`, "city.$regex", `invalid regular expression`, "RE2 syntax error"},
		{"regex not a string", `{"city":{"$regex":1}}`, "city.$regex", `$regex needs a string, got number`, "type of the operand"},
		{"$approx without value", `{"x":{"$approx":{"abs":0.1}}}`, "x.$approx", `$approx needs a number value`, "value is required"},
		{"$approx negative", `{"x":{"$approx":{"value":1,"abs":-1}}}`, "x.$approx", `$approx abs must be a number ≥ 0`, "tolerances are not negative"},
		{"$approx unknown key", `{"x":{"$approx":{"value":1,"tol":1}}}`, "x.$approx", `$approx has no key "tol"`, "only value, abs, rel"},
		{"$approx string", `{"x":{"$approx":"1"}}`, "x.$approx", `$approx needs a number`, "operand type"},
		{"$gt string", `{"x":{"$gt":"1"}}`, "x.$gt", `$gt needs a number, got string`, "operand type"},
		{"$type unknown", `{"x":{"$type":"float"}}`, "x.$type", `unknown type float`, "JSON type names only"},
		{"$type not a name", `{"x":{"$type":1}}`, "x.$type", `$type needs a type name`, "operand type"},
		{"$any false", `{"x":{"$any":false}}`, "x.$any", `$any takes true`, "only true"},
		{"$oneOf empty", `{"x":{"$oneOf":[]}}`, "x.$oneOf", `$oneOf needs a non-empty list`, "nothing to choose from"},
		{"$oneOf bad member", `{"x":{"$oneOf":[1,{"$regx":"a"}]}}`, "x.$oneOf[1]", `did you mean $regex?`, "errors inside members keep their path"},
		{"$not bad", `{"x":{"$not":{"$regex":"["}}}`, "x.$not.$regex", `invalid regular expression`, "errors inside $not keep their path"},
		{"in array", `{"items":[{"id":1},{"id":{"$gtt":1}}]}`, "items[1].id", `args.items[1].id: unknown operator $gtt (did you mean $gt?)`, "array positions are in the path, in brackets"},
		{"key with a dot", `{"a.b":{"$regex":1}}`, "[\"a.b\"].$regex", `args["a.b"].$regex: $regex needs a string`, "a key with a dot is quoted, so the path reads back"},
		{"deep", `{"a":{"b":{"c":{"$containz":"x"}}}}`, "a.b.c", `args.a.b.c: unknown operator $containz (did you mean $contains?)`, "the full path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := argmatch.New(js(t, tt.args), partial, argmatch.Options{})
			var ce *argmatch.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("New(%s) = %v, want a *CompileError: %s", tt.args, err, tt.reason)
			}
			if got := ce.Path.String(); got != tt.path {
				t.Errorf("Path = %q, want %q: %s", got, tt.path, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Error() = %q, want it to contain %q: %s", err, tt.msg, tt.reason)
			}
		})
	}
}

func TestMatcher_Diff(t *testing.T) {
	tests := []struct {
		name      string
		mode      trajeval.ArgsMatch
		want, got string
		diffs     []string
		reason    string
	}{
		{"match", partial, `{"city":"NYC"}`, `{"city":"NYC","x":1}`, nil, "no diffs on a match"},
		{"string", partial, `{"city":"New York"}`, `{"city":"NYC"}`, []string{`args.city: expected "New York", got "NYC"`}, "the example of docs/scoring.md"},
		{"array element", partial, `{"items":[{"id":1},{"id":2}]}`, `{"items":[{"id":1},{"id":3}]}`, []string{`args.items[1].id: expected 2, got 3`}, "array indexes in brackets"},
		{"missing", partial, `{"a":1,"b":"x"}`, `{"a":1}`, []string{`args.b: expected "x", got (missing)`}, "a missing key"},
		{"absent", exact, `{"a":1}`, `{"a":1,"b":2}`, []string{`args.b: expected (absent), got 2`}, "an extra key in exact"},
		{"subset absent", subset, `{"a":1}`, `{"a":1,"z":[1]}`, []string{`args.z: expected (absent), got [1]`}, "an unexpected key in subset"},
		{"all diffs, sorted", exact, `{"b":1,"a":2}`, `{"a":3,"b":4,"d":5,"c":6}`, []string{
			`args.a: expected 2, got 3`, `args.b: expected 1, got 4`, `args.c: expected (absent), got 6`, `args.d: expected (absent), got 5`,
		}, "every differing path, in key order"},
		{"array length", partial, `{"a":[1,2]}`, `{"a":[1]}`, []string{`args.a: expected [1,2], got [1]`}, "the whole array when lengths differ"},
		{"kind", partial, `{"a":{"b":1}}`, `{"a":"b"}`, []string{`args.a: expected {"b":1}, got "b"`}, "an object against a string"},
		{"operator", partial, `{"c":{"$regex":"^New"}}`, `{"c":"NYC"}`, []string{`args.c: expected {"$regex":"^New"}, got "NYC"`}, "operators shown as written"},
		{"null vs missing", partial, `{"a":null}`, `{}`, []string{`args.a: expected null, got (missing)`}, "null is not missing"},
		{"path mode", paths("user.id", "nope"), `{"user":{"id":7}}`, `{"user":{"id":8}}`, []string{`args.user.id: expected 7, got 8`}, "a path named below args"},
		{"path mode missing", paths("user.id"), `{"user":{"id":7}}`, `{"user":{}}`, []string{`args.user.id: expected 7, got (missing)`}, "missing in actual"},
		{"nested missing", partial, `{"a":{"b":{"c":1}}}`, `{"a":{"b":{}}}`, []string{`args.a.b.c: expected 1, got (missing)`}, "deep path"},
		{"path mode dotted index", paths("items.1.id"), `{"items":[{"id":1},{"id":2}]}`, `{"items":[{"id":1},{"id":3}]}`, []string{`args.items[1].id: expected 2, got 3`}, "items.1.id is named as every other difference is, the index in brackets"},
		{"path mode bracket index", paths("items[1].id"), `{"items":[{"id":1},{"id":2}]}`, `{"items":[{"id":1},{"id":3}]}`, []string{`args.items[1].id: expected 2, got 3`}, "both spellings give one name"},
		{"path mode digit key", paths("m.1"), `{"m":{"1":"a"}}`, `{"m":{"1":"b"}}`, []string{`args.m.1: expected "a", got "b"`}, "a key of digits in an object is a key, not an index"},
		{"path mode quoted key", paths(`["a.b"]`), `{"a.b":1}`, `{"a.b":2}`, []string{`args["a.b"]: expected 1, got 2`}, "a key with a dot is quoted, as the rule writes it"},
		{"dotted key", partial, `{"x":{"a.b":1}}`, `{"x":{"a.b":2}}`, []string{`args.x["a.b"]: expected 1, got 2`}, "a key with a dot is quoted, so the name reads back as one path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := argmatch.New(js(t, tt.want), tt.mode, argmatch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range m.Diff(js(t, tt.got)) {
				got = append(got, d.String())
			}
			if !reflect.DeepEqual(got, tt.diffs) {
				t.Errorf("Diff:\n got %q\nwant %q\n%s", got, tt.diffs, tt.reason)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want trajeval.ArgsMode
		ok   bool
	}{
		{"partial", trajeval.ArgsPartial, true},
		{"superset", trajeval.ArgsPartial, true},
		{"exact", trajeval.ArgsExact, true},
		{"subset", trajeval.ArgsSubset, true},
		{"ignore", trajeval.ArgsIgnore, true},
		{"Exact", "", false},
		{"paths", "", false},
	} {
		got, ok := argmatch.ParseMode(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for _, m := range argmatch.Modes {
		if _, ok := argmatch.ParseMode(m); !ok {
			t.Errorf("Modes lists %q but ParseMode rejects it", m)
		}
	}
}

func TestMatcher_AcceptsAll(t *testing.T) {
	var nilM *argmatch.Matcher
	if !nilM.AcceptsAll() || nilM.Key() != "*" {
		t.Error("a nil Matcher must accept everything and have key *")
	}
	for _, tt := range []struct {
		args string
		mode trajeval.ArgsMatch
		want bool
	}{
		{``, partial, true}, {`{"a":1}`, ignore, true}, {`{"a":1}`, paths(), true}, {`{}`, partial, false}, {`{"a":1}`, exact, false},
	} {
		m, err := argmatch.New(js(t, tt.args), tt.mode, argmatch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m.AcceptsAll() != tt.want {
			t.Errorf("New(%s, %+v).AcceptsAll() = %v, want %v", tt.args, tt.mode, !tt.want, tt.want)
		}
	}
}

// TestMatcher_Key checks the property Key promises: two matchers with the
// same key give the same verdict on every argument value.
func TestMatcher_Key(t *testing.T) {
	argSets := []string{
		``, `{}`, `{"a":1}`, `{"a":1.0}`, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":"x"}`, `{"a":" X "}`,
		`{"a":null}`, `{"a":{"$any":true}}`, `{"a":{"$regex":"^x"}}`, `{"a":{"b":1}}`, `{"$$a":1}`, `{"a":[1,2]}`,
		`{"a":9007199254740993}`, `{"a":9007199254740992}`,
	}
	modes := []trajeval.ArgsMatch{partial, superset, exact, subset, ignore, paths("a"), paths("b"), paths("a.b"), paths(`["a.b"]`), paths("a.0"), paths("a[0]"), paths()}
	opts := []argmatch.Options{{}, {Trim: true}, {CaseInsensitive: true}}
	actuals := []string{``, `{}`, `{"a":1}`, `{"a":1,"b":2}`, `{"a":"x"}`, `{"a":"X"}`, `{"a":" x"}`, `{"a":null}`, `{"a":{"b":1}}`,
		`{"a":{"b":1,"c":2}}`, `{"$a":1}`, `{"a":[1,2]}`, `{"a":9007199254740993}`, `{"b":2}`, `{"a":"xyz","b":2}`}
	type built struct {
		desc string
		m    *argmatch.Matcher
	}
	byKey := map[string][]built{}
	for _, a := range argSets {
		for _, md := range modes {
			for _, o := range opts {
				m, err := argmatch.New(js(t, a), md, o)
				if err != nil {
					t.Fatal(err)
				}
				desc := fmt.Sprintf("args %s mode %+v opt %+v", a, md, o)
				byKey[m.Key()] = append(byKey[m.Key()], built{desc, m})
			}
		}
	}
	if len(byKey) < 50 {
		t.Errorf("only %d distinct keys; keys must tell matchers apart", len(byKey))
	}
	for key, ms := range byKey {
		for _, b := range ms[1:] {
			for _, g := range actuals {
				got := js(t, g)
				if ms[0].m.Match(got) != b.m.Match(got) {
					t.Errorf("key %q: %s and %s disagree on %s", key, ms[0].desc, b.desc, g)
				}
			}
		}
	}
	// Spellings of the same expectation share a key.
	k1, _ := argmatch.New(js(t, `{"a":1,"b":2}`), partial, argmatch.Options{})
	k2, _ := argmatch.New(js(t, `{"b":2,"a":1}`), superset, argmatch.Options{})
	if k1.Key() != k2.Key() {
		t.Errorf("keys %q and %q differ for the same expectation", k1.Key(), k2.Key())
	}
	p1, _ := argmatch.New(js(t, `{"a":[1]}`), paths("a.0"), argmatch.Options{})
	p2, _ := argmatch.New(js(t, `{"a":[1]}`), paths("a[0]"), argmatch.Options{})
	if p1.Key() != p2.Key() {
		t.Errorf("keys %q and %q differ for a.0 and a[0], one path in two spellings", p1.Key(), p2.Key())
	}
}

// Strings that are not valid UTF-8 cannot come from a JSON or YAML
// decoder, but Key must still not merge matchers that disagree.
func TestMatcher_Key_invalidUTF8(t *testing.T) {
	a, _ := argmatch.New(map[string]any{"a": "\xff"}, partial, argmatch.Options{})
	b, _ := argmatch.New(map[string]any{"a": "\ufffd"}, partial, argmatch.Options{})
	got := map[string]any{"a": "\xff"}
	if a.Key() == b.Key() && a.Match(got) != b.Match(got) {
		t.Errorf("keys %q are equal but the verdicts differ", a.Key())
	}
}

func ExampleNew() {
	want := map[string]any{"city": "New York", "days": map[string]any{"$gte": jsonNumber("3")}}
	m, err := argmatch.New(want, trajeval.ArgsMatch{}, argmatch.Options{})
	if err != nil {
		panic(err)
	}
	got, _ := jsonv.Decode([]byte(`{"city": "NYC", "days": 5, "units": "metric"}`))
	fmt.Println(m.Match(got))
	for _, d := range m.Diff(got) {
		fmt.Println(d)
	}
	// Output:
	// false
	// args.city: expected "New York", got "NYC"
}

func ExampleMatcher_Match() {
	want, _ := jsonv.Decode([]byte(`{"id": {"$type": "integer"}, "tags": {"$contains": "urgent"}}`))
	m, _ := argmatch.New(want, trajeval.ArgsMatch{Mode: trajeval.ArgsExact}, argmatch.Options{})
	for _, got := range []string{`{"id": 1.0, "tags": ["urgent"]}`, `{"id": 1, "tags": ["urgent"], "x": 0}`} {
		v, _ := jsonv.Decode([]byte(got))
		fmt.Println(m.Match(v))
	}
	// Output:
	// true
	// false
}

func ExampleNew_error() {
	_, err := argmatch.New(map[string]any{"city": map[string]any{"$regx": "^N"}}, trajeval.ArgsMatch{}, argmatch.Options{})
	fmt.Println(err)
	// Output: args.city: unknown operator $regx (did you mean $regex?)
}

func jsonNumber(s string) any { v, _ := jsonv.Decode([]byte(s)); return v }
