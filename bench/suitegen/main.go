// Command suitegen writes an AgentV-style suite of N cases and a traces
// file of their recorded runs, for measuring trajeval end to end:
//
//	go run ./bench/suitegen -n 100000 -calls 12 -dir /tmp/bench
//	trajeval eval /tmp/bench/suite.yaml --traces /tmp/bench/traces.jsonl --format jsonl > /dev/null
//
// Every case is scored by seven evaluators, as in a timing run of AgentV
// itself on the same cases: any_order with minimums, in_order with
// arguments and latency, exact, subset, superset, execution_metrics and a
// composite of two trajectory evaluators. A third of the runs are
// perturbed (a call dropped, swapped or given other arguments).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
)

var tools = []string{"search", "read_document", "summarize", "filter", "fetch", "write_file", "grep", "list"}

func main() {
	n := flag.Int("n", 1000, "cases")
	calls := flag.Int("calls", 12, "tool calls per run")
	dir := flag.String("dir", "bench-out", "output folder")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	base := make([]string, *calls)
	for i := range base {
		base[i] = tools[rng.IntN(len(tools))]
	}
	base[0], base[len(base)-1] = "search", "summarize"
	if err := writeSuite(filepath.Join(*dir, "suite.yaml"), *n, base); err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(filepath.Join(*dir, "traces.jsonl"))
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	for c := range *n {
		seq := append([]string(nil), base...)
		query := "python history"
		switch rng.IntN(9) {
		case 0:
			i := rng.IntN(len(seq))
			seq = append(seq[:i], seq[i+1:]...)
		case 1:
			i := rng.IntN(len(seq) - 1)
			seq[i], seq[i+1] = seq[i+1], seq[i]
		case 2:
			query = "java history"
		}
		var msgs []map[string]any
		msgs = append(msgs, map[string]any{"role": "user", "content": "Research the history of Python"})
		for i, name := range seq {
			args := map[string]any{"id": fmt.Sprintf("doc-%d", i)}
			if name == "search" {
				args = map[string]any{"query": query, "limit": 10}
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
				"tool": name, "id": fmt.Sprintf("call_%d", i), "input": args,
				"output": map[string]any{"ok": true}, "status": "ok", "duration_ms": 20 + rng.IntN(200),
			}}})
		}
		msgs = append(msgs, map[string]any{"role": "assistant", "content": "Python was created by Guido van Rossum."})
		rec := map[string]any{"id": fmt.Sprintf("case-%06d", c), "output": msgs,
			"token_usage": map[string]any{"input": 1000 + rng.IntN(500), "output": 200}, "cost_usd": 0.01, "duration_ms": 3000}
		if err := enc.Encode(rec); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func writeSuite(path string, n int, base []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	list := func(names []string) string {
		s := "["
		for i, t := range names {
			if i > 0 {
				s += ", "
			}
			s += t
		}
		return s + "]"
	}
	fmt.Fprintf(w, `name: bench
execution:
  evaluators:
    - {name: coverage, type: tool_trajectory, mode: any_order, minimums: {search: 1, read_document: 1}}
    - name: ordered
      type: tool_trajectory
      mode: in_order
      expected:
        - {tool: search, args: {query: python history}, max_duration_ms: 150}
        - {tool: summarize, max_duration_ms: 200}
    - {name: exact, type: tool_trajectory, mode: exact, expected: %s}
    - {name: allowed, type: tool_trajectory, mode: subset, expected: %s}
    - {name: superset, type: tool_trajectory, mode: superset, args_match: ignore, expected: [search, summarize]}
    - {name: budget, type: execution_metrics, max_tool_calls: 20, max_tokens: 1400, max_cost_usd: 0.05}
    - name: combined
      type: composite
      aggregator: {type: weighted_average, weights: {a: 2, b: 1}}
      evaluators:
        - {name: a, type: tool_trajectory, mode: in_order, expected: [search, summarize]}
        - {name: b, type: tool_trajectory, mode: any_order, expected: [read_document]}
evalcases:
`, list(base), list(tools))
	for c := range n {
		fmt.Fprintf(w, "  - {id: case-%06d, input: Research the history of Python}\n", c)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
