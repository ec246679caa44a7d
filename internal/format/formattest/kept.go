package formattest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
)

// KeptRead reads data with f, keeping arguments and results as JSON text
// or not (trajeval.Input.KeepText), leniently, and returns what it gives:
// the canonical JSON of each trajectory, the warnings and the error, as
// one text to compare between the two ways; how many arguments and
// results were kept as text; and, when one kept text is not an object or
// an array, a sentence saying so.
func KeptRead(f trajeval.Format, data []byte, keep bool) (out string, texts int, bad string) {
	return readText(f, "kept.jsonl", data, true, keep)
}

// readText is KeptRead of a file called name, lenient or not.
func readText(f trajeval.Format, name string, data []byte, lenient, keep bool) (out string, texts int, bad string) {
	var b strings.Builder
	in := trajeval.Input{Name: name, R: bytes.NewReader(data), KeepText: keep, Lenient: lenient,
		Warn: func(w trajeval.Warning) { fmt.Fprintf(&b, "warning %s\n", w) }}
	err := f.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
		for _, s := range t.Steps {
			for _, v := range []any{s.Args, s.Result} {
				if text, ok := trajeval.KeptText(v); ok {
					texts++
					if len(text) == 0 || text[0] != '{' && text[0] != '[' {
						bad = fmt.Sprintf("step %d kept %q as text: only objects and arrays are", s.Index, text)
					}
				}
			}
		}
		j, err := trajeval.AppendJSON(nil, t)
		fmt.Fprintf(&b, "%s %v\n", j, err)
		return nil
	})
	fmt.Fprintf(&b, "error %v\n", err)
	return b.String(), texts, bad
}

// KeptFiles returns the test files of a format, for a test run in a
// reader's package directory (internal/format/<reader>): the real files
// the tools wrote (testdata/real/<format> at the repository's root) and
// the package's own (testdata/<format>), without the goldens.
func KeptFiles(t testing.TB, format string) []string {
	var files []string
	for _, glob := range []string{"../../../testdata/real/" + format + "/*.json*", "testdata/" + format + "/*.json*"} {
		m, _ := filepath.Glob(glob)
		for _, name := range m {
			if !strings.Contains(name, ".want.") {
				files = append(files, name)
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no test files for %s", format)
	}
	return files
}

// KeptSame reads the file name with f twice, keeping arguments and
// results as text and not (KeptRead), fails t when the two differ or a
// kept text is not an object or an array, and returns how many were kept
// as text.
func KeptSame(t testing.TB, f trajeval.Format, name string) (texts int) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	kept, texts, bad := KeptRead(f, data, true)
	decoded, _, _ := KeptRead(f, data, false)
	if kept != decoded {
		t.Errorf("%s: kept text:\n%s\ndecoded:\n%s", name, kept, decoded)
	}
	if bad != "" {
		t.Errorf("%s: %s", name, bad)
	}
	return texts
}
