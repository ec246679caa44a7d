package gemini_test

import (
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

var formats = []trajeval.Format{gemini.Format}

func TestGolden(t *testing.T) { formattest.Golden(t, formats...) }

func TestDetect(t *testing.T) { formattest.Detect(t, formats...) }

func FuzzRead(f *testing.F) { formattest.Fuzz(f, formats, nil) }

func TestReadErrors(t *testing.T) {
	formattest.FailsAtLine(t, gemini.Format, 1, "not json\n", "[1]\n")
}

func TestSniffRejects(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"type":"thread.started","thread_id":"x"}`,
		`{"type":"system","subtype":"init","session_id":"x"}`,
		`{"type":"result","subtype":"success","session_id":"x","duration_ms":1}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
	}, gemini.Format)
}
