package config_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
)

// bom is the UTF-8 byte order mark Windows editors and PowerShell's
// Out-File -Encoding utf8 write at the start of a file.
const bom = "\xef\xbb\xbf"

// places returns every node's and key's place and text in n, to compare.
func places(n *config.Node) string {
	var b strings.Builder
	var walk func(n *config.Node, depth int)
	walk = func(n *config.Node, depth int) {
		if n == nil || depth > 32 {
			return
		}
		fmt.Fprintf(&b, "%s %s %q %d:%d %d\n", n.Path, n.Kind, n.Text, n.Line, n.Col, n.TextCol)
		for _, e := range n.Entries {
			fmt.Fprintf(&b, "key %q %d:%d\n", e.Key, e.KeyLine, e.KeyCol)
			walk(e.Value, depth+1)
		}
		for _, it := range n.Items {
			walk(it, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// TestParse_bom checks that a byte order mark at the start of a document
// changes nothing, the places of values and errors on line 1 included
// (columns count from the byte after the mark), with each entry point.
func TestParse_bom(t *testing.T) {
	parsers := map[string]func(data []byte) (*config.Node, error){
		"Parse":      func(data []byte) (*config.Node, error) { return config.Parse("s.yaml", data) },
		"ParseList":  func(data []byte) (*config.Node, error) { return config.ParseList("s.yaml", data, "evalcases") },
		"ParseLines": func(data []byte) (*config.Node, error) { return config.ParseLines("s.yaml", data) },
	}
	tests := []struct {
		name, data string
		parsers    string
		reason     string
	}{
		{"yaml", "name: x\ndescription: y\n", "Parse ParseList", "the mark made the first key \"\\ufeffname\""},
		{"yaml comment", "# a suite\nname: x\n", "Parse ParseList", "a comment on line 1"},
		{"crlf", "name: x\r\nevalcases:\r\n  - id: a\r\n", "Parse ParseList", "a Windows file has both"},
		{"case list", "name: x\nevalcases:\n  - id: a\n    input: hi\n  - {id: b, input: \"yo\"}\n", "Parse ParseList", "the list read a part at a time"},
		{"json", `{"name": "x", "evalcases": [{"id": "a"}]}`, "Parse ParseList", "a JSON suite or eval set"},
		{"json lines", `{"id": "a"}` + "\n" + `{"id": "b"}` + "\n", "Parse ParseLines", "a dataset"},
		{"yaml error on line 1", "name: [x\n", "Parse ParseList", "the error's column counts from the byte after the mark"},
		{"json error on line 1", `{"name": }`, "Parse ParseList ParseLines", "JSON's error, at the same column"},
		{"error on line 3", "name: x\nevalcases:\n  - id: [a\n", "Parse ParseList", "lines after the first are untouched"},
		{"only a mark", "", "Parse ParseList ParseLines", "a mark is no content: the file is empty"},
	}
	for _, tt := range tests {
		for _, p := range strings.Fields(tt.parsers) {
			t.Run(tt.name+"/"+p, func(t *testing.T) {
				parse := parsers[p]
				want, werr := parse([]byte(tt.data))
				got, gerr := parse([]byte(bom + tt.data))
				if fmt.Sprint(gerr) != fmt.Sprint(werr) || places(got) != places(want) {
					t.Errorf("with a mark:\n%s%v\nwithout:\n%s%v\n(%s)", places(got), gerr, places(want), werr, tt.reason)
				}
			})
		}
	}
}

// TestParse_bomElsewhere checks that only a mark at the start is dropped:
// elsewhere it stays the text it is, or the error it makes.
func TestParse_bomElsewhere(t *testing.T) {
	tests := []struct {
		name, data string
		lines      bool // ParseLines, not Parse
		want       string
		reason     string
	}{
		{"two marks", bom + bom + "name: x\n", false, `key "\ufeffname" 1:1`, "the second mark is not at the start: text of the key"},
		{"a key on line 2", "a: 1\n" + bom + "b: 2\n", false, `key "\ufeffb" 2:1`, "a key that starts with a mark is not the key without it"},
		{"in a value", "a: \"" + bom + "x\"\n", false, `a string "\ufeffx" 1:4`, "a quoted string keeps it"},
		{"json line 2", `{"a": 1}` + "\n" + bom + `{"a": 2}` + "\n", true, `key "\ufeff{\"a\"" 2:1`, "a row that is not JSON is read as YAML, as any other: the mark is text of a key the loader then refuses"},
		{"json two marks", bom + bom + `{"a": 1}` + "\n", true, `key "\ufeff{\"a\"" 1:1`, "the second mark is not at the start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n *config.Node
			var err error
			if tt.lines {
				n, err = config.ParseLines("s.yaml", []byte(tt.data))
			} else {
				n, err = config.Parse("s.yaml", []byte(tt.data))
			}
			got := places(n)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got\n%s\nwant it to hold %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}
