package claudecode_test

import (
	"errors"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/claudecode"
)

var formats = []trajeval.Format{claudecode.Format}

func fuzzMore([]byte) {}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{"not json\n", "[1]\n"} {
		_, _, err := read(claudecode.Format, "x.jsonl", []byte(in))
		var te *trajeval.TraceError
		if !errors.As(err, &te) || te.Line != 1 {
			t.Errorf("Read(%q) = %v, want a TraceError at line 1", in, err)
		}
	}
}

func TestSniffRejects(t *testing.T) {
	for _, in := range []string{
		`{"type":"thread.started","thread_id":"x"}`,
		`{"type":"init","timestamp":"2025-01-01T00:00:00Z","session_id":"x","model":"m"}`,
		`{"type":"result","timestamp":"2025-01-01T00:00:00Z","status":"success","stats":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"x","name":"n","input":{}}]}`,
	} {
		if claudecode.Format.Sniff([]byte(in)) == nil {
			t.Errorf("claude-code claims %s", in)
		}
	}
}
