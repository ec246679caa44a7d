package anthropic_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/format/anthropic"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

func TestFormat_Read_drift(t *testing.T) {
	tests := []struct {
		name, data string
		warns      []string // the warnings, in order, in part
		reason     string
	}{
		{"unknown block types",
			`{"messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"voice_note","url":"x"}]},` +
				`{"role":"assistant","content":[{"type":"hologram"},{"type":"tool_use","id":"t1","name":"f","input":{}},{"type":"hologram"}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]}`,
			[]string{`x.json:1: content block type "voice_note" is not known to the anthropic reader (1 time,`,
				`x.json:1: content block type "hologram" is not known to the anthropic reader (2 times,`},
			"each unknown type is one warning with its count, in the order first seen"},
		{"known blocks", `{"messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{}},{"type":"document","source":{}}]},` +
			`{"role":"assistant","content":[{"type":"thinking","thinking":"."},{"type":"redacted_thinking","data":"."},{"type":"server_tool_use","id":"s1","name":"web_search","input":{}},` +
			`{"type":"web_search_tool_result","tool_use_id":"s1","content":[]},{"type":"text","text":"done"}]}]}`,
			nil, "blocks read or skipped on purpose are no drift"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, warns, err := formattest.Read(anthropic.Format, "x.json", []byte(tt.data))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			lines := strings.Split(strings.TrimSpace(string(warns)), "\n")
			if len(warns) == 0 {
				lines = nil
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
