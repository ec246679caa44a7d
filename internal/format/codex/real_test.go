package codex_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/codex"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestRead_realNoDrift reads the files of testdata/real that Codex wrote:
// a file of a checked version gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	for dir, f := range map[string]trajeval.Format{"codex": codex.Format, "codex-session": codex.Session} {
		formattest.NoDrift(t, dir, "*.jsonl", f)
	}
}
