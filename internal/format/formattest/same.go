package formattest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
)

// SameRead reads data with got and with want, strictly and leniently,
// got asked to keep text (see trajeval.Input.KeepText) and want not, and
// fails t when the two give other trajectories (as canonical JSON),
// warnings or errors: got is a reader rewritten from want. It returns
// how many arguments and results got kept as text.
func SameRead(t testing.TB, want, got trajeval.Format, name string, data []byte) (texts int) {
	t.Helper()
	for _, lenient := range []bool{false, true} {
		w, _, _ := readText(want, name, data, lenient, false)
		g, n, bad := readText(got, name, data, lenient, true)
		if g != w {
			t.Errorf("%s (lenient %v): %s read\n%s\nwant\n%s", name, lenient, got.Name(), g, w)
		}
		if bad != "" {
			t.Errorf("%s: %s", name, bad)
		}
		texts += n
	}
	return texts
}

// AllFiles returns every JSON and JSON Lines file of the repository's
// tests, for a test run in a reader's package directory
// (internal/format/<reader>): the real files of testdata/real and every
// reader's testdata, of every format, without the goldens.
func AllFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, root := range []string{"../../../testdata/real", ".."} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			switch name := d.Name(); {
			case err != nil:
				return err
			case d.IsDir() && (name == "node_modules" || name == "fuzz"):
				return filepath.SkipDir
			case !d.IsDir() && strings.Contains(path, "testdata/") && !strings.Contains(name, ".want.") &&
				(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	return files
}
