package gemini_test

import (
	"encoding/json"
	"errors"
	"slices"
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

// TestChat_ReadUserMessages checks which user messages of a JSON Lines
// session open a turn: Gemini CLI from 0.44 records as user messages what
// it sends the model itself.
func TestChat_ReadUserMessages(t *testing.T) {
	const (
		head = `{"sessionId":"s","projectHash":"p","startTime":"2026-11-27T17:06:24.660Z","lastUpdated":"2026-11-27T17:06:24.660Z","kind":"main"}`
		ask  = `{"id":"u1","timestamp":"2026-11-27T17:06:24.690Z","type":"user","content":[{"text":"show a.txt"}]}`
		call = `{"id":"g1","timestamp":"2026-11-27T17:06:25.000Z","type":"gemini","content":"","model":"gemini-2.5-pro","toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":"a.txt"},"result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"a"}}}],"status":"success","timestamp":"2026-11-27T17:06:25.100Z"}]}`
		resp = `{"id":"u2","timestamp":"2026-11-27T17:06:25.110Z","type":"user","content":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"a"}}}]}`
		done = `{"id":"g2","timestamp":"2026-11-27T17:06:25.200Z","type":"gemini","content":"It says a.","model":"gemini-2.5-pro"}`
	)
	tests := []struct {
		name  string
		lines []string
		users []string
		final string
		why   string
	}{
		{"tool responses", []string{head, ask, call, resp, done}, []string{"show a.txt"}, "It says a.",
			"the responses of a batch of calls, recorded as a user message, are the calls' results, not the user's words"},
		{"session context in $set", []string{head, `{"$set":{"messages":[{"id":"c0","timestamp":"2026-11-27T17:06:24.661Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}],"lastUpdated":"2026-11-27T17:06:24.661Z"}}`, ask, call, resp, done},
			[]string{"show a.txt"}, "It says a.", "a $set of messages is the CLI's copy of its history, not read"},
		{"session context line", []string{head, `{"id":"c0","timestamp":"2026-11-27T17:06:24.661Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}`, ask, call, resp, done},
			[]string{"show a.txt"}, "It says a.", "the context the CLI opens a chat with is not the user's"},
		{"thought", []string{head, ask, call, resp, `{"id":"g2","timestamp":"2026-11-27T17:06:25.200Z","type":"gemini","content":[{"text":"Binary content received. Proceeding with analysis.","thought":true}]}`},
			[]string{"show a.txt"}, "", "a thought part is not the answer"},
		{"text beside a response", []string{head, ask, call, `{"id":"u2","timestamp":"2026-11-27T17:06:25.110Z","type":"user","content":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"a"}}},{"text":"and b.txt"}]}`, done},
			[]string{"show a.txt", "and b.txt"}, "It says a.", "a message with the user's text is the user's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, warns, err := formattest.Read(gemini.Chat, "session.jsonl", []byte(strings.Join(tt.lines, "\n")))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if len(warns) > 0 {
				t.Errorf("warnings:\n%s", warns)
			}
			var tr trajeval.Trajectory
			if err := json.Unmarshal(out, &tr); err != nil {
				t.Fatal(err)
			}
			var users []string
			for _, tn := range tr.Turns {
				users = append(users, *tn.User)
			}
			final := ""
			if n := len(tr.Turns); n > 0 && tr.Turns[n-1].FinalResponse != nil {
				final = *tr.Turns[n-1].FinalResponse
			}
			if !slices.Equal(users, tt.users) || final != tt.final || len(tr.Steps) != 1 || tr.Steps[0].Turn != 1 {
				t.Errorf("turns %q ending %q, %d steps; want %q ending %q, one step in turn 1 (%s)", users, final, len(tr.Steps), tt.users, tt.final, tt.why)
			}
		})
	}
}
