package tau2_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/tau2"
	"github.com/trajeval/trajeval/internal/judge"
)

// steps builds a trajectory from "name {json args}" lines.
func steps(t *testing.T, calls ...string) *trajeval.Trajectory {
	t.Helper()
	tr := &trajeval.Trajectory{ID: "x"}
	for _, c := range calls {
		name, args, _ := strings.Cut(c, " ")
		var v any = map[string]any{}
		if args != "" {
			d := json.NewDecoder(strings.NewReader(args))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
		}
		tr.Steps = append(tr.Steps, trajeval.Step{Name: name, Args: v})
	}
	tr.Finish()
	return tr
}

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestActionCheck_Evaluate(t *testing.T) {
	cancel := func(args string, compare []string) tau2.ExpectedAction {
		return tau2.ExpectedAction{ID: "a", Name: "cancel", Args: obj(t, args), CompareArgs: compare}
	}
	tests := []struct {
		name    string
		actions []tau2.ExpectedAction
		calls   []string
		score   float64
		hits    int
		reason  string
	}{
		{"all args equal", []tau2.ExpectedAction{cancel(`{"id": "R1", "why": "plans"}`, nil)}, []string{`cancel {"id": "R1", "why": "plans"}`}, 1, 1,
			"compare_args null compares every argument the call gives"},
		{"a value differs", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, nil)}, []string{`cancel {"id": "R2"}`}, 0, 0,
			"one wrong value fails the action"},
		{"extra argument from the agent", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, nil)}, []string{`cancel {"id": "R1", "force": true}`}, 0, 0,
			"with compare_args null every argument the agent gave must be expected"},
		{"expected argument left out", []tau2.ExpectedAction{cancel(`{"id": "R1", "why": "plans"}`, nil)}, []string{`cancel {"id": "R1"}`}, 1, 1,
			"with compare_args null τ² compares over the call's own keys, so an omitted expected key is not compared"},
		{"compare_args subset", []tau2.ExpectedAction{cancel(`{"id": "R1", "why": "plans"}`, []string{"id"})}, []string{`cancel {"id": "R1", "why": "other", "force": true}`}, 1, 1,
			"only the keys in compare_args are compared"},
		{"compare_args key missing in the call", []tau2.ExpectedAction{cancel(`{"id": "R1", "why": "plans"}`, []string{"id", "why"})}, []string{`cancel {"id": "R1"}`}, 0, 0,
			"a compared key must be in both or in neither"},
		{"compare_args empty", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, []string{})}, []string{`cancel {"id": "R9"}`}, 1, 1,
			"an empty compare_args matches on the name alone"},
		{"numbers by value", []tau2.ExpectedAction{cancel(`{"n": 1}`, nil)}, []string{`cancel {"n": 1.0}`}, 1, 1,
			"1 and 1.0 are the same number"},
		{"nested exactly", []tau2.ExpectedAction{cancel(`{"p": [{"a": 1, "b": 2}]}`, nil)}, []string{`cancel {"p": [{"a": 1}]}`}, 0, 0,
			"values compare as whole JSON values, not as subsets"},
		{"dollar keys are literal", []tau2.ExpectedAction{cancel(`{"$regex": "R"}`, nil)}, []string{`cancel {"$regex": "R"}`}, 1, 1,
			"τ²'s arguments are plain values, never operators"},
		{"wrong name", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, nil)}, []string{`refund {"id": "R1"}`}, 0, 0,
			"names are compared exactly"},
		{"anywhere", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, nil)}, []string{`search {}`, `cancel {"id": "R2"}`, `cancel {"id": "R1"}`}, 1, 1,
			"any call may match, in any position"},
		{"one call for two actions", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, nil), cancel(`{"id": "R1"}`, nil)}, []string{`cancel {"id": "R1"}`}, 1, 2,
			"τ² checks each action on its own, so one call satisfies both"},
		{"one of two missing", []tau2.ExpectedAction{cancel(`{"id": "R1"}`, nil), cancel(`{"id": "R2"}`, nil)}, []string{`cancel {"id": "R1"}`}, 0, 1,
			"the reward is 1 only when every action is matched"},
		{"no actions", nil, []string{`cancel {}`}, 1, 0, "nothing to check scores 1, as in τ²"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tau2.NewAction(tt.actions).Evaluate(context.Background(), steps(t, tt.calls...))
			if err != nil {
				t.Fatal(err)
			}
			if out.Score != tt.score || out.Details.Hits != tt.hits {
				t.Errorf("score %v with %d hits, want %v with %d: %s", out.Score, out.Details.Hits, tt.score, tt.hits, tt.reason)
			}
		})
	}
}

func TestActionCheck_explains(t *testing.T) {
	a := tau2.NewAction([]tau2.ExpectedAction{{ID: "0_1", Name: "cancel", Args: map[string]any{"id": "R1"}}})
	out, err := a.Evaluate(context.Background(), steps(t, `cancel {"id": "R2"}`))
	if err != nil {
		t.Fatal(err)
	}
	m := out.Details.Missing
	if len(m) != 1 || len(m[0].Near) != 1 || len(m[0].Near[0].Diffs) != 1 || m[0].Near[0].Diffs[0].String() != `args.id: expected "R1", got "R2"` {
		t.Errorf("missing %+v, want the call of the same name as a near miss with the differing path", m)
	}
}

func TestActionCheck_userAction(t *testing.T) {
	a := tau2.NewAction([]tau2.ExpectedAction{{Name: "toggle_airplane_mode", Requestor: "user"}})
	_, err := a.Evaluate(context.Background(), steps(t, `toggle_airplane_mode {}`))
	if !errors.Is(err, tau2.ErrNotAssessed) || !strings.Contains(err.Error(), "user") {
		t.Errorf("err = %v, want not assessed: the user simulator's calls are not in the trajectory", err)
	}
}

func said(texts ...string) *trajeval.Trajectory {
	tr := &trajeval.Trajectory{ID: "x"}
	for _, s := range texts {
		tr.Turns = append(tr.Turns, trajeval.Turn{FinalResponse: &s})
	}
	tr.Finish()
	return tr
}

func TestCommunicateCheck_Evaluate(t *testing.T) {
	tests := []struct {
		name   string
		info   []string
		texts  []string
		score  float64
		reason string
	}{
		{"found", []string{"1628"}, []string{"Hello", "The refund is 1,628 dollars."}, 1, "the agent's commas are removed before searching"},
		{"case", []string{"Refund Issued"}, []string{"refund issued"}, 1, "the search ignores case"},
		{"not found", []string{"1628"}, []string{"The refund is 1 628 dollars."}, 0, "only commas are removed"},
		{"comma in the required text", []string{"1,628"}, []string{"The refund is 1,628 dollars."}, 0, "τ² removes the agent's commas, not the required text's"},
		{"one of two", []string{"1628", "gold"}, []string{"1628"}, 0, "every text must be communicated"},
		{"none required", nil, nil, 1, "nothing to check scores 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tau2.NewCommunicate(tt.info).Evaluate(context.Background(), said(tt.texts...))
			if err != nil {
				t.Fatal(err)
			}
			if out.Score != tt.score || len(out.Details.Checks) != len(tt.info) {
				t.Errorf("score %v with checks %+v, want %v: %s", out.Score, out.Details.Checks, tt.score, tt.reason)
			}
		})
	}
}

func TestNLAssertionsCheck_noJudge(t *testing.T) {
	_, err := tau2.NewNLAssertions([]string{"The agent apologised"}, judge.Handle{}).Evaluate(context.Background(), said("sorry"))
	if !errors.Is(err, tau2.ErrNotAssessed) {
		t.Errorf("err = %v, want not assessed: without a judge NL_ASSERTION is never a pass", err)
	}
}

func fixed(score float64) trajeval.Evaluator {
	return trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{Score: score}, nil
	})
}

func TestReward_Evaluate(t *testing.T) {
	tests := []struct {
		name   string
		parts  []tau2.Part
		score  float64
		err    string
		reason string
	}{
		{"all pass", []tau2.Part{{tau2.Action, fixed(1)}, {tau2.Communicate, fixed(1)}}, 1, "", "the product of ones"},
		{"one fails", []tau2.Part{{tau2.Action, fixed(1)}, {tau2.Communicate, fixed(0)}}, 0, "", "one zero makes the product 0"},
		{"empty basis", nil, 1, "", "τ² starts the product at 1"},
		{"not assessed", []tau2.Part{{tau2.DB, tau2.NotAssessed(tau2.DB, "needs the environment")}, {tau2.Action, fixed(1)}}, 0, "DB needs the environment",
			"a component that cannot run is an error naming it, never a silent 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tau2.NewReward(tt.parts).Evaluate(context.Background(), said())
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, tau2.ErrNotAssessed) && !strings.Contains(err.Error(), "not assessed") {
					t.Errorf("err = %v, want one containing %q: %s", err, tt.err, tt.reason)
				}
				return
			}
			if err != nil || out.Score != tt.score || len(out.Members) != len(tt.parts) {
				t.Errorf("score %v, %d members, err %v; want %v with a member per part: %s", out.Score, len(out.Members), err, tt.score, tt.reason)
			}
		})
	}
}
