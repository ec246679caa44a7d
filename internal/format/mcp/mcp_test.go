package mcp_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/mcp"
)

var formats = []trajeval.Format{mcp.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, mcp.Format, 1, "not json\n", "42\n")
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"type":"thread.started","thread_id":"x"}`,
		`{"type":"system","subtype":"init","session_id":"x"}`,
		`{"id":1,"method":"tools/call"}`,
		`[{"role":"user","content":"hi"}]`,
	}, mcp.Format)
}
