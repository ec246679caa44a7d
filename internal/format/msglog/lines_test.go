package msglog_test

import (
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// TestLines_At asks for the lines of offsets in every order: each is the
// line jsonl.Position gives, counted on or counted again from the start.
func TestLines_At(t *testing.T) {
	data := []byte("{\"a\":1}\n\n  [1,\n2]\r\n\"x\"\n")
	n := int64(len(data))
	tests := []struct {
		name   string
		offs   []int64
		reason string
	}{
		{"increasing", []int64{0, 3, 8, 9, 12, 16, 20, n}, "counted on from the last"},
		{"repeated", []int64{9, 9, 9}, "the same offset, the same line"},
		{"decreasing", []int64{n, 16, 9, 0}, "counted again from the start"},
		{"out of range", []int64{-5, n + 7, 3, -1}, "clamped, as Position clamps"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	var random []int64
	for range 200 {
		random = append(random, r.Int64N(n+4)-2)
	}
	tests = append(tests, struct {
		name   string
		offs   []int64
		reason string
	}{"random", random, "any order"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := msglog.NewLines(data)
			for _, off := range tt.offs {
				want, _ := jsonl.Position(data, off)
				if got := l.At(off); got != want {
					t.Fatalf("At(%d) = %d, want %d: %s", off, got, want, tt.reason)
				}
			}
		})
	}
}
