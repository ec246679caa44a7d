package jsonv_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// refDepth is CheckDepth written as plainly as possible, a byte at a
// time: the faster CheckDepth must find what it finds, at the same place,
// on any bytes, valid JSON or not.
func refDepth(data []byte) (offset, line, col int, deep bool) {
	depth, line, lineStart := 0, 1, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			if depth++; depth > jsonv.MaxDepth {
				return i, line, i - lineStart + 1, true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case '\n':
			line, lineStart = line+1, i+1
		case '"':
			for i++; i < len(data); i++ {
				if data[i] == '"' || data[i] == '\n' {
					break
				}
				if data[i] == '\\' {
					if i++; i < len(data) && data[i] == '\n' {
						break
					}
				}
			}
			if i < len(data) && data[i] == '\n' {
				line, lineStart = line+1, i+1
			}
		}
	}
	return 0, 0, 0, false
}

// FuzzCheckDepth_reference compares CheckDepth with refDepth on any bytes.
func FuzzCheckDepth_reference(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"[["}]}`, nest(jsonv.MaxDepth + 1), "[\"\\\n" + nest(jsonv.MaxDepth+1), "\"a\\", "[\"x\ny\"" + nest(jsonv.MaxDepth) + "]", "\xff[\"\xfe\"]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Behind brackets near MaxDepth too: short text has too few of
		// its own for CheckDepth to look further than their count.
		near := append([]byte(strings.Repeat("[", jsonv.MaxDepth-4)), data...)
		for _, data := range [][]byte{data, near} {
			offset, line, col, deep := refDepth(data)
			err := jsonv.CheckDepth(data)
			var de *jsonv.DepthError
			if deep != (err != nil) {
				t.Fatalf("%q: CheckDepth = %v, the reference finds too deep: %v", data, err, deep)
			}
			if deep && (!errors.As(err, &de) || de.Offset != int64(offset) || de.Line != line || de.Col != col) {
				t.Fatalf("%q: CheckDepth = %#v, the reference: offset %d, line %d, column %d", data, err, offset, line, col)
			}
		}
	})
}

// TestCheckDepth_reference compares CheckDepth with refDepth on many
// texts drawn from the bytes it looks at, long enough to span words, with
// and without a run of brackets that brings them near MaxDepth: what
// random bytes rarely give the fuzzer. A word read at once must end where
// the byte-at-a-time reading would, in strings and escapes, on every line.
func TestCheckDepth_reference(t *testing.T) {
	const alphabet = "[]{}\"\\\na "
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		var b []byte
		if n%2 == 1 {
			b = append(b, strings.Repeat("[", jsonv.MaxDepth-r.IntN(12))...)
		}
		for range r.IntN(40) {
			b = append(b, alphabet[r.IntN(len(alphabet))])
		}
		offset, line, col, deep := refDepth(b)
		err := jsonv.CheckDepth(b)
		var de *jsonv.DepthError
		if deep != (err != nil) || deep && (!errors.As(err, &de) || de.Offset != int64(offset) || de.Line != line || de.Col != col) {
			t.Fatalf("%q: CheckDepth = %#v; the reference: too deep %v at offset %d, %d:%d", b, err, deep, offset, line, col)
		}
	}
}

// record is a JSON Lines trace record of steps tool calls, shaped as the
// agentv traces the benchmarks read.
func record(steps int) []byte {
	var b strings.Builder
	b.WriteString(`{"id":"case-0000001","output":[{"role":"user","content":"Research the history of Python"}`)
	for i := range steps {
		fmt.Fprintf(&b, `,{"role":"assistant","tool_calls":[{"tool":"grep","id":"call_%d","input":{"id":"doc-%d","query":"a \"quoted\" word"},"output":{"ok":true},"status":"ok","start_time":"2026-01-01T00:00:00.066Z","end_time":"2026-01-01T00:00:00.090Z","duration_ms":%d}]}`, i, i, 20+i)
	}
	b.WriteString(`],"token_usage":{"input":1000,"output":200},"cost_usd":0.0123}`)
	return []byte(b.String())
}

func BenchmarkCheckDepth(b *testing.B) {
	data := record(20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := jsonv.CheckDepth(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckDepth_text is CheckDepth on a record of 200 steps (more
// brackets than MaxDepth, so each is looked at) whose messages are long
// text.
func BenchmarkCheckDepth_text(b *testing.B) {
	var data []byte
	for i := range 200 {
		data = fmt.Appendf(data, `{"role":"assistant","content":"%s step %d, with a \"quote\" and a [bracket]","tool_calls":[]}`, strings.Repeat("The agent reads the document and writes a summary. ", 8), i)
	}
	data = append(append([]byte(`{"output":[`), bytes.ReplaceAll(data, []byte("}{"), []byte("},{"))...), "]}"...)
	if err := jsonv.CheckDepth(data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := jsonv.CheckDepth(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParser_Value(b *testing.B) {
	data := record(20)
	var p jsonv.Parser
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p.Reset(data)
		if _, ok := p.Value(); !ok {
			b.Fatal("Parser refuses the record")
		}
	}
}

// BenchmarkParser_Skip is the scanner alone: every key and string of a
// 20-step record read and checked, nothing built.
func BenchmarkParser_Skip(b *testing.B) {
	data := record(20)
	var p jsonv.Parser
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p.Reset(data)
		if !p.Skip() {
			b.Fatal("Parser refuses the record")
		}
	}
}

// BenchmarkParser_Value_wide reads objects of 20 members, more than a
// small map holds.
func BenchmarkParser_Value_wide(b *testing.B) {
	data := []byte(`[`)
	for i := range 20 {
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, '{')
		for k := range 20 {
			if k > 0 {
				data = append(data, ',')
			}
			data = fmt.Appendf(data, `"field_%d":%d`, k, i*k)
		}
		data = append(data, '}')
	}
	data = append(data, ']')
	var p jsonv.Parser
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		p.Reset(data)
		if _, ok := p.Value(); !ok {
			b.Fatal("Parser refuses the objects")
		}
	}
}

// TestParser_Value_reuse reads records one after the other with one
// Parser, as the readers do: values that repeat come back equal, and no
// value changes when the Parser reads on.
func TestParser_Value_reuse(t *testing.T) {
	inputs := []struct {
		in       string
		accepted bool // false: the Parser says no, encoding/json is the answer
		reason   string
	}{
		{`{"a":["ok",10,[1,[2,"x"]],{"b":"ok"}],"c":-1.5e3}`, true, "strings, numbers and nested arrays"},
		{`["ok",10,"ok",10,[],[[]],"10"]`, true, "the same text as a string and as a number stays apart"},
		{`[1,[2,[3,` + "\"\\u00e9\"" + `]],4]`, true, "an escaped string in a nested array"},
		{`[1,[2,` + "\"\xff\"" + `],3]`, false, "an array cut short by a refusal leaves nothing behind for the next"},
		{`{"a":{"b":[1,{"c":2}],"d":"` + "\xff" + `"},"e":3}`, false, "an object cut short by a refusal leaves no member behind for the next"},
		{`{"k":1,"k":{"x":[1,{"y":"ok"}]},"z":{}}`, true, "a repeated key: the last wins"},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":{"k":10}}`, true, "more members than a small map holds"},
		{`["` + strings.Repeat("long", 30) + `",` + strings.Repeat("9", 100) + `]`, true, "values too long to keep"},
	}
	var p jsonv.Parser
	var kept []any
	for _, round := range []string{"first", "again"} {
		for i, tt := range inputs {
			want, wantOK := stdDecode([]byte(tt.in))
			p.Reset([]byte(tt.in))
			got, ok := p.Value()
			ok = ok && p.End()
			if ok && (!wantOK || !reflect.DeepEqual(got, want)) || !ok && tt.accepted {
				t.Errorf("%s, %q: Value = %#v, %v; encoding/json %#v, %v: %s", round, tt.in, got, ok, want, wantOK, tt.reason)
			}
			if round == "first" {
				kept = append(kept, got)
			} else if tt.accepted && !reflect.DeepEqual(kept[i], want) {
				t.Errorf("%q read first is now %#v: later reads must not change it", tt.in, kept[i])
			}
		}
	}
}
