package history_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// benchTrajectory is a trajectory as bench/suitegen writes them: a user
// message, 20 calls of a few tools with small arguments and results, and
// an answer (about 5.5 kB of canonical JSON).
func benchTrajectory(c int) *trajeval.Trajectory {
	return benchTrajectoryOf(c, false)
}

// benchTrajectoryOf is benchTrajectory, its arguments and results left as
// the JSON text a reader keeps (trajeval.Input.KeepText) when text.
func benchTrajectoryOf(c int, text bool) *trajeval.Trajectory {
	user, answer := "Research the history of Python", "Python was created by Guido van Rossum."
	t := &trajeval.Trajectory{ID: fmt.Sprintf("case-%07d", c), Turns: []trajeval.Turn{{Turn: 1, User: &user, FinalResponse: &answer}}}
	tools := []string{"search", "grep", "fetch", "filter", "write_file", "summarize"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(c) * time.Minute)
	for i := range 20 {
		name := tools[(i+c)%len(tools)]
		var args any = map[string]any{"id": fmt.Sprintf("doc-%d", i)}
		if name == "search" {
			args = map[string]any{"query": "python history", "limit": json.Number("10")}
		}
		var result any = map[string]any{"ok": true}
		if text {
			args, result = json.RawMessage(fmt.Sprintf(`{"id":"doc-%d"}`, i)), json.RawMessage(`{"ok":true}`)
			if name == "search" {
				args = json.RawMessage(`{"limit":10,"query":"python history"}`)
			}
		}
		d := float64(20 + (c*7+i*13)%200)
		ok := false
		t.Steps = append(t.Steps, trajeval.Step{Index: i + 1, Turn: 1, ID: fmt.Sprintf("call_%d", i), Name: name, Args: args,
			Result: result, Error: &ok, DurationMS: &d,
			StartTime: at, EndTime: at.Add(time.Duration(d) * time.Millisecond)})
		at = at.Add(time.Duration(d+5) * time.Millisecond)
	}
	return t
}

// BenchmarkCompress is the compression of one trajectory as a recorded
// case stores it.
func BenchmarkCompress(b *testing.B) {
	ts := make([]*trajeval.Trajectory, 64)
	for i := range ts {
		ts[i] = benchTrajectory(i)
	}
	size, i := 0, 0
	for b.Loop() {
		z, err := history.Compress(ts[i%len(ts)])
		if err != nil {
			b.Fatal(err)
		}
		size += len(z)
		i++
	}
	b.ReportMetric(float64(size)/float64(i), "stored-B/op")
}

// BenchmarkRecorder_Record records 2,000 cases of three evaluators into a
// SQLite history per op, the cost eval pays for its history: cases that
// passed (their verdicts and scores kept), cases that failed (their
// trajectories and details kept too; their arguments and results values,
// or JSON text), and passed cases kept whole
// (Run.KeepPassing, as eval --include-trace records).
func BenchmarkRecorder_Record(b *testing.B) {
	for _, bc := range []struct {
		name   string
		status trajeval.Status
		keep   bool
		text   bool // arguments and results kept as JSON text, as eval's readers keep them
	}{{"pass", trajeval.StatusPass, false, false}, {"fail", trajeval.StatusFail, false, false}, {"fail-text", trajeval.StatusFail, false, true}, {"pass-kept", trajeval.StatusPass, true, false}} {
		b.Run(bc.name, func(b *testing.B) {
			const n = 2000
			cases := make([]trajeval.CaseResult, n)
			for i := range cases {
				var matched []trajeval.Pair
				var extra []trajeval.Extra
				for s := range 20 {
					if s%7 == 0 {
						matched = append(matched, trajeval.Pair{Item: s/7 + 1, Step: s + 1, Tool: "search"})
					} else {
						extra = append(extra, trajeval.Extra{Step: s + 1, Tool: "fetch"})
					}
				}
				d := &trajeval.Details{Mode: "in_order", Hits: 3, Expected: 3, Actual: 20, Matched: matched, Extra: extra}
				ev := func(name, typ string) trajeval.Result {
					return trajeval.Result{Name: name, Type: typ, Status: bc.status, Score: 1, Threshold: 1, Weight: 1, Required: true, Details: d}
				}
				cases[i] = trajeval.CaseResult{ID: fmt.Sprintf("case-%07d", i), Suite: "bench", Status: bc.status, Score: 1,
					Trajectory: benchTrajectoryOf(i, bc.text), Evaluators: []trajeval.Result{ev("check", "tool_trajectory"), ev("superset", "tool_trajectory"), ev("budget", "execution_metrics")}}
			}
			h, err := history.Open(b.Context(), filepath.Join(b.TempDir(), "runs.db"), history.Options{Create: true})
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			for b.Loop() {
				rec, err := h.Begin(b.Context(), history.Run{Start: time.Now(), Suites: []string{"bench"}, KeepPassing: bc.keep})
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range cases {
					rec.Record(c)
				}
				if err := rec.End(time.Now(), false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/case")
		})
	}
}

// BenchmarkOpen_new is what a run's new history costs before its first
// case: a new SQLite file opened (its schema made), then closed.
func BenchmarkOpen_new(b *testing.B) {
	dir := b.TempDir()
	for i := range b.N {
		h, err := history.Open(b.Context(), filepath.Join(dir, fmt.Sprintf("%d.db", i)), history.Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}

// BenchmarkOpen_existing is the same for a file at the newest schema.
func BenchmarkOpen_existing(b *testing.B) {
	dsn := filepath.Join(b.TempDir(), "runs.db")
	for range b.N + 1 {
		h, err := history.Open(b.Context(), dsn, history.Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}
