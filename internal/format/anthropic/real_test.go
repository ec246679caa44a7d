package anthropic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/anthropic"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestRead_realNoDrift reads the real files of testdata/real: a file
// that a checked version of its tool wrote gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	for dir, f := range map[string]trajeval.Format{"anthropic": anthropic.Format} {
		noDrift(t, dir, f)
	}
}

func noDrift(t *testing.T, dir string, f trajeval.Format) {
	paths, _ := filepath.Glob(filepath.Join("../../../testdata/real", dir, "*.json*"))
	if len(paths) == 0 {
		t.Fatalf("no files in testdata/real/%s", dir)
	}
	for _, p := range paths {
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
	}
}
