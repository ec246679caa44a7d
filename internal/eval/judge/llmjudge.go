package judge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsLlmjudge() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "llm_judge",
		Aliases:   []string{"llm_grader"},
		Keys:      []string{"prompt", "criteria", "rubrics", "model", "temperature", "judge"},
		Threshold: 0.5,
		Build:     build,
	})
	return out
}

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

func build(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	e := &LLMJudge{c: env.Case}
	if p := n.Get("prompt"); p != nil {
		text, err := PromptText(p, env.Dir)
		if err != nil {
			return nil, err
		}
		if e.prompt, err = parseTemplate(text, p); err != nil {
			return nil, err
		}
	}
	crit, key := n.First("criteria", "rubrics")
	if crit != nil {
		if k2 := "rubrics"; key != k2 && n.Has(k2) {
			return nil, n.Get(k2).Errorf("give criteria or rubrics, not both")
		}
		var err error
		if e.criteria, err = Criteria(crit); err != nil {
			return nil, err
		}
	}
	if n.Get("prompt") == nil && crit == nil {
		return nil, n.Errorf("llm_judge needs a prompt or criteria").With("e.g. prompt: \"Is {{candidate_answer}} correct?\"")
	}
	if n.Get("prompt") == nil {
		e.prompt = Template{text: "Score the agent's work against each criterion.", vars: vars}
	}
	var err error
	e.judge, err = env.Judge(n, false)
	return e, err
}

// PromptText reads an inline prompt, or a prompt file: a one-line value
// that starts with ./ or ../, or ends in .md, .txt, .prompt or .tmpl,
// relative to the suite's folder.
func PromptText(p *config.Node, dir string) (string, error) {
	s, err := p.Str()
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", p.Errorf("prompt is empty")
	}
	if !isPath(s) {
		return s, nil
	}
	path := s
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		e := p.Errorf("prompt file %s cannot be read", s)
		if os.IsNotExist(err) {
			e.Hint = "the path is relative to the suite's folder: " + path + " does not exist"
		}
		return "", e
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", p.Errorf("prompt file %s is empty", s)
	}
	return string(data), nil
}

func isPath(s string) bool {
	if strings.ContainsAny(s, "\n{}") {
		return false
	}
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return true
	}
	switch strings.ToLower(filepath.Ext(s)) {
	case ".md", ".txt", ".prompt", ".tmpl":
		return !strings.Contains(s, " ")
	}
	return false
}

// Criteria reads a list of criteria: texts, or maps with description (or
// criterion, outcome), name (or id) and weight.
func Criteria(n *config.Node) ([]Criterion, error) {
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, n.Errorf("the list of criteria is empty")
	}
	var out []Criterion
	for i, it := range items {
		c := Criterion{Name: fmt.Sprintf("criterion %d", i+1), Weight: 1}
		switch it.Kind {
		case config.String:
			c.Text = it.Text
		case config.Map:
			if err := it.Check("name", "id", "description", "criterion", "outcome", "weight", "required"); err != nil {
				return nil, err
			}
			if v, _ := it.First("name", "id"); v != nil {
				if c.Name, err = v.Name(); err != nil {
					return nil, err
				}
			}
			v, _ := it.First("description", "criterion", "outcome")
			if v == nil {
				return nil, it.Errorf("criterion has no description").With("give description: what the work must do")
			}
			if c.Text, err = v.Str(); err != nil {
				return nil, err
			}
			if w := it.Get("weight"); w != nil {
				if c.Weight, err = w.NonNegative(); err != nil {
					return nil, err
				}
			}
			if r := it.Get("required"); r != nil {
				if c.Required, err = r.BoolValue(); err != nil {
					return nil, err
				}
			}
		default:
			return nil, it.Errorf("a criterion is a text or a map with description, got %s", it.Kind)
		}
		if strings.TrimSpace(c.Text) == "" {
			return nil, it.Errorf("criterion is empty")
		}
		out = append(out, c)
	}
	return out, nil
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
