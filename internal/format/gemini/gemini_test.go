package gemini_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/gemini"
)

var formats = []trajeval.Format{gemini.Format, gemini.Chat}

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

func TestChat_Read(t *testing.T) {
	tests := []struct {
		name, in, want, reason string
	}{
		{"no messages", `{"sessionId":"s","projectHash":"p","messages":[]}`, "holds no messages", "an empty session is an error, never a score"},
		{"messages not a list", `{"sessionId":"s","projectHash":"p","messages":{}}`, "messages is not a list", "a record without its format's messages is refused"},
		{"lines without messages", "{\"sessionId\":\"s\",\"projectHash\":\"p\"}\n{\"$set\":{\"summary\":\"x\"}}\n", "holds no messages", "JSON Lines with metadata only are empty too"},
		{"not an object", "[1]", "not", "a list is not a session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := formattest.Read(gemini.Chat, "chat.json", []byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Read: %v, want an error with %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
}

func TestChat_Sniff(t *testing.T) {
	formattest.SniffRejects(t, []string{
		`{"sessionId":"x","type":"user","message":{"role":"user","content":"hi"}}`,
		`{"projectHash":"x"}`,
		`[{"role":"user","content":"hi"}]`,
	}, gemini.Chat)
}

func TestFormat_SniffOutputJSON(t *testing.T) {
	head := `{"session_id":"c2f3","response":"4","stats":{"tools":{"totalCalls":1,"byName":{"read_file":{"count":1}}}}}`
	err := gemini.Format.Sniff([]byte(head))
	var se *trajeval.SniffError
	if !errors.As(err, &se) || !strings.Contains(se.Why, "stream-json") {
		t.Errorf("Sniff: %v, want a refusal that points to stream-json (the json output holds no calls to score)", err)
	}
}
