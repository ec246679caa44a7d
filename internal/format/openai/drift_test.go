package openai_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/openai"
)

func TestRead_drift(t *testing.T) {
	tests := []struct {
		name   string
		format trajeval.Format
		data   string
		warns  []string // the warnings, in order, in part
		reason string
	}{
		{"chat: unknown roles and tool call types", openai.Chat,
			`{"messages":[{"role":"user","content":"hi"},{"role":"critic","content":"?"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2","type":"telepathy","function":{"name":"g","arguments":"{}"}}]},` +
				`{"role":"critic","content":"!"}]}`,
			[]string{`x.json:1: message role "critic" is not known to the openai-chat reader (2 times,`,
				`x.json:1: tool call type "telepathy" is not known to the openai-chat reader (1 time,`},
			"one warning per unknown role or call type, with its count, in the order first seen"},
		{"chat: known roles", openai.Chat,
			`{"messages":[{"role":"system","content":"."},{"role":"developer","content":"."},{"role":"user","content":"hi"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2","type":"custom","custom":{"name":"g","input":"x"}}]},` +
				`{"role":"tool","tool_call_id":"c1","content":"ok"},{"role":"tool","tool_call_id":"c2","content":"ok"},{"role":"assistant","content":"done"}]}`,
			nil, "what the reader reads or skips on purpose is no drift"},
		{"responses: unknown item types", openai.Responses,
			`{"object":"response","id":"r1","output":[{"type":"reasoning","summary":[]},{"type":"mcp_list_tools","tools":[]},` +
				`{"type":"dream_call","id":"d1"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"dream_call","id":"d2"},` +
				`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}]}`,
			[]string{`x.json:1: item type "dream_call" is not known to the openai-responses reader (2 times,`},
			"reasoning and mcp_list_tools are known; an unknown item type is one warning with its count"},
		{"agents: unknown span types", openai.Agents,
			`{"data":[{"object":"trace","id":"trace_1","workflow_name":"w"},` +
				`{"object":"trace.span","id":"s1","trace_id":"trace_1","started_at":"2026-01-01T00:00:00Z","ended_at":"2026-01-01T00:00:02Z","span_data":{"type":"agent","name":"A"}},` +
				`{"object":"trace.span","id":"s2","trace_id":"trace_1","parent_id":"s1","started_at":"2026-01-01T00:00:00Z","ended_at":"2026-01-01T00:00:01Z","span_data":{"type":"guardrail","name":"g","triggered":false}},` +
				`{"object":"trace.span","id":"s3","trace_id":"trace_1","parent_id":"s1","started_at":"2026-01-01T00:00:01Z","ended_at":"2026-01-01T00:00:02Z","span_data":{"type":"function","name":"f","input":"{}","output":"ok"}},` +
				`{"object":"trace.span","id":"s4","trace_id":"trace_1","parent_id":"s1","started_at":"2026-01-01T00:00:01Z","ended_at":"2026-01-01T00:00:02Z","span_data":{"type":"hologram"}}]}`,
			[]string{`x.json:1: span type "hologram" is not known to the openai-agents reader (1 time,`},
			"a guardrail span is known and skipped; an unknown span type is one warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, warns, err := formattest.Read(tt.format, "x.json", []byte(tt.data))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			var lines []string
			if len(warns) > 0 {
				lines = strings.Split(strings.TrimSpace(string(warns)), "\n")
			}
			if len(lines) != len(tt.warns) {
				t.Fatalf("warnings:\n%s\nwant %d (%s)", warns, len(tt.warns), tt.reason)
			}
			for i, w := range tt.warns {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("warning %d: %s\nwant %s… (%s)", i+1, lines[i], w, tt.reason)
				}
			}
		})
	}
}
