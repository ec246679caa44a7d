package langchain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/langchain"
	"github.com/trajeval/trajeval/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var formats = []trajeval.Format{langchain.Messages, langchain.Runs}

// cases returns the trace files under testdata/<format>/.
func cases(t testing.TB, f trajeval.Format) []string {
	files, err := filepath.Glob(filepath.Join("testdata", f.Name(), "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range files {
		if strings.HasSuffix(p, ".want.jsonl") || strings.HasSuffix(p, ".warnings.txt") {
			continue
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		t.Fatalf("no test files for %s", f.Name())
	}
	return out
}

// read returns the canonical JSON lines and the warnings of one file.
func read(f trajeval.Format, name string, data []byte) (lines, warnings string, err error) {
	var l, w strings.Builder
	in := trajeval.Input{Name: name, R: bytes.NewReader(data), Warn: func(x trajeval.Warning) { w.WriteString(x.String() + "\n") }}
	err = f.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		l.Write(b)
		l.WriteByte('\n')
		return nil
	})
	return l.String(), w.String(), err
}

func TestGolden(t *testing.T) {
	for _, f := range formats {
		for _, p := range cases(t, f) {
			t.Run(f.Name()+"/"+filepath.Base(p), func(t *testing.T) {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				got, warnings, err := read(f, filepath.Base(p), data)
				if err != nil {
					got += "error: " + err.Error() + "\n"
				}
				base := strings.TrimSuffix(p, filepath.Ext(p))
				compare(t, base+".want.jsonl", got)
				compare(t, base+".warnings.txt", warnings)
			})
		}
	}
}

func compare(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if got == "" {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run go test -update):\n got: %s\nwant: %s", path, got, want)
	}
}

func TestDetect(t *testing.T) {
	for _, f := range formats {
		for _, p := range cases(t, f) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > 1<<20 {
				data = data[:1<<20]
			}
			got, err := trace.Detect(p, data)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			if got.Name() != f.Name() {
				t.Errorf("%s: detected as %s, want %s", p, got.Name(), f.Name())
			}
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, fm := range formats {
		for _, p := range cases(f, fm) {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range formats {
			fm.Sniff(data)
			_, _, err := read(fm, "fuzz", data)
			var te *trajeval.TraceError
			if err != nil && !errors.As(err, &te) {
				t.Fatalf("%s: error %v is not a TraceError", fm.Name(), err)
			}
		}
	})
}
