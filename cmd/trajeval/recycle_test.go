package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/report"
)

// TestEval_detailsRecycled: a run whose rows go to JSON Lines alone gives
// each row's details back once it is written, to the details of the cases
// scored next; with the history on, only those the recorder no longer
// holds (history.Recorder.Record: a case that keeps its details is held
// until encoded). Its rows, and the rows it stores, are those of the same
// run with an --out file (whose rows are written twice, so nothing is given
// back): details given back before their row was written or encoded would
// show a later case's pairs and extra steps, and under -race the reuse
// itself.
func TestEval_detailsRecycled(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	tools := []string{"search", "read", "write", "delete", "list", "fetch_page"}
	var lines []string
	for i := range 1500 {
		n := 1 + rng.IntN(30) // in a box (24 steps at most) and not
		msgs := []string{`{"role": "user", "content": "go"}`}
		for k := range n {
			msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "tool_calls": [{"tool": %q, "id": "c%d", "input": {"query": "q%d"}, "output": "ok"}]}`,
				tools[rng.IntN(len(tools))], k, rng.IntN(3)))
		}
		lines = append(lines, fmt.Sprintf(`{"id": "t%d", "output": [%s]}`, i, strings.Join(msgs, ", ")))
	}
	dir := t.TempDir()
	files := map[string]string{
		"traces.jsonl": strings.Join(lines, "\n") + "\n",
		"open.yaml": "name: open\nexecution:\n  evaluators:\n" +
			"    - {name: order, type: tool_trajectory, mode: in_order, args_match: superset, expected: [{tool: search, args: {query: q1}}, {tool: read}, {tool: write}]}\n" +
			"    - {name: any, type: tool_trajectory, expected: [read, serch]}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		history []string // eval's flags of the history; the database's path follows --db
		reason  string
	}{
		{"no history", []string{"--no-db"}, "every row's details given back once written"},
		{"history", []string{"--keep-failing", "400", "--db"}, "the rows that keep nothing given back once written; the 400 kept held until encoded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// eval returns the rows written and, with the history, those stored.
			eval := func(extra ...string) (written, stored string) {
				args := append([]string{"eval", filepath.Join(dir, "open.yaml"), "--traces", filepath.Join(dir, "traces.jsonl"),
					"--workers", "4", "-q", "--format", "jsonl"}, tt.history...)
				db := ""
				if args[len(args)-1] == "--db" {
					db = filepath.Join(t.TempDir(), "runs.db")
					args = append(args, db)
				}
				code, stdout, stderr := runArgs(t, append(args, extra...)...)
				if code > 1 {
					t.Fatalf("eval: exit %d\n%s", code, stderr)
				}
				if db != "" {
					stored = storedRows(t, db, 400)
				}
				return stripTimes(stdout), stored
			}
			wantRows, wantStored := eval("--out", filepath.Join(t.TempDir(), "rows.jsonl"))
			if n := strings.Count(wantRows, "\n"); n != 1500 {
				t.Fatalf("%d rows, want 1500", n)
			}
			for range 2 {
				gotRows, gotStored := eval()
				if gotRows != wantRows {
					t.Fatalf("the rows differ from those of a run that gives nothing back (%s):\n%s", tt.reason, firstDiff(gotRows, wantRows))
				}
				if gotStored != wantStored {
					t.Fatalf("the rows stored differ from those of a run that gives nothing back (%s):\n%s", tt.reason, firstDiff(gotStored, wantStored))
				}
			}
		})
	}
}

// storedRows returns the rows of run 1 of the history db, with their
// trajectories and details, as JSON Lines without their times; at least
// kept of them must keep their trajectories.
func storedRows(t *testing.T, db string, kept int) string {
	t.Helper()
	h, err := history.Open(context.Background(), db, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rows, err := h.Rows(context.Background(), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n := 0
	for _, r := range rows {
		if r.Trajectory != nil {
			n++
		}
		r.StartedAt, r.DurationMS = time.Time{}, 0
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if n < kept {
		t.Fatalf("%d trajectories stored of %d rows, want %d: the test no longer keeps many", n, len(rows), kept)
	}
	return b.String()
}

func TestWritesAtOnce(t *testing.T) {
	jsonl := report.NewJSONL(&strings.Builder{})
	prog := &report.Progress{W: &strings.Builder{}}
	tests := []struct {
		name   string
		w      report.Writer
		want   bool
		reason string
	}{
		{"jsonl", jsonl, true, "each row is written in its Case call"},
		{"progress", prog, true, "counts statuses only"},
		{"jsonl and progress", report.Multi{jsonl, prog}, true, "each of them writes at once"},
		{"text", &report.Text{W: &strings.Builder{}}, false, "not vouched for: it keeps the rows of trials for their summary"},
		{"html", &report.HTML{W: &strings.Builder{}}, false, "keeps every row for its page"},
		{"jsonl and text", report.Multi{jsonl, &report.Text{W: &strings.Builder{}}}, false, "one member keeps rows"},
		{"empty multi", report.Multi{}, false, "nothing to vouch for"},
	}
	for _, tt := range tests {
		if got := writesAtOnce(tt.w); got != tt.want {
			t.Errorf("%s: writesAtOnce = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}
