package gemini_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

var formats = []trajeval.Format{gemini.Format}

func fuzzMore([]byte) {}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{"not json\n", "[1]\n"} {
		_, _, err := read(gemini.Format, "x.jsonl", []byte(in))
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
		`{"type":"result","subtype":"success","session_id":"x","duration_ms":1}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
	} {
		if gemini.Format.Sniff([]byte(in)) == nil {
			t.Errorf("gemini-cli claims %s", in)
		}
	}
}
