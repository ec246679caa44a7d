package suggest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suggest"
)

func TestMemo_Near(t *testing.T) {
	names := []string{"search", "serch", "Search", "read_document", "readDocument", "grep", "grp", "fetch", "summarize", "summarise"}
	tests := []struct {
		name       string
		s          string
		candidates []string
		reason     string
	}{
		{"typo", "search", names, "a first look-up measures every distance"},
		{"again", "search", names, "the distances found again give the same order"},
		{"other tool", "read_document", names, "a distance is its pair's, not its candidate's alone"},
		{"reversed", "serch", reversed(names), "the candidates' order sets the order of equal distances"},
		{"none", "write_file", names, "no candidate near: nothing"},
		{"itself", "grep", []string{"grep"}, "the name itself is never close"},
		{"long", strings.Repeat("search", 20), []string{strings.Repeat("search", 20) + "x", "search"}, "names past memoName are measured, not kept"},
	}
	var m suggest.Memo
	for range 2 {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if got, want := m.Near(tt.s, tt.candidates), suggest.Near(tt.s, tt.candidates); !slices.Equal(got, want) {
					t.Errorf("Memo.Near(%q) = %q, want %q (%s)", tt.s, got, want, tt.reason)
				}
			})
		}
	}
}

// TestMemo_Near_full checks that a Memo that forgot its distances, many
// names later, answers as Near does.
func TestMemo_Near_full(t *testing.T) {
	var m suggest.Memo
	for i := range 3000 {
		s := fmt.Sprintf("tool_%d", i%700)
		cands := []string{fmt.Sprintf("tool_%d", (i+1)%700), fmt.Sprintf("tol_%d", i%700), "tool"}
		if got, want := m.Near(s, cands), suggest.Near(s, cands); !slices.Equal(got, want) {
			t.Fatalf("call %d: Memo.Near(%q) = %q, want %q", i, s, got, want)
		}
	}
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}
