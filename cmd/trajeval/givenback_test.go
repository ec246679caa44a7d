package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEval_stepsGivenBack: a recorded run lends the trajectories its rows
// alone hold to the recorder, which gives their steps back once it has
// encoded them (a failing case's) or dropped them (a passing case's). The
// rows written and every row stored, trajectories included, are those of
// the same run made without lending (lendSteps off), read back only once
// the run is over: a step slice given back while a row or the recorder
// still held it would be filled with a later trajectory's steps.
func TestEval_stepsGivenBack(t *testing.T) {
	const evaluators = `
    - {name: order, type: tool_trajectory, mode: in_order, args_match: superset, expected: [{tool: search, args: {query: q1}}, {tool: read}, {tool: write}]}
    - {name: errors, type: tool_error}
    - {name: budget, type: execution_metrics, max_tool_calls: 12}
`
	rng := rand.New(rand.NewPCG(15, 23))
	tools := []string{"search", "read", "write", "delete", "list", "fetch_page"}
	var lines []string
	for i := range 1500 {
		n := 1 + rng.IntN(30) // across several of the pool's classes
		msgs := []string{`{"role": "user", "content": "go"}`}
		for k := range n {
			status := "ok"
			if rng.IntN(9) == 0 {
				status = "error"
			}
			msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"tool": %q, "id": "c%d", "input": {"query": "q%d", "id": "doc-%d"}, "output": {"items": [{"id": "doc-%d"}]}, "status": %q, "duration_ms": %d}]}`,
				tools[rng.IntN(len(tools))], k, rng.IntN(3), rng.IntN(4), rng.IntN(4), status, rng.IntN(200)))
		}
		lines = append(lines, fmt.Sprintf(`{"id": "t%d", "output": [%s]}`, i, strings.Join(msgs, ", ")))
	}
	dir := t.TempDir()
	files := map[string]string{
		"traces.jsonl": strings.Join(lines, "\n") + "\n",
		"open.yaml":    "name: open\nexecution:\n  evaluators:" + evaluators,
		"open2.yaml":   "name: open2\nexecution:\n  evaluators:\n    - {name: all, type: tool_trajectory, mode: superset, expected: [search, read]}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"one suite", []string{"open.yaml"}, "one row a trajectory: lent, given back once encoded or dropped"},
		{"two suites", []string{"open.yaml", "open2.yaml"}, "two rows a trajectory: never lent, never given back"},
		{"include-trace", []string{"open.yaml", "--include-trace"}, "the report's rows keep the trajectories: never lent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eval := func(lend bool) (written, stored string) {
				old := lendSteps
				lendSteps = lend
				defer func() { lendSteps = old }()
				db := filepath.Join(t.TempDir(), "runs.db")
				args := []string{"eval", "--traces", filepath.Join(dir, "traces.jsonl"), "--workers", "4", "-q", "--format", "jsonl", "--db", db}
				for _, a := range tt.args {
					if strings.HasSuffix(a, ".yaml") {
						a = filepath.Join(dir, a)
					}
					args = append(args, a)
				}
				code, stdout, stderr := runArgs(t, args...)
				if code > 1 {
					t.Fatalf("eval: exit %d\n%s", code, stderr)
				}
				return stripTimes(stdout), storedRows(t, db, 200)
			}
			wantRows, wantStored := eval(false)
			gotRows, gotStored := eval(true)
			if gotRows != wantRows {
				t.Errorf("the rows written differ from those of a run that lends nothing (%s)", tt.reason)
			}
			if gotStored != wantStored {
				t.Errorf("the rows stored differ from those of a run that lends nothing (%s):\n%s", tt.reason, firstDiff(gotStored, wantStored))
			}
		})
	}
}

// stripTimes takes out of JSON Lines rows the fields that differ from
// run to run: when each case started and how long it took.
func stripTimes(rows string) string {
	var b strings.Builder
	for line := range strings.Lines(rows) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			b.WriteString(line)
			continue
		}
		delete(m, "started_at")
		delete(m, "duration_ms")
		data, _ := json.Marshal(m)
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

// firstDiff returns the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %.400s\nwant %.400s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
