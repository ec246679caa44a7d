package jsonv_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// objectShape is objectKeys read through shape, which remembers what it
// read before, as a reader's loop reads: Again first, Member when it
// misses (having read nothing).
func objectShape(data []byte, shape *jsonv.Shape, names []string) ([]string, bool) {
	var p jsonv.Parser
	p.Reset(data)
	var got []string
	m := shape.Members()
	for {
		pos := p.Pos()
		i, key := p.Again(&m), []byte(nil)
		if i == jsonv.Miss {
			if p.Pos() != pos {
				return append(got, "Again read past a miss"), false
			}
			i, key = p.Member(&m)
		}
		switch {
		case i == jsonv.End:
			return got, p.End()
		case i == jsonv.Bad:
			return got, false
		case i >= 0:
			got = append(got, names[i])
		default:
			got = append(got, "?"+string(key))
		}
		if !p.Skip() {
			return got, false
		}
	}
}

// TestShape_Members checks that Member with a Shape hands on the keys
// Object does, for objects read one after another with one Shape: the
// bytes it remembers from the objects before, found again or not.
func TestShape_Members(t *testing.T) {
	long := strings.Repeat("x", 40)
	bench := `{"tool":"grep","id":"call_1","start_time":"` + long + `","duration_ms":24}`
	tests := []struct {
		name   string
		data   []string // read in turn with one Shape
		reason string
	}{
		{"the same twice", []string{bench, bench}, "every key found where the Shape remembers it"},
		{"another key", []string{bench, `{"tool":"grep","ids":"call_1","start_time":"` + long + `","duration_ms":24}`}, "bytes that differ go the long way"},
		{"a key twice", []string{`{"tool":"grep","id":"` + long + `","tool":"x","id":"` + long + `","tool":"y"}`, `{"tool":"grep","id":"` + long + `","tool":"x","id":"` + long + `","tool":"y"}`}, "a repeated key is handed on each time"},
		{"escaped key", []string{`{"t\u006fol":"grep","id":"` + long + `"}`, `{"t\u006fol":"grep","id":"` + long + `"}`, `{"tool":"grep","id":"` + long + `"}`}, "escaped keys remembered as the key they spell"},
		{"other key", []string{`{"tool":"grep","idx":"` + long + `","id":1}`, `{"tool":"grep","idx":"` + long + `","id":1}`}, "a key not among the names is never remembered, its text handed on"},
		{"a prefix", []string{`{"tool":"grep","id":"` + long + `"}`, `{"tool":"grep","id_":"` + long + `"}`}, "the key's closing quote and colon are part of the bytes"},
		{"white space", []string{`{ "tool" : "grep" , "id" : "` + long + `" }`, `{ "tool" : "grep" , "id" : "` + long + `" }`, `{"tool":"grep","id":"` + long + `"}`, `{ "tool" : "grep" , "id" : "` + long + `" }`}, "spaced and compact, remembered alike"},
		{"more white space", []string{`{"tool": "grep", "id": "` + long + `"}`, `{"tool": "grep", "id":  "` + long + `"}`, `{"tool": "grep", "id":` + "\n" + `"` + long + `"}`}, "space past what the Shape remembers is the value's"},
		{"another key past 8 bytes", []string{bench, `{"tool":"grep","id":"call_1","start_timf":"` + long + `","duration_ms":24}`}, "each word of the bytes compared"},
		{"another key past 16 bytes", []string{`{"tool":"grep",    "duration_ms":"` + long + `"}`, `{"tool":"grep",    "duration_mz":"` + long + `"}`}, "the third word too"},
		{"another key at byte 19", []string{`{"tool":"grep",      "duration_ms":"` + long + `"}`, `{"tool":"grep",      "duration_mz":"` + long + `"}`}, "every byte of the third word compared"},
		{"past 24 bytes", []string{`{"tool":"grep",       "a_name_of_15_by" :"` + long + `"}`, `{"tool":"grep",       "a_name_of_15_by" :"` + long + `"}`}, "longer runs go the long way each time"},
		{"near the end", []string{`{"tool":1,"id":2}`, `{"tool":1,"id":2}`, `{"tool":1,"ids":2}`}, "fewer than 24 bytes left: the long way"},
		{"end then more", []string{`{"tool":"grep","id":1}` + long, `{"tool":"grep","id":1,"ids":2}` + long}, "a closing brace remembered, a comma there"},
		{"empty", []string{`{}` + long, `{}` + long, `{"tool":1}` + long}, "an empty object is not remembered"},
		{"cut", []string{bench, bench[:30], bench[:2]}, "a key cut off"},
		{"broken after", []string{bench, `{"tool":"grep","id":"call_1",,"start_time":"` + long + `"}`}, "the bytes after the remembered ones still read"},
		{"not an object", []string{bench, `["tool","grep","id","call_1","start_time","` + long + `"]`}, "an array where the object stood"},
		{"control in key", []string{bench, "{\"tool\":\"grep\",\"id\x01\":\"call_1\",\"start_time\":\"" + long + `"}`}, "a raw control character"},
		{"bad utf-8 key", []string{"{\"to\xffol\":\"grep\",\"id\":\"" + long + `"}`, "{\"to\xffol\":\"grep\",\"id\":\"" + long + `"}`}, "invalid UTF-8 is refused each time, never remembered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := jsonv.NewShape(jsonv.NewKeys(objectNames...))
			for n, data := range tt.data {
				got, ok := objectShape([]byte(data), shape, objectNames)
				want, wok := objectRef([]byte(data), objectNames)
				if ok != wok || ok && !slices.Equal(got, want) {
					t.Errorf("object %d, %q: Member %q, %v; Object %q, %v (%s)", n, data, got, ok, want, wok, tt.reason)
				}
			}
		})
	}
}

// TestShape_depth: objects read with a Shape nest no deeper than
// MaxDepth when the bytes that open them are remembered.
func TestShape_depth(t *testing.T) {
	shape := jsonv.NewShape(jsonv.NewKeys("id"))
	var read func(p *jsonv.Parser) bool
	read = func(p *jsonv.Parser) bool {
		m := shape.Members()
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
	pad := strings.Repeat(" ", 30)
	for _, n := range []int{jsonv.MaxDepth - 1, jsonv.MaxDepth, jsonv.MaxDepth + 1, jsonv.MaxDepth} {
		for _, sep := range []string{"", " "} {
			data := strings.Repeat("{"+sep+`"id":`, n) + "1" + strings.Repeat("}", n) + pad
			var p jsonv.Parser
			p.Reset([]byte(data))
			if got, want := read(&p) && p.End(), n <= jsonv.MaxDepth; got != want {
				t.Errorf("%d objects deep, separated by %q: read %v, want %v", n, sep, got, want)
			}
			// Two such objects side by side in one: the closing braces
			// remembered give their depth back.
			nest := strings.Repeat("{"+sep+`"id":`, n-1) + "1" + strings.Repeat("}", n-1)
			data = `{"id":` + nest + `,"id":` + nest + "}" + pad
			p.Reset([]byte(data))
			if got, want := read(&p) && p.End(), n <= jsonv.MaxDepth; got != want {
				t.Errorf("two of %d objects deep side by side, separated by %q: read %v, want %v", n-1, sep, got, want)
			}
		}
	}
}

// nameFresh reads data's string with Name on a Parser of its own: what
// NameRecent must give, where it stops included.
func nameFresh(data []byte) (string, bool, int) {
	var p jsonv.Parser
	p.Reset(data)
	s, ok := p.Name()
	return s, ok, p.Pos()
}

// TestParser_NameRecent checks that NameRecent reads each value as Name
// does, for values read one after another with one Recent: the string it
// remembers found again, or other bytes read the long way.
func TestParser_NameRecent(t *testing.T) {
	tail := `,"start_time":"2026-01-01T00:00:00.066Z"}`
	tests := []struct {
		name   string
		data   []string // read in turn with one Recent
		reason string
	}{
		{"the same", []string{`"ok"`, `"ok"`, `"ok"`}, "found again by its bytes"},
		{"a longer one", []string{`"ok"`, `"okay"`, `"ok"`}, "the closing quote is part of the bytes"},
		{"a shorter one", []string{`"okay"`, `"ok"`}, "bytes past the string's are not compared"},
		{"escaped", []string{`"\u006fk"`, `"\u006fk"`, `"ok"`, `"\u006fk"`}, "an escaped string is remembered as the text it spells"},
		{"16 bytes", []string{`"assistant_1234"`, `"assistant_1234"`, `"assistant_1235"`}, "the longest remembered, each byte compared"},
		{"17 bytes", []string{`"assistant_12345"`, `"assistant_12345"`}, "longer strings read the long way each time"},
		{"not a string", []string{`"ok"`, `null`, `1`, `"ok"`}, "not read, and nothing remembered"},
		{"white space", []string{` "ok"`, ` "ok"`, `"ok"`}, "white space before the string"},
		{"invalid UTF-8", []string{"\"o\xff\"", "\"o\xff\"", `"ok"`}, "refused each time, never remembered"},
		{"control", []string{"\"o\x01\"", "\"o\x01\""}, "a raw control character"},
		{"cut", []string{`"ok"`, `"ok`, `"o`}, "a string cut off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r jsonv.Recent
			for n, v := range tt.data {
				for _, data := range []string{v, v + tail} {
					var p jsonv.Parser
					p.Reset([]byte(data))
					// As a reader's loop reads: NameAgain first, which
					// reads nothing when it does not find the string.
					got, ok := p.NameAgain(&r)
					if !ok {
						if p.Pos() != 0 {
							t.Fatalf("value %d, %q: NameAgain read to %d, and not found it", n, data, p.Pos())
						}
						got, ok = p.NameRecent(&r)
					}
					want, wok, end := nameFresh([]byte(data))
					if ok != wok || ok && (got != want || p.Pos() != end) {
						t.Errorf("value %d, %q: NameRecent %q, %v at %d; Name %q, %v at %d (%s)", n, data, got, ok, p.Pos(), want, wok, end, tt.reason)
					}
				}
			}
		})
	}
}

// FuzzParser_NameRecent checks NameRecent against Name on any input,
// read after another and again.
func FuzzParser_NameRecent(f *testing.F) {
	for _, s := range [][2]string{{`"ok"`, `"ok"`}, {`"ok"`, `"okay"`}, {`"\u006fk"`, `"ok"`}, {`"assistant"`, `"assistant","tool_calls":[]`}} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, before, data []byte) {
		var r jsonv.Recent
		var p jsonv.Parser
		p.Reset(before)
		p.NameRecent(&r)
		want, wok, end := nameFresh(data)
		for n := range 2 {
			p.Reset(data)
			got, ok := p.NameRecent(&r)
			if ok != wok || ok && (got != want || p.Pos() != end) {
				t.Fatalf("%q after %q, read %d: NameRecent %q, %v at %d; Name %q, %v at %d", data, before, n+1, got, ok, p.Pos(), want, wok, end)
			}
		}
	})
}

// spanFresh reads data's value with Span on a Parser of its own: what
// SpanRecent must give.
func spanFresh(data []byte) (start, end int, ok bool) {
	var p jsonv.Parser
	p.Reset(data)
	return p.Span()
}

// TestParser_SpanRecent checks that SpanRecent reads each value as Span
// does, for values read one after another with one RecentSpan: the text
// it remembers found again, or other bytes read the long way.
func TestParser_SpanRecent(t *testing.T) {
	tail := `,"status":"ok","start_time":"2026-01-01T00:00:00.066Z"}`
	tests := []struct {
		name   string
		data   []string // read in turn with one RecentSpan
		reason string
	}{
		{"the same", []string{`{"ok":true}`, `{"ok":true}`, `{"ok":true}`}, "found again by its bytes"},
		{"another", []string{`{"ok":true}`, `{"ok":false}`, `{"ok":true}`}, "bytes that differ go the long way"},
		{"more members", []string{`{"ok":true}`, `{"ok":true,"n":1}`}, "the closing brace is part of the bytes"},
		{"16 bytes", []string{`{"id":"doc-123"}`, `{"id":"doc-123"}`, `{"id":"doc-124"}`, `{"id":"doc-123"}`, `{"id":"doc-124"}`}, "the longest remembered, each byte compared"},
		{"17 bytes", []string{`{"id":"doc-1234"}`, `{"id":"doc-1234"}`}, "longer values read the long way each time"},
		{"numbers", []string{`12`, `12`, `123`}, "a number is not remembered: its text ends where the digits do"},
		{"arrays", []string{`[1,[2]]`, `[1,[2]]`, `[1,[3]]`, `[]`, `[]`}, "arrays as objects"},
		{"short", []string{`[1]`, `[1]`, `[1,2]`, `{}`, `{}`, `{"a":1}`}, "the closing bracket of a value of a few bytes compared"},
		{"not remembered", []string{`{"ok":true}`, `"ok"`, `12`, `{"ok":true}`}, "a string or a number read, and not remembered"},
		{"white space", []string{` {"ok":true}`, ` {"ok":true}`, `{"ok":true}`, `{ "ok":true}`}, "white space before the value, and in it"},
		{"escapes", []string{`{"o\u006b":1}`, `{"o\u006b":1}`, `{"ok":1}`}, "an escape remembered as it stands"},
		{"invalid UTF-8", []string{"{\"o\xff\":1}", "{\"o\xff\":1}", `{"ok":1}`}, "refused each time, never remembered"},
		{"control", []string{"{\"o\x01\":1}", "{\"o\x01\":1}"}, "a raw control character"},
		{"broken", []string{`{"ok":true}`, `{"ok":true,}`, `{"ok":tru}`, `{"ok":true}`}, "broken text refused"},
		{"cut", []string{`{"ok":true}`, `{"ok":true`, `{"ok"`}, "a value cut off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r jsonv.RecentSpan
			for n, v := range tt.data {
				for _, data := range []string{v, v + tail} {
					var p jsonv.Parser
					p.Reset([]byte(data))
					start, end, ok := p.SpanRecent(&r)
					wstart, wend, wok := spanFresh([]byte(data))
					if ok != wok || ok && (start != wstart || end != wend || p.Pos() != wend) {
						t.Errorf("value %d, %q: SpanRecent %d-%d, %v; Span %d-%d, %v (%s)", n, data, start, end, ok, wstart, wend, wok, tt.reason)
					}
				}
			}
		})
	}
}

// TestParser_SpanRecent_depth: a value found again nests no deeper than
// MaxDepth, as Span allows it.
func TestParser_SpanRecent_depth(t *testing.T) {
	pad := strings.Repeat(" ", 20)
	for _, v := range []string{`[[[1]]]`, `{"a":{"b":[]}}`, `[[[[[[[[]]]]]]]]`} {
		var r jsonv.RecentSpan
		// Read where it stands nested in k arrays: remembered when read at
		// the top, found again deeper.
		var read func(p *jsonv.Parser, k int) bool
		read = func(p *jsonv.Parser, k int) bool {
			if k == 0 {
				_, _, ok := p.SpanRecent(&r)
				return ok
			}
			return p.Array(func() bool { return read(p, k-1) })
		}
		for _, k := range []int{0, jsonv.MaxDepth - 8, jsonv.MaxDepth - 4, jsonv.MaxDepth - 3, jsonv.MaxDepth - 2, jsonv.MaxDepth} {
			data := []byte(strings.Repeat("[", k) + v + strings.Repeat("]", k) + pad)
			var p jsonv.Parser
			p.Reset(data)
			got := read(&p, k) && p.End()
			if _, want := parse(data); got != want {
				t.Errorf("%s in %d arrays: read %v, Value %v", v, k, got, want)
			}
		}
	}
}

// FuzzParser_SpanRecent checks SpanRecent against Span on any input,
// read after another and again.
func FuzzParser_SpanRecent(f *testing.F) {
	for _, s := range [][2]string{{`{"ok":true}`, `{"ok":true}`}, {`{"ok":true}`, `{"ok":true,"x":1}`}, {`[1]`, `[1]2`}, {`{"a":[]}`, `{"a":[] }`}} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, before, data []byte) {
		var r jsonv.RecentSpan
		var p jsonv.Parser
		p.Reset(before)
		p.SpanRecent(&r)
		wstart, wend, wok := spanFresh(data)
		for n := range 2 {
			p.Reset(data)
			start, end, ok := p.SpanRecent(&r)
			if ok != wok || ok && (start != wstart || end != wend || p.Pos() != wend) {
				t.Fatalf("%q after %q, read %d: SpanRecent %d-%d, %v; Span %d-%d, %v", data, before, n+1, start, end, ok, wstart, wend, wok)
			}
		}
	})
}
