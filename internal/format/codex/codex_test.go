package codex_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/codex"
)

var formats = []trajeval.Format{codex.Format}

func fuzzMore([]byte) {}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{"not json\n", "[1]\n"} {
		_, _, err := read(codex.Format, "x.jsonl", []byte(in))
		var te *trajeval.TraceError
		if !errors.As(err, &te) || te.Line != 1 {
			t.Errorf("Read(%q) = %v, want a TraceError at line 1", in, err)
		}
	}
}

func TestSniffRejects(t *testing.T) {
	for _, in := range []string{
		`{"type":"system","subtype":"init","session_id":"x"}`,
		`{"type":"init","timestamp":"2025-01-01T00:00:00Z","session_id":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`{"output":[{"role":"assistant"}]}`,
	} {
		if codex.Format.Sniff([]byte(in)) == nil {
			t.Errorf("codex claims %s", in)
		}
	}
}
