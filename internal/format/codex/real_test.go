package codex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/codex"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestRead_realNoDrift reads the files of testdata/real that Codex wrote:
// a file of a checked version gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	for dir, f := range map[string]trajeval.Format{"codex": codex.Format, "codex-session": codex.Session} {
		paths, _ := filepath.Glob(filepath.Join("../../../testdata/real", dir, "*.jsonl"))
		if len(paths) == 0 {
			t.Fatalf("no files in testdata/real/%s", dir)
		}
		for _, p := range paths {
			t.Run(filepath.Base(p), func(t *testing.T) {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				_, warns, err := formattest.Read(f, filepath.Base(p), data)
				if err != nil {
					t.Errorf("%s: %v", p, err)
				}
				if strings.Contains(string(warns), "is not known to the") {
					t.Errorf("%s: drift in a file of a checked version:\n%s", p, warns)
				}
			})
		}
	}
}
