package msglog_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestEachValue_depth reads JSON Lines whose lines hold many brackets: a
// line nested deeper than jsonv.MaxDepth is an error at its line and
// column, read leniently too, whatever else is wrong with it; a line with
// more brackets than that, nested less deep, is read.
func TestEachValue_depth(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	wide := `{"messages":[` + strings.Repeat(`{"a":[1]},`, 200) + `{}]}`
	tests := []struct {
		name      string
		line2     string
		values    int
		line, col int // of the depth error; 0 when none
		reason    string
	}{
		{"wide", wide, 2, 0, 0, "400 brackets, 3 deep: read"},
		{"at the limit", deep(jsonv.MaxDepth), 2, 0, 0, "nested as deep as allowed: read"},
		{"too deep", deep(jsonv.MaxDepth + 1), 0, 2, jsonv.MaxDepth + 1, "one level more: the error, at the bracket past the limit"},
		{"too deep, cut", deep(jsonv.MaxDepth + 1)[:jsonv.MaxDepth+5], 0, 2, jsonv.MaxDepth + 1, "depth, not damage, though the line is cut"},
		{"too deep after a string", `["]]]]",` + deep(jsonv.MaxDepth) + `]`, 0, 2, len(`["]]]]",`) + jsonv.MaxDepth, "brackets in strings do not count"},
	}
	for _, tt := range tests {
		for _, lenient := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				data := `{"role":"user","content":"a"}` + "\n" + tt.line2 + "\n" + `{"role":"user","content":"b"}` + "\n"
				in := trajeval.Input{Name: "t.jsonl", R: bytes.NewReader([]byte(data)), Lenient: lenient, Warn: func(trajeval.Warning) {}}
				values := 0
				err := msglog.EachValue(context.Background(), in, func(v any, line int, partial bool) error {
					values++
					return nil
				})
				if tt.line == 0 {
					if err != nil || values != 3 {
						t.Fatalf("lenient %v: %d values, error %v; want 3 and none: %s", lenient, values, err, tt.reason)
					}
					return
				}
				var te *trajeval.TraceError
				if !errors.As(err, &te) || te.Line != tt.line || te.Col != tt.col || te.Hint != jsonv.DepthHint || !errors.Is(err, jsonv.ErrTooDeep) {
					t.Fatalf("lenient %v: error %#v; want a depth error at %d:%d: %s", lenient, err, tt.line, tt.col, tt.reason)
				}
				if values != 1 {
					t.Errorf("lenient %v: %d values before the error, want 1: %s", lenient, values, tt.reason)
				}
			})
		}
	}
}
