package run_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// fixture writes a suite of n cases, a traces file that holds them out of
// order with strays, and one case with a trace file of its own; every
// third case has no trace.
func fixture(t *testing.T, n int) []*suite.Suite {
	t.Helper()
	dir := t.TempDir()
	var s, traces strings.Builder
	s.WriteString("execution:\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: in_order, expected: [search, answer]}\n    - {name: budget, type: execution_metrics, max_tool_calls: 2}\nevalcases:\n  - {id: own, trace: own.json}\n")
	for i := range n {
		fmt.Fprintf(&s, "  - {id: c%d}\n", i)
	}
	for i := n - 1; i >= 0; i-- {
		switch {
		case i%3 == 0:
			continue
		case i%5 == 0:
			fmt.Fprintf(&traces, `{"id": "stray%d", "output": []}`+"\n", i)
		}
		calls := `{"tool": "search"}, {"tool": "answer"}`
		if i%2 == 0 {
			calls = `{"tool": "answer"}, {"tool": "search"}, {"tool": "search"}`
		}
		fmt.Fprintf(&traces, `{"id": "c%d", "output": [{"role": "assistant", "tool_calls": [%s]}]}`+"\n", i, calls)
	}
	files := map[string]string{"suite.yaml": s.String(), "traces.jsonl": traces.String(), "own.json": `{"output": [{"role": "assistant", "tool_calls": [{"tool": "search"}]}]}`}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suites, errs := suite.Load([]string{filepath.Join(dir, "suite.yaml")}, suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return suites
}

// record runs suites and returns, in order, what was handed on: each
// warning and each result, as text.
func record(t *testing.T, suites []*suite.Suite, opts run.Options) ([]string, run.Summary) {
	t.Helper()
	var got []string
	opts.Warn = func(w trajeval.Warning) { got = append(got, "warning "+w.String()) }
	sum, err := run.Run(context.Background(), suites, opts, func(r trajeval.CaseResult) error {
		got = append(got, fmt.Sprintf("%s %s %.3f %s", r.ID, r.Status, r.Score, r.Error))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, sum
}

// TestRun_workers: scoring cases at once changes nothing of the output:
// the same results and warnings, in the same order, and the same summary.
func TestRun_workers(t *testing.T) {
	suites := fixture(t, 300)
	want, wantSum := record(t, suites, run.Options{Workers: 1})
	if len(want) < 300 {
		t.Fatalf("only %d lines", len(want))
	}
	for _, n := range []int{2, 3, 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			got, sum := record(t, suites, run.Options{Workers: n})
			if !reflect.DeepEqual(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("line %d with %d workers:\n%s\nwith 1:\n%s", i, n, got[i], want[i])
					}
				}
				t.Fatalf("%d lines with %d workers, %d with 1", len(got), n, len(want))
			}
			if sum != wantSum {
				t.Errorf("summary %+v with %d workers, %+v with 1", sum, n, wantSum)
			}
		})
	}
	t.Run("from the suite", func(t *testing.T) {
		suites[0].Workers = 4
		defer func() { suites[0].Workers = 0 }()
		got, _ := record(t, suites, run.Options{})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("execution.workers changed the output")
		}
	})
}

// TestRun_emitError: when emit fails, the run stops with its error and
// hands on nothing more, whatever the number of workers.
func TestRun_emitError(t *testing.T) {
	suites := fixture(t, 100)
	stop := errors.New("disk full")
	for _, n := range []int{1, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			calls := 0
			sum, err := run.Run(context.Background(), suites, run.Options{Workers: n}, func(trajeval.CaseResult) error {
				calls++
				if calls == 10 {
					return stop
				}
				return nil
			})
			if !errors.Is(err, stop) {
				t.Errorf("error %v, want emit's", err)
			}
			if calls != 10 || sum.Cases != 10 {
				t.Errorf("emit called %d times, summary counts %d cases; want 10 and 10: nothing after the error", calls, sum.Cases)
			}
		})
	}
}

// TestRun_unknownFormat: an unknown --from is one error before any case
// is scored, not one error per case.
func TestRun_unknownFormat(t *testing.T) {
	suites := fixture(t, 5)
	calls := 0
	_, err := run.Run(context.Background(), suites, run.Options{From: "nosuch"}, func(trajeval.CaseResult) error {
		calls++
		return nil
	})
	if !errors.Is(err, trajeval.ErrUnknownFormat) || calls != 0 {
		t.Errorf("error %v after %d results, want ErrUnknownFormat before any", err, calls)
	}
}

// TestRun_unusedTraces: a --traces file that no case needs is not read,
// with a warning.
func TestRun_unusedTraces(t *testing.T) {
	suites := fixture(t, 0)
	got, _ := record(t, suites, run.Options{Traces: "runs.jsonl"})
	if len(got) != 2 || got[0] != "warning runs.jsonl: not read: every case names its own trace: file" {
		t.Errorf("output %q, want the warning, then the case's result", got)
	}
}

// TestRun_only: the cases Only rejects leave no trace in the output (no
// row, no "no trace" error, no warning for their trajectories), whatever
// the number of workers, and the rows of the others are those of a run
// of them all.
func TestRun_only(t *testing.T) {
	suites := fixture(t, 60)
	all, _ := record(t, suites, run.Options{Workers: 1, Traces: tracesOf(suites)})
	even := func(_, id string) bool {
		return id == "own" || strings.TrimLeft(id, "c0123456789") == "" && id[len(id)-1]%2 == 0
	}
	var want []string
	for _, line := range all {
		id, _, _ := strings.Cut(line, " ")
		if id == "warning" {
			if strings.Contains(line, "stray") {
				want = append(want, line) // a trajectory of no case is still reported
			}
			continue
		}
		if even("", id) {
			want = append(want, line)
		}
	}
	if len(want) < 20 || len(want) > len(all)*2/3 {
		t.Fatalf("the fixture gives %d lines of %d to keep", len(want), len(all))
	}
	for _, n := range []int{1, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			got, sum := record(t, suites, run.Options{Workers: n, Traces: tracesOf(suites), Only: even})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("with Only, %d workers:\n%s\nwant:\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if sum.Cases != len(want)-strings.Count(strings.Join(want, "\n"), "warning") {
				t.Errorf("summary counts %d cases", sum.Cases)
			}
		})
	}
}

// TestRun_timing: every row scored in the run records its start, in UTC
// to the millisecond, and a duration; a row of Done is handed on as it
// was.
func TestRun_timing(t *testing.T) {
	suites := fixture(t, 6)
	old := trajeval.CaseResult{ID: "c1", Suite: suites[0].Name, Status: trajeval.StatusPass, Evaluators: []trajeval.Result{}}
	var rows []trajeval.CaseResult
	_, err := run.Run(context.Background(), suites, run.Options{Traces: tracesOf(suites), Done: map[run.Key]trajeval.CaseResult{run.KeyOf(old): old}},
		func(r trajeval.CaseResult) error { rows = append(rows, r); return nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		switch {
		case r.ID == "c1":
			if !r.StartedAt.IsZero() || r.Trace != "" {
				t.Errorf("the kept row was changed: %+v", r)
			}
		case r.StartedAt.IsZero() || r.StartedAt.Location() != time.UTC || r.StartedAt.Nanosecond()%int(time.Millisecond) != 0 || r.DurationMS < 0:
			t.Errorf("%s: started %v, took %vms; want a start in UTC to the millisecond", r.ID, r.StartedAt, r.DurationMS)
		case r.Status != trajeval.StatusError && r.Trace == "":
			t.Errorf("%s: scored from no trace file", r.ID)
		}
	}
}

// tracesOf returns the traces file beside the fixture's suite.
func tracesOf(suites []*suite.Suite) string {
	return filepath.Join(filepath.Dir(suites[0].File), "traces.jsonl")
}
