package run_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// reusedSuite scores every trajectory of a traces file with evaluators
// that let the reader keep arguments and results as text, and report
// what they saw of them: argument diffs, error messages, names.
const reusedSuite = `name: reused
execution:
  evaluators:
    - {name: order, type: tool_trajectory, mode: in_order, expected: [{tool: search, args: {q: {$regex: "a"}}}, {tool: read, output: {t: {$regex: "b"}}}]}
    - {name: errors, type: tool_error, pattern: "(?i)x"}
    - {name: rules, type: tool_rules, rules: [{never: {tool: read, args: {q: "b"}}}, {at_most: {search: 2}}]}
    - {name: uargs, type: tool_call_args, tool_calls: [{name: search, args: {q: a}}]}
    - {name: exact, type: trajectory_exact_match, reference_trajectory: [{tool_name: search, tool_input: {q: a}}]}
    - {name: budget, type: execution_metrics, max_tool_calls: 5, max_duration_ms: 300}
`

// FuzzRun_reusedMemory is TestEval_reusedMemory (of the command) on the
// fuzzer's texts: 300 compact AgentV records whose arguments, results and
// error messages are pieces of the texts, a different piece in each
// record, scored by a suite with no cases, give the rows of the same run
// that reuses no memory (run.SetRecycleSteps), rendered once the run is
// over, so that a row holding a step's memory would show a later
// record's bytes.
func FuzzRun_reusedMemory(f *testing.F) {
	f.Add("alpha beta", `{"a": [1, 2]}`, "access denied")
	f.Add("", "\u00e9\n\"\\", strings.Repeat("x", 300))
	f.Add("bravo", "a\x00b", "\U0001F600 lost \xff")
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(reusedSuite), 0o644); err != nil {
		f.Fatal(err)
	}
	s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{}, true)
	if len(errs) > 0 {
		f.Fatal(errs)
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		texts := []string{a, b, c, a + b, b + c}
		piece := func(i int) string {
			t := texts[i%len(texts)]
			if len(t) == 0 {
				return t
			}
			return t[i%len(t):] + t[:i%len(t)]
		}
		q := func(v string) string {
			data, _ := json.Marshal(v)
			return string(data)
		}
		var lines []string
		for i := range 300 {
			var msgs []string
			for k := range i % 7 {
				tool, status := []string{"search", "read"}[(i+k)%2], "ok"
				out := fmt.Sprintf(`{"t":%s,"n":%d}`, q(piece(i+k+1)), i)
				if (i+k)%5 == 0 {
					status, out = "error", q(piece(i+k+2))
				}
				msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","tool_calls":[{"tool":%q,"id":"c%d","input":{"q":%s},"output":%s,"status":%q,"start_time":"2026-01-01T00:00:00.000Z","end_time":"2026-01-01T00:00:00.0%02dZ","duration_ms":%d}]}`,
					tool, k, q(piece(i+k)), out, status, k, 10*k))
			}
			lines = append(lines, fmt.Sprintf(`{"id":"t%d","output":[{"role":"user","content":%s}%s]}`, i, q(piece(i)), strings.Join(append([]string{""}, msgs...), ",")))
		}
		traces := filepath.Join(t.TempDir(), "traces.jsonl")
		if err := os.WriteFile(traces, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rows := func(recycle bool) (string, error) {
			defer run.SetRecycleSteps(recycle)()
			var kept []trajeval.CaseResult
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := run.Run(ctx, []*suite.Suite{s}, run.Options{Traces: traces, Workers: 2}, func(r trajeval.CaseResult) error {
				r.StartedAt, r.DurationMS = time.Time{}, 0
				kept = append(kept, r)
				return nil
			})
			var out strings.Builder
			for _, r := range kept {
				out.WriteString(rowJSON(t, r) + "\n")
			}
			return out.String(), err
		}
		want, errWant := rows(false)
		got, errGot := rows(true)
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) {
			t.Fatalf("error %v reusing memory, %v without", errGot, errWant)
		}
		if got != want {
			g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Fatalf("row %d differs reusing memory:\n got %.600s\nwant %.600s", i+1, g[i], w[i])
				}
			}
			t.Fatalf("%d rows reusing memory, %d without", len(g), len(w))
		}
	})
}
