package trace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestDetect runs detection on every reader's test files: a file under
// internal/format/*/testdata/NAME/ must be detected as format NAME, from
// its content alone.
func TestDetect(t *testing.T) {
	dirs, err := filepath.Glob("../format/*/testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range trace.Names() {
		names[n] = true
	}
	seen := map[string]int{}
	for _, dir := range dirs {
		format := filepath.Base(dir)
		if format == "fuzz" {
			continue
		}
		if !names[format] {
			t.Errorf("%s: no format is called %q", dir, format)
			continue
		}
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || strings.HasSuffix(name, ".want.jsonl") || strings.HasSuffix(name, ".warnings.txt") || strings.HasSuffix(name, ".error.txt") || strings.HasPrefix(name, "bad-") || strings.HasPrefix(name, "invalid") {
				continue
			}
			path := filepath.Join(dir, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			head := data[:min(len(data), 1<<20)]
			got, err := trace.Detect(path, head)
			if err != nil {
				t.Errorf("%s: not detected: %v", path, err)
				continue
			}
			if got.Name() != format {
				t.Errorf("%s: detected as %s, want %s", path, got.Name(), format)
			}
			seen[format]++
		}
	}
	for n := range names {
		if seen[n] == 0 {
			t.Errorf("format %s has no test files to detect", n)
		}
	}
}

func TestRead_Errors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, want string
		is               error
		reason           string
	}{
		{"missing", filepath.Join(dir, "nope.json"), "cannot open the trace", trajeval.ErrNoTrace, "a missing file names itself"},
		{"empty", write("empty.json", "  \n"), "the file is empty", trajeval.ErrEmptyTrace, "an empty trace is not zero calls"},
		{"binary", write("bin.dat", "\x00\x01\x02\xff\xfe"), "binary file", trajeval.ErrUnknownFormat, "binary input gets its own message"},
		{"unknown", write("x.json", `{"hello": "world"}`), "no reader recognises this file", trajeval.ErrUnknownFormat, "candidates are named"},
		{"directory", dir, "is a directory", trajeval.ErrNoTrace, "a folder is not a trace"},
		{"invalid JSON", write("bad.json", `{"id" :: "x"}`), "bad.json:1:8: invalid JSON: invalid character ':'", trajeval.ErrCorruptTrace, "the syntax error at its place, not only the list of formats"},
		{"invalid JSON line", write("bad.jsonl", "{\"a\": 1}\n{\"b\": 2,}\n"), "bad.jsonl:2:9: invalid JSON", trajeval.ErrCorruptTrace, "JSON Lines are checked line by line"},
		{"cut off", write("cut.json", `{"hello": "wor`), "cut.json:1:15: unexpected end of JSON", trajeval.ErrCorruptTrace, "a file cut off"},
		{"long valid head", write("long.json", `{"hello": "`+strings.Repeat("x", 2<<20)+`"}`), "no reader recognises this file", trajeval.ErrUnknownFormat, "the end of the sniffed MiB is not damage"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := trace.Read(context.Background(), tc.path, trace.Options{}, func(*trajeval.Trajectory) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want %q and errors.Is %v: %s", err, tc.want, tc.is, tc.reason)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	if _, err := trace.Lookup("agentv"); err != nil {
		t.Fatal(err)
	}
	_, err := trace.Lookup("agentvv")
	if err == nil || !strings.Contains(err.Error(), `did you mean "agentv"`) {
		t.Fatalf("error %v, want a suggestion", err)
	}
}
