package judge_test

import (
	"context"
	"errors"
	"math"
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

var fairJudge = judgetest.Fair("Guido")

func runSuite(t *testing.T, path string, rt *judge.Runtime) map[string]trajeval.CaseResult {
	t.Helper()
	suites, errs := suite.Load([]string{path}, suite.Options{Judges: rt})
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	if err := rt.Err(); err != nil {
		t.Fatalf("judge: %v", err)
	}
	out := map[string]trajeval.CaseResult{}
	_, err := run.Run(context.Background(), suites, run.Options{}, func(r trajeval.CaseResult) error {
		out[r.ID] = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLLMJudge_composite runs AgentV's composite example: tool_trajectory
// and llm_judge weighted 0.4 and 0.6, the judge's prompt in a file.
func TestLLMJudge_composite(t *testing.T) {
	srv := judgetest.New(t, fairJudge)
	cache := t.TempDir()
	rt := &judge.Runtime{Getenv: srv.Env(), CacheDir: cache}
	got := runSuite(t, "testdata/composite/suite.yaml", rt)

	good := got["research"]
	if good.Status != trajeval.StatusPass || math.Abs(good.Score-1) > 1e-9 {
		t.Fatalf("research: %s %v (%s), want pass 1", good.Status, good.Score, good.Error)
	}
	member := good.Evaluators[0].Members[1]
	if member.Details == nil || member.Details.Notes["reasoning"] != "accurate and well researched" {
		t.Errorf("the judge's reasoning is not kept: %+v", member.Details)
	}
	bad := got["injected"]
	if bad.Status != trajeval.StatusFail || math.Abs(bad.Score-(0.4+0.6*0.2)) > 1e-9 {
		t.Errorf("injected: %s %v, want fail 0.52: the answer's instructions must not reach the judge", bad.Status, bad.Score)
	}
	if good.Judge == nil || good.Judge.Calls != 1 || good.Judge.InputTokens != 100 {
		t.Errorf("case judge usage %+v, want 1 call of 100 input tokens", good.Judge)
	}
	for _, c := range srv.Chats() {
		if !strings.Contains(c.User, "Evaluate the quality of the research output") || !strings.Contains(c.User, `<data name="output_messages">`) {
			t.Errorf("the prompt file was not rendered:\n%s", c.User)
		}
	}
	if n := srv.Requests(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}

	again := runSuite(t, "testdata/composite/suite.yaml", &judge.Runtime{Getenv: srv.Env(), CacheDir: cache})
	if n := srv.Requests(); n != 2 {
		t.Errorf("the rerun sent %d more requests, want 0", n-2)
	}
	for id, r := range got {
		if again[id].Score != r.Score || again[id].Status != r.Status {
			t.Errorf("%s: rerun scored %v %s, first run %v %s", id, again[id].Score, again[id].Status, r.Score, r.Status)
		}
	}
	if u := again["research"].Judge; u == nil || u.Calls != 0 || u.Cached != 1 {
		t.Errorf("rerun usage %+v, want 0 calls and 1 cached", u)
	}
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), judgetest.Key) {
				t.Errorf("the key is in cache file %s", p)
			}
		}
		return nil
	})
}

func writeSuite(t *testing.T, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	src, _ := filepath.Abs("testdata/composite/traces/research.json")
	yaml = strings.ReplaceAll(yaml, "TRACE", src)
	p := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLLMJudge_criteria(t *testing.T) {
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		if !strings.Contains(c.User, "1: The answer names the creator") || !strings.Contains(c.User, "2: The answer gives the year") {
			t.Errorf("criteria missing from the prompt:\n%s", c.User)
		}
		return `{"criteria": [{"id": 2, "score": 0, "reasoning": "no year"}, {"id": 1, "score": 1, "reasoning": "names Guido"}]}`
	})
	p := writeSuite(t, `
evalcases:
  - id: research
    input: Research the history of Python
    trace: TRACE
    evaluators:
      - type: llm_judge
        criteria:
          - The answer names the creator
          - {name: year, description: The answer gives the year, weight: 3}
`)
	r := runSuite(t, p, &judge.Runtime{Getenv: srv.Env(), NoCache: true})["research"]
	e := r.Evaluators[0]
	if srv.Requests() != 1 {
		t.Errorf("%d requests, want 1 for every criterion", srv.Requests())
	}
	if math.Abs(e.Score-0.25) > 1e-9 || e.Status != trajeval.StatusFail {
		t.Errorf("score %v %s, want 0.25 fail (weights 1 and 3)", e.Score, e.Status)
	}
	if e.Details == nil || len(e.Details.Checks) != 2 || e.Details.Checks[1].Name != "year" || !strings.Contains(e.Details.Checks[1].Message, "no year") {
		t.Errorf("checks %+v, want one per criterion with its reasoning", e.Details)
	}
}

func TestLLMJudge_configErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		reason           string
	}{
		{"missing prompt file", "prompt: ./prompts/nope.md", "suite.yaml:7:17: ", "a missing prompt file is a configuration error with its place"},
		{"unknown variable", "prompt: \"Is {{candidate_anwser}} right?\"", "did you mean {{candidate_answer}}", "an unknown variable is caught at load"},
		{"nothing to ask", "model: x", "needs a prompt or criteria", "a judge needs a question"},
		{"bad judge block", "prompt: hi\n        judge: {timeout: soon}", "timeout \"soon\"", "a bad judge block is a configuration error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeSuite(t, `
evalcases:
  - id: research
    trace: TRACE
    evaluators:
      - type: llm_judge
        `+tt.yaml+"\n")
			_, errs := suite.Load([]string{p}, suite.Options{})
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
				t.Fatalf("errors %v, want one containing %q (%s)", errs, tt.want, tt.reason)
			}
		})
	}
}

func TestLLMJudge_noJudge(t *testing.T) {
	p := writeSuite(t, `
evalcases:
  - id: research
    trace: TRACE
    evaluators:
      - {type: llm_judge, prompt: "Is {{candidate_answer}} right?"}
`)
	rt := &judge.Runtime{Getenv: func(string) string { return "" }}
	if _, errs := suite.Load([]string{p}, suite.Options{Judges: rt}); len(errs) > 0 {
		t.Fatal(errs)
	}
	err := rt.Err()
	if !errors.Is(err, judge.ErrNoJudge) || !strings.Contains(err.Error(), "OPENAI_API_KEY") || !strings.Contains(err.Error(), "TRAJEVAL_JUDGE_MODEL") {
		t.Fatalf("error %v, want ErrNoJudge naming OPENAI_API_KEY and TRAJEVAL_JUDGE_MODEL", err)
	}
	// Without a runtime (validation), the suite loads and the evaluator
	// is an error when run, never a score.
	suites, errs := suite.Load([]string{p}, suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := run.Score(context.Background(), suites[0], suites[0].Cases[0], &trajeval.Trajectory{ID: "research"})
	if r.Status != trajeval.StatusError || !strings.Contains(r.Error, "no judge") {
		t.Errorf("status %s (%s), want error: no judge", r.Status, r.Error)
	}
}

// TestLLMJudge_requiredCriterion: a required criterion that fails fails the
// evaluator, however high the weighted score; expected_output reaches the
// judge.
func TestLLMJudge_requiredCriterion(t *testing.T) {
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		if !strings.Contains(c.User, "Guido van Rossum, 1991") {
			t.Errorf("the case's expected_output is not in the prompt:\n%s", c.User)
		}
		return `{"criteria": [{"id": 1, "score": 1, "reasoning": "names Guido"}, {"id": 2, "score": 0, "reasoning": "no year"}]}`
	})
	p := writeSuite(t, `
evalcases:
  - id: research
    input: Research the history of Python
    expected_output: Guido van Rossum, 1991
    trace: TRACE
    evaluators:
      - type: llm_judge
        threshold: 0.5
        criteria:
          - {name: creator, description: The answer names the creator, weight: 9}
          - {name: year, description: The answer gives the year, required: true}
`)
	r := runSuite(t, p, &judge.Runtime{Getenv: srv.Env(), NoCache: true})["research"]
	e := r.Evaluators[0]
	if math.Abs(e.Score-0.9) > 1e-9 || e.Status != trajeval.StatusFail {
		t.Errorf("score %v %s, want 0.9 and fail: the required criterion failed", e.Score, e.Status)
	}
	if !strings.Contains(e.Details.Checks[1].Message, "required") {
		t.Errorf("check %+v, want it marked required", e.Details.Checks[1])
	}
}
