// Package formattest is the test support shared by the trace readers under
// internal/format: golden files, detection checks and a fuzz target over
// each reader's test files. Only tests import it.
//
// A reader package keeps its test files as testdata/<format-name>/<case>.<ext>,
// with what reading one gives beside it: <case>.want.jsonl (the
// trajectories, one JSON line each) and <case>.warnings.txt (the warnings,
// one a line); an absent file means nothing. Run the package's tests with
// -update to rewrite them.
package formattest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Updating reports whether the tests run with -update, which rewrites the
// golden files.
func Updating() bool { return *update }

// Read reads data with f, as a file called name, and returns the
// trajectories as JSON Lines and the warnings, one per line.
func Read(f trajeval.Format, name string, data []byte) (out, warns []byte, err error) {
	var o, w bytes.Buffer
	in := trajeval.Input{Name: name, R: bytes.NewReader(data), Warn: func(x trajeval.Warning) { fmt.Fprintln(&w, x.String()) }}
	err = f.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		o.Write(b)
		o.WriteByte('\n')
		return nil
	})
	return o.Bytes(), w.Bytes(), err
}

// Inputs returns the test files of f, testdata/<f.Name()>/*, less the
// golden files. It fails t when there are none.
func Inputs(t testing.TB, f trajeval.Format) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", f.Name(), "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		if !strings.HasSuffix(p, ".want.jsonl") && !strings.HasSuffix(p, ".warnings.txt") {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no test files for %s", f.Name())
	}
	return out
}

// Golden reads every test file of each format, in a subtest named
// <format-name>/<file>, and compares the trajectories with <case>.want.jsonl
// and the warnings with <case>.warnings.txt, or rewrites those with -update.
// A read that fails is a test failure.
func Golden(t *testing.T, formats ...trajeval.Format) {
	for _, f := range formats {
		for _, path := range Inputs(t, f) {
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				out, warns, err := Read(f, filepath.Base(path), data)
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				base := strings.TrimSuffix(path, filepath.Ext(path))
				compare(t, base+".want.jsonl", out)
				compare(t, base+".warnings.txt", warns)
			})
		}
	}
}

// compare compares got with the file at path (absent means empty), or
// rewrites it with -update.
func compare(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if len(got) == 0 {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to rewrite):\n got: %s\nwant: %s", path, got, want)
	}
}

// Detect checks that trace.Detect, given the first MiB of each test file
// of a format, names that format.
func Detect(t *testing.T, formats ...trajeval.Format) {
	for _, f := range formats {
		for _, path := range Inputs(t, f) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > 1<<20 {
				data = data[:1<<20]
			}
			got, err := trace.Detect(path, data)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if got.Name() != f.Name() {
				t.Errorf("%s: detected as %s, want %s", path, got.Name(), f.Name())
			}
		}
	}
}

// Fuzz seeds f with the test files of the formats and checks that, on any
// bytes, each format keeps the promises of [CheckRead]. more, when not nil,
// is given the bytes as well, to fuzz other entry points of the package.
func Fuzz(f *testing.F, formats []trajeval.Format, more func(t *testing.T, data []byte)) {
	for _, fm := range formats {
		for _, path := range Inputs(f, fm) {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range formats {
			CheckRead(t, fm, "fuzz.json", data)
		}
		if more != nil {
			more(t, data)
		}
	})
}

// SniffRejects checks that no format claims any of the heads.
func SniffRejects(t *testing.T, heads []string, formats ...trajeval.Format) {
	t.Helper()
	for _, head := range heads {
		for _, f := range formats {
			if f.Sniff([]byte(head)) == nil {
				t.Errorf("%s claims %q", f.Name(), head)
			}
		}
	}
}

// FailsAtLine checks that reading each of the inputs with f fails with a
// *trajeval.TraceError placed at the line.
func FailsAtLine(t *testing.T, f trajeval.Format, line int, inputs ...string) {
	t.Helper()
	for _, in := range inputs {
		_, _, err := Read(f, "x.jsonl", []byte(in))
		var te *trajeval.TraceError
		if !errors.As(err, &te) || te.Line != line {
			t.Errorf("Read(%q) = %v, want a TraceError at line %d", in, err, line)
		}
	}
}
