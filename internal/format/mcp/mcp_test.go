package mcp_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/mcp"
)

var formats = []trajeval.Format{mcp.Format}

func fuzzMore([]byte) {}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{"not json\n", "42\n"} {
		_, _, err := read(mcp.Format, "x.jsonl", []byte(in))
		var te *trajeval.TraceError
		if !errors.As(err, &te) || te.Line != 1 {
			t.Errorf("Read(%q) = %v, want a TraceError at line 1", in, err)
		}
	}
}

func TestSniffRejects(t *testing.T) {
	for _, in := range []string{
		`{"type":"thread.started","thread_id":"x"}`,
		`{"type":"system","subtype":"init","session_id":"x"}`,
		`{"id":1,"method":"tools/call"}`,
		`[{"role":"user","content":"hi"}]`,
	} {
		if mcp.Format.Sniff([]byte(in)) == nil {
			t.Errorf("mcp claims %s", in)
		}
	}
}
