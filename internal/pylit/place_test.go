package pylit_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/pylit"
)

// TestParseCalls_placed checks the line and column of every call, placed
// in one pass, against Locate's for its offset.
func TestParseCalls_placed(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		reason string
	}{
		{"one line", `[f(a=1), g(b=2), h(c=3)]`, "columns counted on along the line"},
		{"lines", "[\n  f(a=1),\n  g(b='x\\ny'),\n\n  h(c=3)\n]", "lines counted on, the column again from 1"},
		{"characters", `[f(a='é日本'), g(b='😀'), h(c=1)]`, "the column counts characters, not bytes"},
		{"crlf", "[f(a=1),\r\n g(b=2)]", "a \\r is a character of its line"},
		{"bare", `f(a=1), g(b=2)`, "a tuple without its parentheses"},
		{"nested", `[f(a=g(b=1)), h(c=2)]`, "a call among arguments is a value, not a call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, err := pylit.ParseCalls(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range calls {
				line, col := pylit.Locate(tt.in, c.Offset)
				if c.Line != line || c.Col != col {
					t.Errorf("%s at offset %d: %d:%d, want %d:%d: %s", c.Name, c.Offset, c.Line, c.Col, line, col, tt.reason)
				}
			}
		})
	}
}

// TestDecodePrompting_placedLinearly decodes answers of many calls, on one
// line and on many: placing them scans a small multiple of the text, where
// placing each from the start scans the calls' number times half of it.
func TestDecodePrompting_placedLinearly(t *testing.T) {
	tests := []struct {
		name   string
		sep    string
		reason string
	}{
		{"one line", ", ", "the column counted on: its characters were counted from the line's start for each call"},
		{"lines", ",\n", "the line counted on from the last call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "[" + strings.Repeat(`get_weather(city="Paris")`+tt.sep, 5000) + "]"
			before := pylit.Scanned()
			calls, err := pylit.DecodePrompting(text)
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != 5000 {
				t.Fatalf("%d calls, want 5000", len(calls))
			}
			if got, limit := pylit.Scanned()-before, 4*int64(len(text)); got > limit {
				t.Errorf("placing %d calls in %d bytes scanned %d bytes, want at most %d: %s", len(calls), len(text), got, limit, tt.reason)
			}
			last := calls[len(calls)-1]
			if line, col := pylit.Locate(text, last.Offset); last.Line != line || last.Col != col {
				t.Errorf("the last call at %d:%d, want %d:%d", last.Line, last.Col, line, col)
			}
		})
	}
}
