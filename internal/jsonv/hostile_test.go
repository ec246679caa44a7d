package jsonv_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// hostileStrings are string texts (as written between quotes) at the
// edges of what the Parser keeps by their bytes: 15 and 16 bytes, 64 and
// 65, with a NUL, invalid UTF-8, an escaped quote or backslash on each
// side of the edge.
func hostileStrings() []string {
	var out []string
	for _, n := range []int{0, 1, 7, 8, 9, 14, 15, 16, 17, 63, 64, 65} {
		s := strings.Repeat("s", n)
		out = append(out, s)
		for _, at := range []int{0, n / 2, max(0, n-1), n} {
			for _, odd := range []string{`\u0000`, "\xff", "\xc3", `\"`, `\\`, "\x7f", `\u00e9`, "é", `\ud800`, "\x00", "\n"} {
				out = append(out, s[:at]+odd+s[at:])
			}
		}
	}
	return out
}

// TestParser_Value_hostile: short strings at the edges, as keys and
// values, read again from the slots the Parser keeps them in, and with
// the slots full (1,024 of them, 3,000 strings), are what encoding/json
// reads; what the Parser refuses, encoding/json decides.
func TestParser_Value_hostile(t *testing.T) {
	var p jsonv.Parser
	check := func(data string) {
		t.Helper()
		p.Reset([]byte(data))
		got, ok := p.Value()
		if !ok || !p.End() {
			return
		}
		want, wok := stdDecode([]byte(data))
		if !wok || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v; encoding/json %#v, %v", data, got, want, wok)
		}
	}
	strs := hostileStrings()
	for range 2 { // the second time, from the slots
		for _, s := range strs {
			check(`"` + s + `"`)
			check(`{"` + s + `":"` + s + `"}`)
			check(`["` + s + `","` + s + `",1]`)
			check(`"` + s + `"` + strings.Repeat(" ", 20))
		}
	}
	// Slots full and colliding: 3,000 strings, then each again, then
	// each with a byte changed after its slot's string was kept.
	var all []string
	for i := range 3000 {
		all = append(all, fmt.Sprintf(`"k%013d"`, i))
	}
	data := "[" + strings.Join(all, ",") + "]"
	check(data)
	check(data)
	check(strings.ReplaceAll(data, `"k`, `"K`))
	check(strings.ReplaceAll(data, `"k`, `"\u006b`))
}

// TestParser_Member_hostile: keys of the edge lengths found by their
// bytes (Member's compact path needs 32 bytes ahead) or read, with data
// that ends within those 32 bytes, nesting at MaxDepth, and a key that
// is a name's prefix or extension, hand on what Object does.
func TestParser_Member_hostile(t *testing.T) {
	names := []string{"a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop"}
	keys := jsonv.NewKeys(names...)
	var inputs []string
	for _, k := range append(slices.Clone(names), "abcdefghijklmnopq", "", "ab", "abcdefghijklmnoX", "abcdefghijklmnox") {
		for _, v := range []string{`1`, `"x"`, `null`, `{}`, `[]`, `nul`} {
			inputs = append(inputs,
				`{"`+k+`":`+v+`}`,
				`{"`+k+`":`+v+`,"`+k+`":`+v+`}`,
				`{"`+k+`":`+v+`,"a":1}`+strings.Repeat(" ", 40),
				`{"`+k+`" :`+v+`}`,
				`{"`+k+`":`+v+`,}`,
				`{"`+k+`":`+v,
				`{"`+k+`"`,
				`{"`+k,
			)
		}
	}
	for _, in := range inputs {
		got, ok := objectKeys([]byte(in), keys, names)
		want, wok := objectRef([]byte(in), names)
		if ok != wok || ok && !slices.Equal(got, want) {
			t.Errorf("%q: Member %q, %v; Object %q, %v", in, got, ok, want, wok)
		}
	}
	// Nesting: an object of Keys inside arrays up to and past MaxDepth.
	for _, d := range []int{jsonv.MaxDepth - 2, jsonv.MaxDepth - 1, jsonv.MaxDepth, jsonv.MaxDepth + 1} {
		in := []byte(strings.Repeat("[", d) + `{"abcdefghijklmno":1,"a":2,"padding_to_32_bytes":3}` + strings.Repeat("]", d))
		var p jsonv.Parser
		okKeys := inArrays(&p, in, d, func() bool { return p.ObjectKeys(keys, func(int, []byte) bool { return p.Skip() }) })
		okRef := inArrays(&p, in, d, func() bool { return p.Object(func([]byte) bool { return p.Skip() }) })
		if okKeys != okRef {
			t.Errorf("depth %d: ObjectKeys %v, Object %v", d, okKeys, okRef)
		}
	}
}

// inArrays reads data, n arrays around one object, which object reads.
func inArrays(p *jsonv.Parser, data []byte, n int, object func() bool) bool {
	p.Reset(data)
	var read func(k int) bool
	read = func(k int) bool {
		if k == 0 {
			return object()
		}
		return p.Array(func() bool { return read(k - 1) })
	}
	return read(n) && p.End()
}
