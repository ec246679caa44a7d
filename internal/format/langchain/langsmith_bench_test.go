package langchain_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/langchain"
)

// runsFile writes traces traces of calls tool calls each as the LangSmith
// Python client posts its runs (one a line, json.dumps's spacing): a
// chain run, then for each call an llm run and a tool run under it, its
// input a JSON string as LangChain's tools record it.
func runsFile(traces, calls int) []byte {
	var b bytes.Buffer
	at := func(ms int) string {
		return fmt.Sprintf("2025-03-13T10:%02d:%02d.%03d000+00:00", ms/60000%60, ms/1000%60, ms%1000)
	}
	dotted := func(ms int, id string) string {
		return fmt.Sprintf("20250313T10%02d%02d%03d000Z%s", ms/60000%60, ms/1000%60, ms%1000, id)
	}
	for t := range traces {
		root := fmt.Sprintf("1f0a%04x-0000-4000-8000-%012x", t>>16, t)
		ms := t * 97
		rootDotted := dotted(ms, root)
		fmt.Fprintf(&b, `{"id": "%s", "name": "AgentExecutor", "run_type": "chain", "trace_id": "%s", "dotted_order": "%s", "parent_run_id": null, "start_time": "%s", "end_time": "%s", "extra": {"metadata": {"thread_id": "thread-%d"}, "runtime": {"sdk": "langsmith-py", "sdk_version": "0.3.45"}}, "inputs": {"input": "find the documents"}, "outputs": {"output": "done"}, "error": null, "tags": [], "status": "success"}`+"\n",
			root, root, rootDotted, at(ms), at(ms+50*calls+1), t)
		for c := range calls {
			llm := fmt.Sprintf("1f0a%04x-%04x-4000-8000-%012x", t>>16, 2*c+1, t)
			tool := fmt.Sprintf("1f0a%04x-%04x-4000-8000-%012x", t>>16, 2*c+2, t)
			fmt.Fprintf(&b, `{"id": "%s", "name": "ChatOpenAI", "run_type": "llm", "trace_id": "%s", "dotted_order": "%s.%s", "parent_run_id": "%s", "start_time": "%s", "end_time": "%s", "extra": {"metadata": {"ls_provider": "openai", "ls_model_name": "gpt-4o-mini"}}, "inputs": {}, "outputs": {"llm_output": {"token_usage": {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52}}}, "error": null, "tags": [], "status": "success"}`+"\n",
				llm, root, rootDotted, dotted(ms+1, llm), root, at(ms+1), at(ms+40))
			fmt.Fprintf(&b, `{"id": "%s", "name": "%s", "run_type": "tool", "trace_id": "%s", "dotted_order": "%s.%s", "parent_run_id": "%s", "start_time": "%s", "end_time": "%s", "extra": {"metadata": {"thread_id": "thread-%d"}}, "inputs": {"input": "{\"id\": \"doc-%d\"}"}, "outputs": {"output": "{\"ok\": true}"}, "error": null, "tags": [], "status": "success"}`+"\n",
				tool, [...]string{"search", "read", "write"}[c%3], root, rootDotted, dotted(ms+41, tool), root, at(ms+41), at(ms+45), t, c)
			ms += 50
		}
	}
	return b.Bytes()
}

// BenchmarkRuns_Read reads 200 traces of 20 calls (8,200 runs);
// allocs/record is the allocations a line of the file.
func BenchmarkRuns_Read(b *testing.B) {
	data := runsFile(200, 20)
	records := bytes.Count(data, []byte("\n"))
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keep=%v", keep), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for b.Loop() {
				in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data), KeepText: keep, Warn: func(trajeval.Warning) {}}
				if err := langchain.Runs.Read(context.Background(), in, func(*trajeval.Trajectory) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N*records), "allocs/record")
		})
	}
}

// TestRuns_benchFile writes the benchmark's file, larger, for a command's
// measure: TRAJEVAL_RD_RUNS=FILE (and _TRACES, default 2,000).
func TestRuns_benchFile(t *testing.T) {
	name := os.Getenv("TRAJEVAL_RD_RUNS")
	if name == "" {
		t.Skip("TRAJEVAL_RD_RUNS not set")
	}
	n := 2000
	fmt.Sscan(os.Getenv("TRAJEVAL_RD_TRACES"), &n)
	if err := os.WriteFile(name, runsFile(n, 20), 0o644); err != nil {
		t.Fatal(err)
	}
}
