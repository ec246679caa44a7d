package agentv_test

// This file is the same in every reader package: golden files under
// testdata/<format-name>/ and a fuzz target seeded from them.

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

// read reads data with f and returns the trajectories as JSON Lines and
// the warnings, one per line.
func read(f trajeval.Format, name string, data []byte) (out, warns []byte, err error) {
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

func isInput(path string) bool {
	return !strings.HasSuffix(path, ".want.jsonl") && !strings.HasSuffix(path, ".warnings.txt")
}

func TestGolden(t *testing.T) {
	for _, f := range formats {
		paths, _ := filepath.Glob(filepath.Join("testdata", f.Name(), "*"))
		if len(paths) == 0 {
			t.Fatalf("no test files for %s", f.Name())
		}
		for _, path := range paths {
			if !isInput(path) {
				continue
			}
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := trace.Detect(path, data); err != nil || got.Name() != f.Name() {
					t.Errorf("Detect = %v, %v; want %s", got, err, f.Name())
				}
				out, warns, err := read(f, filepath.Base(path), data)
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				base := strings.TrimSuffix(path, filepath.Ext(path))
				golden(t, base+".want.jsonl", out)
				golden(t, base+".warnings.txt", warns)
			})
		}
	}
}

// golden compares got with the file at path (absent means empty), or
// rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
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

func FuzzRead(f *testing.F) {
	for _, fm := range formats {
		paths, _ := filepath.Glob(filepath.Join("testdata", fm.Name(), "*"))
		for _, p := range paths {
			if isInput(p) {
				data, _ := os.ReadFile(p)
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range formats {
			_, _, err := read(fm, "fuzz.json", data)
			var te *trajeval.TraceError
			if err != nil && !errors.As(err, &te) {
				t.Errorf("%s: error %v is not a TraceError", fm.Name(), err)
			}
			fm.Sniff(data)
		}
		fuzzMore(data)
	})
}
