package langchain_test

import (
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

func TestRead_drift(t *testing.T) {
	tests := []struct {
		name   string
		format trajeval.Format
		data   string
		warns  []string // the warnings, in order, in part
		reason string
	}{
		{"langchain: unknown message types", langchain.Messages,
			`[{"type":"human","data":{"content":"hi"}},` +
				`{"lc":1,"type":"constructor","id":["langchain_core","messages","HologramMessage"],"kwargs":{"content":"?"}},` +
				`{"type":"ai","data":{"content":"","tool_calls":[{"name":"f","args":{},"id":"c1"}]}},` +
				`{"type":"tool","data":{"content":"ok","tool_call_id":"c1"}},` +
				`{"lc":1,"type":"constructor","id":["langchain_core","messages","HologramMessage"],"kwargs":{"content":"!"}},` +
				`{"type":"remove","id":"m1"},` +
				`{"type":"ai","data":{"content":"done"}}]`,
			[]string{`x.json:1: message type "HologramMessage" is not known to the langchain reader (2 times,`},
			"an unknown message class is one warning with its count; LangGraph's remove is known"},
		{"langsmith: unknown run types", langchain.Runs,
			`{"post":[{"id":"r1","name":"agent","run_type":"chain","trace_id":"r1","dotted_order":"1Zr1","inputs":{"input":"hi"},"outputs":{"output":"done"}},` +
				`{"id":"x1","name":"thought","run_type":"daydream","parent_run_id":"r1","trace_id":"r1","dotted_order":"1Zr1.2Zx1"},` +
				`{"id":"t1","name":"f","run_type":"tool","parent_run_id":"r1","trace_id":"r1","dotted_order":"1Zr1.3Zt1","start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:01Z","inputs":{"input":"{}"},"outputs":{"output":"ok"}}]}`,
			[]string{`x.json:1: run type "daydream" is not known to the langsmith reader (1 time,`},
			"a run type LangSmith does not define is one warning"},
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
