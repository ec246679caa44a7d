package uipath_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// TestLLMJudges reads UiPath's trajectory and output judges from their
// evaluator files and scores them against the judge double.
func TestLLMJudges(t *testing.T) {
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		switch {
		case judgetest.Obeys(c):
			return `{"justification": "obeyed", "score": 100}`
		case strings.Contains(c.User, `<data name="expected_agent_behavior">`) && strings.Contains(c.User, `<data name="agent_run_history">`) &&
			strings.Contains(c.User, "refund_order") && strings.Contains(c.User, "Refund order 7"):
			return `{"justification": "looked up, then refunded", "score": 85}`
		case strings.Contains(c.User, `<data name="actual_output">`) && strings.Contains(c.User, `refunded`):
			return "```json\n{\"justification\": \"same status\", \"score\": 100}\n```"
		}
		t.Errorf("unexpected prompt:\n%s", c.User)
		return `{"justification": "?", "score": 0}`
	})
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"set.json": `{"version": "1.0", "id": "refunds", "evaluatorRefs": ["Trajectory", "Output"], "evaluations": [
  {"id": "r1", "name": "refund", "inputs": {"message": "Refund order 7"}, "trace": "r1.json",
   "evaluationCriterias": {"Trajectory": null, "Output": {"expectedOutput": {"status": "refunded"}}}}]}`,
		"evaluators/trajectory.json": `{"version": "1.0", "id": "Trajectory", "evaluatorTypeId": "uipath-llm-judge-trajectory-similarity",
  "evaluatorConfig": {"name": "Trajectory", "model": "same-as-agent", "temperature": 0, "defaultEvaluationCriteria": {"expectedAgentBehavior": "The agent looks the order up, then refunds it."}}}`,
		"evaluators/output.json": `{"version": "1.0", "id": "Output", "evaluatorTypeId": "uipath-llm-judge-output-semantic-similarity", "evaluatorConfig": {"name": "Output"}}`,
		"r1.json": `{"id": "r1", "output": [
  {"role": "user", "content": "Refund order 7"},
  {"role": "assistant", "tool_calls": [{"tool": "get_order", "id": "a", "input": {"id": 7}, "output": "{\"status\": \"paid\"}", "status": "ok"}]},
  {"role": "assistant", "tool_calls": [{"tool": "refund_order", "id": "b", "input": {"id": 7}, "output": "ok", "status": "ok"}]},
  {"role": "assistant", "content": "{\"status\": \"refunded\"}"}]}`,
	})
	// "same-as-agent" names no model a judge could be asked for.
	noModel := &judge.Runtime{Getenv: func(k string) string {
		if k == "TRAJEVAL_JUDGE_MODEL" {
			return ""
		}
		return srv.Env()(k)
	}}
	write(t, dir, map[string]string{"only/set.json": `{"version": "1.0", "id": "t", "evaluatorRefs": ["Trajectory"], "evaluations": [
  {"id": "t1", "inputs": {}, "evaluationCriterias": {"Trajectory": null}}]}`})
	if _, errs := suite.Load([]string{dir + "/only/set.json"}, suite.Options{Dialects: dialects.All(), Judges: noModel}); len(errs) > 0 || noModel.Err() == nil {
		t.Errorf("errors %v, %v: want the run stopped for want of a model", errs, noModel.Err())
	}
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	suites, errs := suite.Load([]string{dir + "/set.json"}, suite.Options{Dialects: dialects.All(), Judges: rt})
	if len(errs) > 0 || rt.Err() != nil {
		t.Fatal(errs, rt.Err())
	}
	var r trajeval.CaseResult
	if _, err := run.Run(context.Background(), suites, run.Options{}, func(c trajeval.CaseResult) error { r = c; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(r.Evaluators) != 2 {
		t.Fatalf("%d evaluators, want 2: %+v", len(r.Evaluators), r)
	}
	tr, out := r.Evaluators[0], r.Evaluators[1]
	if tr.Type != "llm_judge_trajectory" || tr.Score != 0.85 || tr.Status != trajeval.StatusPass || tr.Details.Notes["justification"] != "looked up, then refunded" {
		t.Errorf("trajectory judge: %s %v %s %+v; want 0.85 from 85/100 with its justification", tr.Type, tr.Score, tr.Status, tr.Details)
	}
	if out.Type != "llm_judge_output" || out.Score != 1 || out.Status != trajeval.StatusPass {
		t.Errorf("output judge: %s %v %s (%s); want 1", out.Type, out.Score, out.Status, out.Error)
	}

	// A score outside 0–100, twice, is an error, never clamped.
	srv.Fail(judgetest.Fault{Content: `{"justification": "great", "score": 150}`}, judgetest.Fault{Content: `{"justification": "great", "score": 150}`})
	res := suites[0].Cases[0].Evaluators[0].Run(context.Background(), &trajeval.Trajectory{ID: "r1"})
	if res.Status != trajeval.StatusError || !strings.Contains(res.Error, "outside 0 to 100") {
		t.Errorf("status %s (%s), want an error for a score of 150", res.Status, res.Error)
	}
}

// TestLLMJudges_evaluationExpectedOutput checks that an evaluation's own
// expectedOutput reaches the output judges as UiPath injects it: into
// criteria null (over the evaluator's defaults) and into criteria without
// one, never over criteria that give theirs.
func TestLLMJudges_evaluationExpectedOutput(t *testing.T) {
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		switch {
		case strings.Contains(c.User, "from-evaluation"):
			return `{"justification": "evaluation's", "score": 100}`
		case strings.Contains(c.User, "from-criteria"):
			return `{"justification": "criteria's", "score": 60}`
		}
		return `{"justification": "defaults'", "score": 0}`
	})
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"set.json": `{"version": "1.0", "id": "s", "evaluatorRefs": ["Output"], "evaluations": [
  {"id": "null", "inputs": {}, "expectedOutput": {"v": "from-evaluation"}, "evaluationCriterias": {"Output": null}},
  {"id": "own", "inputs": {}, "expectedOutput": {"v": "from-evaluation"}, "evaluationCriterias": {"Output": {"expectedOutput": {"v": "from-criteria"}}}}]}`,
		"evaluators/output.json": `{"version": "1.0", "id": "Output", "evaluatorTypeId": "uipath-llm-judge-output-semantic-similarity",
  "evaluatorConfig": {"name": "Output", "targetOutputKey": "*", "defaultEvaluationCriteria": {"expectedOutput": {"v": "from-defaults"}}}}`,
	})
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	s, errs := suite.LoadFile(dir+"/set.json", suite.Options{Dialects: dialects.All(), Judges: rt}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]float64{"null": 1, "own": 0.6}
	for _, c := range s.Cases {
		r := c.Evaluators[0].Run(context.Background(), &trajeval.Trajectory{ID: c.ID})
		if r.Score != want[c.ID] {
			t.Errorf("case %s: score %v (%s), want %v", c.ID, r.Score, r.Error, want[c.ID])
		}
	}
}

// TestLLMJudges_targetOutputKey checks that an output judge's
// targetOutputKey picks the part of the agent's answer and of the
// expected output the judge sees, as in UiPath, and that an answer
// without it is an error, never judged.
func TestLLMJudges_targetOutputKey(t *testing.T) {
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		if strings.Contains(c.User, "note") || strings.Contains(c.User, "other") {
			t.Errorf("the judge saw more than result:\n%s", c.User)
		}
		return `{"justification": "same", "score": 100}`
	})
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"set.json": `{"version": "1.0", "id": "s", "evaluatorRefs": ["Output"], "evaluations": [
  {"id": "e", "inputs": {}, "evaluationCriterias": {"Output": {"expectedOutput": {"result": 8, "other": "ignored"}}}}]}`,
		"evaluators/output.json": `{"version": "1.0", "id": "Output", "evaluatorTypeId": "uipath-llm-judge-output-semantic-similarity",
  "evaluatorConfig": {"name": "Output", "targetOutputKey": "result"}}`,
	})
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	s, errs := suite.LoadFile(dir+"/set.json", suite.Options{Dialects: dialects.All(), Judges: rt}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	answer := func(text string) *trajeval.Trajectory {
		tr := &trajeval.Trajectory{ID: "e", Turns: []trajeval.Turn{{Turn: 1, FinalResponse: &text}}}
		tr.Finish()
		return tr
	}
	e := s.Cases[0].Evaluators[0]
	if r := e.Run(context.Background(), answer(`{"result": 8, "note": "done"}`)); r.Status != trajeval.StatusPass {
		t.Errorf("status %s (%s), want pass", r.Status, r.Error)
	}
	if r := e.Run(context.Background(), answer(`{"total": 8}`)); r.Status != trajeval.StatusError || !strings.Contains(r.Error, "targetOutputKey result") {
		t.Errorf("status %s (%s), want an error for an answer without result", r.Status, r.Error)
	}
	if n := srv.Requests(); n != 1 {
		t.Errorf("%d judge requests, want 1: an answer without the key is never judged", n)
	}
}
