package config_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
)

// TestNode_EachItem holds what an Item says without its node to its node:
// Pair to the node's two entries, Place to Places.Item of the node, over
// lists of several parts whose items the one-line reader reads or leaves
// to the YAML parser.
func TestNode_EachItem(t *testing.T) {
	tests := []struct {
		name   string
		line   func(i int) string
		pairs  string // "all", "none", or "some": the items Pair answers
		reason string
	}{
		{"id and input", func(i int) string { return fmt.Sprintf("  - {id: c%d, input: Some text %d}", i, i) }, "all", "the one-line reader's items, in words"},
		{"input and id", func(i int) string { return fmt.Sprintf("  - {input: Some text, id: c%d}", i) }, "all", "the keys in the other order"},
		{"other keys", func(i int) string { return fmt.Sprintf("  - {id: c%d, input: x, more: y}", i) }, "none", "three keys are no pair"},
		{"one key", func(i int) string { return fmt.Sprintf("  - {id: c%d}", i) }, "none", "one key is no pair"},
		{"parsed", func(i int) string { return fmt.Sprintf("  - {id: c%d, input: Some text} # a comment", i) }, "none", "items the YAML parser read have nodes alone"},
		{"mixed", func(i int) string {
			if i == 0 {
				return fmt.Sprintf("  - {id: c%d, input: \"quoted\"}", i)
			}
			return fmt.Sprintf("  - {id: c%d, input: Some text}", i)
		}, "some", "the first part, with a quoted word, is the parser's, the others the reader's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("name: x\nevalcases:\n")
			for i := range 5000 {
				b.WriteString(tt.line(i) + "\n")
			}
			root, err := config.ParseList("s.yaml", []byte(b.String()), "evalcases")
			if err != nil {
				t.Fatal(err)
			}
			list := root.Get("evalcases")
			var ps, psNode config.Places
			i, paired := 0, 0
			err = list.EachItem(func(it config.Item) error {
				id, input, ok := it.Pair("id", "input")
				// The place first: Pair and Place must not need the node.
				p := it.Place(&ps, list.Path, i)
				n := it.Node()
				want := psNode.Item(n, list.Path, i)
				if p.File() != want.File() || p.Line != want.Line || p.Col != want.Col || p.Path() != want.Path() {
					t.Fatalf("item %d: Place %s:%d:%d %s, the node's %s:%d:%d %s", i, p.File(), p.Line, p.Col, p.Path(), want.File(), want.Line, want.Col, want.Path())
				}
				wid, win := n.Get("id"), n.Get("input")
				if ok && (len(n.Entries) != 2 || wid == nil || win == nil || wid.Kind != config.String || win.Kind != config.String || id != wid.Text || input != win.Text) {
					t.Fatalf("item %d: Pair %q %q, the node's %v", i, id, input, n.Value())
				}
				if ok {
					paired++
				}
				i++
				return nil
			})
			if err != nil || i != 5000 {
				t.Fatalf("%d items, %v", i, err)
			}
			if tt.pairs == "all" && paired != i || tt.pairs == "none" && paired != 0 || tt.pairs == "some" && (paired == 0 || paired == i) {
				t.Errorf("Pair answered %d items of %d, want %s", paired, i, tt.pairs)
			}
		})
	}
}
