package trace_test

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/trace"
)

// TestNames_docs checks that the table of docs/formats.md lists every
// format in the order they are tried, as the text above it says.
func TestNames_docs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	// The table is the first one, headed by --from.
	_, table, ok := bytes.Cut(doc, []byte("| `--from` |"))
	if !ok {
		t.Fatal("docs/formats.md has no table headed by `--from`")
	}
	table, _, _ = bytes.Cut(table, []byte("\n\n"))
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z][a-z0-9-]*)` \\|").FindAllSubmatch(table, -1) {
		listed = append(listed, string(m[1]))
	}
	if want := trace.Names(); !slices.Equal(listed, want) {
		t.Errorf("docs/formats.md lists\n%v\nthe formats are tried in the order\n%v", listed, want)
	}
}
