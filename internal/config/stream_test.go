package config_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/config"
)

// flat writes every node of n with its place, one a line, walking a list
// read by ParseList with Each as the loaders do.
func flat(t *testing.T, n *config.Node) string {
	t.Helper()
	var b strings.Builder
	var walk func(n *config.Node, indent string)
	walk = func(n *config.Node, indent string) {
		fmt.Fprintf(&b, "%s%s %q %d:%d %s textcol=%d\n", indent, n.Kind, n.Text, n.Line, n.Col, n.Path, n.TextCol)
		switch n.Kind {
		case config.List:
			if err := n.Each(func(it *config.Node) error { walk(it, indent+"  "); return nil }); err != nil {
				fmt.Fprintf(&b, "%serror %v\n", indent, err)
			}
		case config.Map:
			for _, e := range n.Entries {
				fmt.Fprintf(&b, "%skey %q %d:%d\n", indent, e.Key, e.KeyLine, e.KeyCol)
				walk(e.Value, indent+"  ")
			}
		}
	}
	walk(n, "")
	return b.String()
}

// parseListAgrees checks that ParseList reads data as Parse does: the same
// nodes at the same places, or the same error.
func parseListAgrees(t *testing.T, data string) {
	t.Helper()
	want, werr := config.Parse("s.yaml", []byte(data))
	got, gerr := config.ParseList("s.yaml", []byte(data), "evalcases", "tests")
	if gerr == nil && werr != nil {
		// A part's error comes when the walk reaches it, under whichever
		// key holds the list.
		for _, k := range []string{"evalcases", "tests"} {
			if l := got.Get(k); l != nil && gerr == nil {
				gerr = l.Each(func(*config.Node) error { return nil })
			}
		}
	}
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("ParseList error %v, Parse's %v", gerr, werr)
	}
	if werr != nil {
		return
	}
	if w, g := flat(t, want), flat(t, got); w != g {
		t.Fatalf("ParseList read\n%s\nParse read\n%s", g, w)
	}
}

func TestParseList(t *testing.T) {
	many := "name: big\nevalcases:\n" + strings.Repeat("  - {id: c, input: Research the history of Python}\n", 5000) + "after: 1\n"
	// 1,200 items of about 60 bytes to a part, a case of its own at item
	// 3,000 (the third part) and at 4,000 (the fourth).
	manyItems := func(at3000, at4000 string) string {
		var b strings.Builder
		b.WriteString("name: big\nevalcases:\n")
		for i := range 6000 {
			switch i {
			case 3000:
				b.WriteString(at3000)
			case 4000:
				b.WriteString(at4000)
			default:
				fmt.Fprintf(&b, "  - {id: c%d, input: Research the history of Python}\n", i)
			}
		}
		return b.String()
	}
	manyFolded := "evalcases:\n" + strings.Repeat("  - 0\n   -00\n", 10000) + "after: 1\n"
	tests := []struct {
		name, doc, reason string
	}{
		{"plain", "name: s\nevalcases:\n  - id: a\n    input: hi\n  - id: b\n", "the common shape"},
		{"no indent", "evalcases:\n- id: a\n- id: b\nafter: [1]\n", "the dashes may stand at the key's column"},
		{"keys after", "evalcases:\n  - id: a\nexecution:\n  evaluators: [x]\n", "the rest of the document keeps its lines"},
		{"comments and blanks", "evalcases:\n  # first\n\n  - id: a   # c\n# at column 1\n  - id: b\n\n", "comments belong to no item"},
		{"block scalar", "evalcases:\n  - id: a\n    input: |\n      line one\n      - not an item\n  - id: b\n", "a dash inside an item's text is not an item"},
		{"nested list", "evalcases:\n  - id: a\n    turns:\n      - input: x\n      - input: y\n  - id: b\n", "deeper dashes are the item's own"},
		{"anchor in a case", "evalcases:\n  - &a {id: a}\n  - id: b\n    x: *a\n", "an anchor and its alias in one part"},
		{"alias of an anchor before the list", "d: &d x\nevalcases:\n  - id: a\n  - *d\n  - id: b\n", "read whole from the part that fails, by index: the alias's node is placed at its anchor, above the list"},
		{"anchor before the list", "d: &d {input: x}\nevalcases:\n  - <<: *d\n    id: a\n", "read whole: the part does not hold the anchor"},
		{"crlf", "evalcases:\r\n  - id: a\r\n  - id: \"b\"\r\nz: 1\r\n", "CRLF line ends"},
		{"flow list", "evalcases: [{id: a}, {id: b}]\n", "not a block list: read whole"},
		{"json", `{"evalcases": [{"id": "a"}]}`, "JSON is read whole"},
		{"tests key", "tests:\n  - id: a\n", "any of the keys"},
		{"tests key, a part that does not parse", "tests: \n- \"", "the error of the list under tests comes from its walk"},
		{"empty list", "evalcases:\nexecution: {}\n", "a key with no items is null, as Parse reads it"},
		{"key twice", "evalcases:\n  - id: a\nevalcases:\n  - id: b\n", "the error Parse gives"},
		{"bad yaml in a case", "evalcases:\n  - id: a\n  - {id: b\n  - id: c\n", "the error Parse gives, at its place"},
		{"duplicate key in a case", "evalcases:\n  - id: a\n  - id: b\n    id: c\n", "the error Parse gives"},
		{"second document", "evalcases:\n  - id: a\n---\nb: 1\n", "the error Parse gives"},
		{"indented less", "evalcases:\n    - id: a\n  - id: b\n", "the error Parse gives"},
		{"many parts", many, "a list longer than one part keeps its indexes and lines"},
		{"flow lines", "evalcases:\n  - {id: a,   input: Some text here}\n  - { id: b , input:  c-1.x }\n  -  {id: c}\n", "one-line maps of words, spaced any way"},
		{"flow words YAML reads otherwise", "evalcases:\n  - {id: true, a: null, b: Yes, c: 1, d: ~, e: .5, f: x:y, g: 'q', h: \"q\", i: é}\n", "booleans, null, numbers, quotes and other letters"},
		{"flow words one a line", "evalcases:\n  - {id: a, b: TRUE}\n  - {id: b, b: Off}\n  - {id: c, b: n}\n  - {id: d, b: NaN}\n  - {id: e, b: Null}\n  - {id: f, b: falsey}\n  - {id: g, b: nope}\n", "each of YAML's words, in any case, is the parser's; a longer word is text"},
		{"flow odd commas", "evalcases:\n  - {id: a,}\n  - {id: b, , c: d}\n", "the parser judges commas"},
		{"flow key twice", "evalcases:\n  - {id: a, id: b}\n", "the parser's error"},
		{"flow no space", "evalcases:\n  - {id:a}\n  - {id: a}x\n", "not a flow map of words"},
		{"flow with comment", "evalcases:\n  - {id: a} # c\n  - {id: b}\n", "a comment"},
		{"a value below the key after the list", "evalcases:\n- 0\n~", "the YAML parser reads the ~ at the key's column as the key's value when the list's lines are blanked: ParseList must give Parse's error, not hide the ~ behind the list"},
		{"plain text over lines, the last starting with a dash", "evalcases:\n  - 0\n   -00\n0:", "the YAML parser places such a text at its last line when the input ends after it: the part is parsed with a line after it, as in the document"},
		{"a flow map open past the list", "evalcases:\n- {\n0: }", "the line below the list is the open map's: the head must not read it as a key of its own"},
		{"a lone carriage return ends the list", "evalcases:\n  - a\rf:\n  - b\r\ng: 1\r", "YAML ends a line at a lone \\r too: the blanked list keeps as many lines, so the keys after it keep theirs"},
		{"lone carriage returns throughout", "evalcases:\r- 0\r0:", "the blanked list's lines are \\r too: a \\n after the key's \\r would join it into one break"},
		{"many parts, a bad item in the third", manyItems("  - {id: b\n", "  - {id: c}\n"), "the parts after it, converted ahead, do not hide its error"},
		{"many parts, the third and fourth for the parser", manyItems("  - id: x\n    input: [a, b]\n", "  - {id: y, input: 'q'}\n"), "parts the one-line reader leaves to the YAML parser, between parts it reads"},
		{"many parts, an alias of an anchor before the list in the fourth", "d: &d x\n" + manyItems("  - {id: a}\n", "  - *d\n"), "read whole from the fourth part on, after three converted ahead"},
		{"many parts ending in such texts", manyFolded, "the last item of every part, not only the list's, is placed as in the whole document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parseListAgrees(t, tt.doc)
		})
	}
}

// TestNode_Each_stop: a walk that f ends returns f's error, having seen
// the items in order up to it, and leaves no goroutine converting parts
// ahead; a walk to the end leaves none either.
func TestNode_Each_stop(t *testing.T) {
	doc := []byte("evalcases:\n" + strings.Repeat("  - {id: c, input: Research the history of Python}\n", 20000))
	for _, tt := range []struct {
		name   string
		stopAt int
		reason string
	}{
		{"first item", 0, "the walk ends before any part is taken from the goroutines"},
		{"in the second part", 1500, "parts converted ahead are dropped"},
		{"never", -1, "the whole list: the goroutines ran out of parts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := runtime.NumGoroutine()
			root, err := config.ParseList("s.yaml", doc, "evalcases")
			if err != nil {
				t.Fatal(err)
			}
			stop := fmt.Errorf("stop")
			seen := 0
			err = root.Get("evalcases").Each(func(it *config.Node) error {
				if want := fmt.Sprintf("evalcases[%d]", seen); it.Path != want || it.Line != seen+2 {
					t.Fatalf("item %d: path %s line %d, want %s line %d", seen, it.Path, it.Line, want, seen+2)
				}
				if seen == tt.stopAt {
					return stop
				}
				seen++
				return nil
			})
			if tt.stopAt >= 0 && (err != stop || seen != tt.stopAt) {
				t.Errorf("Each: %v after %d items, want f's error after %d (%s)", err, seen, tt.stopAt, tt.reason)
			}
			if tt.stopAt < 0 && (err != nil || seen != 20000) {
				t.Errorf("Each: %v after %d items, want all 20000 (%s)", err, seen, tt.reason)
			}
			if n := runtime.NumGoroutine(); n > base {
				t.Errorf("%d goroutines after Each, %d before: %s", n, base, tt.reason)
			}
		})
	}
}

// TestParseList_onePart: a list of one long item (a case of thousands of
// expected calls) is one part, which ParseList converts to check that it
// converts on its own: Each must not convert it again. Allocations are
// counted, not time: reading the list takes about what Parse takes.
func TestParseList_onePart(t *testing.T) {
	var b strings.Builder
	b.WriteString("evalcases:\n- id: one\n  expected:\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "  - tool: t%d\n    args: {q: %d}\n", i, i)
	}
	doc := []byte(b.String())
	parse := testing.AllocsPerRun(1, func() {
		if _, err := config.Parse("one.yaml", doc); err != nil {
			t.Fatal(err)
		}
	})
	list := testing.AllocsPerRun(1, func() {
		root, err := config.ParseList("one.yaml", doc, "evalcases")
		if err != nil {
			t.Fatal(err)
		}
		if err := root.Get("evalcases").Each(func(*config.Node) error { return nil }); err != nil {
			t.Fatal(err)
		}
	})
	if list > 1.3*parse {
		t.Errorf("ParseList and Each allocate %.0f times, Parse %.0f: the one part is converted twice", list, parse)
	}
}

// TestParse_longDocument: Parse's bound on expanded values grows with the
// document, so a long file of plain values (a suite of a million cases)
// is not taken for an alias bomb: a million values from aliases, plus a
// few thousand written out, stay below the bound.
func TestParse_longDocument(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [" + strings.Repeat("1, ", 999) + "1]\nb: [")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("*a")
	}
	b.WriteString("]\nc: [" + strings.Repeat("2, ", 1999) + "2]\n")
	root, err := config.Parse("long.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got := root.Get("c").Len(); got != 2000 {
		t.Fatalf("c has %d values, want 2000", got)
	}
}

// FuzzParseList: ParseList reads every document as Parse does.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{
		"name: s\nevalcases:\n  - id: a\n    input: hi\n  - id: b\n", "evalcases:\n- a\n- b\nz: 1\n",
		"evalcases:\n  - id: a\n    input: |\n      - x\n  - id: b\n", "d: &d {x: 1}\nevalcases:\n  - <<: *d\n",
		"evalcases:\n  - {id: b\n  - id: c\n", "evalcases:\r\n  - a\r\n", "evalcases:\n  - a\n---\n", "tests: # c\n  -\n  - b\n",
		"evalcases:\n  - id: 'a\n  - b'\n", "evalcases:\n  - \"a\n  - b\"\n", "evalcases:\n  - a: [1,\n  - 2]\n",
		"evalcases:\n  - {id: a,   input: Some text}\n  - { id: b , input:  c-1.x }\n", "evalcases:\n- {id: true, a: b}\n- {a: b,}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parseListAgrees(t, string(data))
	})
}

// FuzzFlowLines holds the one-line reader of a case list to the YAML
// parser: whatever list it reads, the parser reads the document without
// error and gives the same nodes at the same places (values, keys, lines,
// columns, paths); anything else it must leave to the parser.
func FuzzFlowLines(f *testing.F) {
	for _, s := range []string{
		"  - {id: case-0000001, input: Research the history of Python}\n  - {id: case-0000002, input: Research the history of Python}\n",
		"- {id: a,   input: Some text here}\n- { id: b , input:  c-1.x }\n-  {id: c}\n",
		"  - {id: a, b: TRUE}\n", "  - {id: b, b: Off}\n", "  - {id: c, b: n}\n", "  - {id: d, b: NaN}\n", "  - {id: e, b: Null}\n",
		"  - {id: f, b: falsey}\n", "  - {id: g, b: yes}\n", "  - {id: h, b: Inf}\n", "  - {id: i, b: False}\n",
		"  - {id: a,}\n  - {id: b, , c: d}\n", "  - {id: a, id: b}\n", "  - {id:a}\n  - {id: a}x\n", "  - {id: a} # c\n",
		"  - {id: a}\r\n  - {id: b}\r\n", "  - {id: a}   \n  - {id: b }\n", "  - {id: a b  c, x_1: y.z-w}\n", "  - {1a: b}\n",
		"  - {id: a}\n  - {id: b}\nafter: 1\n", "  - {id: a}\n    - {id: b}\n", "  - {id: a}\n\n  - {id: b}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, list []byte) {
		data := append([]byte("name: s\nevalcases:\n"), list...)
		got, ok := config.FlowLines("s.yaml", data, "evalcases")
		if !ok {
			return
		}
		root, err := config.Parse("s.yaml", data)
		if err != nil {
			t.Fatalf("the one-line reader read %q, which the YAML parser refuses: %v", list, err)
		}
		want := root.Get("evalcases")
		if want == nil || want.Kind != config.List || len(want.Items) != len(got) {
			t.Fatalf("the one-line reader read %d items of %q, the YAML parser %v", len(got), list, want)
		}
		for i := range got {
			if g, w := flat(t, got[i]), flat(t, want.Items[i]); g != w {
				t.Fatalf("item %d of %q: the one-line reader read\n%s\nthe YAML parser\n%s", i, list, g, w)
			}
		}
	})
}

// TestParseList_listAtEnd: the head of a document whose list runs to its
// end is parsed without the list's lines, which only keys after the list
// need blanked to keep their lines: for 20,000 items the YAML parser read
// 20,000 blank lines and the converter measured each. Bytes allocated are
// compared, not time.
func TestParseList_listAtEnd(t *testing.T) {
	atEnd := []byte("name: x\nevalcases:\n" + strings.Repeat("  - {id: c, input: Some text}\n", 20_000))
	followed := append(slices.Clone(atEnd), "after: 1\n"...)
	alloc := func(doc []byte) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := config.ParseList("s.yaml", doc, "evalcases"); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	end, more := alloc(atEnd), alloc(followed)
	if 4*end > 3*more {
		t.Errorf("ParseList allocates %d bytes for a list at the end, %d with a key after it: the list's lines are read as the head's", end, more)
	}
}
