package tau2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

const judged = `[{"id": "t", "evaluation_criteria": {
  "nl_assertions": ["The agent asks for confirmation before cancelling.", "The agent offers a voucher."],
  "reward_basis": ["NL_ASSERTION"]}}]`

func TestNLAssertions_judge(t *testing.T) {
	srv := judgetest.New(t, judgetest.Checklist(func(field string, id int, item string) bool {
		return field == "met" && strings.Contains(item, "confirmation")
	}))
	rt := &judge.Runtime{Getenv: srv.Env(), NoCache: true}
	s, errs := load(t, write(t, judged), suite.Options{Judges: rt})
	if len(errs) > 0 || rt.Err() != nil {
		t.Fatal(errs, rt.Err())
	}
	said := "Shall I cancel it?"
	tr := &trajeval.Trajectory{ID: "t", Turns: []trajeval.Turn{{Turn: 1, FinalResponse: &said}}}
	r := run.Score(context.Background(), s, s.Cases[0], tr)
	e := r.Evaluators[0]
	if e.Status != trajeval.StatusFail || e.Score != 0 || len(e.Members) != 1 || e.Judge == nil {
		t.Fatalf("reward %s %v (%s), want a fail: one assertion of two is met, and the reward is all or nothing", e.Status, e.Score, e.Error)
	}
	checks := e.Members[0].Details.Checks
	if len(checks) != 2 || checks[0].Status != trajeval.CheckPass || checks[1].Status != trajeval.CheckFail {
		t.Errorf("checks %+v, want the first assertion met and the second not", checks)
	}
	if srv.Requests() != 1 {
		t.Errorf("%d judge requests, want one for every assertion", srv.Requests())
	}
}

func TestNLAssertions_noJudge(t *testing.T) {
	s, errs := load(t, write(t, judged), suite.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := run.Score(context.Background(), s, s.Cases[0], &trajeval.Trajectory{ID: "t"})
	if r.Status != trajeval.StatusError || !strings.Contains(r.Error, "NL_ASSERTION needs a judge") {
		t.Errorf("case %s (%s), want an error: without a judge NL_ASSERTION is not assessed, never a pass", r.Status, r.Error)
	}
}
