package jsonv_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

func n(s string) json.Number { return json.Number(s) }

func TestDecode(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   any
		err    bool
		reason string
	}{
		{"2^53+1", `9007199254740993`, n("9007199254740993"), false, "integers beyond float64 precision stay exact"},
		{"big in object", `{"id":9007199254740993}`, map[string]any{"id": n("9007199254740993")}, false, "exact inside containers too"},
		{"float text kept", `1.0`, n("1.0"), false, "the number's text is kept, not reformatted"},
		{"huge exponent", `1e400`, n("1e400"), false, "beyond float64 range is still a number"},
		{"u escape", `"caf\u00e9"`, "café", false, `\u escapes decode`},
		{"surrogate pair", `"\ud83d\ude00"`, "😀", false, "a surrogate pair is one rune"},
		{"lone surrogate", `"\ud83d"`, "\ufffd", false, "a lone surrogate becomes U+FFFD, not an error"},
		{"null", `null`, nil, false, "null is nil"},
		{"whitespace around", " \n[true] \n", []any{true}, false, "surrounding white space is fine"},
		{"trailing data", `{} {}`, nil, true, "two values are not one value"},
		{"trailing garbage", `1 x`, nil, true, "garbage after the value is an error"},
		{"empty", ``, nil, true, "no value"},
		{"truncated", `{"a":`, nil, true, "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonv.Decode([]byte(tt.in))
			if (err != nil) != tt.err {
				t.Fatalf("Decode(%q) error = %v, want error %v: %s", tt.in, err, tt.err, tt.reason)
			}
			if tt.err {
				return
			}
			if jsonv.Marshal(got) != jsonv.Marshal(tt.want) || !jsonv.Equal(got, tt.want) {
				t.Errorf("Decode(%q) = %#v, want %#v: %s", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

// TestDecode_parserFirst: what the Parser reads, Decode takes from it
// without encoding/json's decoder and its copies; nesting past MaxDepth
// is still a *DepthError, from the check the Parser's refusal leads to.
func TestDecode_parserFirst(t *testing.T) {
	data := []byte(`{"id":"doc-1"}`)
	jsonv.Decode(data) // the parser's pool and caches
	if n := testing.AllocsPerRun(20, func() {
		if _, err := jsonv.Decode(data); err != nil {
			t.Fatal(err)
		}
	}); n > 3 {
		t.Errorf("Decode of a one-member object: %v allocations, want at most 3 (the map and its members)", n)
	}
	deep := []byte(strings.Repeat("[", jsonv.MaxDepth+1) + strings.Repeat("]", jsonv.MaxDepth+1))
	var de *jsonv.DepthError
	if _, err := jsonv.Decode(deep); !errors.As(err, &de) {
		t.Errorf("Decode of %d nested arrays: %v, want a *DepthError", jsonv.MaxDepth+1, err)
	}
}

func TestCompareNumbers(t *testing.T) {
	tests := []struct {
		a, b   string
		want   int
		reason string
	}{
		{"1", "1.0", 0, "trailing fractional zeros do not change the value"},
		{"1", "1e0", 0, "exponent form"},
		{"1", "10e-1", 0, "mantissa and exponent trade digits"},
		{"1.0", "10e-1", 0, "both non-integer spellings"},
		{"100", "1e2", 0, "positive exponent"},
		{"0.001", "1E-3", 0, "capital E"},
		{"9007199254740993", "9007199254740992", 1, "2^53+1 is not 2^53, though float64 says so"},
		{"9007199254740992", "9007199254740993", -1, "antisymmetric"},
		{"-9007199254740993", "-9007199254740992", -1, "negative big integers"},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1, "beyond int64"},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e29", 0, "beyond int64, two spellings"},
		{"-0", "0", 0, "negative zero is zero"},
		{"-0.0", "0e10", 0, "zero in any spelling"},
		{"0", "0.000", 0, "zero with fraction digits"},
		{"-1", "1", -1, "sign orders"},
		{"-2", "-1", -1, "negative magnitudes reverse"},
		{"-0.5", "0", -1, "negative below zero"},
		{"1e400", "1e401", -1, "huge exponents order right"},
		{"1e401", "1e400", 1, "huge exponents order right, reversed"},
		{"-1e400", "-1e401", 1, "huge negative exponents"},
		{"1e-400", "0", 1, "tiny positive is above zero, though it underflows float64"},
		{"1e-400", "1e-401", 1, "tiny exponents"},
		{"1e999999999999999999999", "1e400", 1, "an exponent beyond int64 saturates and still orders"},
		{"1e-999999999999999999999", "1e-400", -1, "a negative exponent beyond int64 saturates"},
		{"1e9223372036854775807", "1", 1, "regression: an exponent at int64's limit overflowed and ordered below 1"},
		{"10e9223372036854775807", "1e400", 1, "regression: trailing zeros pushed the exponent past int64"},
		{"-1e9223372036854775807", "-1", -1, "regression: the same overflow, negated"},
		{"1e-9223372036854775808", "0", 1, "the smallest exponent is still above zero"},
		{"1ex", "1", -1, "regression: an exponent that is not a number is not a number (it used to saturate to a huge value)"},
		{"1e+5", "100000", 0, "an exponent with a plus sign"},
		{"2.5", "2.49999999999999999999", 1, "decimal digits beyond float64 precision"},
		{"0.1", "0.10000000000000001", -1, "0.1 and its nearest float64 text are different decimals"},
		{"+1", "1", 0, "a leading plus is read"},
		{"007", "7", 0, "leading zeros"},
		{"abc", "1", -1, "text that is not a number orders before numbers"},
		{"1", "abc", 1, "antisymmetric for non-numbers"},
		{"abc", "abd", -1, "two non-numbers compare as text"},
		{"", "0", -1, "empty text is not a number"},
		{"1e", "1", -1, "an exponent without digits is not a number"},
		{".", "0", -1, "a lone dot is not a number"},
		{"NaN", "0", -1, "NaN is not a JSON number"},
	}
	for _, tt := range tests {
		t.Run(tt.a+"_vs_"+tt.b, func(t *testing.T) {
			if got := jsonv.CompareNumbers(n(tt.a), n(tt.b)); got != tt.want {
				t.Errorf("CompareNumbers(%s, %s) = %d, want %d: %s", tt.a, tt.b, got, tt.want, tt.reason)
			}
			if got := jsonv.CompareNumbers(n(tt.b), n(tt.a)); got != -tt.want {
				t.Errorf("CompareNumbers(%s, %s) = %d, want %d (antisymmetry): %s", tt.b, tt.a, got, -tt.want, tt.reason)
			}
		})
	}
}

// Huge exponents must be compared from their text, not by expanding the
// number into digits.
func TestCompareNumbers_hugeExponentsDoNotAllocate(t *testing.T) {
	a, b := n("1e999999999"), n("2e999999999")
	allocs := testing.AllocsPerRun(100, func() {
		if jsonv.CompareNumbers(a, b) != -1 {
			t.Fatal("1e999999999 must be below 2e999999999")
		}
	})
	if allocs > 4 {
		t.Errorf("CompareNumbers allocated %v times per call for huge exponents; want a handful at most", allocs)
	}
}

func TestIsInteger(t *testing.T) {
	tests := []struct {
		in     string
		want   bool
		reason string
	}{
		{"1", true, "plain integer"},
		{"1.0", true, "JSON Schema: 1.0 is an integer"},
		{"1e3", true, "exponent makes it whole"},
		{"1.5e1", true, "15"},
		{"1.5", false, "fraction"},
		{"1e-1", false, "negative exponent"},
		{"0", true, "zero"},
		{"-0.0", true, "negative zero"},
		{"9007199254740993", true, "big integer"},
		{"x", false, "not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := jsonv.IsInteger(n(tt.in)); got != tt.want {
				t.Errorf("IsInteger(%s) = %v, want %v: %s", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name   string
		a, b   any
		want   bool
		reason string
	}{
		{"1 = 1.0", n("1"), n("1.0"), true, "numbers by value"},
		{"big ints differ", n("9007199254740993"), n("9007199254740992"), false, "exact integers"},
		{"true vs 1", true, n("1"), false, "a bool is never a number"},
		{"1 vs true", n("1"), true, false, "a number is never a bool"},
		{"false vs 0", false, n("0"), false, "a bool is never a number"},
		{"1 vs \"1\"", n("1"), "1", false, "a number is never a string"},
		{"\"1\" vs 1", "1", n("1"), false, "a string is never a number"},
		{"null vs null", nil, nil, true, "null equals null"},
		{"null vs \"\"", nil, "", false, "null is not the empty string"},
		{"null vs false", nil, false, false, "null is not false"},
		{"null key vs missing key", obj("a", nil), obj(), false, "null is not a missing key"},
		{"missing key vs null key", obj(), obj("a", nil), false, "a missing key is not null"},
		{"null key vs other key", obj("a", nil), obj("b", nil), false, "same size, different keys"},
		{"nested numbers", obj("a", []any{n("1"), obj("b", n("2.0"))}), obj("a", []any{n("1e0"), obj("b", n("2"))}), true, "recursive by value"},
		{"array order matters", []any{n("1"), n("2")}, []any{n("2"), n("1")}, false, "arrays are ordered"},
		{"array length", []any{n("1")}, []any{n("1"), n("1")}, false, "arrays of different length"},
		{"empty array vs empty object", []any{}, obj(), false, "different kinds"},
		{"strings exact", "a", "A", false, "case matters"},
		{"strings exact space", "a", "a ", false, "white space matters"},
		{"float64 is not in the model", 1.0, 1.0, false, "only json.Number is a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonv.Equal(tt.a, tt.b); got != tt.want {
				t.Errorf("Equal(%#v, %#v) = %v, want %v: %s", tt.a, tt.b, got, tt.want, tt.reason)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	bigInt, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	tests := []struct {
		name   string
		in     any
		want   string // Marshal of the result
		err    bool
		reason string
	}{
		{"int", 42, `42`, false, "YAML decoders give int"},
		{"int64 big", int64(9007199254740993), `9007199254740993`, false, "int64 keeps every digit"},
		{"negative int8", int8(-5), `-5`, false, "small int types"},
		{"uint64 max", uint64(math.MaxUint64), `18446744073709551615`, false, "uint64 above int64 range"},
		{"uint8", uint8(7), `7`, false, "byte-sized"},
		{"float64 whole", 1.0, `1`, false, "a whole float is its shortest text"},
		{"float64", 0.1, `0.1`, false, "shortest round-trip text"},
		{"float32", float32(0.5), `0.5`, false, "float32"},
		{"big.Int", bigInt, `123456789012345678901234567890`, false, "arbitrary precision"},
		{"NaN", math.NaN(), ``, true, "NaN is not JSON"},
		{"Inf", math.Inf(1), ``, true, "Inf is not JSON"},
		{"nested NaN", []any{map[string]any{"a": math.NaN()}}, ``, true, "errors inside containers surface"},
		{"map any any", map[any]any{"a": 1, "b": []any{2.5, "x", true, nil}}, `{"a":1,"b":[2.5,"x",true,null]}`, false, "YAML v2 maps"},
		{"map non-string key", map[any]any{1: "a"}, ``, true, "JSON keys are strings"},
		{"unsupported type", struct{}{}, ``, true, "not a JSON value"},
		{"json.Number kept", n("1.50"), `1.50`, false, "already in the model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonv.Normalize(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("Normalize(%#v) error = %v, want error %v: %s", tt.in, err, tt.err, tt.reason)
			}
			if tt.err {
				return
			}
			if s := jsonv.Marshal(got); s != tt.want {
				t.Errorf("Normalize(%#v) = %s, want %s: %s", tt.in, s, tt.want, tt.reason)
			}
			if _, isNum := got.(json.Number); isNum {
				if jsonv.Kind(got) != "number" {
					t.Errorf("Kind = %s, want number", jsonv.Kind(got))
				}
			}
		})
	}
}

func TestMarshal(t *testing.T) {
	tests := []struct {
		name   string
		in     any
		want   string
		reason string
	}{
		{"sorted keys", map[string]any{"b": n("1"), "a": n("2"), "c": map[string]any{"z": nil, "y": true}}, `{"a":2,"b":1,"c":{"y":true,"z":null}}`, "keys sorted at every depth"},
		{"number text kept", []any{n("1.0"), n("9007199254740993")}, `[1.0,9007199254740993]`, "no float round trip"},
		{"string escapes", "a\"b\n", `"a\"b\n"`, "JSON string quoting"},
		{"non-ascii", "日本😀", `"日本😀"`, "UTF-8 kept"},
		{"empty containers", map[string]any{"a": []any{}, "b": map[string]any{}}, `{"a":[],"b":{}}`, "empty array and object"},
		{"nil", nil, `null`, "null"},
		{"no HTML escaping", map[string]any{"<k>": "A<1> & B"}, `{"<k>":"A<1> & B"}`, "explanations are read by people, never embedded in HTML unescaped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonv.Marshal(tt.in); got != tt.want {
				t.Errorf("Marshal = %s, want %s: %s", got, tt.want, tt.reason)
			}
		})
	}
}

func TestParseMaybeJSON(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string // Marshal of the value
		ok     bool
		reason string
	}{
		{"object", `{"q":"x","n":9007199254740993}`, `{"n":9007199254740993,"q":"x"}`, true, "arguments as a JSON string"},
		{"array", ` [1, 2] `, `[1,2]`, true, "surrounding space is fine"},
		{"plain text", `hello`, `"hello"`, false, "text stays text"},
		{"number text", `42`, `"42"`, false, "only objects and arrays are parsed"},
		{"quoted string", `"x"`, `"\"x\""`, false, "a JSON string stays the original text"},
		{"broken object", `{"q":`, `"{\"q\":"`, false, "invalid JSON stays text"},
		{"two objects", `{} {}`, `"{} {}"`, false, "trailing data is not one value"},
		{"empty", ``, `""`, false, "empty stays empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := jsonv.ParseMaybeJSON(tt.in)
			if ok != tt.ok || jsonv.Marshal(got) != tt.want {
				t.Errorf("ParseMaybeJSON(%q) = %s, %v; want %s, %v: %s", tt.in, jsonv.Marshal(got), ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
}

func TestKind(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{nil, "null"}, {true, "boolean"}, {n("1"), "number"}, {"s", "string"}, {[]any{}, "array"}, {map[string]any{}, "object"},
	} {
		if got := jsonv.Kind(tt.v); got != tt.want {
			t.Errorf("Kind(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestFloat(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true},
		{"1e400", math.Inf(1), true},
		{"-1e400", math.Inf(-1), true},
		{"x", 0, false},
	} {
		got, ok := jsonv.Float(n(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Float(%s) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := jsonv.Number("1"); ok {
		t.Error(`Number("1") is ok; a string is not a number`)
	}
}

func ExampleDecode() {
	v, _ := jsonv.Decode([]byte(`{"id": 9007199254740993, "city": "S\u00e3o Paulo"}`))
	fmt.Println(jsonv.Marshal(v))
	// Output: {"city":"São Paulo","id":9007199254740993}
}

func ExampleCompareNumbers() {
	fmt.Println(jsonv.CompareNumbers("1", "10e-1"))
	fmt.Println(jsonv.CompareNumbers("9007199254740993", "9007199254740992"))
	fmt.Println(jsonv.CompareNumbers("1e400", "1e401"))
	// Output:
	// 0
	// 1
	// -1
}

func ExampleEqual() {
	fmt.Println(jsonv.Equal(json.Number("1"), json.Number("1.0")))
	fmt.Println(jsonv.Equal(true, json.Number("1")))
	fmt.Println(jsonv.Equal(map[string]any{"a": nil}, map[string]any{}))
	// Output:
	// true
	// false
	// false
}

func ExampleNormalize() {
	v, _ := jsonv.Normalize(map[string]any{"n": 3, "f": 2.5, "u": uint64(1) << 63})
	fmt.Println(jsonv.Marshal(v))
	// Output: {"f":2.5,"n":3,"u":9223372036854775808}
}

func ExampleMarshal() {
	fmt.Println(jsonv.Marshal(map[string]any{"b": json.Number("1.0"), "a": []any{"x", nil}}))
	// Output: {"a":["x",null],"b":1.0}
}

func ExampleParseMaybeJSON() {
	v, ok := jsonv.ParseMaybeJSON(`{"query": "weather"}`)
	fmt.Println(jsonv.Marshal(v), ok)
	v, ok = jsonv.ParseMaybeJSON(`weather`)
	fmt.Println(v, ok)
	// Output:
	// {"query":"weather"} true
	// weather false
}

// TestValid checks Valid against json.Valid where the Parser and
// encoding/json part: what the Parser refuses must still be judged as
// json.Valid judges it.
func TestValid(t *testing.T) {
	tests := []struct {
		name, in string
		reason   string
	}{
		{"record", `{"id":"a","output":[{"role":"user","content":"hi"}],"n":-1.5e3}`, "a trace line"},
		{"white space", " \t\r\n[1, {\"a\": null}] \n", "around and inside"},
		{"invalid utf-8", "{\"a\":\"\xff\"}", "the Parser refuses it, json.Valid takes it"},
		{"lone surrogate", `"\ud800"`, "the same for a lone surrogate"},
		{"deep", strings.Repeat("[", 2000) + strings.Repeat("]", 2000), "past the Parser's depth, within encoding/json's"},
		{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "past encoding/json's depth too"},
		{"two values", `{} {}`, "one value only"},
		{"cut", `{"a": [1, 2`, "cut off"},
		{"empty", ``, "nothing"},
		{"control", "\"a\x01\"", "a raw control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := jsonv.Valid([]byte(tt.in)), json.Valid([]byte(tt.in)); got != want {
				t.Errorf("Valid = %v, json.Valid = %v (%s)", got, want, tt.reason)
			}
		})
	}
	// A valid record is checked without allocating.
	line := []byte(`{"id":"a","output":[{"role":"assistant","tool_calls":[{"tool":"x","input":{"q":"y"}}]}]}`)
	if n := testing.AllocsPerRun(10, func() { jsonv.Valid(line) }); n != 0 {
		t.Errorf("Valid of a record: %v allocations, want none", n)
	}
}

// FuzzValid checks Valid against json.Valid on any input.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",null,true]}`, "\"\xff\"", `[1,]`, ` 0 `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := jsonv.Valid(data), json.Valid(data); got != want {
			t.Fatalf("%q: Valid = %v, json.Valid = %v", data, got, want)
		}
	})
}

// TestMarshal_strings writes strings, as values and as keys, that sit on
// either side of the bytes Marshal writes as they stand: encoding/json's
// bytes (without HTML escaping), and not AppendString's, which escapes
// more.
func TestMarshal_strings(t *testing.T) {
	tests := []struct {
		name, s string
		reason  string
	}{
		{"empty", "", "two quotes"},
		{"plain", "python history", "as it stands"},
		{"printable edges", " ~\x7f", "space, tilde and DEL are written as they are"},
		{"quote", `say "hi"`, "escaped"},
		{"backslash", `C:\tmp`, "escaped"},
		{"control", "a\x1fb\tc", "\\u001f and \\t"},
		{"html", "<a & b>", "left as they are"},
		{"line separator", "a\u2028b", "escaped, as encoding/json does"},
		{"C1 control", "a\u0085b", "as it stands, as encoding/json writes it (AppendString escapes it)"},
		{"bidi", "a\u202eb", "as it stands, as encoding/json writes it"},
		{"invalid UTF-8", "a\xffb", "\\ufffd"},
		{"byte 0x80", "a\x80b", "the first byte past ASCII: \\ufffd"},
		{"non-ASCII last", "abc\u00e9", "the slow way from the last byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []any{tt.s, map[string]any{tt.s: tt.s}} {
				var buf strings.Builder
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(v); err != nil {
					t.Fatal(err)
				}
				if got, want := jsonv.Marshal(v), strings.TrimSuffix(buf.String(), "\n"); got != want {
					t.Errorf("Marshal(%q) = %s, want %s: %s", v, got, want, tt.reason)
				}
			}
		})
	}
}

// BenchmarkMarshal writes the arguments of a call an explanation shows.
func BenchmarkMarshal(b *testing.B) {
	v := map[string]any{"query": "python history", "limit": json.Number("10"), "tags": []any{"lang", "history"}}
	b.ReportAllocs()
	for b.Loop() {
		_ = jsonv.Marshal(v)
	}
}
