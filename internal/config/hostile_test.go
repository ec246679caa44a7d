package config_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
)

// TestLineLengths_loneCR: lines broken by a lone \r (old Mac files, or a
// hostile suite) are found in linear time, as lines broken by \n are. A
// scan for the next \n ran to the end of the file at every line: four
// million lines took hours, and would time this test out.
func TestLineLengths_loneCR(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   []int
		reason string
	}{
		{"lone CR", "ab\rc\r", []int{2, 1, 0}, "a lone \\r ends a line"},
		{"CRLF", "ab\r\nc\r\n", []int{2, 1, 0}, "\\r\\n is one break"},
		{"mixed", "a\nb\rc\r\nd", []int{1, 1, 1, 1}, "each break as YAML reads it"},
		{"CR at the end only", "a\nb\nc\r", []int{1, 1, 1, 0}, "a \\r far away does not change the lines before"},
		{"no break", "abc", []int{3}, "one line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := config.LineLengths([]byte(tt.in)); !slices.Equal(got, tt.want) {
				t.Errorf("%q: %v, want %v (%s)", tt.in, got, tt.want, tt.reason)
			}
		})
	}
	t.Run("four million", func(t *testing.T) {
		const n = 4 << 20
		if got := config.LineLengths(bytes.Repeat([]byte{'\r'}, n)); len(got) != n+1 {
			t.Errorf("%d lines, want %d", len(got), n+1)
		}
	})
}
