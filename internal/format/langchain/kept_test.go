package langchain_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

// TestRead_keptTextFiles reads every real and test file of both formats
// with text kept and without: the same trajectories, warnings and errors
// (neither keeps text: it would save under 5 % of a run).
func TestRead_keptTextFiles(t *testing.T) {
	for _, f := range []trajeval.Format{langchain.Messages, langchain.Runs} {
		t.Run(f.Name(), func(t *testing.T) {
			for _, name := range formattest.KeptFiles(t, f.Name()) {
				if texts := formattest.KeptSame(t, f, name); texts > 0 {
					t.Errorf("%s: %d arguments or results kept as text", name, texts)
				}
			}
		})
	}
}

// TestMessages_rawCopy reads AI messages whose raw OpenAI copy of a call
// (additional_kwargs.tool_calls) holds arguments of every kind, beside
// tool_calls or alone: the same trajectories and warnings with text kept
// and without, a copy whose arguments are not JSON warned about even when
// tool_calls holds its call.
func TestMessages_rawCopy(t *testing.T) {
	tests := []struct {
		name   string
		args   string
		parsed bool // tool_calls holds the call too
		texts  int
		warned bool // about the copy's arguments
		reason string
	}{
		{"object alone", `{"a": [1, {}]}`, false, 0, false, "the arguments"},
		{"object beside tool_calls", `{"a": [1, {}]}`, true, 0, false, "tool_calls's call"},
		{"not JSON beside tool_calls", `{"a": 1`, true, 0, true, "the copy's warning, as before"},
		{"not JSON alone", `{"a": 1`, false, 0, true, "the string, with a warning"},
		{"null alone", `null`, false, 0, false, "no arguments, {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := json.Marshal(tt.args)
			calls := `[]`
			if tt.parsed {
				calls = `[{"name":"f","args":{"a":[1,{}]},"id":"c1","type":"tool_call"}]`
			}
			data := []byte(`[{"type":"human","data":{"content":"go"}},{"type":"ai","data":{"content":"","tool_calls":` + calls +
				`,"additional_kwargs":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":` + string(a) + `}}]}}},` +
				`{"type":"tool","data":{"content":"ok","tool_call_id":"c1"}}]` + "\n")
			kept, texts, bad := formattest.KeptRead(langchain.Messages, data, true)
			decoded, _, _ := formattest.KeptRead(langchain.Messages, data, false)
			if kept != decoded {
				t.Errorf("kept text:\n%s\ndecoded:\n%s\n%s", kept, decoded, tt.reason)
			}
			if texts != tt.texts || bad != "" {
				t.Errorf("%d arguments kept as text, want %d %s: %s", texts, tt.texts, bad, tt.reason)
			}
			if w := strings.Contains(kept, "additional_kwargs.tool_calls[0]"); w != tt.warned {
				t.Errorf("warned about the copy: %v, want %v: %s\n%s", w, tt.warned, tt.reason, kept)
			}
		})
	}
}
