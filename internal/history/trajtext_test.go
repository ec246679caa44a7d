package history_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/jsonv/jsonvtest"
)

// sameAsDecoded checks that text, kept as a step's arguments and result,
// is stored as the value it decodes to would be: the same answer (stored
// or refused), the same value and trajectory read back, and the same
// bytes unless an object holds three members or more (the decoded value's
// are written in its map's order, the text's in the text's). It reports
// whether the text was written straight, without decoding.
func sameAsDecoded(t testing.TB, text []byte, depth int) (direct bool) {
	t.Helper()
	got, direct := history.AppendText(nil, text, depth)
	v, derr := trajeval.Decoded(json.RawMessage(text))
	var want []byte
	wantOK := derr == nil
	if wantOK {
		want, wantOK = history.AppendValue(nil, v, depth)
	}
	if !direct {
		if len(got) != 0 {
			t.Errorf("%q: not written straight, yet %d bytes appended", text, len(got))
		}
	} else {
		if !wantOK {
			t.Fatalf("%q written straight, but its decoded value is refused (%v)", text, derr)
		}
		if !manyMembers(v) && !bytes.Equal(got, want) {
			t.Errorf("%q written\n%q\nwant (its decoded value)\n%q", text, got, want)
		}
		back, err := history.ReadValue(got)
		if err != nil {
			t.Fatalf("%q: written as %q, which does not read back: %v", text, got, err)
		}
		if !reflect.DeepEqual(back, v) {
			t.Errorf("%q read back as\n%#v\nwant\n%#v", text, back, v)
		}
	}
	if depth != 0 {
		return direct
	}

	// The same through a whole trajectory, the way a failing case was
	// recorded in schema version 11; from version 12 the text is stored
	// as it stands (see sameAsText).
	kept := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "n",
		Args: json.RawMessage(text), Result: json.RawMessage(text)}}}
	sameAsText(t, kept, v, wantOK)
	history.SetKeptTextV11(t, true)
	defer history.SetKeptTextV11(t, false)
	ktraj, kok := history.AppendTrajectory(nil, kept)
	if kok != wantOK {
		t.Fatalf("%q: trajectory stored %v, want %v (as its decoded value)", text, kok, wantOK)
	}
	if !kok {
		return direct
	}
	decoded := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "n", Args: v, Result: v}}}
	dtraj, _ := history.AppendTrajectory(nil, decoded)
	if !manyMembers(v) && !bytes.Equal(ktraj, dtraj) {
		t.Errorf("%q: trajectory written\n%q\nwant\n%q", text, ktraj, dtraj)
	}
	kback, err := history.ReadTrajectory(ktraj)
	if err != nil {
		t.Fatalf("%q: trajectory does not read back: %v", text, err)
	}
	dback, err := history.ReadTrajectory(dtraj)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kback, dback) {
		t.Errorf("%q: trajectory read back as\n%#v\nwant\n%#v", text, kback, dback)
	}
	return direct
}

// sameAsText checks that kept, whose arguments and result are JSON text
// of value v (decodable when ok), is stored from schema version 12 with
// its text as it stands, and reads back as its decoded value does: the
// same trajectory through the canonical JSON. Text that begins and ends
// as an object or array does is stored without a look (the reader
// checked it); when it does not decode, it does not read back either:
// an error, never a trajectory.
func sameAsText(t testing.TB, kept *trajeval.Trajectory, v any, ok bool) {
	t.Helper()
	text := kept.Steps[0].Args.(json.RawMessage)
	ktraj, kok := history.AppendTrajectory(nil, kept)
	if ok && !kok {
		t.Fatalf("%q: trajectory not stored, yet its text decodes", text)
	}
	if !kok {
		return
	}
	if !ok {
		if tr, err := history.DecodeTrajectory(ktraj); !errors.Is(err, history.ErrTrajectory) {
			t.Fatalf("%q does not decode, yet its trajectory read back as %#v, %v; want %v", text, tr, err, history.ErrTrajectory)
		}
		return
	}
	if composite := len(text) >= 2 && (text[0] == '{' && text[len(text)-1] == '}' || text[0] == '[' && text[len(text)-1] == ']'); composite &&
		!bytes.Contains(ktraj, text) {
		t.Errorf("%q: the text is not stored as it stands: %q", text, ktraj)
	}
	got, err := history.DecodeTrajectory(ktraj)
	if err != nil {
		t.Fatalf("%q: trajectory %q does not read back: %v", text, ktraj, err)
	}
	decoded := &trajeval.Trajectory{ID: "t", Steps: []trajeval.Step{{Index: 1, Name: "n", Args: v, Result: v}}}
	dtraj, _ := history.AppendTrajectory(nil, decoded)
	want, err := history.DecodeTrajectory(dtraj)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: trajectory read back as\n%#v\nwant (its decoded value's)\n%#v", text, got, want)
	}
}

// manyMembers reports whether v holds an object of three members or more.
func manyMembers(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if manyMembers(e) {
				return true
			}
		}
	case map[string]any:
		if len(x) > 2 {
			return true
		}
		for _, e := range x {
			if manyMembers(e) {
				return true
			}
		}
	}
	return false
}

func TestAppendTrajectory_text(t *testing.T) {
	nested := func(n int, leaf string) string {
		return strings.Repeat("[", n) + leaf + strings.Repeat("]", n)
	}
	members := func(n int, extra string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(n-i) + `":` + strconv.Itoa(i))
		}
		b.WriteString(extra + "}")
		return b.String()
	}
	elems := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`"e",`, n), ",") + "]"
	}
	tests := []struct {
		name   string
		text   string
		depth  int
		direct bool
		reason string
	}{
		{"bench arguments", `{"query":"python history","limit":10}`, 0, true, "two members out of order are written in the order of their keys, as the map's are"},
		{"two in order", `{"a":{"y":1,"x":2},"b":[]}`, 0, true, "nested objects of two members each ordered"},
		{"three members", `{"c":1,"a":[true],"b":{"z":null}}`, 0, true, "a larger object in the text's order: reading sorts"},
		{"empty", `{}`, 0, true, "no members: a count of 0"},
		{"empty array", `[]`, 0, true, "no elements: a count of 0"},
		{"literals", `[true,false,null]`, 0, true, "each literal its tag"},
		{"white space", " \t{ \"a\" :\n[ 1 ,\r\n2 ] , \"b\" : { } }\n", 0, true, "white space around every token, as a line may hold it"},
		{"escapes", `{"s\n":"a\"b\\c\/d\b\f\n\r\t\u00e9\u2028\u0000"}`, 0, true, "every escape unescaped as decoding does, in keys too"},
		{"surrogate pair", `["\ud83d\ude00","\uD83D\uDE00x"]`, 0, true, "a whole pair is one rune, either case of hex digits"},
		{"utf-8", `{"ключ":"значение ✓ 😀"}`, 0, true, "UTF-8 as it stands"},
		{"numbers", `[0,-0,1.5,-1.5e+3,1E400,12345678901234567890123,0.000001e-7,1e-400,-9007199254740993]`, 0, true, "every number as its text, past float64's range and precision"},
		{"a string alone", `"x"`, 0, true, "a string, though a reader keeps only objects and arrays"},
		{"a number alone", ` 12 `, 0, true, "a number with white space around it"},
		{"short at the end", `{"ok":true,"id":"doc-1"}`, 0, true, "short strings near the end of the text"},
		{"long string", `{"text":"` + strings.Repeat("abcdefgh", 40) + `\u00e9"}`, 0, true, "a string longer than a word, escaped past its plain part"},
		{"200 members", members(200, ""), 0, true, "a count past 127 takes a second byte, moved into place"},
		{"20000 elements", elems(20000), 0, true, "a count past 16383 takes a third byte"},
		{"counts nested", `[` + members(130, "") + `,` + elems(300) + `,{"x":` + elems(128) + `,"a":1}]`, 0, true, "counts moved inside counts, and a member ordered after its value's count moved"},
		{"at the Parser's depth", nested(jsonv.MaxDepth-1, `{"a":1}`), 0, true, "nested as deep as a reader keeps text"},
		{"past the Parser's depth", nested(jsonv.MaxDepth+1, "1"), 0, false, "deeper than decoding allows: refused either way"},
		{"at the encoding's depth", `[[1],{"a":2}]`, 254, true, "the innermost array and object at depth 255, below maxDepth"},
		{"past the encoding's depth", `[[[1]]]`, 254, false, "an array at depth 256 is not carried either way"},
		{"object past the encoding's depth", `[{"a":{}}]`, 254, false, "an object at depth 256 is not carried either way"},
		{"repeated key", `{"a":1,"a":2}`, 0, false, "decoding keeps the last: decoded, never stored twice"},
		{"repeated key escaped", `{"a":1,"\u0061":2}`, 0, false, "the same key once unescaped"},
		{"repeated key nested", `[{"b":{"x":1,"y":2,"x":3}}]`, 0, false, "a repeat deep inside"},
		{"repeated key, many members", members(40, `,"k7":"again"`), 0, false, "a repeat found in the set of a large object's keys"},
		{"repeated key at the sixteenth", members(15, `,"k15":0`), 0, false, "a repeat found one by one, at the last key compared so"},
		{"repeated key after the sixteenth", members(16, `,"k1":0`), 0, false, "a repeat of one of the first keys found in the set made from them"},
		{"no repeat, many members", members(17, `,"k0":"z"`), 0, true, "seventeen distinct keys"},
		{"lone surrogate", `["\ud83d"]`, 0, false, "decoding replaces a lone half with U+FFFD: decoded"},
		{"invalid utf-8", "[\"\xff\"]", 0, false, "decoding replaces invalid bytes: decoded"},
		{"bad escape", `["\x"]`, 0, false, "not JSON: refused either way"},
		{"cut short", `{"a":[1,2`, 0, false, "not JSON: refused either way"},
		{"two values", `{} {}`, 0, false, "not one value: refused either way"},
		{"nothing", ``, 0, false, "no value: refused either way"},
		{"bad literal", `[tru]`, 0, false, "not JSON: refused either way"},
		{"bad number", `[01]`, 0, false, "not JSON: refused either way"},
		{"a key not a string", `{1:2}`, 0, false, "not JSON: refused either way"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if direct := sameAsDecoded(t, []byte(tt.text), tt.depth); direct != tt.direct {
				t.Errorf("written straight %v, want %v: %s", direct, tt.direct, tt.reason)
			}
		})
	}
}

// TestAppendTrajectory_textFixtures writes every object and array of the
// repository's JSON fixtures (traces of every format, suites, results;
// and the JSON text some of them hold in strings, as tool arguments are
// often written), each as it stands, as the value it decodes to would be.
func TestAppendTrajectory_textFixtures(t *testing.T) {
	texts, files := jsonvtest.Fixtures(t, filepath.Join("..", ".."))
	for _, text := range texts {
		sameAsDecoded(t, text, 0)
	}
	if len(texts) < 5000 {
		t.Fatalf("only %d texts in %d files: the test reads too little", len(texts), files)
	}
	t.Logf("%d texts from %d files", len(texts), files)
}

// TestAppendTrajectory_textRandom writes random JSON, of every shape of
// string, number, white space and nesting, with a key repeated now and
// then, as the value it decodes to would be.
func TestAppendTrajectory_textRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 8))
	direct := 0
	const n = 3000
	for range n {
		var g jsonGen
		g.r = r
		g.container(0)
		if sameAsDecoded(t, g.b, 0) {
			direct++
		}
		if t.Failed() {
			t.Fatalf("at %q", g.b)
		}
	}
	// Most texts are written straight: the generator repeats a key in
	// few of them.
	if direct < n/2 {
		t.Errorf("only %d of %d texts written straight", direct, n)
	}
	t.Logf("%d of %d written straight", direct, n)
}

// A jsonGen writes random JSON text to b.
type jsonGen struct {
	r *rand.Rand
	b []byte
}

func (g *jsonGen) space() {
	if g.r.IntN(6) == 0 {
		g.b = append(g.b, " \t\r\n"[g.r.IntN(4)])
	}
}

func (g *jsonGen) container(depth int) {
	n := g.r.IntN(5)
	if depth < 2 && g.r.IntN(20) == 0 {
		n = 100 + g.r.IntN(200) // a count of two bytes
	}
	g.space()
	if g.r.IntN(2) == 0 {
		g.b = append(g.b, '[')
		for i := range n {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.value(depth + 1)
		}
		g.space()
		g.b = append(g.b, ']')
		return
	}
	g.b = append(g.b, '{')
	keys := map[string]bool{}
	for i := range n {
		if i > 0 {
			g.b = append(g.b, ',')
		}
		g.space()
		k := g.key()
		for keys[k] && g.r.IntN(30) != 0 { // now and then a key repeated
			k = g.key()
		}
		keys[k] = true
		g.str(k)
		g.space()
		g.b = append(g.b, ':')
		g.value(depth + 1)
	}
	g.space()
	g.b = append(g.b, '}')
}

func (g *jsonGen) key() string {
	return []string{"a", "b", "id", "query", "limit", "é", "k\"", "ok", "path", "x"}[g.r.IntN(10)] + strings.Repeat("z", g.r.IntN(3))
}

func (g *jsonGen) value(depth int) {
	g.space()
	switch k := g.r.IntN(10); {
	case k < 2 && depth < 8:
		g.container(depth)
		return
	case k < 5:
		g.str(g.text())
	case k < 8:
		g.b = append(g.b, g.number()...)
	default:
		g.b = append(g.b, []string{"true", "false", "null"}[g.r.IntN(3)]...)
	}
	g.space()
}

// text is a string of plain ASCII, other UTF-8, and characters JSON
// escapes.
func (g *jsonGen) text() string {
	var b strings.Builder
	for range g.r.IntN(30) {
		switch k := g.r.IntN(12); {
		case k < 6:
			b.WriteByte(byte('a' + g.r.IntN(26)))
		case k == 6:
			b.WriteString([]string{"é", "✓", "😀", "\u2028", "ключ"}[g.r.IntN(5)])
		case k == 7:
			b.WriteRune(rune(g.r.IntN(0x20)))
		default:
			b.WriteString([]string{`"`, `\`, "/", "<>&", " "}[g.r.IntN(5)])
		}
	}
	return b.String()
}

// str writes s as a JSON string, each character that may be escaped
// escaped at random in one of the ways JSON allows.
func (g *jsonGen) str(s string) {
	g.b = append(g.b, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			g.b = append(g.b, '\\', byte(c))
		case c == '/' && g.r.IntN(2) == 0:
			g.b = append(g.b, `\/`...)
		case c < 0x20 && g.r.IntN(2) == 0 && strings.ContainsRune("\b\f\n\r\t", c):
			g.b = append(g.b, '\\', "btnfr"[strings.IndexRune("\b\t\n\f\r", c)])
		case c < 0x20 || g.r.IntN(5) == 0:
			if c > 0xffff {
				c -= 0x10000
				g.b = append(g.b, `\u`+hex4(0xd800+c>>10, g.r.IntN(2) == 0)+`\u`+hex4(0xdc00+c&0x3ff, g.r.IntN(2) == 0)...)
			} else {
				g.b = append(g.b, `\u`+hex4(c, g.r.IntN(2) == 0)...)
			}
		default:
			g.b = append(g.b, string(c)...)
		}
	}
	g.b = append(g.b, '"')
}

func hex4(c rune, upper bool) string {
	s := strconv.FormatInt(int64(c)+0x10000, 16)[1:]
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// number is a JSON number of one of its shapes.
func (g *jsonGen) number() string {
	r := g.r
	s := ""
	if r.IntN(3) == 0 {
		s = "-"
	}
	if r.IntN(4) == 0 {
		s += "0"
	} else {
		s += strconv.FormatUint(1+r.Uint64()>>r.IntN(64), 10) // no leading zero
	}
	if r.IntN(3) == 0 {
		s += "." + strconv.Itoa(r.IntN(100000))
	}
	if r.IntN(3) == 0 {
		s += []string{"e", "E"}[r.IntN(2)] + []string{"", "+", "-"}[r.IntN(3)] + strconv.Itoa(r.IntN(500))
	}
	return s
}

// FuzzAppendTrajectory_text: any text kept as a step's arguments and
// result is stored as the value it decodes to would be, or refused as that
// value is (see sameAsDecoded).
func FuzzAppendTrajectory_text(f *testing.F) {
	for _, s := range []string{
		`{"query":"python history","limit":10}`, `{"ok":true}`, `[1,"a",null,{"b":[]}]`,
		`{"a":1,"a":2}`, `{"s":"\ud83d\ude00\n\u00e9"}`, `{"c":1,"b":2,"a":3}`, `[-0.5e+10,1E400]`,
		"[\"\xff\"]", `["\ud83d"]`, `{"k":{"k":{"k":{}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		sameAsDecoded(t, text, 0)
	})
}
