package adk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/judge"
)

// ADK's judged metrics that trajeval runs.
const (
	ResponseMatchV2 = "final_response_match_v2"
	RubricResponse  = "rubric_based_final_response_quality_v1"
	RubricToolUse   = "rubric_based_tool_use_quality_v1"
	Hallucinations  = "hallucinations_v1"
)

// JudgedMetrics are ADK's judged metrics that trajeval runs.
var JudgedMetrics = []string{ResponseMatchV2, RubricResponse, RubricToolUse, Hallucinations}

// A Rubric is one property the judge checks.
type Rubric struct{ ID, Text string }

// Judged is one of ADK's judged metrics on one eval case.
type Judged struct {
	metric  string
	want    []Invocation
	rubrics []Rubric
	judge   judge.Handle
	// threshold decides each invocation's verdict, as the metric's.
	threshold float64
}

// NewJudged returns a judged metric. The rubric metrics need rubrics;
// final_response_match_v2 needs an expected final response.
func NewJudged(metric string, inv []Invocation, rubrics []Rubric, h judge.Handle, threshold float64) (*Judged, error) {
	switch metric {
	case RubricResponse, RubricToolUse:
		own := false
		for _, in := range inv {
			own = own || len(in.Rubrics) > 0
		}
		if len(rubrics) == 0 && !own {
			return nil, fmt.Errorf(`%s needs rubrics (give "rubrics": [{"rubric_id": "concise", "rubric_content": {"text_property": "..."}}])`, metric)
		}
	case ResponseMatchV2:
		has := false
		for _, in := range inv {
			has = has || in.FinalResponse != nil
		}
		if !has {
			return nil, fmt.Errorf("%s needs an expected final_response in some invocation", metric)
		}
	}
	return &Judged{metric: metric, want: inv, rubrics: rubrics, judge: h, threshold: threshold}, nil
}

// A turn is what the agent did in one invocation.
type turn struct {
	user, answer *string
	steps        []trajeval.Step
	present      bool
}

func turnOf(t *trajeval.Trajectory, split [][]trajeval.Step, i int) turn {
	var tn turn
	if i < len(split) {
		tn.steps, tn.present = split[i], true
	}
	if i < len(t.Turns) {
		tn.user, tn.answer, tn.present = t.Turns[i].User, t.Turns[i].FinalResponse, true
	}
	return tn
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

const (
	v2Role = `You are a strict, impartial judge of an AI agent's answers. For each invocation, decide whether the agent's
response is valid given the reference response: it must give the same facts, values and conclusions that answer the
user's prompt; wording, format and extra helpful detail may differ.`
	rubricRole = `You are a strict, impartial judge of an AI agent's work in one invocation of a conversation. Decide for
each rubric whether the agent's work meets it.`
	hallucinationRole = `You are a strict, impartial judge of whether an AI agent's answer is grounded. Split the agent's
response into sentences, and label each: supported (the user's prompt or the tool results support it), unsupported
(nothing given supports it), contradictory (the context contradicts it), disputed (the context both supports and
contradicts it) or not_applicable (it asserts no fact: a greeting, a question, an offer of help).`
)

// Evaluate scores each expected invocation against its turn, and takes
// the mean.
func (e *Judged) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	j, err := e.judge.Get()
	if err != nil {
		return trajeval.Outcome{}, err
	}
	split := turns(t)
	d := &trajeval.Details{Expected: len(e.want), Actual: len(split)}
	if w := countWarning(len(e.want), len(split)); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	usage := &trajeval.JudgeUsage{}
	var scores []float64
	var members []trajeval.Result
	add := func(i int, score float64, why string) {
		scores = append(scores, score)
		r := trajeval.Result{Name: fmt.Sprintf("invocation %d", i+1), Type: e.metric, Score: score, Weight: 1, Required: true, Turn: i + 1,
			Threshold: e.threshold, Status: trajeval.StatusPass, Details: &trajeval.Details{Notes: map[string]any{"reasoning": why}}}
		if score < e.threshold-1e-9 {
			r.Status = trajeval.StatusFail
		}
		members = append(members, r)
	}
	if e.metric == ResponseMatchV2 {
		err = e.responseMatch(ctx, j, t, split, usage, add)
	} else {
		err = e.perInvocation(ctx, j, t, split, usage, add)
	}
	out := trajeval.Outcome{Judge: usage, Details: d, Members: members}
	if err != nil {
		return out, err
	}
	if len(scores) == 0 {
		return out, fmt.Errorf("no invocation could be scored")
	}
	var sum float64
	for _, s := range scores {
		sum += s
	}
	out.Score = sum / float64(len(scores))
	d.Hits = len(scores)
	return out, nil
}

// perInvocation asks about each invocation, all at once, and adds the
// results in invocation order.
func (e *Judged) perInvocation(ctx context.Context, j *judge.Judge, t *trajeval.Trajectory, split [][]trajeval.Step, usage *trajeval.JudgeUsage, add func(int, float64, string)) error {
	type result struct {
		score float64
		why   string
		skip  bool
		usage *trajeval.JudgeUsage
	}
	res := make([]result, len(e.want))
	err := judge.Each(len(e.want), func(i int) (err error) {
		tn := turnOf(t, split, i)
		r := &res[i]
		switch {
		case !tn.present:
			r.why = "the trace has no such turn"
		case e.metric == Hallucinations && tn.answer == nil:
			r.skip = true // nothing said, nothing to ground
		case e.metric == Hallucinations:
			r.score, r.why, r.usage, err = e.hallucinations(ctx, j, tn)
		default:
			r.score, r.why, r.usage, err = e.rubric(ctx, j, tn, e.rubricsOf(i))
		}
		if err != nil {
			return fmt.Errorf("invocation %d: %w", i+1, err)
		}
		return nil
	})
	for _, r := range res {
		usage.Add(r.usage)
	}
	if err != nil {
		return err
	}
	for i, r := range res {
		if !r.skip {
			add(i, r.score, r.why)
		}
	}
	return nil
}

// responseMatch asks about every invocation with a reference in one call.
func (e *Judged) responseMatch(ctx context.Context, j *judge.Judge, t *trajeval.Trajectory, split [][]trajeval.Step, usage *trajeval.JudgeUsage, add func(int, float64, string)) error {
	var rows []map[string]any
	var items []string
	var index []int
	for i, in := range e.want {
		if in.FinalResponse == nil {
			continue
		}
		tn := turnOf(t, split, i)
		if tn.answer == nil {
			add(i, 0, "the turn has no final response")
			continue
		}
		rows = append(rows, map[string]any{"invocation": i + 1, "user_prompt": text(tn.user), "reference_response": *in.FinalResponse, "agent_response": *tn.answer})
		items = append(items, fmt.Sprintf("the agent's response in invocation %d is valid", i+1))
		index = append(index, i)
	}
	if len(items) == 0 {
		return nil
	}
	vs, u, err := evaljudge.Checklist(ctx, j, v2Role, "The invocations:\n"+judge.Data("invocations", rows), "valid", items)
	usage.Add(u)
	if err != nil {
		return err
	}
	for k, v := range vs {
		s := 0.0
		if v.Yes {
			s = 1
		}
		add(index[k], s, v.Reason)
	}
	return nil
}

// rubricsOf returns the rubrics of invocation i: the criterion's, then
// the invocation's own (its case's included).
func (e *Judged) rubricsOf(i int) []Rubric {
	if len(e.want[i].Rubrics) == 0 {
		return e.rubrics
	}
	return append(slices.Clone(e.rubrics), e.want[i].Rubrics...)
}

// rubric scores one turn: the share of rubrics it meets.
func (e *Judged) rubric(ctx context.Context, j *judge.Judge, tn turn, rubrics []Rubric) (float64, string, *trajeval.JudgeUsage, error) {
	user := "The user's prompt:\n" + judge.Data("user_prompt", text(tn.user))
	if e.metric == RubricToolUse {
		user += "\n\nThe agent's tool calls in this invocation, with their results:\n" + judge.Data("tool_calls", callsOf(tn.steps))
	} else {
		user += "\n\nThe agent's final response:\n" + judge.Data("final_response", text(tn.answer))
	}
	if len(rubrics) == 0 {
		return 0, "", nil, errors.New("this invocation has no rubrics, and the criterion gives none")
	}
	items := make([]string, len(rubrics))
	for i, r := range rubrics {
		items[i] = r.Text
	}
	vs, u, err := evaljudge.Checklist(ctx, j, rubricRole, user, "meets", items)
	if err != nil {
		return 0, "", u, err
	}
	met := 0
	var why []string
	for i, v := range vs {
		mark := "no"
		if v.Yes {
			met++
			mark = "yes"
		}
		why = append(why, fmt.Sprintf("%s: %s (%s)", rubrics[i].ID, mark, v.Reason))
	}
	return float64(met) / float64(len(vs)), strings.Join(why, "; "), u, nil
}

func callsOf(steps []trajeval.Step) []judge.Call {
	return judge.ToolCalls(&trajeval.Trajectory{Steps: steps})
}

var labels = []string{"supported", "unsupported", "contradictory", "disputed", "not_applicable"}

var hallucinationSchema = judge.Object(map[string]any{
	"sentences": judge.Array(judge.Object(map[string]any{
		"sentence":  judge.Typed("string", "one sentence of the response"),
		"reasoning": judge.Typed("string", "why the label, briefly"),
		"label":     map[string]any{"type": "string", "enum": labels},
	})),
})

// hallucinations scores one turn: the share of its response's sentences
// that are supported or assert nothing.
func (e *Judged) hallucinations(ctx context.Context, j *judge.Judge, tn turn) (float64, string, *trajeval.JudgeUsage, error) {
	user := "The user's prompt:\n" + judge.Data("user_prompt", text(tn.user)) +
		"\n\nThe tool calls of this invocation, with their results (the context):\n" + judge.Data("tool_calls", callsOf(tn.steps)) +
		"\n\nThe agent's response to label, sentence by sentence:\n" + judge.Data("final_response", text(tn.answer))
	req := judge.Request{SchemaName: "sentences", Schema: hallucinationSchema, Messages: []judge.Message{
		{Role: "system", Content: judge.System(hallucinationRole, hallucinationSchema)}, {Role: "user", Content: user}}}
	var good, total int
	var bad []string
	_, u, err := j.Ask(ctx, req, func(v map[string]any) error {
		list, err := judge.List(v, "sentences")
		if err != nil {
			return err
		}
		good, total, bad = 0, len(list), nil
		for i, s := range list {
			l := judge.Text(s, "label")
			switch l {
			case "supported", "not_applicable":
				good++
			case "unsupported", "contradictory", "disputed":
				bad = append(bad, fmt.Sprintf("%s: %q", l, judge.Text(s, "sentence")))
			default:
				return fmt.Errorf("sentence %d has label %q, not one of %s", i+1, l, strings.Join(labels, ", "))
			}
		}
		return nil
	})
	if err != nil {
		return 0, "", &u, err
	}
	if total == 0 {
		return 1, "no sentences", &u, nil
	}
	why := fmt.Sprintf("%d of %d sentences grounded", good, total)
	if len(bad) > 0 {
		why += "; " + strings.Join(bad, "; ")
	}
	return float64(good) / float64(total), why, &u, nil
}
