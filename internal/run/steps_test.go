package run_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// TestRun_recycledSteps: a run gives the step slices of the trajectories
// it has scored back to its readers (run.SetRecycleSteps) only when
// nothing can read them any more, so its rows are the ones a run that
// makes every slice new gives, whatever the workers, the number of jobs a
// trajectory has, and the trajectories' lengths (which a slice given back
// may or may not fit). The rows are rendered once the run is over, so
// that a step reused under a row kept by the caller would show. With
// IncludeTrace and Options.Steps, the rows keep their trajectories and
// the run lends those one row holds to the caller (takeBackRows): the
// rows are those of a run without a pool.
func TestRun_recycledSteps(t *testing.T) {
	const evaluators = `
    - {name: order, type: tool_trajectory, mode: in_order, args_match: superset, expected: [{tool: search, args: {query: q1}}, {tool: read}, {tool: write}]}
    - {name: any, type: tool_trajectory, mode: any_order, expected: [{tool: read, args: {id: {$from: "search.result.items[*].id"}}}, {tool: delete}]}
    - {name: errors, type: tool_error}
    - {name: budget, type: execution_metrics, max_tool_calls: 12, max_duration_ms: 900}
`
	rng := rand.New(rand.NewPCG(7, 23))
	tools := []string{"search", "read", "write", "delete", "list", "fetch_page"}
	var lines, ids []string
	for i := range 700 {
		n := 1 + rng.IntN(30) // across several of the pool's classes
		if i%50 == 0 {
			n = 0 // no steps at all
		}
		msgs := []string{`{"role": "user", "content": "go"}`}
		for k := range n {
			tool := tools[rng.IntN(len(tools))]
			status := "ok"
			if rng.IntN(9) == 0 {
				status = "error"
			}
			if i%2 == 0 {
				// Compact, times included, as AgentV writes it: read
				// straight into steps from the pool, the texts kept in
				// memory the reader reuses.
				msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","tool_calls":[{"tool":%q,"id":"c%d","input":{"id":"doc-%d","query":"q%d"},"output":{"items":[{"id":"doc-%d"}]},"status":%q,"start_time":"2026-01-01T00:00:00.000Z","end_time":"2026-01-01T00:00:00.100Z","duration_ms":%d}]}`,
					tool, k, rng.IntN(4), rng.IntN(3), rng.IntN(4), status, rng.IntN(200)))
				continue
			}
			msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"tool": %q, "id": "c%d", "input": {"query": "q%d", "id": "doc-%d"}, "output": {"items": [{"id": "doc-%d"}]}, "status": %q, "duration_ms": %d}]}`,
				tool, k, rng.IntN(3), rng.IntN(4), rng.IntN(4), status, rng.IntN(200)))
		}
		id := fmt.Sprintf("t%d", i)
		ids = append(ids, id)
		if i%2 == 0 {
			msgs[0] = `{"role":"user","content":"go"}`
			lines = append(lines, fmt.Sprintf(`{"id":%q,"output":[%s]}`, id, strings.Join(msgs, ",")))
			continue
		}
		lines = append(lines, fmt.Sprintf(`{"id": %q, "output": [%s]}`, id, strings.Join(msgs, ", ")))
	}
	dir := t.TempDir()
	traces := filepath.Join(dir, "traces.jsonl")
	listed := "name: listed\nexecution:\n  evaluators:" + evaluators + "evalcases:\n"
	for _, id := range ids[:len(ids)/2] {
		listed += fmt.Sprintf("  - {id: %s, input: go}\n", id)
	}
	files := map[string]string{
		"traces.jsonl": strings.Join(lines, "\n") + "\n",
		"listed.yaml":  listed,
		"open.yaml":    "name: open\nexecution:\n  evaluators:" + evaluators,
		"open2.yaml":   "name: open2\nexecution:\n  evaluators:\n    - {name: all, type: tool_trajectory, mode: superset, expected: [search, read]}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func(name string) *suite.Suite {
		s, errs := suite.LoadFile(filepath.Join(dir, name), suite.Options{}, true)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return s
	}
	tests := []struct {
		name    string
		suites  []string
		workers int
		reason  string
	}{
		{"listed", []string{"listed.yaml"}, 4, "each trajectory is one case's: its steps go back once scored"},
		{"listed, one worker", []string{"listed.yaml"}, 1, "jobs run as they are submitted"},
		{"open", []string{"open.yaml"}, 3, "a suite with no cases: one job a trajectory"},
		{"open and listed", []string{"listed.yaml", "open.yaml"}, 4, "a listed trajectory is scored twice, by its case and by the open suite: not given back"},
		{"two open", []string{"open.yaml", "open2.yaml"}, 4, "two jobs a trajectory: not given back"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var suites []*suite.Suite
			for _, name := range tt.suites {
				suites = append(suites, load(name))
			}
			rows := func(recycle bool, steps *trajeval.StepPool, drop ...bool) []string {
				defer run.SetRecycleSteps(recycle)()
				var kept []trajeval.CaseResult
				opts := run.Options{Traces: traces, Workers: tt.workers, IncludeTrace: steps != nil, Steps: steps, DropPassing: len(drop) > 0}
				_, err := run.Run(context.Background(), suites, opts, func(r trajeval.CaseResult) error {
					r.StartedAt, r.DurationMS = time.Time{}, 0
					if len(drop) > 0 && r.Status == trajeval.StatusPass && r.Trajectory != nil {
						t.Fatalf("%s: passing row %s kept its trajectory with DropPassing", tt.reason, r.ID)
					}
					kept = append(kept, r)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, r := range kept {
					out = append(out, rowJSON(t, r))
				}
				// With DropPassing, a trajectory two jobs share may be
				// left in one row (the other passed): it is not lent.
				if recycle && steps != nil && len(drop) == 0 {
					takeBackRows(t, steps, kept, tt.reason)
				}
				return out
			}
			made, recycled := rows(false, nil), rows(true, nil)
			if len(made) < len(ids)/2 {
				t.Fatalf("%d rows, want at least %d", len(made), len(ids)/2)
			}
			if !slices.Equal(made, recycled) {
				for i := range min(len(made), len(recycled)) {
					if made[i] != recycled[i] {
						t.Fatalf("%s: row %d differs with steps given back:\nmade:     %s\nrecycled: %s", tt.reason, i, made[i], recycled[i])
					}
				}
				t.Fatalf("%s: %d rows made, %d recycled", tt.reason, len(made), len(recycled))
			}
			// Rows that keep their trajectories, lent by the run to the
			// caller: the same rows (with their trajectories) as without
			// a pool, and only a trajectory one row holds is lent.
			kept, lent := rows(false, new(trajeval.StepPool)), rows(true, new(trajeval.StepPool))
			if !slices.Equal(kept, lent) {
				for i := range min(len(kept), len(lent)) {
					if kept[i] != lent[i] {
						t.Fatalf("%s: row %d differs with trajectories lent:\nkept: %s\nlent: %s", tt.reason, i, kept[i], lent[i])
					}
				}
				t.Fatalf("%s: %d rows kept, %d lent", tt.reason, len(kept), len(lent))
			}
			// With DropPassing, the same rows but for the passing ones'
			// trajectories, given back as they were scored.
			var want []trajeval.CaseResult
			defer run.SetRecycleSteps(false)()
			_, err := run.Run(context.Background(), suites, run.Options{Traces: traces, Workers: tt.workers, IncludeTrace: true}, func(r trajeval.CaseResult) error {
				r.StartedAt, r.DurationMS = time.Time{}, 0
				if r.Status == trajeval.StatusPass {
					r.Trajectory = nil
				}
				want = append(want, r)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			dropped := rows(true, new(trajeval.StepPool), true)
			for i, r := range want {
				if i >= len(dropped) || rowJSON(t, r) != dropped[i] {
					t.Fatalf("%s: row %d differs with DropPassing", tt.reason, i)
				}
			}
			// With KeepsFailing false too (the history past
			// --keep-failing), no row keeps its trajectory, and every
			// job that alone holds one gives its steps back.
			pool := new(trajeval.StepPool)
			var got []string
			_, err = run.Run(context.Background(), suites, run.Options{Traces: traces, Workers: tt.workers, IncludeTrace: true, Steps: pool, DropPassing: true,
				KeepsFailing: func() bool { return false }}, func(r trajeval.CaseResult) error {
				r.StartedAt, r.DurationMS = time.Time{}, 0
				if r.Trajectory != nil {
					return fmt.Errorf("%s: row %s kept its trajectory with KeepsFailing false", tt.reason, r.ID)
				}
				got = append(got, rowJSON(t, r))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range want {
				r.Trajectory = nil
				if i >= len(got) || rowJSON(t, r) != got[i] {
					t.Fatalf("%s: row %d differs with KeepsFailing false", tt.reason, i)
				}
			}
		})
	}
}

// takeBackRows gives back the trajectories of rows, as their last holder
// would, and checks that steps takes back those one row holds, each once,
// and no trajectory that several rows hold.
func takeBackRows(t *testing.T, steps *trajeval.StepPool, rows []trajeval.CaseResult, reason string) {
	t.Helper()
	holders := map[*trajeval.Trajectory]int{}
	for _, r := range rows {
		holders[r.Trajectory]++
	}
	for i, r := range rows {
		shared := holders[r.Trajectory] > 1
		n := len(r.Trajectory.Steps)
		if back := steps.TakeBack(r.Trajectory); back == shared {
			t.Fatalf("%s: row %d (%s), its trajectory held by %d rows: given back %v", reason, i, r.ID, holders[r.Trajectory], back)
		}
		if shared && len(r.Trajectory.Steps) != n {
			t.Fatalf("%s: row %d: a shared trajectory lost its steps", reason, i)
		}
		if steps.TakeBack(r.Trajectory) {
			t.Fatalf("%s: row %d: given back twice", reason, i)
		}
	}
}
