// Command suitegen writes an AgentV-style suite of N cases and a JSON Lines
// file of their recorded runs, for measuring trajeval end to end and side by
// side with other tools:
//
//	go run ./bench/suitegen -n 100000 -steps 20 -evaluators three -dir /tmp/bench
//	trajeval eval /tmp/bench/suite.yaml --traces /tmp/bench/traces.jsonl --format jsonl > /dev/null
//
// The output depends only on the flags: the same flags write the same bytes.
//
// Flags:
//   - -n cases, -steps tool calls per run, -seed the random seed.
//   - -parallel P: every P-th call is issued in parallel with the next one
//     (the two share an assistant message and a start time); 0 for none.
//   - -argsize B: every call also carries a "payload" argument of B bytes.
//   - -split K: the cases go K at a time to suites/bench-NNN.yaml instead
//     of suite.yaml (trajeval eval DIR/suites --traces DIR/traces.jsonl),
//     for a run of several suite files; one suite.yaml of a million cases
//     loads as well.
//   - -evaluators: "seven" (default) scores every case as a timing run of
//     AgentV itself did: any_order with minimums, in_order with arguments
//     and latency, exact, subset, superset, execution_metrics and a
//     composite of two trajectory evaluators. "three": in_order with
//     arguments, superset and execution_metrics. "check": only the check
//     every peer runs (see below).
//   - -peers: also write the same runs in the other tools' shapes (see
//     bench/README.md): agentv/ (an AgentV project whose cli target replays
//     fixtures/<id>.json, and the same runs as transcript.jsonl for its
//     --transcript), openai.jsonl (OpenAI chat messages, for LangChain
//     agentevals), spans.jsonl (tool spans, for promptfoo) and check.json
//     (the expected calls of the check).
//
// The check: search {query: python history} (the first call),
// read_document {id} (the middle one) and summarize {id} (the last one)
// must appear in this order, each with at least these arguments (in_order,
// arguments matched as a superset). Each of the three tools is called once
// in an unperturbed run, so greedy and optimal matchers agree.
//
// A third of the runs are perturbed: a call dropped, two neighbours
// swapped, or the search given another query.
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
	"strings"
	"time"
)

var tools = []string{"search", "read_document", "summarize", "filter", "fetch", "write_file", "grep", "list"}

type options struct {
	n, steps, parallel, argSize, split int
	seed                               uint64
	evaluators, dir                    string
	peers                              bool
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 1000, "cases")
	flag.IntVar(&o.steps, "steps", 12, "tool calls per run (at least 3)")
	flag.IntVar(&o.steps, "calls", 12, "same as -steps")
	flag.IntVar(&o.parallel, "parallel", 0, "every P-th call runs in parallel with the next (0: none)")
	flag.IntVar(&o.argSize, "argsize", 0, "bytes of an extra payload argument on every call")
	flag.IntVar(&o.split, "split", 0, "write the cases K at a time to suites/bench-NNN.yaml (0: one suite.yaml)")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed")
	flag.StringVar(&o.evaluators, "evaluators", "seven", "evaluators per case: seven, three or check")
	flag.BoolVar(&o.peers, "peers", false, "also write the runs in the peers' shapes")
	flag.StringVar(&o.dir, "dir", "bench-out", "output folder")
	flag.Parse()
	if o.steps < 3 {
		log.Fatal("-steps must be at least 3")
	}
	if err := generate(o); err != nil {
		log.Fatal(err)
	}
}

// A call is one recorded tool call; pos is its place in the unperturbed
// run, which names its document.
type call struct {
	Tool       string         `json:"tool"`
	ID         string         `json:"id"`
	Input      map[string]any `json:"input"`
	Output     map[string]any `json:"output"`
	Status     string         `json:"status"`
	StartTime  string         `json:"start_time"`
	EndTime    string         `json:"end_time"`
	DurationMS int            `json:"duration_ms"`
}

type message struct {
	Role      string `json:"role"`
	Content   string `json:"content,omitempty"`
	ToolCalls []call `json:"tool_calls,omitempty"`
}

type usage struct {
	Input  int `json:"input"`
	Output int `json:"output"`
}

type record struct {
	ID         string    `json:"id"`
	Output     []message `json:"output"`
	TokenUsage usage     `json:"token_usage"`
	CostUSD    float64   `json:"cost_usd"`
	DurationMS int       `json:"duration_ms"`
}

// expectedCall is one call of the check.
type expectedCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func generate(o options) error {
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(o.seed, 2))
	base := make([]string, o.steps)
	filler := tools[3:]
	for i := range base {
		base[i] = filler[rng.IntN(len(filler))]
	}
	mid := o.steps / 2
	base[0], base[mid], base[o.steps-1] = "search", "read_document", "summarize"
	check := []expectedCall{
		{Tool: "search", Args: map[string]any{"query": "python history"}},
		{Tool: "read_document", Args: map[string]any{"id": docID(mid)}},
		{Tool: "summarize", Args: map[string]any{"id": docID(o.steps - 1)}},
	}
	if err := writeSuites(o, base, check); err != nil {
		return err
	}
	out, err := newOut(filepath.Join(o.dir, "traces.jsonl"))
	if err != nil {
		return err
	}
	var peers *peerOut
	if o.peers {
		if peers, err = newPeers(o, check); err != nil {
			return err
		}
	}
	payload := strings.Repeat("x", o.argSize)
	for c := range o.n {
		rec := run(rng, o, c, base, payload)
		if err := out.enc.Encode(rec); err != nil {
			return err
		}
		if peers != nil {
			if err := peers.write(rec); err != nil {
				return err
			}
		}
	}
	if peers != nil {
		if err := peers.close(); err != nil {
			return err
		}
	}
	return out.close()
}

func docID(pos int) string { return fmt.Sprintf("doc-%d", pos) }

// run makes case c's recorded run: the base sequence, perhaps perturbed.
func run(rng *rand.Rand, o options, c int, base []string, payload string) record {
	pos := make([]int, len(base))
	for i := range pos {
		pos[i] = i
	}
	query := "python history"
	switch rng.IntN(9) {
	case 0:
		i := rng.IntN(len(pos))
		pos = append(pos[:i], pos[i+1:]...)
	case 1:
		i := rng.IntN(len(pos) - 1)
		pos[i], pos[i+1] = pos[i+1], pos[i]
	case 2:
		query = "java history"
	}
	msgs := make([]message, 0, len(pos)+2)
	msgs = append(msgs, message{Role: "user", Content: "Research the history of Python"})
	t := epoch.Add(time.Duration(c) * time.Minute)
	for i := 0; i < len(pos); {
		group := 1
		if o.parallel > 0 && i%o.parallel == 0 && i+1 < len(pos) {
			group = 2
		}
		m := message{Role: "assistant"}
		longest := 0
		for _, p := range pos[i : i+group] {
			name := base[p]
			args := map[string]any{"id": docID(p)}
			if name == "search" {
				args = map[string]any{"query": query, "limit": 10}
			}
			if payload != "" {
				args["payload"] = payload
			}
			d := 20 + rng.IntN(200)
			longest = max(longest, d)
			m.ToolCalls = append(m.ToolCalls, call{
				Tool: name, ID: fmt.Sprintf("call_%d", p), Input: args,
				Output: map[string]any{"ok": true}, Status: "ok",
				StartTime: stamp(t), EndTime: stamp(t.Add(time.Duration(d) * time.Millisecond)), DurationMS: d,
			})
		}
		msgs = append(msgs, m)
		t = t.Add(time.Duration(longest+5) * time.Millisecond)
		i += group
	}
	msgs = append(msgs, message{Role: "assistant", Content: "Python was created by Guido van Rossum."})
	return record{ID: fmt.Sprintf("case-%07d", c), Output: msgs,
		TokenUsage: usage{Input: 1000 + rng.IntN(500), Output: 200}, CostUSD: 0.01, DurationMS: 3000}
}

func stamp(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z") }

type out struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
}

func newOut(path string) (*out, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	return &out{f: f, w: w, enc: json.NewEncoder(w)}, nil
}

func (o *out) close() error {
	if err := o.w.Flush(); err != nil {
		o.f.Close()
		return err
	}
	return o.f.Close()
}

// flow writes v as a one-line YAML flow value (JSON is YAML).
func flow(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings and numbers always marshal
	}
	return string(b)
}

// writeSuites writes suite.yaml, or with -split K the cases K at a time
// to suites/bench-NNN.yaml.
func writeSuites(o options, base []string, check []expectedCall) error {
	if o.split <= 0 || o.n <= o.split {
		return writeSuite(filepath.Join(o.dir, "suite.yaml"), "bench", 0, o.n, o, base, check)
	}
	dir := filepath.Join(o.dir, "suites")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, from := 0, 0; from < o.n; i, from = i+1, from+o.split {
		name := fmt.Sprintf("bench-%03d", i)
		if err := writeSuite(filepath.Join(dir, name+".yaml"), name, from, min(o.n, from+o.split), o, base, check); err != nil {
			return err
		}
	}
	return nil
}

// writeSuite writes cases from to to-1 as the suite name.
func writeSuite(path, name string, from, to int, o options, base []string, check []expectedCall) error {
	f, err := newOut(path)
	if err != nil {
		return err
	}
	w := f.w
	fmt.Fprintf(w, "name: %s\nexecution:\n  evaluators:\n", name)
	checkYAML := fmt.Sprintf("    - {name: check, type: tool_trajectory, mode: in_order, args_match: superset, expected: %s}\n", flow(check))
	switch o.evaluators {
	case "check":
		w.WriteString(checkYAML)
	case "three":
		w.WriteString(checkYAML)
		w.WriteString("    - {name: superset, type: tool_trajectory, mode: superset, args_match: ignore, expected: [search, summarize]}\n")
		w.WriteString("    - {name: budget, type: execution_metrics, max_tool_calls: 40, max_tokens: 1400, max_cost_usd: 0.05}\n")
	case "seven":
		fmt.Fprintf(w, `    - {name: coverage, type: tool_trajectory, mode: any_order, minimums: {search: 1, read_document: 1}}
    - name: ordered
      type: tool_trajectory
      mode: in_order
      expected:
        - {tool: search, args: {query: python history}, max_duration_ms: 150}
        - {tool: summarize, max_duration_ms: 200}
    - {name: exact, type: tool_trajectory, mode: exact, expected: %s}
    - {name: allowed, type: tool_trajectory, mode: subset, expected: %s}
    - {name: superset, type: tool_trajectory, mode: superset, args_match: ignore, expected: [search, summarize]}
    - {name: budget, type: execution_metrics, max_tool_calls: 40, max_tokens: 1400, max_cost_usd: 0.05}
    - name: combined
      type: composite
      aggregator: {type: weighted_average, weights: {a: 2, b: 1}}
      evaluators:
        - {name: a, type: tool_trajectory, mode: in_order, expected: [search, summarize]}
        - {name: b, type: tool_trajectory, mode: any_order, expected: [read_document]}
`, flow(base), flow(tools))
	default:
		f.close()
		return fmt.Errorf("-evaluators must be seven, three or check, not %q", o.evaluators)
	}
	w.WriteString("evalcases:\n")
	for c := from; c < to; c++ {
		fmt.Fprintf(w, "  - {id: case-%07d, input: Research the history of Python}\n", c)
	}
	return f.close()
}
