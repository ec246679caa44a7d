package msglog_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
)

// sizedReader says it holds size bytes, whatever it holds.
type sizedReader struct {
	*bytes.Reader
	size int64
}

func (r sizedReader) Size() int64 { return r.size }

// TestEachValue_size checks that EachValue reads an input the same
// whatever size it says it holds: a first line longer than the buffer
// made for that size is still read as JSON Lines, so that read leniently
// a broken line is skipped and the next one read.
func TestEachValue_size(t *testing.T) {
	data := `{"a": "` + strings.Repeat("x", 100<<10) + `"}` + "\n" + `{"b": ` + "\n" + `{"c": 1}` + "\n"
	for _, size := range []int64{-1, 10, int64(len(data))} {
		var lines []int
		in := trajeval.Input{Name: "x", R: sizedReader{bytes.NewReader([]byte(data)), size}, Lenient: true, Warn: func(trajeval.Warning) {}}
		err := msglog.EachValue(context.Background(), in, func(v any, line int, partial bool) error {
			if v != nil && !partial {
				lines = append(lines, line)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 2 || lines[0] != 1 || lines[1] != 3 {
			t.Errorf("size %d: whole values at lines %v, want [1 3]", size, lines)
		}
	}
}
