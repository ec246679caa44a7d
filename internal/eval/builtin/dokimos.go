package builtin

import (
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/dokimos"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/judge"
)

// Dokimos's rule evaluators: their keys, read into the dokimos package's
// constructors. Its judged evaluators and the two reliability evaluators
// still read their own keys (dokimos.Specs).

type correctnessSettings struct {
	Match           string                  `config:"match" enum:"names_only,names_and_order,names_and_args"`
	ArgsMatch       *settings.ArgsRule      `config:"args_match"`
	Trim            bool                    `config:"trim"`
	CaseInsensitive bool                    `config:"case_insensitive"`
	Expected        *settings.ExpectedCalls `config:"expected"`
}

type toolErrorSettings struct {
	TreatBlankAsError *bool  `config:"treat_blank_as_error"`
	Pattern           string `config:"pattern"`
}

type validitySettings struct {
	Tools     *config.Node `config:"tools"`
	ToolsFile *config.Node `config:"tools_file"`
	Strict    bool         `config:"strict"`
}

func dokimosSpecs() []spec.Spec {
	return []spec.Spec{
		{Type: "tool_correctness", Aliases: []string{"dokimos-tool-correctness"}, Keys: config.Keys(reflect.TypeFor[correctnessSettings]()), Threshold: 1, Build: buildCorrectness},
		{Type: "tool_call_validity", Aliases: []string{"dokimos-tool-call-validity"}, Keys: config.Keys(reflect.TypeFor[validitySettings]()), Threshold: 1, Build: buildValidity},
		{Type: "tool_error", Aliases: []string{"dokimos-tool-error"}, Keys: config.Keys(reflect.TypeFor[toolErrorSettings]()), Threshold: 1, Build: buildToolError},
		{Type: "tool_efficiency", Aliases: []string{"dokimos-tool-efficiency"}, Threshold: 1,
			Build: func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
				var none struct{}
				if err := config.Decode(n, &none, spec.CommonKeys...); err != nil {
					return nil, err
				}
				return dokimos.Efficiency{}, nil
			}},
	}
}

func buildCorrectness(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s correctnessSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	var def trajeval.ArgsMatch
	if s.ArgsMatch != nil {
		def = s.ArgsMatch.ArgsMatch
	}
	if s.Expected == nil {
		return nil, n.Errorf("missing expected").With("list the expected calls: expected: [{tool: name, args: {...}}]")
	}
	expected := s.Expected.Calls
	for i, e := range expected {
		if e.MaxDurationMS != nil {
			return nil, s.Expected.Node.Items[i].Errorf("tool_correctness does not check max_duration_ms").With("use tool_trajectory for latency checks")
		}
		if e.Output != nil {
			return nil, s.Expected.Node.Items[i].Get("output").Errorf("tool_correctness does not check output").With("use tool_trajectory to compare a call's result")
		}
	}
	c, err := dokimos.NewCorrectness(s.Match, expected, def, argmatch.Options{Trim: s.Trim, CaseInsensitive: s.CaseInsensitive})
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	return c, nil
}

func buildToolError(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s toolErrorSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	e, err := dokimos.NewToolError(s.TreatBlankAsError == nil || *s.TreatBlankAsError, s.Pattern)
	if err != nil {
		return nil, n.Get("pattern").Errorf("%v", err)
	}
	return e, nil
}

func buildValidity(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	var s validitySettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	tools, err := settings.Tools(n, env)
	if err != nil {
		return nil, err
	}
	v, err := dokimos.NewValidity(tools, s.Strict)
	if err != nil {
		return nil, n.Errorf("%v", err) // LoadTools has checked both already
	}
	return v, nil
}

// judgeKeys are the keys of every judged evaluator.
var judgeKeys = []string{"judge", "model", "temperature"}

func reliabilitySpecs() []spec.Spec {
	return []spec.Spec{
		{
			Type:      "tool_name_reliability",
			Aliases:   []string{"dokimos-tool-name-reliability"},
			Keys:      append(append([]string{"max_segments", "blocklist"}, settings.ToolKeys...), judgeKeys...),
			Threshold: 0.8,
			Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
				tools, err := settings.Tools(n, env)
				if err != nil {
					return nil, err
				}
				maxSeg, err := intKey(n, "max_segments", dokimos.DefaultMaxSegments)
				if err != nil {
					return nil, err
				}
				var block []string
				if v := n.Get("blocklist"); v != nil {
					if block, err = v.Strings(); err != nil {
						return nil, err
					}
				}
				h, err := optionalJudge(n, env)
				if err != nil {
					return nil, err
				}
				r, err := dokimos.NewNameReliability(tools, int(maxSeg), block, h)
				if err != nil {
					return nil, n.Errorf("%v", err)
				}
				return r, nil
			},
		},
		{
			Type:      "tool_description_reliability",
			Aliases:   []string{"dokimos-tool-description-reliability"},
			Keys:      append(append([]string{"max_input_args", "max_optional_args"}, settings.ToolKeys...), judgeKeys...),
			Threshold: 0.8,
			Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
				tools, err := settings.Tools(n, env)
				if err != nil {
					return nil, err
				}
				maxIn, err := intKey(n, "max_input_args", dokimos.DefaultMaxInputArgs)
				if err != nil {
					return nil, err
				}
				maxOpt, err := intKey(n, "max_optional_args", dokimos.DefaultMaxOptionalArgs)
				if err != nil {
					return nil, err
				}
				h, err := optionalJudge(n, env)
				if err != nil {
					return nil, err
				}
				r, err := dokimos.NewDescriptionReliability(tools, int(maxIn), int(maxOpt), h)
				if err != nil {
					return nil, n.Errorf("%v", err)
				}
				return r, nil
			},
		},
	}
}

// optionalJudge returns the judge of an evaluator whose judge is
// optional, or nil when it asks none.
func optionalJudge(n *config.Node, env *spec.Env) (*judge.Handle, error) {
	want, err := env.WantsJudge(n)
	if err != nil || !want {
		return nil, err
	}
	h, err := env.Judge(n, false)
	if err != nil {
		return nil, err
	}
	return &h, nil
}

// intKey reads a whole number ≥ 0, def when absent.
func intKey(n *config.Node, key string, def int64) (int64, error) {
	v := n.Get(key)
	if v == nil {
		return def, nil
	}
	i, err := v.Int()
	if err == nil && i < 0 {
		return 0, v.Errorf("%s must not be negative", key)
	}
	return i, err
}

func dokimosJudgedSpecs() []spec.Spec {
	return []spec.Spec{
		{
			Type:      "task_completion",
			Aliases:   []string{"dokimos-task-completion"},
			Keys:      append([]string{"tasks", "constraints"}, judgeKeys...),
			Threshold: 0.5,
			Build:     buildTaskCompletion,
		},
		{
			Type:      "tool_argument_hallucination",
			Aliases:   []string{"dokimos-tool-argument-hallucination"},
			Keys:      judgeKeys,
			Threshold: 0.8,
			Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
				h, err := env.Judge(n, false)
				return dokimos.NewHallucination(env.Case.Input, h), err
			},
		},
	}
}

// buildTaskCompletion reads tasks (else the case's expected outcome is
// the one task) and constraints.
func buildTaskCompletion(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	var tasks []string
	var constraints string
	var err error
	if v := n.Get("tasks"); v != nil {
		if tasks, err = v.Strings(); err != nil {
			return nil, err
		}
		if len(tasks) == 0 {
			return nil, v.Errorf("tasks is empty")
		}
	} else if env.Case.ExpectedOutcome != "" {
		tasks = []string{env.Case.ExpectedOutcome}
	} else {
		return nil, n.Errorf("task_completion needs tasks").With("give tasks: [\"Search flights\", \"Book hotel\"], or an expected_outcome on the case")
	}
	if v := n.Get("constraints"); v != nil {
		if constraints, err = v.Str(); err != nil {
			return nil, err
		}
	}
	h, err := env.Judge(n, false)
	if err != nil {
		return nil, err
	}
	return dokimos.NewTaskCompletion(tasks, constraints, env.Case.Input, h)
}
