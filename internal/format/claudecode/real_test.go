package claudecode_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/claudecode"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestRead_realNoDrift reads the files of testdata/real that Claude Code
// wrote: a file of a checked version gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	formattest.NoDrift(t, "claude-code", "*.jsonl", claudecode.Format)
}
