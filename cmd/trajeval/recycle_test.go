package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/report"
)

// TestEval_detailsRecycled: a run without the history whose rows go to
// JSON Lines alone gives each row's details back once it is written, to
// the details of the cases scored next. Its rows are those of the same run
// with an --out file (whose rows are written twice, so nothing is given
// back): details given back before their row was written would show a
// later case's pairs and extra steps, and under -race the reuse itself.
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
	eval := func(extra ...string) string {
		args := append([]string{"eval", filepath.Join(dir, "open.yaml"), "--traces", filepath.Join(dir, "traces.jsonl"),
			"--workers", "4", "-q", "--format", "jsonl", "--no-db"}, extra...)
		code, stdout, stderr := runArgs(t, args...)
		if code > 1 {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
		return stripTimes(stdout)
	}
	want := eval("--out", filepath.Join(t.TempDir(), "rows.jsonl"))
	if n := strings.Count(want, "\n"); n != 1500 {
		t.Fatalf("%d rows, want 1500", n)
	}
	for range 2 {
		if got := eval(); got != want {
			t.Fatalf("the rows differ from those of a run that gives nothing back:\n%s", firstDiff(got, want))
		}
	}
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
