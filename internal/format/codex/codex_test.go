package codex_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/codex"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

var formats = []trajeval.Format{codex.Format, codex.Session}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, codex.Format, 1, "not json\n", "[1]\n")
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"type":"system","subtype":"init","session_id":"x"}`,
		`{"type":"init","timestamp":"2025-01-01T00:00:00Z","session_id":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`{"output":[{"role":"assistant"}]}`,
	}, codex.Format)
}
