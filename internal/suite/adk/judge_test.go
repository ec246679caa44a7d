package adk_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

const judgedSet = `{"eval_set_id": "s", "eval_cases": [
  {"eval_id": "c1", "conversation": [
    {"user_content": {"parts": [{"text": "Where is order 7?"}]},
     "final_response": {"parts": [{"text": "Order 7 ships tomorrow."}]},
     "intermediate_data": {"tool_uses": [{"name": "get_order", "args": {"id": 7}}]}},
    {"user_content": {"parts": [{"text": "Thanks"}]},
     "final_response": {"parts": [{"text": "You are welcome."}]}}]}
]}`

const judgedConfig = `{"criteria": {
  "final_response_match_v2": {"threshold": 0.8, "judge_model_options": {"judge_model": "judge-test-model", "num_samples": 5}},
  "rubric_based_final_response_quality_v1": {"threshold": 0.5, "rubrics": [
    {"rubric_id": "concise", "rubric_content": {"text_property": "The response is concise."}},
    {"rubric_id": "cites", "rubric_content": {"text_property": "The response cites the order's tracking number."}}]},
  "rubric_based_tool_use_quality_v1": {"threshold": 1.0, "rubrics": [
    {"rubric_id": "lookup", "rubric_content": {"text_property": "The agent looks the order up before answering."}}]},
  "hallucinations_v1": {"threshold": 0.8}
}}`

func str(s string) *string { return &s }

// TestJudgedMetrics runs ADK's judged metrics against the judge double.
func TestJudgedMetrics(t *testing.T) {
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		if strings.Contains(c.System, "sentence") {
			if strings.Contains(c.User, "ships tomorrow") {
				return `{"sentences": [{"sentence": "Order 7 ships tomorrow.", "label": "unsupported", "reasoning": "the tool says next week"}]}`
			}
			return `{"sentences": [{"sentence": "You are welcome.", "label": "not_applicable", "reasoning": "courtesy"}]}`
		}
		return judgetest.Checklist(func(field string, id int, item string) bool {
			return !strings.Contains(item, "tracking number")
		})(c)
	})
	dir := t.TempDir()
	write(t, dir, map[string]string{"x.evalset.json": judgedSet, "test_config.json": judgedConfig})
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	s, errs := suite.LoadFile(filepath.Join(dir, "x.evalset.json"), suite.Options{Dialects: dialects.All(), Judges: rt}, true)
	if len(errs) > 0 || rt.Err() != nil {
		t.Fatal(errs, rt.Err())
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].Msg, "num_samples 5") {
		t.Errorf("warnings %v, want one about num_samples", s.Warnings)
	}
	tr := &trajeval.Trajectory{ID: "c1",
		Turns: []trajeval.Turn{{Turn: 1, User: str("Where is order 7?"), FinalResponse: str("Order 7 ships tomorrow.")},
			{Turn: 2, User: str("Thanks"), FinalResponse: str("You are welcome.")}},
		Steps: []trajeval.Step{{Index: 1, Turn: 1, Name: "get_order", Args: map[string]any{"id": 7}, Result: "ships next week"}}}
	r := run.Score(context.Background(), s, s.Cases[0], tr)
	want := map[string]struct {
		score float64
		pass  bool
	}{
		"final_response_match_v2":                {1, true},
		"rubric_based_final_response_quality_v1": {0.5, true},
		"rubric_based_tool_use_quality_v1":       {1, true},
		"hallucinations_v1":                      {0.5, false},
	}
	for _, e := range r.Evaluators {
		w, ok := want[e.Name]
		if !ok {
			continue
		}
		delete(want, e.Name)
		if e.Status == trajeval.StatusError || math.Abs(e.Score-w.score) > 1e-9 || (e.Status == trajeval.StatusPass) != w.pass {
			t.Errorf("%s: %s %v (%s), want %v pass=%v", e.Name, e.Status, e.Score, e.Error, w.score, w.pass)
		}
		if len(e.Members) == 0 || e.Judge == nil {
			t.Errorf("%s: want a result per invocation and the judge's usage", e.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("metrics not run: %v", want)
	}
	// final_response_match_v2 asks once for both invocations; each rubric
	// metric and hallucinations_v1 once per invocation.
	if n := srv.Requests(); n != 1+2+2+2 {
		t.Errorf("%d requests, want 7", n)
	}
}

// TestJudgedMetrics_ownRubrics checks that the rubrics of a case and of
// an invocation are judged beside the criterion's, in their invocation
// only, as ADK judges them.
func TestJudgedMetrics_ownRubrics(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := judgetest.New(t, func(c judgetest.Chat) string {
		mu.Lock()
		asked = append(asked, c.User)
		mu.Unlock()
		return judgetest.Checklist(func(string, int, string) bool { return true })(c)
	})
	set := `{"eval_set_id": "s", "eval_cases": [{"eval_id": "c1",
  "rubrics": [{"rubric_id": "polite", "rubric_content": {"text_property": "The response is polite."}}],
  "conversation": [
    {"user_content": {"parts": [{"text": "Where is order 7?"}]},
     "rubrics": [{"rubric_id": "date", "rubric_content": {"text_property": "The response gives a delivery date."}}]},
    {"user_content": {"parts": [{"text": "Thanks"}]}}]}]}`
	config := `{"criteria": {"rubric_based_final_response_quality_v1": {"threshold": 0.5, "rubrics": [
  {"rubric_id": "concise", "rubric_content": {"text_property": "The response is concise."}}]}}}`
	dir := t.TempDir()
	write(t, dir, map[string]string{"x.evalset.json": set, "test_config.json": config})
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	s, errs := suite.LoadFile(filepath.Join(dir, "x.evalset.json"), suite.Options{Dialects: dialects.All(), Judges: rt}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tr := &trajeval.Trajectory{ID: "c1", Turns: []trajeval.Turn{
		{Turn: 1, User: str("Where is order 7?"), FinalResponse: str("Tomorrow.")},
		{Turn: 2, User: str("Thanks"), FinalResponse: str("You are welcome.")}}}
	r := run.Score(context.Background(), s, s.Cases[0], tr)
	if r.Evaluators[0].Status != trajeval.StatusPass {
		t.Fatalf("%+v", r.Evaluators[0])
	}
	if len(asked) != 2 {
		t.Fatalf("%d judge requests, want one per invocation", len(asked))
	}
	first, second := asked[0], asked[1]
	if strings.Contains(first, "Thanks") {
		first, second = second, first
	}
	for _, want := range []string{"concise", "polite", "delivery date"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first invocation's request lacks the rubric %q:\n%s", want, first)
		}
	}
	if strings.Contains(second, "delivery date") || !strings.Contains(second, "polite") {
		t.Errorf("the second invocation's request must hold the case's rubric and not the first invocation's:\n%s", second)
	}
}
