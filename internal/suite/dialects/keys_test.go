package dialects_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/adk"
	"github.com/trajeval/trajeval/internal/suite/uipath"
)

var update = flag.Bool("update", false, "rewrite the key tables of docs/dialects.md")

const dialectsDoc = "../../../docs/dialects.md"

// keyTables are the tables docs/dialects.md shows, in its order.
var keyTables = []*suite.KeyTable{&suite.AgentVKeys, &adk.Keys, &uipath.Keys}

// TestKeyTables_docs keeps the key tables of docs/dialects.md the same as
// the loaders' (go test ./internal/suite/dialects -run TestKeyTables_docs
// -update rewrites them).
func TestKeyTables_docs(t *testing.T) {
	data, err := os.ReadFile(dialectsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, kt := range keyTables {
		begin, end := "<!-- keys:"+kt.Dialect+" -->\n", "<!-- /keys:"+kt.Dialect+" -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s has no %q … %q section", dialectsDoc, strings.TrimSpace(begin), end)
		}
		want := render(kt)
		if got := doc[i+len(begin) : j]; got != want {
			if !*update {
				t.Errorf("the %s key table of %s is stale: run go test ./internal/suite/dialects -run TestKeyTables_docs -update", kt.Dialect, dialectsDoc)
				continue
			}
			doc = doc[:i+len(begin)] + want + doc[j:]
		}
	}
	if *update {
		if err := os.WriteFile(dialectsDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKeyTables_unique checks that no key is listed twice for one object.
func TestKeyTables_unique(t *testing.T) {
	for _, kt := range keyTables {
		seen := map[string]bool{}
		for _, k := range kt.Keys {
			id := k.Object + "." + k.Name
			if seen[id] {
				t.Errorf("%s: %s is listed twice", kt.Dialect, id)
			}
			seen[id] = true
			if k.Use == suite.Inert && k.Note == "" {
				t.Errorf("%s: %s has no effect here, but its note does not say why", kt.Dialect, id)
			}
		}
	}
}

// render writes a table as markdown: one row per key.
func render(kt *suite.KeyTable) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Taken from %s.\n\n", kt.Peer)
	b.WriteString("| object | key | trajeval | how |\n|---|---|---|---|\n")
	for _, k := range kt.Keys {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", k.Object, k.Name, k.Use, strings.ReplaceAll(k.Note, "|", `\|`))
	}
	return b.String()
}
