package msglog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// values returns what EachValue hands on from data, read leniently, and
// its error; damage is an error here.
func values(data []byte) (got []string, err error) {
	in := trajeval.Input{Name: "doc.json", R: bytes.NewReader(data), Lenient: true, Warn: func(trajeval.Warning) {}}
	err = msglog.EachValue(context.Background(), in, func(v any, line int, partial bool) error {
		if partial {
			return errDamaged
		}
		got = append(got, fmt.Sprintf("%d %#v", line, v))
		return nil
	})
	return got, err
}

var errDamaged = errors.New("damaged")

// documentAgrees reads data, a document of one value, as it is and with a
// second value after it that a jsonv.Parser refuses (a lone surrogate), so
// that encoding/json reads both: the first value and its line are the same
// either way. It reports false when data is not such a document, one
// that a Parser reads.
func documentAgrees(t *testing.T, data []byte) bool {
	t.Helper()
	if _, ok := jsonv.FastDecode(data); !ok {
		return false // read by encoding/json both ways
	}
	fast, err := values(data)
	if err != nil || len(fast) != 1 {
		return false
	}
	slow, err := values(append(bytes.Clone(data), "\n\"\\ud800\"\n"...))
	if err != nil || len(slow) != 2 || !reflect.DeepEqual(fast[0], slow[0]) {
		t.Fatalf("read by the Parser:\n%s\nby encoding/json:\n%v (%v)", fast[0], slow, err)
	}
	return true
}

// TestEachValue_document reads the documents of the readers that use
// EachValue, real and their own, as one value read by a jsonv.Parser and
// as the first of two read by encoding/json: the same value at the same
// line.
func TestEachValue_document(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../../testdata/real/openai-*/*.json", "../../../testdata/real/anthropic/*.json",
		"../../../testdata/real/langchain/*.json", "../*/testdata/*/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	read := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Count(bytes.TrimSpace(data), []byte("\n")) == 0 {
			continue // one line: read as JSON Lines
		}
		if documentAgrees(t, data) {
			read++
		}
	}
	if read < 20 {
		t.Fatalf("%d documents of one value read", read)
	}
}

func FuzzEachValue_document(f *testing.F) {
	f.Add([]byte("{\n \"a\": [1, 2.50, {\"b\": null}],\n \"c\": \"\\u00e9\"\n}\n"))
	f.Add([]byte("\n\n  [\n1e400]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.IndexByte(bytes.TrimSpace(data), '\n') < 0 {
			return // one line: read as JSON Lines
		}
		documentAgrees(t, data)
	})
}
