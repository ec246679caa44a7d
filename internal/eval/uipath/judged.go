package uipath

import (
	"context"
	"fmt"
	"math"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval"
	evaljudge "github.com/trajeval/trajeval/internal/eval/judge"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/judge"
)

// A JudgeKind is one of UiPath's LLM judges.
type JudgeKind struct {
	Type, UiPath string   // trajeval's type name and UiPath's evaluatorTypeId
	Criteria     []string // its criteria keys; the first is required
	role         string   // what the judge is asked
	Prompt       string   // the default prompt, with UiPath's placeholders
}

// JudgeKinds are UiPath's LLM judges.
var JudgeKinds = []JudgeKind{
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

// JudgeConfigKeys are the keys of a UiPath LLM judge's evaluatorConfig;
// the output judges take OutputConfigKeys too.
var (
	JudgeConfigKeys  = []string{"prompt", "model", "temperature", "judge"}
	OutputConfigKeys = []string{"target_output_key"}
)

// A Target is an output judge's targetOutputKey: the parts of the output
// judged. The zero Target ("*") is the whole output.
type Target struct {
	Paths []string // dot-paths with [i] indexes, e.g. result, items[0].name
	List  bool     // a list of keys: the judged value is {path: value}
}

// Select returns the part of v the target names: v itself for the whole
// output, the value at the path, or {path: value} for a list of keys. A
// value that is JSON text is decoded first. A path v lacks is an error,
// as in UiPath.
func (tg Target) Select(v any) (any, error) {
	if len(tg.Paths) == 0 {
		return v, nil
	}
	if s, ok := v.(string); ok {
		if d, err := jsonv.Decode([]byte(s)); err == nil {
			v = d
		}
	}
	if !tg.List {
		return at(v, tg.Paths[0])
	}
	out := map[string]any{}
	for _, p := range tg.Paths {
		x, err := at(v, p)
		if err != nil {
			return nil, err
		}
		out[p] = x
	}
	return out, nil
}

// at returns the value at a dot-path of v.
func at(v any, path string) (any, error) {
	p, err := argmatch.ParsePath(path)
	if err != nil {
		return nil, err
	}
	var got any
	found := false
	p.Values(v, func(x any) bool {
		got, found = x, true
		return false
	})
	if !found {
		return nil, fmt.Errorf("targetOutputKey %s is not in the output", path)
	}
	return got, nil
}

// Judged is one of UiPath's LLM judges on one evaluation.
type Judged struct {
	kind   JudgeKind
	prompt evaljudge.Template
	judge  judge.Handle
	c      eval.Case
	target Target
}

var uipathSchema = judge.Object(map[string]any{
	"justification": judge.Typed("string", "why the score, briefly"),
	"score":         judge.Typed("number", "from 0 to 100"),
})

// Vars are the placeholders of a judge's prompt: the run's
// (UserOrSyntheticInput, AgentRunHistory, ActualOutput) and the
// criteria's (ExpectedAgentBehavior, SimulationInstructions,
// ExpectedOutput), from crit by criteria key. The outputs are the parts
// target names.
func Vars(crit map[string]any, target Target) map[string]evaljudge.Var {
	vars := map[string]evaljudge.Var{
		"UserOrSyntheticInput": func(c eval.Case, t *trajeval.Trajectory) any {
			if c.Input != "" {
				return c.Input
			}
			return judge.UserInput(t)
		},
		"AgentRunHistory": func(_ eval.Case, t *trajeval.Trajectory) any { return judge.Messages(t) },
		"ActualOutput": func(_ eval.Case, t *trajeval.Trajectory) any {
			v, err := target.Select(actualOutput(t))
			if err != nil {
				return nil // Evaluate has refused the trajectory already
			}
			return v
		},
	}
	for key, val := range map[string]string{"expected_agent_behavior": "ExpectedAgentBehavior", "simulation_instructions": "SimulationInstructions", "expected_output": "ExpectedOutput"} {
		if v, ok := crit[key]; ok {
			if key == "expected_output" {
				v, _ = target.Select(v) // checked by the builder
			}
			vars[val] = func(eval.Case, *trajeval.Trajectory) any { return v }
		}
	}
	return vars
}

// NewJudged returns the judge of kind k with its prompt, asking h about
// the case c; target is an output judge's targetOutputKey.
func NewJudged(k JudgeKind, prompt evaljudge.Template, h judge.Handle, c eval.Case, target Target) *Judged {
	return &Judged{kind: k, prompt: prompt, judge: h, c: c, target: target}
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
	if _, err := e.target.Select(actualOutput(t)); err != nil {
		return trajeval.Outcome{}, err
	}
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
