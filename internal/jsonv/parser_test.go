package jsonv_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// stdDecode decodes data as the Parser must: encoding/json with exact
// numbers, one value and nothing after it.
func stdDecode(data []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := d.Token(); err == nil {
		return nil, false
	}
	return v, true
}

// parse reads the one value of data with a Parser.
func parse(data []byte) (any, bool) {
	var p jsonv.Parser
	p.Reset(data)
	v, ok := p.Value()
	return v, ok && p.End()
}

// spanAgrees reports how Span, reading data twice with one Parser (the
// second time finding its short strings again), differs from Value,
// which accepts data when ok: it must accept the same, and its text be
// the value's, white space around it left out.
func spanAgrees(data []byte, ok bool) string {
	var p jsonv.Parser
	for range 2 {
		p.Reset(data)
		start, end, sok := p.Span()
		if sok = sok && p.End(); sok != ok {
			return fmt.Sprintf("Span accepts it: %v, Value: %v", sok, ok)
		}
		if want := bytes.Trim(data, " \t\r\n"); ok && string(data[start:end]) != string(want) {
			return fmt.Sprintf("Span's text %q, the value's %q", data[start:end], want)
		}
	}
	return ""
}

// compositeAgrees reports how Composite differs from Value, which reads
// data to v when ok: it must accept exactly the objects and arrays Value
// accepts, its text the value's, white space around it left out.
func compositeAgrees(data []byte, v any, ok bool) string {
	text, cok := jsonv.Composite(data)
	want := false
	switch v.(type) {
	case map[string]any, []any:
		want = ok
	}
	if cok != want {
		return fmt.Sprintf("Composite accepts it: %v, want %v (Value: %v, %T)", cok, want, ok, v)
	}
	if trimmed := bytes.Trim(data, " \t\r\n"); cok && string(text) != string(trimmed) {
		return fmt.Sprintf("Composite's text %q, the value's %q", text, trimmed)
	}
	return ""
}

// TestParser_Value checks that the Parser reads what encoding/json reads,
// the same, and says no (for encoding/json to decide) to what it must not
// read itself.
func TestParser_Value(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		ok     bool
		reason string
	}{
		{"object", `{"a": 1, "b": [true, false, null], "c": {"d": "e"}}`, true, "the data model"},
		{"exact integers", `[9007199254740993, -0, 1.50, 1e400, 2E-3]`, true, "numbers keep their text"},
		{"empty containers", `{"a": [], "b": {}}`, true, "an empty array is an empty slice, not nil"},
		{"escapes", `"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"`, true, "every escape, a surrogate pair"},
		{"unicode", `"héllo, 世界"`, true, "raw UTF-8"},
		{"duplicate keys", `{"a": 1, "a": 2}`, true, "the last wins, as in encoding/json"},
		{"white space", " \t\r\n[ 1 , 2 ]\n ", true, "JSON's white space"},
		{"lone surrogate", `"\ud83d"`, false, "encoding/json replaces it: let it"},
		{"invalid UTF-8", "\"\xff\"", false, "encoding/json replaces it: let it"},
		{"control character", "\"a\tb\"", false, "a syntax error"},
		{"leading zero", `01`, false, "a syntax error"},
		{"bare minus", `[-]`, false, "a syntax error"},
		{"trailing comma", `[1,]`, false, "a syntax error"},
		{"cut off", `{"a": [1, 2`, false, "a syntax error"},
		{"two values", `1 2`, false, "data after the value"},
		{"bad literal", `nul`, false, "a syntax error"},
		{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), false, "deeper than encoding/json allows"},
		{"too deep objects", strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001), false, "objects are bounded as arrays are"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parse([]byte(tt.in))
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v: %s", ok, tt.ok, tt.reason)
			}
			if diff := spanAgrees([]byte(tt.in), ok); diff != "" {
				t.Errorf("%s: %s", diff, tt.reason)
			}
			if diff := compositeAgrees([]byte(tt.in), got, ok); diff != "" {
				t.Errorf("%s: %s", diff, tt.reason)
			}
			if !ok {
				return
			}
			want, _ := stdDecode([]byte(tt.in))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, encoding/json gives %#v: %s", got, want, tt.reason)
			}
		})
	}
}

// TestParser_Span_shortStrings puts each byte that stops plain text, and
// text past ASCII, at every place of strings up to 18 bytes long, as a
// key and as a value, with the end of the data near and far: Span, which
// reads a string whose closing quote is within 16 bytes a word at a time,
// must accept what Value accepts and end where it ends.
func TestParser_Span_shortStrings(t *testing.T) {
	bytesThatMatter := []struct {
		b      string
		reason string
	}{
		{`"`, "a quote ends the string early: the rest is not JSON"},
		{`\\`, "an escaped backslash: read the long way"},
		{`\n`, "an escape"},
		{`\x`, "an escape JSON has not"},
		{`\u00e9`, "an escaped character"},
		{"\x01", "a control character"},
		{"\x1f", "the last control character"},
		{" ", "the first byte that is plain"},
		{"\x7f", "DEL is plain in JSON"},
		{"é", "UTF-8 of two bytes"},
		{"世", "UTF-8 of three bytes"},
		{"\xff", "not UTF-8"},
		{"\xc3", "UTF-8 cut short"},
	}
	for _, bm := range bytesThatMatter {
		for n := 0; n <= 18; n++ {
			for k := 0; k <= n; k++ {
				text := strings.Repeat("a", k) + bm.b + strings.Repeat("a", n-k)
				for _, data := range []string{
					`{"k":"` + text + `"}`, `{"k":"` + text + `"}` + strings.Repeat(" ", 20),
					`{"` + text + `":1}`, `{"` + text + `":1}` + strings.Repeat(" ", 20),
				} {
					_, ok := parse([]byte(data))
					if diff := spanAgrees([]byte(data), ok); diff != "" {
						t.Errorf("%q: %s (%s)", data, diff, bm.reason)
					}
				}
			}
		}
	}
}

// TestParser_Span_flat reads objects that skip takes in one pass when
// they are flat and compact (see flatEnd), and objects just past what it
// takes, which it must leave to the long way: Span accepts what Value
// accepts (and Value what encoding/json reads, to the same value) and
// ends where the value ends, with the end of the data near (the scan's
// words cut off) and far, alone and as a member's value.
func TestParser_Span_flat(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		reason   string
	}{
		{"arguments", `{"id":"doc-1"}`, true, "one key, a string"},
		{"mixed", `{"limit":10,"query":"python history","deep":true,"f":false,"n":null,"neg":-3,"z":0,"nz":-0}`, true, "every value flatEnd takes"},
		{"empty", `{}`, true, "no member"},
		{"long strings", `{"` + strings.Repeat("k", 40) + `":"` + strings.Repeat("v", 41) + `"}`, true, "strings of several words"},
		{"leading zero", `{"a":01}`, false, "the zero ends the number, a digit follows"},
		{"minus alone", `{"a":-}`, false, "no digit"},
		{"minus then letter", `{"a":-x}`, false, "no digit"},
		{"fraction", `{"a":1.5}`, true, "left to the long way"},
		{"exponent", `{"a":1e5,"b":2}`, true, "left to the long way"},
		{"zero fraction", `{"a":0.5}`, true, "a zero followed by a fraction: the long way"},
		{"literal cut", `{"a":tru}`, false, "not a literal"},
		{"literal longer", `{"a":truex}`, false, "not a literal"},
		{"literal at end", `{"a":nul`, false, "cut off"},
		{"trailing comma", `{"a":1,}`, false, "no key after the comma"},
		{"comma first", `{,"a":1}`, false, "no key"},
		{"no colon", `{"a" 1}`, false, "no colon"},
		{"space", `{"a": 1}`, true, "white space: the long way"},
		{"space before brace", `{"a":1 }`, true, "the long way"},
		{"key not a string", `{a:1}`, false, "no quote"},
		{"nested", `{"a":{"b":1}}`, true, "not flat: the long way"},
		{"array value", `{"a":[1]}`, true, "not flat: the long way"},
		{"escape", `{"a":"x\"y"}`, true, "an escaped quote: the long way"},
		{"bad escape", `{"a":"x\qy"}`, false, "an escape JSON has not"},
		{"control", "{\"a\":\"x\ty\"}", false, "a tab in a string"},
		{"UTF-8", `{"a":"café"}`, true, "past ASCII: checked the long way"},
		{"not UTF-8", "{\"a\":\"caf\xff\"}", false, "not UTF-8: the Parser says no, for encoding/json to read"},
		{"cut in key", `{"abc`, false, "cut off"},
		{"cut after value", `{"a":"b"`, false, "cut off"},
		{"missing end", `{"a":1`, false, "cut off"},
		{"two objects", `{"a":1}{"b":2}`, false, "data after the value"},
		{"string value of a word", `{"":"PPPPPPP"}`, true, "its closing quote the last byte of the word the loop read"},
		{"string value of two words", `{"a":"b","":"PPPPPPPPPPPPPPP"}`, true, "the same a word later"},
	}
	check := func(t *testing.T, data string, want bool, reason string) {
		t.Helper()
		got, ok := parse([]byte(data))
		if ok != want {
			t.Fatalf("%q: Value accepts it: %v, want %v (%s)", data, ok, want, reason)
		}
		if v, _ := stdDecode([]byte(data)); ok && !reflect.DeepEqual(got, v) {
			t.Fatalf("%q: Value %#v, encoding/json %#v (%s)", data, got, v, reason)
		}
		if diff := spanAgrees([]byte(data), ok); diff != "" {
			t.Errorf("%q: %s (%s)", data, diff, reason)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, data := range []string{tt.in, tt.in + strings.Repeat(" ", 20), `{"x":` + tt.in + `}`} {
				check(t, data, tt.ok, tt.reason)
			}
		})
	}
	// Every cut of an object is refused, and read no byte past the data:
	// cut right after a string value's closing quote, flatEnd read the
	// byte after it (found by FuzzRead).
	for _, tt := range tests {
		if !tt.ok {
			continue
		}
		t.Run(tt.name+" cut", func(t *testing.T) {
			for n := range len(tt.in) {
				check(t, tt.in[:n], false, "an object without its closing brace")
			}
		})
	}
	// The depth bound holds for an object skip takes in one pass.
	deep := func(n int) string { return strings.Repeat("[", n) + `{"a":1}` + strings.Repeat("]", n) }
	check(t, deep(jsonv.MaxDepth-1), true, "the object at the deepest level allowed")
	check(t, deep(jsonv.MaxDepth), false, "one level past it: refused as the long way refuses it")
}

// FuzzParser checks that whatever the Parser accepts, encoding/json
// accepts and decodes to the same value.
func FuzzParser(f *testing.F) {
	for _, s := range []string{`{"a": [1, "x", null, true, {"b": 1.5e3}]}`, `"\u00e9\ud83d\ude00"`, `[]`, `-0.0e+1`, `{"a":1,"a":{}}`, `[{"id":"doc-1","n":-0,"t":true,"f":10}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := parse(data)
		if diff := spanAgrees(data, ok); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
		if diff := compositeAgrees(data, got, ok); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
		if !ok {
			return
		}
		want, wok := stdDecode(data)
		if !wok {
			t.Fatalf("the Parser reads %q, encoding/json does not", data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %#v, encoding/json gives %#v", data, got, want)
		}
		if v, err := jsonv.Decode(data); err != nil || !reflect.DeepEqual(v, want) {
			t.Fatalf("%q: Decode = %#v, %v; encoding/json gives %#v", data, v, err, want)
		}
		var p jsonv.Parser
		p.Reset(data)
		if b, ok := p.Bytes(); ok && p.End() && string(b) != want {
			t.Fatalf("%q: Bytes = %q, encoding/json gives %#v", data, b, want)
		}
	})
}

// TestParser_Value_shortAgain: short strings read before are found again
// by their bytes (keys, values and names), across inputs; text that only
// looks like one of them (an escape, a longer string, bytes past ASCII)
// is still read as encoding/json reads it. Each input is read twice, and
// after the others, by one Parser.
func TestParser_Value_shortAgain(t *testing.T) {
	pad := `"` + strings.Repeat("p", 20) + `"`
	tests := []struct {
		name, in string
		reason   string
	}{
		{"repeated", `[{"id":"doc-1"},{"id":"doc-1"},{"ok":true},{"ok":true},` + pad + `]`, "keys and values kept and found again"},
		{"escaped quote first", `["\\\"x","\\\"y",` + pad + `]`, "a backslash before the first quote: the text unescaped is as long as the bytes before it, yet not those bytes"},
		{"escape spells a kept one", `["ab","a\u0062","ab\"c","ab",` + pad + `]`, "the same text escaped, and a longer string that starts alike"},
		{"past ASCII", `["é","é","\u00e9",` + pad + `]`, "only ASCII is kept"},
		{"lengths", `["1234567","12345678","123456789012345","1234567890123456","1234567","12345678","123456789012345","1234567890123456",` + pad + `]`, "7, 8, 15 and 16 bytes: one word, two, and past them"},
		{"prefixes", `{"a":"ab","ab":"a","abc":"abcd","a":"ab",` + `"x":` + pad + `}`, "one a prefix of another"},
		{"at the end", `["x","y","x","y"]`, "fewer than 17 bytes left: read the long way"},
		{"empty", `["","",` + pad + `]`, "the empty string"},
		{"numbers", `["10",10,"10",10,` + pad + `]`, "a string and a number of the same text"},
	}
	var p jsonv.Parser
	read := func(in string) {
		t.Helper()
		p.Reset([]byte(in))
		got, ok := p.Value()
		want, wok := stdDecode([]byte(in))
		if !ok || !p.End() || !wok || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v, %v; encoding/json %#v, %v", in, got, ok, want, wok)
		}
		// The strings of an array read as names.
		elems, _ := want.([]any)
		p.Reset([]byte(in))
		k := 0
		p.Array(func() bool {
			s, ok := p.Name()
			if want, isString := elems[k].(string); isString && (!ok || s != want) {
				t.Errorf("%q: element %d read by Name as %q, %v; encoding/json %q", in, k, s, ok, want)
			}
			k++
			return ok || p.Skip()
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read(tt.in)
			read(tt.in)
		})
	}
	for _, tt := range tests {
		read(tt.in)
	}
}

// FuzzParser_again checks that one Parser reading a, then b, then a
// again reads each as encoding/json does, values and names: what it keeps
// of one input does not change what it reads of the next.
func FuzzParser_again(f *testing.F) {
	pad := `"` + strings.Repeat("p", 20) + `"`
	f.Add([]byte(`["\\\"x",`+pad+`]`), []byte(`["\\\"y",`+pad+`]`))
	f.Add([]byte(`{"id":"doc-1","ok":true,"x":`+pad+`}`), []byte(`{"id":"doc-1","ok":"a\u0062","x":`+pad+`}`))
	f.Add([]byte(`["ab","é",`+pad+`]`), []byte(`["a\u0062","\u00e9",`+pad+`]`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var p jsonv.Parser
		for _, data := range [][]byte{a, b, a} {
			p.Reset(data)
			got, ok := p.Value()
			if !ok || !p.End() {
				continue
			}
			want, wok := stdDecode(data)
			if !wok || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q after %q: got %#v; encoding/json %#v, %v", data, a, got, want, wok)
			}
			p.Reset(data)
			if s, ok := p.Name(); ok && p.End() && s != want {
				t.Fatalf("%q: Name = %q; encoding/json %#v", data, s, want)
			}
		}
	})
}

// TestParser_Bytes checks that Bytes reads a string as Str does, and
// hands out a plain string's bytes from the input, not a copy.
func TestParser_Bytes(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		reason string
	}{
		{`"2026-01-01T00:00:00.061Z"`, true, "a time, plain ASCII"},
		{`"a\"b\u00e9\ud83d\ude00"`, true, "escapes are unescaped"},
		{`"héllo"`, true, "raw UTF-8"},
		{`""`, true, "the empty string"},
		{"\"\xff\"", false, "invalid UTF-8 is encoding/json's to replace"},
		{`"\ud83d"`, false, "a lone surrogate is encoding/json's to replace"},
		{`12`, false, "a number is not a string"},
		{`"cut`, false, "cut off"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p jsonv.Parser
			p.Reset([]byte(tt.in))
			want, wok := p.Str()
			p.Reset([]byte(tt.in))
			got, ok := p.Bytes()
			if ok != tt.ok || ok != wok || string(got) != want {
				t.Errorf("Bytes = %q, %v; Str gives %q, %v; want ok %v (%s)", got, ok, want, wok, tt.ok, tt.reason)
			}
		})
	}
	data := []byte(`"2026-01-01T00:00:00.061Z"`)
	var p jsonv.Parser
	if n := testing.AllocsPerRun(10, func() {
		p.Reset(data)
		if _, ok := p.Bytes(); !ok {
			t.Fatal("not read")
		}
	}); n != 0 {
		t.Errorf("Bytes of a plain string: %v allocations, want 0", n)
	}
}

// TestParser_Plain checks that Plain reads a short plain string as Bytes
// does, in place, and refuses everything else without reading it.
func TestParser_Plain(t *testing.T) {
	tests := []struct {
		in     string
		max    int
		ok     bool
		reason string
	}{
		{`"2026-01-01T00:00:00.061Z"`, 30, true, "a time, plain ASCII"},
		{`"2026-01-01T00:00:00.061Z"`, 24, true, "exactly max bytes"},
		{`"2026-01-01T00:00:00.061Z"`, 23, false, "one byte past max"},
		{`""`, 0, true, "the empty string"},
		{`"a\"b"`, 30, false, "an escape is Bytes' to unescape"},
		{`"héllo"`, 30, false, "a byte past ASCII is Bytes' to check"},
		{"\"a\tb\"", 30, false, "a control character is an error"},
		{`12`, 30, false, "a number is not a string"},
		{`"cut`, 30, false, "cut off"},
		{`"2026-01-01T00:00:00Z`, 30, false, "cut off at max"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p jsonv.Parser
			p.Reset([]byte(tt.in))
			want, wok := p.Bytes()
			p.Reset([]byte(tt.in))
			got, ok := p.Plain(tt.max)
			if ok != tt.ok || ok && (!wok || string(got) != string(want)) {
				t.Errorf("Plain(%d) = %q, %v; Bytes gives %q, %v; want ok %v (%s)", tt.max, got, ok, want, wok, tt.ok, tt.reason)
			}
			if !ok && p.Peek() != tt.in[0] {
				t.Errorf("Plain refused %q but moved on: %s", tt.in, tt.reason)
			}
		})
	}
}

// TestParser_Quoted checks that Quoted hands out the n bytes of a string
// of n bytes without reading them, and that a plain one taken with
// TakeQuoted leaves the parser where Bytes leaves it.
func TestParser_Quoted(t *testing.T) {
	tests := []struct {
		in     string
		n      int
		want   string // "" for nil
		reason string
	}{
		{`"2026-01-01T00:00:00.061Z",1`, 24, "2026-01-01T00:00:00.061Z", "a time"},
		{`"2026-01-01T00:00:00.061Z"`, 24, "2026-01-01T00:00:00.061Z", "at the end of the input"},
		{`"2026-01-01T00:00:00.061Z"`, 23, "", "no quote after 23 bytes"},
		{`"2026-01-01T00:00:00.0612Z"`, 24, "", "a longer string"},
		{`"ab","cd"`, 7, `ab","cd`, "bytes not scanned: the caller checks them"},
		{` "ab"`, 2, "", "white space first: read another way"},
		{`"ab`, 2, "", "cut off"},
		{`12`, 0, "", "not a string"},
		{`"ab"`, -3, "", "a negative length"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p jsonv.Parser
			p.Reset([]byte(tt.in))
			got := p.Quoted(tt.n)
			if string(got) != tt.want || (got == nil) != (tt.want == "") {
				t.Fatalf("Quoted(%d) = %q, want %q: %s", tt.n, got, tt.want, tt.reason)
			}
			if got == nil || !jsonv.ASCII(got) || bytes.ContainsAny(got, `"\`) {
				return
			}
			p.TakeQuoted(tt.n)
			var q jsonv.Parser
			q.Reset([]byte(tt.in))
			if b, ok := q.Bytes(); !ok || string(b) != string(got) || p.End() != q.End() || p.Peek() != q.Peek() {
				t.Errorf("TakeQuoted(%d) after %q: not where Bytes leaves the parser (%s)", tt.n, got, tt.reason)
			}
		})
	}
}

// FuzzParser_Plain checks Plain against Bytes: what Plain reads, Bytes
// reads the same, leaving the parser at the same place; what it refuses is
// left unread, and is not a plain ASCII string of at most max bytes.
func FuzzParser_Plain(f *testing.F) {
	for _, s := range []string{`"2026-01-01T00:00:00.061Z"`, `"a\"b"`, `"héllo" 1`, `""`, `"x"]`, "\"\x01\"", `"abcdefghijklmnop"`} {
		f.Add([]byte(s), 30)
	}
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		max = min(max&63, 64)
		var p, q jsonv.Parser
		p.Reset(data)
		q.Reset(data)
		got, ok := p.Plain(max)
		want, wok := q.Bytes()
		if !ok {
			if wok && len(want) <= max && jsonv.ASCII(want) && unescaped(data, want) {
				t.Fatalf("%q: Plain(%d) refused a plain string Bytes reads as %q", data, max, want)
			}
			// Nothing read: Bytes after it reads what Bytes alone does.
			again, aok := p.Bytes()
			if aok != wok || string(again) != string(want) || p.End() != q.End() {
				t.Fatalf("%q: Plain refused but moved on", data)
			}
			return
		}
		if !wok || string(got) != string(want) {
			t.Fatalf("%q: Plain(%d) = %q; Bytes gives %q, %v", data, max, got, want, wok)
		}
		if len(got) > max || !jsonv.ASCII(got) {
			t.Fatalf("%q: Plain(%d) = %q: longer than max or past ASCII", data, max, got)
		}
		if p.End() != q.End() {
			t.Fatalf("%q: Plain and Bytes end at different places", data)
		}
	})
}

// unescaped reports whether the first string of data is text as it
// stands, no escape in it.
func unescaped(data, text []byte) bool {
	i := bytes.IndexByte(data, '"') + 1
	return i > 0 && i+len(text) < len(data) && string(data[i:i+len(text)]) == string(text) && data[i+len(text)] == '"'
}

// TestParser_Value_wordEdges puts each kind of byte that matters in a
// string at every place of strings of every length up to 69 bytes (past
// the 8-byte words, 16-byte blocks and 64 bytes a scan may read at once),
// so that the scan is checked at every offset against encoding/json.
func TestParser_Value_wordEdges(t *testing.T) {
	bytes := []struct {
		name, b string
		reason  string
	}{
		{"quote", `\"`, "an escaped quote does not end the string"},
		{"backslash", `\\`, "an escaped backslash, then plain text"},
		{"unicode escape", `\u00e9`, "an escape read into the scratch buffer"},
		{"control", "\x01", "a raw control character is refused"},
		{"last control", "\x1f", "the highest control character is refused"},
		{"space", " ", "the lowest plain byte"},
		{"delete", "\x7f", "plain, though not printable"},
		{"two-byte rune", "é", "valid UTF-8 above 0x80"},
		{"invalid byte", "\xff", "invalid UTF-8: encoding/json replaces it"},
		{"cut rune", "\xc3", "a rune cut short"},
		{"newline", "\n", "a raw newline is refused"},
	}
	for _, c := range bytes {
		t.Run(c.name, func(t *testing.T) {
			for n := range 70 {
				for at := 0; at <= n; at++ {
					s := strings.Repeat("a", at) + c.b + strings.Repeat("b", n-at)
					for _, in := range []string{`"` + s + `"`, `{"` + s + `":1}`, `["` + s + `","é"]`} {
						got, ok := parse([]byte(in))
						want, wok := stdDecode([]byte(in))
						if ok && (!wok || !reflect.DeepEqual(got, want)) {
							t.Fatalf("%q: Parser reads %#v, encoding/json %#v, %v (%s)", in, got, want, wok, c.reason)
						}
						if !ok && wok && utf8.ValidString(in) && !strings.ContainsAny(in, "\x01\x1f\n") {
							t.Fatalf("%q: Parser says no to valid JSON it must read (%s)", in, c.reason)
						}
					}
				}
			}
		})
	}
}

// stdNumber is what encoding/json reads from data into a float64 and an
// int64.
func stdNumber(data []byte) (f float64, fok bool, n int64, nok bool) {
	fok = json.Unmarshal(data, &f) == nil
	nok = json.Unmarshal(data, &n) == nil
	return f, fok, n, nok
}

// TestParser_Float checks Float and Int against encoding/json reading the
// same number into a float64 and an int64.
func TestParser_Float(t *testing.T) {
	tests := []struct {
		in     string
		reason string
	}{
		{"61", "an integer"},
		{"-0", "negative zero"},
		{"0.0123", "a fraction is no int64"},
		{"1e3", "an exponent is no int64, though whole"},
		{"9223372036854775807", "the largest int64"},
		{"9223372036854775808", "one past it: no int64, a float64"},
		{"1e400", "beyond float64: neither"},
		{"4.9e-325", "below the smallest float64: zero, as ParseFloat says"},
		{" 12 ", "white space around"},
		{"01", "a leading zero is not a number"},
		{"-", "a bare minus"},
		{`"12"`, "a string is not a number"},
		{"1234567890123456789012345678901234567890", "longer than a stack buffer"},
		{"0", "zero, read without ParseFloat"},
		{"999999999999999", "the longest whole number read without ParseFloat"},
		{"9007199254740993", "16 digits: no float64 holds it, ParseFloat rounds it"},
		{"-61", "a negative whole number goes to ParseFloat"},
		{"123456789012345678", "past 15 digits: ParseFloat"},
		{"00", "zero led by a zero"},
		{"0.5", "a fraction after a zero"},
		{"123456789012345.5", "15 digits, then a fraction"},
		{"123456789012345e1", "15 digits, then an exponent"},
		{"12E", "a cut exponent"},
		{"12.", "a cut fraction"},
		{"12-3", "a sign after the digits"},
		{"0.01", "a fraction of up to 15 digits: their whole number over a power of ten"},
		{"-0.5", "a negative fraction"},
		{"-0.0", "negative zero with a fraction"},
		{"0.1234567890123", "15 digits with the leading zero, divided exactly"},
		{"12345678901234.5", "15 digits on either side of the dot"},
		{"123456789012345.6", "16 digits: ParseFloat"},
		{"0.000000000000001", "16 digits, the zeros counted: ParseFloat"},
		{"1.5e3", "an exponent: ParseFloat"},
		{"999999999999999999", "18 digits: the longest int read without ParseInt"},
		{"-99999999999999999", "a minus and 17 digits"},
		{"-9223372036854775808", "the smallest int64: ParseInt"},
		{"-9223372036854775809", "one below it: no int64"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f, fok, n, nok := stdNumber([]byte(tt.in))
			var p jsonv.Parser
			p.Reset([]byte(tt.in))
			gf, gfok := p.Float()
			gfok = gfok && p.End()
			p.Reset([]byte(tt.in))
			gn, gnok := p.Int()
			gnok = gnok && p.End()
			if gfok != fok || fok && gf != f {
				t.Errorf("Float = %v, %v; encoding/json %v, %v (%s)", gf, gfok, f, fok, tt.reason)
			}
			if gnok != nok || nok && gn != n {
				t.Errorf("Int = %v, %v; encoding/json %v, %v (%s)", gn, gnok, n, nok, tt.reason)
			}
		})
	}
}

// TestParser_FloatOrNull: a number is read as Float reads it, null is
// reported, and anything else is no number, with the parser where each
// leaves it.
func TestParser_FloatOrNull(t *testing.T) {
	tests := []struct {
		in       string
		f        float64
		null, ok bool
		rest     string
		reason   string
	}{
		{"61}", 61, false, true, "}", "a whole number, read as one word"},
		{"61", 61, false, true, "", "fewer than 8 bytes: the byte loop"},
		{"0.5,", 0.5, false, true, ",", "a fraction: its digits over a power of ten"},
		{"null}", 0, true, true, "}", "null, reported"},
		{" null", 0, true, true, "", "null after white space"},
		{"nul", 0, false, false, "nul", "a cut null is neither"},
		{"nan}", 0, false, false, "nan}", "nor is a word that starts as null does"},
		{"true", 0, false, false, "true", "nor another literal"},
		{`"61"`, 0, false, false, `"61"`, "nor a string"},
		{"-", 0, false, false, "-", "nor a bare minus"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p jsonv.Parser
			p.Reset([]byte(tt.in))
			f, null, ok := p.FloatOrNull()
			if ok != tt.ok || ok && (f != tt.f || null != tt.null) {
				t.Fatalf("FloatOrNull = %v, %v, %v; want %v, %v, %v (%s)", f, null, ok, tt.f, tt.null, tt.ok, tt.reason)
			}
			if rest := tt.in[p.Pos():]; ok && rest != tt.rest {
				t.Errorf("left %q, want %q (%s)", rest, tt.rest, tt.reason)
			}
		})
	}
}

// FuzzParser_Float checks that a number Float or Int reads, encoding/json
// reads the same into a float64 or an int64, and that FloatOrNull reads
// what Float reads, or null.
func FuzzParser_Float(f *testing.F) {
	for _, s := range []string{"61", "-0.5e-3", "9223372036854775808", "1e400", "0123", "1.", "-"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, fok, wantN, nok := stdNumber(data)
		var p jsonv.Parser
		p.Reset(data)
		if got, ok := p.Float(); ok && p.End() && (!fok || got != want) {
			t.Fatalf("%q: Float = %v; encoding/json %v, %v", data, got, want, fok)
		}
		p.Reset(data)
		if got, ok := p.Int(); ok && p.End() && (!nok || got != wantN) {
			t.Fatalf("%q: Int = %v; encoding/json %v, %v", data, got, wantN, nok)
		}
		p.Reset(data)
		f, fok := p.Float()
		fEnd := fok && p.End()
		p.Reset(data)
		g, null, gok := p.FloatOrNull()
		gEnd := gok && p.End()
		isNull := string(bytes.TrimSpace(data)) == "null"
		if gEnd && (null != isNull || !null && (!fEnd || g != f)) || fEnd && !gEnd {
			t.Fatalf("%q: FloatOrNull = %v, %v, %v; Float %v, %v", data, g, null, gok, f, fok)
		}
	})
}

// TestParser_Float_word reads whole numbers of 1 to 16 digits with more
// bytes after them, so that the first eight are read as one word: each
// byte that may follow (a digit's neighbours in the byte order, bytes
// whose high or low half is a digit's, bytes past ASCII, a fraction or
// an exponent) right after each count of digits. Float must read the
// number encoding/json reads, and stop where it ends.
func TestParser_Float_word(t *testing.T) {
	followers := []struct {
		after  string
		reason string
	}{
		{",", "a comma ends it"},
		{"}", "a brace ends it"},
		{" ", "white space ends it"},
		{"/", "the byte before '0'"},
		{":", "the byte after '9': high half 3, low half 10"},
		{"?", "high half 3, low half 15"},
		{"\x19", "low half 9, high half 1"},
		{"\xb9", "low half 9, high half 11, past ASCII"},
		{"\xca", "less '0', 0xfa: adding 6 carries out of the byte, whose high half is set already"},
		{"\xcf", "less '0', 0xff: the carry out of the highest byte"},
		{"\x00", "a zero byte"},
		{"x", "a letter"},
		{".5", "a fraction: the number goes on"},
		{"e3", "an exponent: the number goes on"},
		{"E-2", "an exponent with a sign"},
	}
	const digits = "1234567890123456"
	for k := 1; k <= len(digits); k++ {
		for _, lead := range []string{digits[:k], strings.Repeat("9", k), "0" + digits[:k-1], "-" + digits[:k]} {
			for _, f := range followers {
				number := lead
				if strings.ContainsAny(f.after[:1], ".eE") {
					number += f.after
				}
				data := []byte(lead + f.after + `,"abcdefgh"`)
				t.Run(fmt.Sprintf("%q", data), func(t *testing.T) {
					var want float64
					wantOK := json.Unmarshal([]byte(number), &want) == nil
					var p jsonv.Parser
					p.Reset(data)
					got, ok := p.Float()
					whole := ok && p.Pos() == len(number)
					if whole != wantOK || wantOK && got != want {
						t.Errorf("Float = %v, %v at %d; encoding/json reads %q as %v, %v (%s)", got, ok, p.Pos(), number, want, wantOK, f.reason)
					}
				})
			}
		}
	}
}

// TestParser_Value_boxedAgain: the short strings of a record (a trace's
// call ids and arguments) come back boxed from the record before, each,
// though their slots would collide ("call_7" and "doc-10" once did): the
// second read allocates only its array.
func TestParser_Value_boxedAgain(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for k := range 20 {
		fmt.Fprintf(&b, `"call_%d","doc-%d",`, k, k)
	}
	b.WriteString(`"python history","ok"]`)
	data := []byte(b.String())
	var p jsonv.Parser
	read := func() {
		p.Reset(data)
		if _, ok := p.Value(); !ok {
			t.Fatal("not read")
		}
	}
	read()
	if n := testing.AllocsPerRun(10, read); n > 2 {
		t.Errorf("reading 42 short strings again: %v allocations, want 2 (the array and its interface)", n)
	}
}

// objectKeys reads the object of data with ObjectKeys over names,
// skipping each value, and returns the keys member saw (its name for a
// key of names) and whether all went well.
func objectKeys(data []byte, keys *jsonv.Keys, names []string) ([]string, bool) {
	var p jsonv.Parser
	p.Reset(data)
	var got []string
	ok := p.ObjectKeys(keys, func(i int, key []byte) bool {
		if i >= 0 {
			got = append(got, names[i])
		} else {
			got = append(got, "?"+string(key))
		}
		return p.Skip()
	})
	return got, ok && p.End()
}

// objectRef is objectKeys read with Object, the key's index found by its
// unescaped text.
func objectRef(data []byte, names []string) ([]string, bool) {
	var p jsonv.Parser
	p.Reset(data)
	var got []string
	ok := p.Object(func(key []byte) bool {
		k := "?" + string(key)
		for _, n := range names {
			if n == string(key) {
				k = n
				break
			}
		}
		got = append(got, k)
		return p.Skip()
	})
	return got, ok && p.End()
}

// objectNames are the names FuzzParser_ObjectKeys and TestParser_ObjectKeys
// read with: short and long, one a prefix of another, and two that are
// never compared by their bytes (too long; an escape).
var objectNames = []string{"id", "ids", "tool", "start_time", "duration_ms", "a_name_of_15_by", "a_name_of_sixteen", `q"uote`, ""}

// TestParser_ObjectKeys checks that ObjectKeys hands on the keys Object
// does, found by their bytes or read, in order or not.
func TestParser_ObjectKeys(t *testing.T) {
	tests := []struct {
		name, data string
		reason     string
	}{
		{"in order", `{"id":1,"ids":2,"tool":"x","start_time":"t","duration_ms":3}`, "each key the one after the last"},
		{"out of order", `{"duration_ms":3,"tool":"x","id":1,"start_time":"t"}`, "each key compared with the others"},
		{"prefix", `{"ids":1,"id":2}`, "a name that starts another is not taken for it"},
		{"escaped", `{"\u0069d":1,"to\u006fl":2}`, "escaped keys read and found by their text"},
		{"other keys", `{"x":1,"idx":2,"Id":3,"tool ":4}`, "keys like a name are other keys"},
		{"15 and 16 bytes", `{"a_name_of_15_by":1,"a_name_of_sixteen":2}`, "the longest name compared by bytes, and one past it"},
		{"quote and empty", `{"q\"uote":1,"":2}`, "names never compared by bytes still found"},
		{"repeated", `{"id":1,"id":2}`, "a key given twice is handed on twice"},
		{"near the end", `{"x":0,"id":1}`, "fewer than 16 bytes left: read as Object reads"},
		{"white space", "{ \"id\" : 1 ,\n\t\"tool\"\t:\"x\" }", "space around keys and colons"},
		{"empty", `{}`, "no members"},
		{"cut key", `{"id":1,"too`, "a key cut off"},
		{"cut after key", `{"start_time"`, "no colon"},
		{"no colon", `{"id" 1}`, "a key without its colon"},
		{"bad utf-8 key", "{\"i\xffd\":1,\"id\":2}", "invalid UTF-8 in a key is refused, as Object refuses it"},
		{"control in key", "{\"id\x01\":1}", "a raw control character"},
		{"not an object", `["id"]`, "an array"},
		{"long, in order", `{"id":1,"ids":2,"tool":"x","start_time":"t","duration_ms":3,"a_name_of_15_by":"` + strings.Repeat("x", 40) + `"}`, "32 bytes and more left: each key found where it stands"},
		{"long, a prefix", `{"id":1,"ids":"` + strings.Repeat("x", 40) + `","id":2,"tool":"` + strings.Repeat("y", 40) + `"}`, "the name expected next starts the key"},
		{"long, colon elsewhere", `{"id" :1,"ids"  :2,"tool":"` + strings.Repeat("x", 40) + `"}`, "space before the colon"},
		{"long, other keys", `{"idx":1,"tool_":2,"start_timez":3,"x":"` + strings.Repeat("x", 40) + `"}`, "keys the expected name starts"},
		{"long, broken", `{"id":1,"ids":2,,"tool":"` + strings.Repeat("x", 40) + `"}`, "two commas"},
		{"long, brace then key", `{"id":{"id":1},"ids":"` + strings.Repeat("x", 40) + `"}`, "an object's first key"},
		{"long, end", `{"id":1}` + strings.Repeat(" ", 40), "the closing brace"},
	}
	keys := jsonv.NewKeys(objectNames...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := objectKeys([]byte(tt.data), keys, objectNames)
			want, wok := objectRef([]byte(tt.data), objectNames)
			if ok != wok || ok && !slices.Equal(got, want) {
				t.Errorf("ObjectKeys: %q, %v; Object: %q, %v (%s)", got, ok, want, wok, tt.reason)
			}
		})
	}
}

// TestNewKeys_none checks that Keys of no names find no key: every key
// is Other, where the fast path stands (32 bytes and more left) and where
// it does not; Member once read past the end of its words there.
func TestNewKeys_none(t *testing.T) {
	long := strings.Repeat("x", 40)
	tests := []struct {
		name, data string
		reason     string
	}{
		{"empty", `{}`, "no members"},
		{"short", `{"id":1,"tool":"x"}`, "fewer than 32 bytes left: the long way"},
		{"long", `{"id":1,"ids":"` + long + `","tool":"` + long + `"}`, "the fast path compares the key expected next"},
		{"long, first key", `{"id":"` + long + `"}`, "the opening brace and first key on the fast path"},
		{"broken", `{"id":1,,"x":"` + long + `"}`, "two commas: refused, as Object refuses it"},
	}
	keys := jsonv.NewKeys()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := objectKeys([]byte(tt.data), keys, nil)
			want, wok := objectRef([]byte(tt.data), nil)
			if ok != wok || ok && !slices.Equal(got, want) {
				t.Errorf("ObjectKeys: %q, %v; Object: %q, %v (%s)", got, ok, want, wok, tt.reason)
			}
		})
	}
}

// TestParser_Member_depth: objects read with Member nest no deeper than
// MaxDepth, the opening brace found where the fast path stands as where
// it does not.
func TestParser_Member_depth(t *testing.T) {
	keys := jsonv.NewKeys("id")
	var read func(p *jsonv.Parser) bool
	read = func(p *jsonv.Parser) bool {
		m := keys.Members()
		for {
			switch i, _ := p.Member(&m); i {
			case jsonv.End:
				return true
			case 0:
				if p.Peek() == '{' {
					if !read(p) {
						return false
					}
				} else if !p.Skip() {
					return false
				}
			default:
				return false
			}
		}
	}
	for _, n := range []int{jsonv.MaxDepth - 1, jsonv.MaxDepth, jsonv.MaxDepth + 1} {
		for _, sep := range []string{"", " "} {
			data := strings.Repeat("{"+sep+`"id":`, n) + "1" + strings.Repeat("}", n)
			var p jsonv.Parser
			p.Reset([]byte(data))
			if got, want := read(&p) && p.End(), n <= jsonv.MaxDepth; got != want {
				t.Errorf("%d objects deep, separated by %q: read %v, want %v", n, sep, got, want)
			}
		}
	}
}

// FuzzParser_ObjectKeys checks ObjectKeys against Object on any input.
func FuzzParser_ObjectKeys(f *testing.F) {
	long := strings.Repeat("x", 40)
	for _, s := range []string{`{"id":1,"tool":"x","start_time":"t","duration_ms":3}`, `{"\u0069d":1,"idx":2}`, `{"a_name_of_15_by":1,"q\"uote":2,"":3}`,
		`{"id":1,"ids":"` + long + `","tool":"x","start_time":"` + long + `","duration_ms":3}`, `{"ids":1,"id":"` + long + `","a_name_of_15_by":2,"q\"uote":"` + long + `"}`} {
		f.Add([]byte(s))
	}
	keys, none := jsonv.NewKeys(objectNames...), jsonv.NewKeys()
	// The object a Shape remembers before it reads the input.
	shaped := `{"id":1,"ids":2,"tool":"x","start_time":"t","duration_ms":3,"a_name_of_15_by":"` + long + `"}`
	f.Add([]byte(shaped))
	f.Add([]byte(`{"id":1, "ids":2,"tool":"x","start_time":"t","duration_ms":3,"a_name_of_15_by":"` + long + `"}`))
	f.Add([]byte(`{"id":1,"ids":2,"tool":"x","start_time":"t","duration_ms":3,"a_name_of_15_by":"` + long + `","id":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := objectKeys(data, keys, objectNames)
		want, wok := objectRef(data, objectNames)
		if ok != wok || ok && !slices.Equal(got, want) {
			t.Fatalf("%q: ObjectKeys %q, %v; Object %q, %v", data, got, ok, want, wok)
		}
		got, ok = objectKeys(data, none, nil)
		want, wok = objectRef(data, nil)
		if ok != wok || ok && !slices.Equal(got, want) {
			t.Fatalf("%q: ObjectKeys without keys %q, %v; Object %q, %v", data, got, ok, want, wok)
		}
		// With a Shape: after a seed's object, then data again after
		// itself, each read as Object reads it.
		want, wok = objectRef(data, objectNames)
		shape := jsonv.NewShape(keys)
		objectShape([]byte(shaped), shape, objectNames)
		for n := range 2 {
			got, ok = objectShape(data, shape, objectNames)
			if ok != wok || ok && !slices.Equal(got, want) {
				t.Fatalf("%q, read %d with a Shape: %q, %v; Object %q, %v", data, n+1, got, ok, want, wok)
			}
		}
	})
}

// TestParser_Value_shortAtEnd: the short strings of a small value, all
// of them near the end of its data (an argument object kept as text and
// decoded alone), are kept to be found again by their bytes, as they are
// in a larger input; and they are read as encoding/json reads them.
func TestParser_Value_shortAtEnd(t *testing.T) {
	tests := []struct {
		in     string
		kept   []string
		reason string
	}{
		{`{"id":"doc-1"}`, []string{"id", "doc-1"}, "a key and a value, the value's quote the last byte but one"},
		{`["a","b"]`, []string{"a", "b"}, "the elements of a list"},
		{`"x"`, []string{"x"}, "a string alone, its quote the last byte"},
		{`{"k":"v\"w"}`, []string{"k"}, "an escape is not kept, as anywhere"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var p jsonv.Parser
			for range 2 {
				p.Reset([]byte(tt.in))
				got, ok := p.Value()
				want, _ := stdDecode([]byte(tt.in))
				if !ok || !p.End() || !reflect.DeepEqual(got, want) {
					t.Fatalf("got %#v, %v; encoding/json %#v", got, ok, want)
				}
			}
			for _, k := range tt.kept {
				if !jsonv.Kept(&p, k) {
					t.Errorf("%q is not kept: %s", k, tt.reason)
				}
			}
		})
	}
}

// TestParser_StrValue checks that StrValue reads a string as Value does,
// the second time too (a short string found again, not boxed), and
// reads nothing of a value that is no string.
func TestParser_StrValue(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		reason string
	}{
		{`"call_1"`, true, "a short id, found again the second time"},
		{`"toolu_01A09q90qw90lq917835lq9"`, true, "an id longer than a short"},
		{`"a\"b\u00e9"`, true, "escapes are unescaped"},
		{`""`, true, "the empty string"},
		{"\"\xff\"", false, "invalid UTF-8 is encoding/json's to replace"},
		{`12`, false, "a number is not a string"},
		{`null`, false, "null is not a string"},
		{`"cut`, false, "cut off"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			data := []byte(tt.in)
			if tt.ok {
				data = []byte(tt.in + "," + tt.in) // the second found again
			}
			var p, want jsonv.Parser
			p.Reset(data)
			want.Reset(data)
			for i := range 2 {
				v, wok := want.Value()
				s, isString := v.(string)
				got, ok := p.StrValue()
				if ok != tt.ok || ok != (wok && isString) || got != s {
					t.Errorf("read %d: StrValue = %q, %v; Value gives %#v, %v; want ok %v (%s)", i+1, got, ok, v, wok, tt.ok, tt.reason)
				}
				if ok && string(p.Rest()) != string(want.Rest()) {
					t.Errorf("read %d: StrValue left %q, Value %q (%s)", i+1, p.Rest(), want.Rest(), tt.reason)
				}
				if !ok {
					if tt.in[0] != '"' && p.Peek() != tt.in[0] {
						t.Errorf("StrValue read part of a value that is no string (%s)", tt.reason)
					}
					return
				}
				p.Take(1)
				want.Take(1)
			}
		})
	}
}
