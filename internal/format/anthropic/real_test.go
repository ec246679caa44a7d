package anthropic_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/anthropic"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// TestRead_realNoDrift reads the real files of testdata/real: a file
// that a checked version of its tool wrote gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	for dir, f := range map[string]trajeval.Format{"anthropic": anthropic.Format} {
		formattest.NoDrift(t, dir, "*.json*", f)
	}
}
