package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
)

// An LLMJudge asks a judge model to score the agent's work from 0 to 1,
// on one prompt or on several criteria at once.
type LLMJudge struct {
	judge    judge.Handle
	prompt   Template
	criteria []Criterion
	c        eval.Case
}

// A Criterion is one thing the judge scores, with its share of the score.
type Criterion struct {
	Name   string
	Text   string
	Weight float64
	// Required criteria must each pass (score ≥ 0.5) for the evaluator
	// to pass, whatever the weighted score.
	Required bool
}

const role = `You are a strict, impartial judge of the work of an AI agent. Score how well the agent's work meets
the instructions below, from 0 (not at all) to 1 (fully), and give your reasons briefly before the score.`

var singleSchema = judge.Object(map[string]any{
	"reasoning": judge.Typed("string", "why the score, briefly"),
	"score":     judge.Typed("number", "from 0 to 1"),
})

var criteriaSchema = judge.Object(map[string]any{
	"criteria": judge.Array(judge.Object(map[string]any{
		"id":        judge.Typed("integer", "the criterion's number"),
		"reasoning": judge.Typed("string", "why the score, briefly"),
		"score":     judge.Typed("number", "from 0 to 1"),
	})),
})

// Options configure an llm_judge.
type Options struct {
	// Prompt is the instructions (see [ParsePrompt]); its zero value, with
	// Criteria, asks the judge to score the work against each criterion.
	Prompt Template
	// Criteria are scored in one judge call; none scores the Prompt as a
	// whole.
	Criteria []Criterion
	// Judge is the judge to ask, or the reason there is none (the
	// evaluator is then an error when it runs).
	Judge judge.Handle
	// Case is what the prompt's variables may name of the case.
	Case eval.Case
}

// New builds an llm_judge. It refuses options with neither a prompt nor
// criteria, and an empty criterion, with an unplaced
// *trajeval.SpecError that names what to give.
func New(o Options) (*LLMJudge, error) {
	if o.Prompt.text == "" && len(o.Criteria) == 0 {
		return nil, &trajeval.SpecError{Msg: "llm_judge needs a prompt or criteria", Hint: "e.g. prompt: \"Is {{candidate_answer}} correct?\""}
	}
	for _, c := range o.Criteria {
		if strings.TrimSpace(c.Text) == "" {
			return nil, &trajeval.SpecError{Msg: "criterion is empty"}
		}
	}
	e := &LLMJudge{judge: o.Judge, prompt: o.Prompt, criteria: o.Criteria, c: o.Case}
	if o.Prompt.text == "" {
		e.prompt = Template{text: "Score the agent's work against each criterion.", vars: vars}
	}
	return e, nil
}

// Evaluate asks the judge.
func (e *LLMJudge) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	j, err := e.judge.Get()
	if err != nil {
		return trajeval.Outcome{}, err
	}
	user := e.prompt.render(e.c, t)
	if len(e.criteria) == 0 {
		return Single(ctx, j, role, user)
	}
	return Several(ctx, j, role, user, e.criteria)
}

// Single asks one question scored 0 to 1 and keeps the judge's reasoning
// in Details.Notes["reasoning"].
func Single(ctx context.Context, j *judge.Judge, role, user string) (trajeval.Outcome, error) {
	req := judge.Request{SchemaName: "verdict", Schema: singleSchema,
		Messages: []judge.Message{{Role: "system", Content: judge.System(role, singleSchema)}, {Role: "user", Content: user}}}
	var score float64
	v, usage, err := j.Ask(ctx, req, func(v map[string]any) (err error) {
		score, err = judge.Score(v, "score", 0, 1)
		return err
	})
	out := trajeval.Outcome{Judge: &usage}
	if err != nil {
		return out, err
	}
	out.Score = score
	out.Details = &trajeval.Details{Notes: map[string]any{"reasoning": judge.Text(v, "reasoning"), "model": j.Settings.Model}}
	return out, nil
}

// Several scores every criterion in one judge call: the score is their
// weighted mean, and Details.Checks give each criterion's score and
// reasoning (a criterion scoring under 0.5 is shown as failed).
func Several(ctx context.Context, j *judge.Judge, role, user string, crit []Criterion) (trajeval.Outcome, error) {
	var b strings.Builder
	b.WriteString(user)
	b.WriteString("\n\nScore each of these criteria separately (id: criterion):\n")
	for i, c := range crit {
		fmt.Fprintf(&b, "%d: %s\n", i+1, strings.TrimSpace(c.Text))
	}
	req := judge.Request{SchemaName: "criteria", Schema: criteriaSchema,
		Messages: []judge.Message{{Role: "system", Content: judge.System(role, criteriaSchema)}, {Role: "user", Content: b.String()}}}
	scores := make([]float64, len(crit))
	reasons := make([]string, len(crit))
	_, usage, err := j.Ask(ctx, req, func(v map[string]any) error {
		return judge.EachItem(v, "criteria", len(crit), func(k int, it map[string]any) (err error) {
			if scores[k], err = judge.Score(it, "score", 0, 1); err != nil {
				return err
			}
			reasons[k] = judge.Text(it, "reasoning")
			return nil
		})
	})
	out := trajeval.Outcome{Judge: &usage}
	if err != nil {
		return out, err
	}
	d := &trajeval.Details{Expected: len(crit), Notes: map[string]any{"model": j.Settings.Model}}
	var sum, wsum float64
	for k, c := range crit {
		sum += c.Weight * scores[k]
		wsum += c.Weight
		st := trajeval.CheckPass
		if scores[k] < 0.5 {
			st = trajeval.CheckFail
			if c.Required {
				out.Verdict = new(false)
			}
		} else {
			d.Hits++
		}
		msg := fmt.Sprintf("%.2f: %s", scores[k], reasons[k])
		if c.Required {
			msg = "required; " + msg
		}
		d.Checks = append(d.Checks, trajeval.Check{Name: c.Name, Status: st, Message: msg})
	}
	if wsum == 0 {
		return out, fmt.Errorf("every criterion weighs 0")
	}
	out.Score = sum / wsum
	out.Details = d
	return out, nil
}
