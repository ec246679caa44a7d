package openai_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/openai"
)

// TestRead_realNoDrift reads the real files of testdata/real: a file
// that a checked version of its tool wrote gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	for dir, f := range map[string]trajeval.Format{"openai-chat": openai.Chat, "openai-responses": openai.Responses, "openai-agents": openai.Agents} {
		formattest.NoDrift(t, dir, "*.json*", f)
	}
}
