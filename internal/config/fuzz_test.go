package config_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/suggest"
)

// FuzzCanon checks that Canon's short way for keys already canonical
// gives what suggest.Canon gives for any key.
func FuzzCanon(f *testing.F) {
	for _, s := range []string{"id", "input", "max_duration_ms", "maxDurationMs", "tool-calls-order", "IN_ORDER", "a b", "é", "x\xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := config.Canon(key), suggest.Canon(key); got != want {
			t.Fatalf("Canon(%q) = %q, suggest.Canon gives %q", key, got, want)
		}
	})
}

// FuzzParse checks Parse on any bytes:
//  1. it is deterministic;
//  2. an error is a SpecError (matching ErrConfig) naming the file, placed
//     at a line and column of the input;
//  3. every node of a parsed tree, and every map key, is placed inside the
//     input and names the file; no map holds a key twice; keys keep their
//     canonical spelling when respelled (Canon is idempotent);
//  4. the tree's value, written out as JSON (which is YAML) and parsed
//     again, is the same value (numbers compared as numbers: -0 is 0).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "name: x\nevalcases:\n  - id: a\n    input: hi\n", `{"a": [1, 2.5, "x", null, true]}`,
		"a: &x {k: 1}\nb: *x\nc:\n  <<: *x\n  k: 2\n", "a: 1\n---\nb: 2\n", "a: [1,\n", "a: !!str 1\n",
		"- a\n- b: c\n", "n: 1e3\nm: 18446744073709551616\n", "a: |\n  x\n", "? x\n: y\n",
		"a:\n  b: 1\n   c: 2\n", "a:\n    b: 1\n  c: 2\n", "a:\n  - b: 1\n  c: 2\n", "a:\n  - b\n  -c\n", "a:\n\t- b\n",
		"a:\n  b:1\n  c: 2\n", "a:\n  - b: 1\n    c: 2\n    - d\n", "a: [1,\n  2]\n   b: 1\n",
		bom + "name: x\n", bom + bom + "a: 1\n", "a: 1\n" + bom + "b: 2\n", bom + `{"a": }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := config.Parse("fuzz.yaml", data)
		n2, err2 := config.Parse("fuzz.yaml", data)
		if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(n, n2) {
			t.Fatalf("Parse twice: %v, %v then %v, %v", n, err, n2, err2)
		}
		if !bytes.HasPrefix(data, []byte(bom)) {
			// A byte order mark before it changes nothing, not even a
			// column on line 1.
			m, merr := config.Parse("fuzz.yaml", append([]byte(bom), data...))
			if fmt.Sprint(merr) != fmt.Sprint(err) || places(m) != places(n) {
				t.Fatalf("with a byte order mark:\n%s%v\nwithout:\n%s%v", places(m), merr, places(n), err)
			}
		}
		if err != nil {
			var se *trajeval.SpecError
			if !errors.As(err, &se) || !errors.Is(err, trajeval.ErrConfig) {
				t.Fatalf("error %v (%T) is not a *trajeval.SpecError matching ErrConfig", err, err)
			}
			if se.File != "fuzz.yaml" || se.Line < 1 || se.Col < 1 {
				t.Fatalf("error %v is not placed in fuzz.yaml (line %d, column %d)", err, se.Line, se.Col)
			}
			if msg := misplaced(data, se.Line, se.Col); msg != "" {
				t.Fatalf("error %v: %s", err, msg)
			}
			return
		}
		if n == nil {
			t.Fatal("Parse returned neither a node nor an error")
		}
		checkNode(t, data, n, 0)

		text, err := json.Marshal(n.Value())
		if err != nil {
			t.Fatalf("the parsed value cannot be written as JSON: %v", err)
		}
		back, err := config.Parse("again.yaml", text)
		if err != nil {
			t.Fatalf("the parsed value, written as JSON, does not parse: %v\n%s", err, text)
		}
		if !jsonv.Equal(back.Value(), n.Value()) {
			t.Fatalf("the parsed value changes through JSON:\n got %#v\nwant %#v\nJSON %s", back.Value(), n.Value(), text)
		}
	})
}

// checkNode checks n and the nodes below it (aliases are shared nodes, so
// the depth bounds the walk).
func checkNode(t *testing.T, data []byte, n *config.Node, depth int) {
	t.Helper()
	if depth > 64 {
		return
	}
	if n.File != "fuzz.yaml" {
		t.Fatalf("node %s names file %q", n.Path, n.File)
	}
	if msg := misplaced(data, n.Line, n.Col); msg != "" || n.Line < 1 {
		t.Fatalf("node %s at %d:%d: %s", n.Path, n.Line, n.Col, msg)
	}
	seen := map[string]bool{}
	for _, e := range n.Entries {
		if seen[e.Key] {
			t.Fatalf("map %s holds key %q twice", n.Path, e.Key)
		}
		seen[e.Key] = true
		if c := config.Canon(e.Key); config.Canon(c) != c {
			t.Fatalf("Canon(%q) = %q but Canon(%q) = %q", e.Key, c, c, config.Canon(c))
		}
		if e.KeyLine != 0 {
			if msg := misplaced(data, e.KeyLine, e.KeyCol); msg != "" {
				t.Fatalf("key %q of %s at %d:%d: %s", e.Key, n.Path, e.KeyLine, e.KeyCol, msg)
			}
		}
		checkNode(t, data, e.Value, depth+1)
	}
	for _, it := range n.Items {
		checkNode(t, data, it, depth+1)
	}
}

// misplaced returns what is wrong with the position line:col in data, or
// "" when it lies on a line of data, at a column within that line or just
// past its end (1-based, in bytes). As in YAML, \n, \r\n and a lone \r
// end a line.
func misplaced(data []byte, line, col int) string {
	lines := bytes.Split(bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n")), []byte("\n"))
	switch {
	case line < 0 || line > len(lines):
		return fmt.Sprintf("line %d outside the input's %d lines", line, len(lines))
	case col < 0 || line > 0 && col > len(lines[line-1])+1:
		return fmt.Sprintf("column %d outside line %d (%d bytes)", col, line, len(lines[line-1]))
	}
	return ""
}

// FuzzParseLines checks ParseLines on any data: it never panics, its
// errors are placed inside the data, and every row is a map placed at a
// line of its own.
func FuzzParseLines(f *testing.F) {
	for _, s := range []string{
		`{"id": "a", "reference_trajectory": [{"tool_name": "x", "tool_input": {"k": 1}}]}` + "\n",
		"{\"a\": 1}\n\n{\"b\": [1, 2]}\n", "{\"a\": 1}\n[1]\n", "{\"a\": \n", "\xef\xbb\xbf{\"a\": 1}\r\n", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := config.ParseLines("f.jsonl", data)
		lines := bytes.Count(data, []byte{'\n'}) + 1
		if err != nil {
			var se *trajeval.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a SpecError", err)
			}
			if se.Line < 0 || se.Line > lines+bytes.Count(data, []byte{'\r'}) {
				t.Fatalf("error %v outside the data's %d lines", err, lines)
			}
			return
		}
		prev := 0
		for _, it := range n.Items {
			if it.Kind != config.Map || it.Line <= prev || it.Line > lines {
				t.Fatalf("row %s at line %d after line %d of %d", it.Kind, it.Line, prev, lines)
			}
			prev = it.Line
		}
	})
}
