package gemini_test

import (
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

// TestRead_realNoDrift reads the JSON Lines files of testdata/real that
// Gemini CLI wrote: a file of a checked version gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	formattest.NoDrift(t, "gemini-chat", "*.jsonl", gemini.Chat)
	formattest.NoDrift(t, "gemini-cli", "*.jsonl", gemini.Format)
}
