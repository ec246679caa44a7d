package dokimos_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

func runSuite(t *testing.T, path string, rt *judge.Runtime) (trajeval.CaseResult, error) {
	t.Helper()
	suites, errs := suite.Load([]string{path}, suite.Options{Judges: rt})
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	if err := rt.Err(); err != nil {
		return trajeval.CaseResult{}, err
	}
	var out trajeval.CaseResult
	_, err := run.Run(context.Background(), suites, run.Options{}, func(r trajeval.CaseResult) error {
		out = r
		return nil
	})
	return out, err
}

func byType(r trajeval.CaseResult) map[string]trajeval.Result {
	m := map[string]trajeval.Result{}
	for _, e := range r.Evaluators {
		m[e.Type] = e
	}
	return m
}

// TestSeed004 runs seed 004's quick start: all nine evaluators, the
// judged ones against the double.
func TestSeed004(t *testing.T) {
	srv := judgetest.New(t, judgetest.Checklist(func(field string, id int, item string) bool {
		// The hotel booking is not grounded; one description check fails
		// for every tool.
		return !(field == "grounded" && id == 2) && !strings.Contains(item, "at least one example")
	}))
	cache := t.TempDir()
	r, err := runSuite(t, "testdata/seed004/suite.yaml", &judge.Runtime{Getenv: srv.Env(), CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	got := byType(r)
	if len(got) != 9 {
		t.Fatalf("%d evaluators ran, want 9", len(got))
	}
	for typ, e := range got {
		if e.Status == trajeval.StatusError {
			t.Errorf("%s: %s", typ, e.Error)
		}
	}
	want := map[string]struct {
		score  float64
		checks int
	}{
		"task_completion":              {1, 2},
		"tool_argument_hallucination":  {0.5, 2},
		"tool_name_reliability":        {1, 2 * (3 + 3)},
		"tool_description_reliability": {float64(2*13-2) / 26, 2 * (4 + 9)},
	}
	for typ, w := range want {
		e := got[typ]
		if e.Score != w.score || e.Details == nil || len(e.Details.Checks) != w.checks {
			t.Errorf("%s: score %v with %d checks, want %v with %d", typ, e.Score, len(e.Details.Checks), w.score, w.checks)
		}
		if e.Judge == nil || e.Judge.Calls == 0 {
			t.Errorf("%s: judge usage %+v, want calls counted", typ, e.Judge)
		}
	}
	if c := got["tool_argument_hallucination"].Details.Checks[1]; c.Status != trajeval.CheckFail || c.Name != "step 2 book_hotel" {
		t.Errorf("hallucination check %+v, want step 2 book_hotel failed", c)
	}
	// One call each for tasks and arguments, one per tool for each
	// reliability evaluator.
	if n := srv.Requests(); n != 6 {
		t.Errorf("%d requests, want 6", n)
	}
	if _, err := runSuite(t, "testdata/seed004/suite.yaml", &judge.Runtime{Getenv: srv.Env(), CacheDir: cache}); err != nil || srv.Requests() != 6 {
		t.Errorf("rerun: %v, %d requests in all; want none more", err, srv.Requests())
	}
}

// TestReliability_withoutJudge: without a judge the rule checks alone
// score, and the details say the judge's checks did not run.
func TestReliability_withoutJudge(t *testing.T) {
	data, err := os.ReadFile("testdata/seed004/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yaml := strings.Replace(string(data), "judge: {timeout: 5s}\n", "", 1)
	var kept []string
	for _, l := range strings.Split(yaml, "\n") {
		if !strings.Contains(l, "task_completion") && !strings.Contains(l, "tasks:") && !strings.Contains(l, "hallucination") {
			kept = append(kept, l)
		}
	}
	dir := t.TempDir()
	abs, _ := filepath.Abs("testdata")
	yaml = strings.ReplaceAll(strings.Join(kept, "\n"), "../tools.yaml", filepath.Join(abs, "tools.yaml"))
	yaml = strings.ReplaceAll(yaml, "trace.json", filepath.Join(abs, "seed004", "trace.json"))
	p := filepath.Join(dir, "suite.yaml")
	os.WriteFile(p, []byte(yaml), 0o644)

	rt := &judge.Runtime{Getenv: func(string) string { return "" }}
	r, err := runSuite(t, p, rt)
	if err != nil {
		t.Fatal(err)
	}
	got := byType(r)
	e := got["tool_description_reliability"]
	if e.Status == trajeval.StatusError || len(e.Details.Checks) != 8 || e.Details.Notes["judge_checks"] == nil || e.Judge != nil {
		t.Errorf("description reliability: %s, %d checks, notes %v; want the 8 rule checks and a note", e.Status, len(e.Details.Checks), e.Details.Notes)
	}

	// task_completion always needs a judge: the run stops before any case.
	yaml += "\n    evaluators:\n      - {type: task_completion, tasks: [Book a hotel]}\n"
	os.WriteFile(p, []byte(yaml), 0o644)
	if _, err := runSuite(t, p, &judge.Runtime{Getenv: func(string) string { return "" }}); !errors.Is(err, judge.ErrNoJudge) {
		t.Errorf("error %v, want ErrNoJudge", err)
	}
}

func TestTaskCompletion_config(t *testing.T) {
	if _, err := tryBuild("type: task_completion"); err == nil || !strings.Contains(err.Error(), "needs tasks") {
		t.Errorf("error %v, want: needs tasks", err)
	}
	if _, err := tryBuild("type: tool_name_reliability\ntools_file: tools.yaml\njudge: maybe"); err == nil || !strings.Contains(err.Error(), "judge must be") {
		t.Errorf("error %v, want: judge must be a block, true or false", err)
	}
}
