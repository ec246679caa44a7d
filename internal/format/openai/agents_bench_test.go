package openai_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/openai"
)

// agentsFile writes traces traces of calls function calls each as the
// Agents SDK's Python exporter gives its spans (span.export(), written one
// a line by json.dumps, so with its spacing): a trace, then for each call
// a response span and a function span, then the agent span that holds
// them, in the order they ended.
func agentsFile(traces, calls int) []byte {
	var b bytes.Buffer
	for t := range traces {
		tid := fmt.Sprintf("trace_%032x", t+1)
		fmt.Fprintf(&b, `{"object": "trace", "id": "%s", "workflow_name": "Agent workflow", "group_id": null, "metadata": null}`+"\n", tid)
		agent := fmt.Sprintf("span_%024x", t<<16)
		at := func(ms int) string {
			return fmt.Sprintf("2025-03-13T10:%02d:%02d.%03d000+00:00", ms/60000%60, ms/1000%60, ms%1000)
		}
		ms := t * 97
		for c := range calls {
			fmt.Fprintf(&b, `{"object": "trace.span", "id": "span_%024x", "trace_id": "%s", "parent_id": "%s", "started_at": "%s", "ended_at": "%s", "span_data": {"type": "response", "response_id": "resp_%d_%d"}, "error": null}`+"\n",
				t<<16|2*c+1, tid, agent, at(ms+1), at(ms+40), t, c)
			fmt.Fprintf(&b, `{"object": "trace.span", "id": "span_%024x", "trace_id": "%s", "parent_id": "%s", "started_at": "%s", "ended_at": "%s", "span_data": {"type": "function", "name": "%s", "input": "{\"id\":\"doc-%d\"}", "output": "{\"ok\": true}", "mcp_data": null}, "error": null}`+"\n",
				t<<16|2*c+2, tid, agent, at(ms+41), at(ms+45), [...]string{"search", "read", "write"}[c%3], c)
			ms += 50
		}
		fmt.Fprintf(&b, `{"object": "trace.span", "id": "%s", "trace_id": "%s", "parent_id": null, "started_at": "%s", "ended_at": "%s", "span_data": {"type": "agent", "name": "Assistant", "handoffs": [], "tools": ["search", "read", "write"], "output_type": "str"}, "error": null}`+"\n",
			agent, tid, at(t*97), at(ms+1))
	}
	return b.Bytes()
}

// BenchmarkAgents_Read reads 200 traces of 20 calls (4,200 spans);
// allocs/record is the allocations a line of the file.
func BenchmarkAgents_Read(b *testing.B) {
	data := agentsFile(200, 20)
	records := bytes.Count(data, []byte("\n"))
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keep=%v", keep), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for b.Loop() {
				in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data), KeepText: keep, Warn: func(trajeval.Warning) {}}
				if err := openai.Agents.Read(context.Background(), in, func(*trajeval.Trajectory) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N*records), "allocs/record")
		})
	}
}

// TestAgents_benchFile writes the benchmark's file, larger, for a
// command's measure: TRAJEVAL_RD_AGENTS=FILE (and _TRACES, default 2,000).
func TestAgents_benchFile(t *testing.T) {
	name := os.Getenv("TRAJEVAL_RD_AGENTS")
	if name == "" {
		t.Skip("TRAJEVAL_RD_AGENTS not set")
	}
	n := 2000
	fmt.Sscan(os.Getenv("TRAJEVAL_RD_TRACES"), &n)
	if err := os.WriteFile(name, agentsFile(n, 20), 0o644); err != nil {
		t.Fatal(err)
	}
}
