package gemini_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

// TestRead_realNoDrift reads the JSON Lines files of testdata/real that
// Gemini CLI wrote: a file of a checked version gives no drift warning.
func TestRead_realNoDrift(t *testing.T) {
	formattest.NoDrift(t, "gemini-chat", "*.jsonl", gemini.Chat)
	formattest.NoDrift(t, "gemini-chat", "*/*.jsonl", gemini.Chat) // sub-agents' files
	formattest.NoDrift(t, "gemini-cli", "*.jsonl", gemini.Format)
}

// TestRead_realSubagent reads the session Gemini CLI 0.61.0 wrote with a
// sub-agent, from its place beside the sub-agent's folder: the
// sub-agent's calls follow the invoke_agent call, with no warning.
func TestRead_realSubagent(t *testing.T) {
	path := filepath.Join("../../../testdata/real/gemini-chat", "gemini-cli-0.61.0-subagent-session-2026-11-27T18-04-256d48f1.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, warns, partial, err := readChat(t, path, string(data), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := "invoke_agent:: read_file:generalist: complete_task:generalist:"; got != want || warns != "" || partial {
		t.Errorf("steps %q, warnings %q, partial %v; want %q, none, whole", got, warns, partial, want)
	}
}
