// Package tau2 scores a trajectory as τ²-bench (sierra-research's
// tau2-bench) scores a simulation: a task's reward is the product of the
// components its reward_basis names, each 1 or 0.
//
// The components:
//  1. ACTION ([NewAction]): every expected action is matched by some tool
//     call of the agent, anywhere in the trajectory; one call may match
//     several actions (τ² checks each action on its own). A call matches
//     an action when the names are equal and the arguments are equal over
//     the action's compare_args: both restricted to those keys, the
//     restricted objects must be equal, so a key must be present in both or
//     in neither. compare_args null compares over the call's own keys:
//     every argument the agent gave must be expected, with an equal value;
//     expected arguments the agent left out are not compared. An empty
//     compare_args matches on the name alone. Values are equal as JSON
//     values are in package argmatch's exact mode (numbers by value,
//     objects key by key at every depth, a bool never a number).
//  2. COMMUNICATE ([NewCommunicate]): every required text is found in one
//     of the agent's texts (each turn's final response), both lower-cased
//     and the agent's commas removed, as τ² compares them.
//  3. NL_ASSERTION ([NewNLAssertions]): the judge decides, in one call,
//     whether the conversation meets each assertion; all must be met. With
//     no judge the component is an error, never a pass.
//  4. DB and ENV_ASSERTION need τ²'s environment (its database replayed,
//     its assertion functions run): [NotAssessed] makes them an error.
//  5. [Reward] multiplies the components of a task's basis (an empty
//     basis scores 1, as in τ²). A component that cannot be assessed makes
//     the reward an error naming it, never a silent 1: a user who wants
//     the others leaves it out of the basis.
//
// Each component with nothing to check (no actions, no texts, no
// assertions) scores 1, as in τ².
package tau2

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/judge"
)

// The reward components of τ², as a task's reward_basis names them.
const (
	DB           = "DB"
	EnvAssertion = "ENV_ASSERTION"
	NLAssertion  = "NL_ASSERTION"
	Action       = "ACTION"
	Communicate  = "COMMUNICATE"
)

// Components lists τ²'s reward components.
var Components = []string{DB, EnvAssertion, Action, Communicate, NLAssertion}

// ErrNotAssessed is the error of a component trajeval cannot assess.
var ErrNotAssessed = errors.New("not assessed")

// An ExpectedAction is one action of a task's evaluation criteria.
type ExpectedAction struct {
	ID   string // action_id, for reports
	Name string
	Args map[string]any
	// CompareArgs are the argument names compared; nil compares every
	// argument the call gives, empty compares none.
	CompareArgs []string
	// Requestor is who should call it: "assistant" (the default) or "user".
	Requestor string
}

// label names the action in reports.
func (a ExpectedAction) label() string {
	if a.ID != "" {
		return a.Name + " (" + a.ID + ")"
	}
	return a.Name
}

// ActionCheck is the ACTION component.
type ActionCheck struct{ actions []ExpectedAction }

// NewAction returns the ACTION component for the task's actions.
func NewAction(actions []ExpectedAction) *ActionCheck { return &ActionCheck{actions: actions} }

// ReadsText says that the evaluator reads arguments through
// trajeval.Decoded (see eval.TextReader): those of the calls named as an
// action.
func (*ActionCheck) ReadsText() bool { return true }

// Evaluate scores 1 when every action is matched by some call, else 0.
// An action of the user simulator (requestor user) is an error: the
// user's own calls are not in the agent's trajectory.
func (a *ActionCheck) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: "tau2", Expected: len(a.actions), Actual: len(t.Steps)}
	for i, act := range a.actions {
		if act.Requestor == "user" {
			return trajeval.Outcome{}, fmt.Errorf("%w: action %d, %s, is the user's (requestor user), and the user simulator's calls are not in the agent's trajectory", ErrNotAssessed, i+1, act.label())
		}
		hit := -1
		var near []trajeval.NearMiss
		for j, s := range t.Steps {
			if s.Name != act.Name {
				continue
			}
			got, err := trajeval.Decoded(s.Args)
			if err != nil {
				return trajeval.Outcome{}, fmt.Errorf("the trace's arguments or results: step %d's arguments: %w", s.Index, err)
			}
			diffs, err := compare(act, got)
			if err != nil {
				return trajeval.Outcome{}, fmt.Errorf("action %d, %s: %w", i+1, act.label(), err)
			}
			if diffs == nil {
				hit = j
				break
			}
			near = append(near, trajeval.NearMiss{Step: s.Index, Tool: s.Name, Diffs: diffs})
		}
		if hit < 0 {
			d.Missing = append(d.Missing, trajeval.Missing{Item: i + 1, Tool: act.Name, Near: near})
			continue
		}
		d.Hits++
		d.Matched = append(d.Matched, trajeval.Pair{Item: i + 1, Step: t.Steps[hit].Index, Tool: act.Name})
	}
	out := trajeval.Outcome{Details: d}
	if d.Hits == len(a.actions) {
		out.Score = 1
	}
	return out, nil
}

// compare returns the argument paths where got differs from the action's
// arguments over its compare_args, nil when they are equal.
func compare(act ExpectedAction, got any) ([]trajeval.ArgDiff, error) {
	m, ok := got.(map[string]any)
	if !ok {
		return []trajeval.ArgDiff{{Path: "args", Want: "an object", Got: jsonv.Kind(got)}}, nil
	}
	keys := act.CompareArgs
	if keys == nil {
		for k := range m {
			keys = append(keys, k)
		}
	}
	want, have := map[string]any{}, map[string]any{}
	for _, k := range keys {
		if v, ok := act.Args[k]; ok {
			want[k] = v
		}
		if v, ok := m[k]; ok {
			have[k] = v
		}
	}
	mt, err := argmatch.New(literal(want), trajeval.ArgsMatch{Mode: trajeval.ArgsExact}, argmatch.Options{})
	if err != nil {
		return nil, err
	}
	if mt.Match(have) {
		return nil, nil
	}
	return mt.Diff(have), nil
}

// literal escapes the keys of v that start with "$", which argmatch would
// read as operators: τ²'s expected arguments are plain values.
func literal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if strings.HasPrefix(k, "$") {
				k = "$" + k
			}
			out[k] = literal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = literal(e)
		}
		return out
	}
	return v
}

// CommunicateCheck is the COMMUNICATE component.
type CommunicateCheck struct{ info []string }

// NewCommunicate returns the COMMUNICATE component for the task's
// communicate_info.
func NewCommunicate(info []string) *CommunicateCheck { return &CommunicateCheck{info: info} }

// ReadsText says that the evaluator may be handed arguments and results
// kept as JSON text (see eval.TextReader): it looks only at the final
// responses.
func (*CommunicateCheck) ReadsText() bool { return true }

// Evaluate scores 1 when every text is found in some text of the agent,
// else 0; each text is a check of the result.
func (c *CommunicateCheck) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	var said []string
	for _, tn := range t.Turns {
		if tn.FinalResponse != nil {
			said = append(said, strings.ReplaceAll(strings.ToLower(*tn.FinalResponse), ",", ""))
		}
	}
	d := &trajeval.Details{Mode: "tau2", Expected: len(c.info), Actual: len(said)}
	for _, info := range c.info {
		want := strings.ToLower(info)
		ck := trajeval.Check{Name: info, Status: trajeval.CheckFail, Message: "not communicated"}
		for i, s := range said {
			if strings.Contains(s, want) {
				ck.Status, ck.Message = trajeval.CheckPass, fmt.Sprintf("in the agent's text of turn %d", turnOf(t, i))
				d.Hits++
				break
			}
		}
		d.Checks = append(d.Checks, ck)
	}
	out := trajeval.Outcome{Details: d}
	if d.Hits == len(c.info) {
		out.Score = 1
	}
	return out, nil
}

// turnOf returns the turn of the i-th turn that has a final response.
func turnOf(t *trajeval.Trajectory, i int) int {
	for _, tn := range t.Turns {
		if tn.FinalResponse == nil {
			continue
		}
		if i == 0 {
			return tn.Turn
		}
		i--
	}
	return 0
}

// NLAssertionsCheck is the NL_ASSERTION component.
type NLAssertionsCheck struct {
	assertions []string
	judge      judge.Handle
}

// NewNLAssertions returns the NL_ASSERTION component for the task's
// nl_assertions, judged by h.
func NewNLAssertions(assertions []string, h judge.Handle) *NLAssertionsCheck {
	return &NLAssertionsCheck{assertions: assertions, judge: h}
}

const nlRole = `You are a strict, impartial judge of a conversation between a customer-service agent and a customer,
collected during a test. Decide for each expected outcome whether the agent satisfies it.`

// Evaluate asks the judge about every assertion and scores 1 when all are
// met, else 0; each assertion is a check with the judge's reasoning. No
// judge is an error.
func (c *NLAssertionsCheck) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: "tau2", Expected: len(c.assertions)}
	if len(c.assertions) == 0 {
		return trajeval.Outcome{Score: 1, Details: d}, nil
	}
	j, err := c.judge.Get()
	if err != nil {
		return trajeval.Outcome{}, fmt.Errorf("%w: NL_ASSERTION needs a judge: %w", ErrNotAssessed, err)
	}
	user := "The conversation:\n" + judge.Data("conversation", judge.Messages(t))
	vs, usage, err := evaljudge.Checklist(ctx, j, nlRole, user, "met", c.assertions)
	out := trajeval.Outcome{Details: d, Judge: usage}
	if err != nil {
		return out, err
	}
	for i, v := range vs {
		ck := trajeval.Check{Name: c.assertions[i], Status: trajeval.CheckFail, Message: v.Reason}
		if v.Yes {
			ck.Status = trajeval.CheckPass
			d.Hits++
		}
		d.Checks = append(d.Checks, ck)
	}
	if d.Hits == len(c.assertions) {
		out.Score = 1
	}
	return out, nil
}

// NotAssessed returns a component that is always an error: why says what
// it would need.
func NotAssessed(component, why string) trajeval.Evaluator {
	return trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{}, fmt.Errorf("%w: %s %s", ErrNotAssessed, component, why)
	})
}

// A Part is one component of a reward.
type Part struct {
	Component string // e.g. ACTION
	Eval      trajeval.Evaluator
}

// Reward is a task's reward: the product of its parts.
type Reward struct{ parts []Part }

// NewReward returns the reward of the parts, in the order given.
func NewReward(parts []Part) *Reward { return &Reward{parts: parts} }

// ReadsText reports whether every part reads kept JSON text itself (see
// eval.ReadsText): the parts are handed the trajectory the reward is.
func (r *Reward) ReadsText() bool {
	for _, p := range r.parts {
		if !eval.ReadsText(p.Eval) {
			return false
		}
	}
	return true
}

// Evaluate scores every part and multiplies their scores. Each part is a
// member of the result. A part that cannot run makes the reward an error
// that names every such part.
func (r *Reward) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	out := trajeval.Outcome{Score: 1, Details: &trajeval.Details{Mode: "tau2", Expected: len(r.parts)}}
	var failed []string
	for _, p := range r.parts {
		o, err := p.Eval.Evaluate(ctx, t)
		if o.Judge != nil {
			if out.Judge == nil {
				out.Judge = &trajeval.JudgeUsage{}
			}
			out.Judge.Add(o.Judge)
		}
		m := trajeval.Result{Name: p.Component, Type: "tau2_" + strings.ToLower(p.Component), Weight: 1, Required: true, Threshold: 1,
			Score: o.Score, Details: o.Details, Status: trajeval.StatusFail}
		switch {
		case err != nil:
			m.Status, m.Error, m.Score = trajeval.StatusError, err.Error(), 0
			failed = append(failed, err.Error())
		case o.Score >= 1:
			m.Status = trajeval.StatusPass
			out.Details.Hits++
		}
		out.Score *= m.Score
		out.Members = append(out.Members, m)
	}
	if failed != nil {
		return out, errors.New(strings.Join(failed, "; "))
	}
	return out, nil
}
