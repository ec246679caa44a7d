package uipath

import (
	"context"
	"math"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/trajeval"
)

// A judgeKind is one of UiPath's LLM judges.
type judgeKind struct {
	typ, uipath string
	criteria    []string // its criteria keys; the first is required
	role        string   // what the judge is asked
	prompt      string   // the default prompt, with UiPath's placeholders
}

var judgeKinds = []judgeKind{
	{"llm_judge_trajectory", "uipath-llm-judge-trajectory-similarity", []string{"expected_agent_behavior"},
		`You are a strict, impartial judge of an AI agent's run. Score from 0 to 100 how closely the agent's actions (its tool calls, their order and arguments, and its answers) follow the expected behaviour.`,
		"The user's input:\n{{UserOrSyntheticInput}}\n\nThe expected behaviour:\n{{ExpectedAgentBehavior}}\n\nThe agent's run:\n{{AgentRunHistory}}"},
	{"llm_judge_trajectory_simulation", "uipath-llm-judge-trajectory-simulation", []string{"expected_agent_behavior", "simulation_instructions"},
		`You are a strict, impartial judge of an AI agent's run in a simulation, where tools answered as the simulation instructions say. Score from 0 to 100 how closely the agent's actions follow the expected behaviour.`,
		"The user's input:\n{{UserOrSyntheticInput}}\n\nThe simulation instructions:\n{{SimulationInstructions}}\n\nThe expected behaviour:\n{{ExpectedAgentBehavior}}\n\nThe agent's run:\n{{AgentRunHistory}}"},
	{"llm_judge_output", "uipath-llm-judge-output-semantic-similarity", []string{"expected_output"},
		`You are a strict, impartial judge of an AI agent's output. Score from 0 to 100 how closely the actual output means the same as the expected output: the same facts and values, whatever the wording.`,
		"The expected output:\n{{ExpectedOutput}}\n\nThe actual output:\n{{ActualOutput}}"},
	{"llm_judge_output_strict_json", "uipath-llm-judge-output-strict-json-similarity", []string{"expected_output"},
		`You are a strict, impartial judge of an AI agent's JSON output. Score from 0 to 100 the share of the expected output's fields that the actual output has with equal values; a missing or different field costs its share.`,
		"The expected output:\n{{ExpectedOutput}}\n\nThe actual output:\n{{ActualOutput}}"},
}

// judgeConfigKeys are the keys of a UiPath LLM judge's evaluatorConfig.
var judgeConfigKeys = []string{"prompt", "model", "temperature", "judge"}

func specsJudged() []eval.Spec {
	var out []eval.Spec
	for _, k := range judgeKinds {
		k := k
		out = append(out, eval.Spec{
			Type:      k.typ,
			Aliases:   []string{k.uipath},
			Keys:      append(append([]string{}, k.criteria...), judgeConfigKeys...),
			Threshold: 0.5,
			Build:     func(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) { return buildJudge(k, n, env) },
		})
	}
	return out
}

// Judged is one of UiPath's LLM judges on one evaluation.
type Judged struct {
	kind   judgeKind
	prompt evaljudge.Template
	judge  judge.Handle
	c      eval.Case
}

var uipathSchema = judge.Object(map[string]any{
	"justification": judge.Typed("string", "why the score, briefly"),
	"score":         judge.Typed("number", "from 0 to 100"),
})

func buildJudge(k judgeKind, n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	crit := map[string]any{}
	for i, key := range k.criteria {
		v := n.Get(key)
		if v == nil || v.Kind == config.Null {
			if i == 0 {
				return nil, n.Errorf("missing %s", key).With("give it in evaluationCriterias or defaultEvaluationCriteria")
			}
			crit[key] = ""
			continue
		}
		if v.Kind == config.String {
			crit[key] = v.Text
		} else {
			crit[key] = v.Value()
		}
	}
	text := k.prompt
	at := n
	if p := n.Get("prompt"); p != nil {
		var err error
		if text, err = evaljudge.PromptText(p, env.Dir); err != nil {
			return nil, err
		}
		at = p
	}
	vars := map[string]evaljudge.Var{
		"UserOrSyntheticInput": func(c eval.Case, t *trajeval.Trajectory) any {
			if c.Input != "" {
				return c.Input
			}
			return judge.UserInput(t)
		},
		"AgentRunHistory": func(_ eval.Case, t *trajeval.Trajectory) any { return judge.Messages(t) },
		"ActualOutput":    func(_ eval.Case, t *trajeval.Trajectory) any { return actualOutput(t) },
	}
	for key, val := range map[string]string{"expected_agent_behavior": "ExpectedAgentBehavior", "simulation_instructions": "SimulationInstructions", "expected_output": "ExpectedOutput"} {
		if v, ok := crit[key]; ok {
			vars[val] = func(eval.Case, *trajeval.Trajectory) any { return v }
		}
	}
	tp, err := evaljudge.ParseTemplate(text, at, vars)
	if err != nil {
		return nil, err
	}
	if !tp.Uses() {
		return nil, at.Errorf("the prompt names none of UiPath's placeholders").With("e.g. {{AgentRunHistory}} and {{ExpectedAgentBehavior}}")
	}
	h, err := env.Judge(n, false)
	return &Judged{kind: k, prompt: tp, judge: h, c: env.Case}, err
}

// actualOutput is the agent's last answer, decoded when it is JSON.
func actualOutput(t *trajeval.Trajectory) any {
	a := judge.FinalAnswer(t)
	if v, err := jsonv.Decode([]byte(a)); err == nil {
		return v
	}
	return a
}

// Evaluate asks the judge for a score from 0 to 100 and keeps it as
// round(score/100, 2), with the judge's justification.
func (e *Judged) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	j, err := e.judge.Get()
	if err != nil {
		return trajeval.Outcome{}, err
	}
	req := judge.Request{SchemaName: "verdict", Schema: uipathSchema, Messages: []judge.Message{
		{Role: "system", Content: judge.System(e.kind.role, uipathSchema)},
		{Role: "user", Content: e.prompt.Render(e.c, t)},
	}}
	var score float64
	v, usage, err := j.Ask(ctx, req, func(v map[string]any) (err error) {
		score, err = judge.Score(v, "score", 0, 100)
		return err
	})
	out := trajeval.Outcome{Judge: &usage}
	if err != nil {
		return out, err
	}
	out.Score = math.Round(score) / 100
	out.Details = &trajeval.Details{Notes: map[string]any{
		"justification": judge.Text(v, "justification"), "score_0_100": score, "model": j.Settings.Model}}
	return out, nil
}
