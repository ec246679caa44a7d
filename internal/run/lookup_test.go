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
)

// TestRun_lookup pins which case a trajectory is matched to when the
// traces come in the cases' order, which the run tries before its index
// by id.
func TestRun_lookup(t *testing.T) {
	const n = 200
	var cases strings.Builder
	cases.WriteString("execution:\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: exact, expected: [good]}\nevalcases:\n")
	for i := range n {
		fmt.Fprintf(&cases, "  - {id: c%d, input: x}\n", i)
	}
	tests := []struct {
		name   string
		order  func(i int) int // the case of the i-th trajectory
		suites int
		want   string // statuses by suite, in the order emitted, of c0, c1 and c2
		reason string
	}{
		{"in order", func(i int) int { return i }, 1, "a:c0=fail a:c1=pass a:c2=pass",
			"each trajectory is its case's when every guess is right"},
		{"pairs swapped", func(i int) int { return i ^ 1 }, 1, "a:c1=pass a:c0=fail a:c3=pass",
			"a wrong guess falls back on the index"},
		{"two suites, one file", func(i int) int { return i }, 2, "b:c0=fail b:c1=pass b:c2=pass",
			"the later suite's case of an id takes its trajectory (its entry replaced the earlier's in the index), never the earlier's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var runs strings.Builder
			for i := range n {
				j, tool := tt.order(i), "good"
				if j%7 == 0 {
					tool = "bad"
				}
				runs.WriteString(traj(fmt.Sprintf("c%d", j), tool))
			}
			write := func(name, content string) string {
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			traces := write("runs.jsonl", runs.String())
			var suites []*suite.Suite
			for k := range tt.suites {
				name := string(rune('a' + k))
				s, errs := suite.LoadFile(write(name+".yaml", "name: "+name+"\n"+cases.String()), suite.Options{}, true)
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				suites = append(suites, s)
			}
			var got []string
			_, err := run.Run(context.Background(), suites, run.Options{Traces: traces}, func(r trajeval.CaseResult) error {
				if r.Status != trajeval.StatusError {
					got = append(got, r.Suite+":"+r.ID+"="+string(r.Status))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != n {
				t.Fatalf("%d cases scored, want %d: one a trajectory", len(got), n)
			}
			if s := strings.Join(got[:3], " "); s != tt.want {
				t.Errorf("first results %s, want %s: %s", s, tt.want, tt.reason)
			}
		})
	}
}
