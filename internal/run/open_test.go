package run_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// openSuite is a suite with no cases whose one evaluator passes exactly
// when the trajectory is the single call good.
const openSuite = "name: prod\nexecution:\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: exact, expected: [good]}\n"

// TestRun_open checks rule 2: a suite with no cases scores every
// trajectory of its traces, each a case named by its id or its place.
func TestRun_open(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		traces string
		want   string // id=status in emitted order
		reason string
	}{
		{"every trajectory is a case",
			map[string]string{"suite.yaml": openSuite, "runs.jsonl": traj("a", "good") + traj("b", "bad") + traj("c", "good")},
			"runs.jsonl", "a=pass b=fail c=pass", "each trajectory of --traces is scored, in the file's order"},
		{"no id: named by its line",
			map[string]string{"suite.yaml": openSuite, "runs.jsonl": traj("a", "good") + "\n" + traj("", "good")},
			"runs.jsonl", "a=pass line 3=pass", "a JSON Lines trajectory without an id is named by the line it starts on"},
		{"no id, one object",
			map[string]string{"suite.yaml": openSuite, "run.json": `{"messages": [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "good", "arguments": "{}"}}]}]}`},
			"run.json", "line 1=pass", "a file of one trajectory names it by its first line"},
		{"the suite's own traces file",
			map[string]string{"suite.yaml": openSuite, "traces.jsonl": traj("a", "bad")},
			"", "a=fail", "without --traces, the traces file beside the suite"},
		{"a repeated id is scored twice",
			map[string]string{"suite.yaml": openSuite, "runs.jsonl": traj("a", "good") + traj("a", "bad")},
			"runs.jsonl", "a=pass a=fail", "ids are not remembered: memory must not grow with the traces"},
		{"damage is an error row",
			map[string]string{"suite.yaml": openSuite, "runs.jsonl": traj("a", "good") + `{"id": "b", "output": [` + "\n"},
			"runs.jsonl", "a=pass line 2=error", "what comes before the break is scored, the break is an error, never dropped"},
		{"an empty file is an error row",
			map[string]string{"suite.yaml": openSuite, "runs.jsonl": "\n"},
			"runs.jsonl", "#1=error", "no trajectory at all is never a silent pass; an error with no line is named by its position"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := runIn(t, tt.files, tt.traces)
			if got := strings.Join(o.statuses, " "); got != tt.want {
				t.Errorf("results %s, want %s: %s (errors %q, warnings %q)", got, tt.want, tt.reason, o.errors, o.warnings)
			}
		})
	}
}

// TestRun_openWithCases: a traces file that supplies cases of one suite
// and every trajectory of a suite with no cases gives, per trajectory,
// the matched case first, then the open suite's row.
func TestRun_openWithCases(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"cases.yaml": "name: cases\nevalcases:\n" + caseYAML("b", ""),
		"open.yaml":  openSuite,
		"runs.jsonl": traj("a", "good") + traj("b", "bad"),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suites, errs := suite.Load([]string{filepath.Join(dir, "cases.yaml"), filepath.Join(dir, "open.yaml")}, suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	var warnings []string
	for _, workers := range []int{1, 3} {
		got, warnings = nil, nil
		_, err := run.Run(context.Background(), suites, run.Options{Traces: filepath.Join(dir, "runs.jsonl"), Workers: workers,
			Warn: func(w trajeval.Warning) { warnings = append(warnings, w.String()) }},
			func(r trajeval.CaseResult) error {
				got = append(got, r.Suite+"/"+r.ID+"="+string(r.Status))
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if want := "prod/a=pass cases/b=fail prod/b=fail"; strings.Join(got, " ") != want {
			t.Errorf("workers %d: results %s, want %s", workers, strings.Join(got, " "), want)
		}
	}
	if len(warnings) > 0 {
		t.Errorf("warnings %q: a trajectory an open suite scores is not skipped", warnings)
	}
}

// TestRun_openNoTraces: a suite with no cases and nothing to score is an
// error, not an empty pass.
func TestRun_openNoTraces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(path, []byte(openSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, errs := suite.LoadFile(path, suite.Options{}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	_, err := run.Run(context.Background(), []*suite.Suite{s}, run.Options{}, func(trajeval.CaseResult) error { return nil })
	var se *trajeval.SpecError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "no cases") || !strings.Contains(se.Hint, "--traces") {
		t.Errorf("Run: %v, want a configuration error saying the suite has no cases, hinting at --traces", err)
	}
}
