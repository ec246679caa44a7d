package jsonl_test

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonl"
)

// TestLines_Position asks for the places of offsets in every order: each
// is the line and column Position gives, counted on, or back, from the
// last offset asked about.
func TestLines_Position(t *testing.T) {
	data := []byte("{\"a\":1}\n\n  [1,\n2]\r\n\"x\"\n")
	n := int64(len(data))
	r := rand.New(rand.NewPCG(1, 2))
	var random []int64
	for range 200 {
		random = append(random, r.Int64N(n+4)-2)
	}
	tests := []struct {
		name   string
		offs   []int64
		reason string
	}{
		{"increasing", []int64{0, 3, 8, 9, 12, 16, 20, n}, "counted on from the last"},
		{"repeated", []int64{9, 9, 9}, "the same offset, the same place"},
		{"on a newline", []int64{7, 8, 7, 8}, "a newline belongs to the line it ends"},
		{"back within a line", []int64{14, 12, 10}, "the same line, an earlier column"},
		{"decreasing", []int64{n, 16, 9, 0}, "counted back across lines"},
		{"out of range", []int64{-5, n + 7, 3, -1}, "clamped, as Position clamps"},
		{"random", random, "any order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := jsonl.NewLines(data)
			for _, off := range tt.offs {
				wantLine, wantCol := jsonl.Position(data, off)
				line, col := l.Position(off)
				if line != wantLine || col != wantCol {
					t.Fatalf("Position(%d) = %d:%d, want %d:%d: %s", off, line, col, wantLine, wantCol, tt.reason)
				}
				if got := l.Line(off); got != wantLine {
					t.Fatalf("Line(%d) = %d, want %d: %s", off, got, wantLine, tt.reason)
				}
			}
		})
	}
}

// TestLines_scanned places every value of documents of many values, as a
// reader does, and counts the bytes looked at for newlines: a small
// multiple of the document's size, where counting from the start for each
// value scans the values' number times half the document.
func TestLines_scanned(t *testing.T) {
	tests := []struct {
		name   string
		sep    string
		reason string
	}{
		{"one value a line", "\n", "lines counted on"},
		{"one line", " ", "the column counted on too: looking back to the line's start each time is as slow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			value := []byte(`{"id": "a", "steps": [1, 2, 3]}`)
			var data []byte
			var offs []int64
			for range 5000 {
				offs = append(offs, int64(len(data)))
				data = append(append(data, value...), tt.sep...)
			}
			l := jsonl.NewLines(data)
			before := jsonl.Scanned()
			for _, off := range offs {
				l.Position(off + 3)
			}
			if got, limit := jsonl.Scanned()-before, 2*int64(len(data)); got > limit {
				t.Errorf("placing %d values of %d bytes scanned %d bytes, want at most %d: %s", len(offs), len(data), got, limit, tt.reason)
			}
		})
	}
}

// FuzzLines_Position checks the places Lines gives, for offsets asked in
// the order the fuzzer says, against Position's.
func FuzzLines_Position(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n  [1,\n2]\r\n\"x\"\n"), []byte{0, 3, 8, 9, 12, 16, 20, 22})
	f.Add([]byte("a\nb\nc"), []byte{5, 0, 3, 1, 2, 255})
	f.Add([]byte("\n\n\n"), []byte{3, 2, 1, 0, 1, 2, 3})
	f.Add([]byte(""), []byte{0, 1})
	f.Fuzz(func(t *testing.T, data, order []byte) {
		l := jsonl.NewLines(data)
		for len(order) > 0 {
			var off int64
			if len(order) >= 2 {
				// Two bytes an offset, so that long data is reached.
				off = int64(binary.LittleEndian.Uint16(order)) - 2
				order = order[2:]
			} else {
				off = int64(order[0])
				order = order[1:]
			}
			wantLine, wantCol := jsonl.Position(data, off)
			if line, col := l.Position(off); line != wantLine || col != wantCol {
				t.Fatalf("Position(%d) of %q = %d:%d, want %d:%d", off, data, line, col, wantLine, wantCol)
			}
		}
	})
}
