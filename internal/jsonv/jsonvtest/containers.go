// Package jsonvtest gives tests the JSON texts the repository's fixtures
// hold, for differential tests of code that reads or writes JSON text as
// it stands (kept arguments and results).
package jsonvtest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fixtures returns [Containers] of every JSON document of the JSON and
// JSON Lines fixtures below root, the repository's top folder, and how
// many files it read. The rules:
//  1. A fixture is a .json or .jsonl file under a testdata folder or under
//     examples/; hidden folders and fuzz corpora are skipped.
//  2. A .jsonl file holds a document a line; a document that is not valid
//     JSON is skipped.
//  3. A file that cannot be read fails tb.
func Fixtures(tb testing.TB, root string) (texts [][]byte, files int) {
	tb.Helper()
	sep := string(filepath.Separator)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "fuzz" {
				return filepath.SkipDir
			}
			return nil
		}
		fixture := strings.Contains(rel, "testdata"+sep) || strings.HasPrefix(rel, "examples"+sep)
		if ext := filepath.Ext(path); !fixture || ext != ".json" && ext != ".jsonl" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		docs := [][]byte{data}
		if filepath.Ext(path) == ".jsonl" {
			docs = bytes.Split(data, []byte("\n"))
		}
		for _, doc := range docs {
			if json.Valid(doc) {
				texts = append(texts, Containers(doc)...)
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return texts, files
}

// Containers returns the texts of the objects and arrays of the JSON value
// doc at every depth, as they stand in it, and of those a string of it
// holds (as tool arguments are often written); each object of two members
// or more also with its members in reverse order.
func Containers(doc []byte) [][]byte {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 {
		return nil
	}
	var out [][]byte
	switch doc[0] {
	case '{':
		out = append(out, doc)
		d := json.NewDecoder(bytes.NewReader(doc))
		var keys []string
		var vals []json.RawMessage
		if tok, err := d.Token(); err == nil && tok == json.Delim('{') {
			for d.More() {
				k, err := d.Token()
				if err != nil {
					break
				}
				var v json.RawMessage
				if d.Decode(&v) != nil {
					break
				}
				keys, vals = append(keys, k.(string)), append(vals, v)
				out = append(out, Containers(v)...)
			}
		}
		if len(keys) > 1 {
			out = append(out, reversed(keys, vals))
		}
	case '[':
		out = append(out, doc)
		var a []json.RawMessage
		if json.Unmarshal(doc, &a) == nil {
			for _, v := range a {
				out = append(out, Containers(v)...)
			}
		}
	case '"':
		var s string
		if json.Unmarshal(doc, &s) == nil && (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) && json.Valid([]byte(s)) {
			out = append(out, Containers([]byte(s))...)
		}
	}
	return out
}

// reversed writes the object of keys and vals with its members in reverse
// order.
func reversed(keys []string, vals []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := len(keys) - 1; i >= 0; i-- {
		k, _ := json.Marshal(keys[i])
		b.Write(k)
		b.WriteByte(':')
		b.Write(vals[i])
		if i > 0 {
			b.WriteByte(',')
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}
