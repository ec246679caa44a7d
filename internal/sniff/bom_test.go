package sniff_test

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/sniff"
)

// TestTrimBOM checks that TrimBOM drops one whole mark at the start and
// nothing else, and that the functions that look at a head skip it.
func TestTrimBOM(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	tests := []struct {
		name, head string
		trimmed    string
		keys       string // Keys
		elemKeys   string // FirstElementKeys
		reason     string
	}{
		{"object", bom + `{"a":1}`, `{"a":1}`, "[a]", "[]", "a mark before an object"},
		{"array", bom + `[{"b":1}]`, `[{"b":1}]`, "[]", "[b]", "a mark before an array: its first element's keys"},
		{"none", `{"a":1}`, `{"a":1}`, "[a]", "[]", "no mark: unchanged"},
		{"two", bom + bom + `{"a":1}`, bom + `{"a":1}`, "[]", "[]", "one mark dropped: the second is not at the start"},
		{"cut", "\xef\xbb" + `{"a":1}`, "\xef\xbb" + `{"a":1}`, "[]", "[]", "two bytes of a mark are no mark"},
		{"inside", `{"a":"` + bom + `"}`, `{"a":"` + bom + `"}`, "[a]", "[]", "a mark in a string is text"},
		{"alone", bom, "", "[]", "[]", "a mark alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(sniff.TrimBOM([]byte(tt.head))); got != tt.trimmed {
				t.Errorf("TrimBOM = %q, want %q (%s)", got, tt.trimmed, tt.reason)
			}
			if got := fmt.Sprint(sniff.Keys([]byte(tt.head))); got != tt.keys {
				t.Errorf("Keys = %s, want %s (%s)", got, tt.keys, tt.reason)
			}
			if got := fmt.Sprint(sniff.FirstElementKeys([]byte(tt.head))); got != tt.elemKeys {
				t.Errorf("FirstElementKeys = %s, want %s (%s)", got, tt.elemKeys, tt.reason)
			}
		})
	}
}

// TestDiscardBOM checks that DiscardBOM drops one whole mark at the start
// of a reader, counts it, and leaves the rest to be read.
func TestDiscardBOM(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	tests := []struct {
		name, in string
		n        int
		rest     string
		reason   string
	}{
		{"mark", bom + "{}\n", 3, "{}\n", "a mark before a row"},
		{"none", "{}\n", 0, "{}\n", "no mark: nothing dropped"},
		{"two", bom + bom + "{}", 3, bom + "{}", "one mark only"},
		{"cut", "\xef\xbb", 0, "\xef\xbb", "two bytes of a mark are no mark"},
		{"short", "{", 0, "{", "a reader shorter than a mark"},
		{"empty", "", 0, "", "an empty reader"},
		{"alone", bom, 3, "", "a mark alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bufio.NewReader(strings.NewReader(tt.in))
			if n := sniff.DiscardBOM(r); n != tt.n {
				t.Errorf("DiscardBOM = %d, want %d (%s)", n, tt.n, tt.reason)
			}
			if rest, _ := io.ReadAll(r); string(rest) != tt.rest {
				t.Errorf("left %q, want %q (%s)", rest, tt.rest, tt.reason)
			}
		})
	}
}
