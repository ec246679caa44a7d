package jsonv_test

import (
	"bytes"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestASCIIPrefix puts a byte at every place of texts of every length up
// to 560 bytes (past the 8-, 64- and 128-byte blocks the scan reads at
// once, and their ends), in a slice that starts at every offset of a
// word: the index ASCIIPrefix returns is the first byte of 0x80 or more,
// len when there is none.
func TestASCIIPrefix(t *testing.T) { checkASCIIPrefix(t) }

// checkASCIIPrefix is TestASCIIPrefix, run again with the scan's AVX2 loop
// turned off where it has one (TestASCIIPrefix_SSE2).
func checkASCIIPrefix(t *testing.T) {
	buf := bytes.Repeat([]byte{'a'}, 600)
	tests := []struct {
		name string
		b    byte
		wide bool
		why  string
	}{
		{"delete", 0x7f, false, "the highest ASCII byte"},
		{"nul", 0x00, false, "the lowest"},
		{"high", 0x80, true, "the lowest byte past ASCII"},
		{"top", 0xff, true, "the highest"},
	}
	for _, tt := range tests {
		for off := range 8 {
			for n := 0; n+off <= 560; n++ {
				d := buf[off : off+n]
				for at := -1; at < n; at++ {
					if at >= 0 {
						d[at] = tt.b
					}
					want := n
					if tt.wide && at >= 0 {
						want = at
					}
					if got := jsonv.ASCIIPrefix(d); got != want {
						t.Fatalf("%s at %d of %d bytes (offset %d): ASCIIPrefix = %d, want %d (%s)", tt.name, at, n, off, got, want, tt.why)
					}
					if at >= 0 {
						d[at] = 'a'
					}
				}
			}
		}
	}
}
