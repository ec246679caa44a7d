package sniff_test

import (
	"bytes"
	"testing"

	"github.com/trajeval/trajeval/internal/sniff"
)

// TestContains compares Contains and ContainsStart with bytes.Contains
// of the quoted name, and of the quote and the name, where a search
// anchored inside the name could part from it.
func TestContains(t *testing.T) {
	tests := []struct {
		name, head, key string
		reason          string
	}{
		{"found", `{"resourceSpans":[]}`, "resourceSpans", "the quoted name"},
		{"unquoted", `{"xresourceSpans":[]}`, "resourceSpans", "a longer name holds it without its quote"},
		{"no closing quote", `{"resourceSpansx":[]}`, "resourceSpans", "nor its closing quote"},
		{"at the start", `"scopeSpans"`, "scopeSpans", "the whole head"},
		{"cut", `{"scopeSpans`, "scopeSpans", "cut off before its closing quote"},
		{"anchor early", `SSpans" "scopeSpans"`, "scopeSpans", "the anchor byte met before it fits a name"},
		{"anchor near the end", `"scopeS`, "scopeSpans", "the anchor too near the end to hold the name"},
		{"underscore", `{"tool_calls":1}`, "tool_calls", "an underscore as the anchor"},
		{"lower case", `{"rol":1,"role":1}`, "role", "lower-case letters only: the rarest of them as the anchor"},
		{"empty name", `{"":1}`, "", "no anchor: bytes.Contains"},
		{"many anchors", `{"S":"SSSSSSSS","aS":1,"a_S":2}`, "a_S", "the anchor repeated before the name"},
		{"empty", ``, "resourceSpans", "nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameContains(t, []byte(tt.head), tt.key)
		})
	}
}

// FuzzContains checks that Contains and ContainsStart agree with
// bytes.Contains on any bytes.
func FuzzContains(f *testing.F) {
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[]}]}`), "scopeSpans")
	f.Add([]byte(`{"tool_calls":[]}`), "tool_calls")
	f.Add([]byte(`{"role":"user"}`), "role")
	f.Fuzz(func(t *testing.T, head []byte, key string) {
		sameContains(t, head, key)
	})
}

func sameContains(t *testing.T, head []byte, key string) {
	t.Helper()
	want := bytes.Contains(head, []byte(`"`+key+`"`))
	if got := sniff.Contains(head, key); got != want {
		t.Errorf("Contains(%q, %q) = %v, want %v", head, key, got, want)
	}
	want = bytes.Contains(head, []byte(`"`+key))
	if got := sniff.ContainsStart(head, key); got != want {
		t.Errorf("ContainsStart(%q, %q) = %v, want %v", head, key, got, want)
	}
}
