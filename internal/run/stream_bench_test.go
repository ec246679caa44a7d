package run_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/trace"
)

// streamFiles writes a suite with no cases and three evaluators, and n
// recorded runs of 20 tool calls as AgentV JSON Lines.
func streamFiles(b *testing.B, n int) (suitePath, tracesPath string) {
	dir := b.TempDir()
	suitePath, tracesPath = filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "traces.jsonl")
	yaml := `name: stream
execution:
  evaluators:
    - {name: coverage, type: tool_trajectory, mode: any_order, minimums: {search: 1, read_document: 1}}
    - name: ordered
      type: tool_trajectory
      mode: in_order
      expected:
        - {tool: search, args: {query: python history}, max_duration_ms: 150}
        - {tool: summarize, max_duration_ms: 200}
    - {name: budget, type: execution_metrics, max_tool_calls: 25, max_tokens: 1400, max_cost_usd: 0.05}
`
	if err := os.WriteFile(suitePath, []byte(yaml), 0o644); err != nil {
		b.Fatal(err)
	}
	tools := []string{"search", "read_document", "summarize", "filter", "fetch", "write_file", "grep", "list"}
	var s strings.Builder
	for i := range n {
		fmt.Fprintf(&s, `{"id":"case-%06d","cost_usd":0.01,"duration_ms":3000,"token_usage":{"input":%d,"output":200},"output":[{"role":"user","content":"Research the history of Python"}`, i, 1000+i%500)
		for j := range 20 {
			args := fmt.Sprintf(`{"id":"doc-%d"}`, j)
			tool := tools[(i+j*3)%len(tools)]
			if tool == "search" {
				args = `{"query":"python history","limit":10}`
			}
			fmt.Fprintf(&s, `,{"role":"assistant","tool_calls":[{"tool":%q,"id":"call_%d","input":%s,"output":{"ok":true},"status":"ok","duration_ms":%d}]}`, tool, j, args, 20+(i*7+j*13)%200)
		}
		s.WriteString(`,{"role":"assistant","content":"Python was created by Guido van Rossum."}]}` + "\n")
	}
	if err := os.WriteFile(tracesPath, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return suitePath, tracesPath
}

// BenchmarkRun_stream scores a file of recorded runs with a suite of no
// cases, end to end but for the report ("score"), against only reading
// the same file into trajectories ("parse"): the cost of scoring on top of
// reading.
func BenchmarkRun_stream(b *testing.B) {
	const n = 10000
	suitePath, tracesPath := streamFiles(b, n)
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			got := 0
			err := trace.Read(context.Background(), tracesPath, trace.Options{}, func(*trajeval.Trajectory) error { got++; return nil })
			if err != nil || got != n {
				b.Fatalf("%d trajectories, %v", got, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/trajectory")
	})
	// The same runs as listed cases of the same suite, loaded once: what
	// the run's bookkeeping of a listed case adds to scoring it.
	listed := filepath.Join(filepath.Dir(suitePath), "listed.yaml")
	yaml, err := os.ReadFile(suitePath)
	if err != nil {
		b.Fatal(err)
	}
	var cases strings.Builder
	cases.WriteString("evalcases:\n")
	for i := range n {
		fmt.Fprintf(&cases, "  - {id: case-%06d, input: Research the history of Python}\n", i)
	}
	if err := os.WriteFile(listed, append(yaml, cases.String()...), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bb := range []struct{ name, suite string }{{"score", suitePath}, {"score listed", listed}} {
		b.Run(bb.name, func(b *testing.B) {
			scoreAll(b, bb.suite, tracesPath, n)
		})
	}
}

// scoreAll runs the suite at suitePath on tracesPath, which holds n runs.
func scoreAll(b *testing.B, suitePath, tracesPath string, n int) {
	s, errs := suite.LoadFile(suitePath, suite.Options{}, true)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	for b.Loop() {
		sum, err := run.Run(context.Background(), []*suite.Suite{s}, run.Options{Traces: tracesPath}, func(trajeval.CaseResult) error { return nil })
		if err != nil || sum.Cases != n {
			b.Fatalf("%d cases, %v", sum.Cases, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/trajectory")
}
