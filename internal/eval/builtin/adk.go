package builtin

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/adk"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// ADK's metrics written in AgentV YAML: their keys, read into the adk
// package's constructors. (ADK's own eval sets and test_config.json are
// translated by the ADK suite dialect.)

type adkTrajectorySettings struct {
	Invocations *config.Node `config:"invocations"`
	MatchType   string       `config:"match_type" enum:"EXACT,IN_ORDER,ANY_ORDER"`
	IgnoreArgs  bool         `config:"ignore_args"`
}

func adkSpecs() []spec.Spec {
	out := []spec.Spec{
		{
			Type:      adk.TrajectoryMetric,
			Aliases:   []string{"adk_tool_trajectory"},
			Keys:      []string{"invocations", "match_type", "ignore_args"},
			Threshold: 1,
			Build: func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
				s := adkTrajectorySettings{MatchType: adk.Exact}
				if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
					return nil, err
				}
				inv, err := settings.Invocations(n)
				if err != nil {
					return nil, err
				}
				e, err := adk.NewTrajectory(inv, s.MatchType, s.IgnoreArgs)
				if err != nil {
					return nil, n.Errorf("%v", err)
				}
				return e, nil
			},
		},
		{
			Type:      adk.ResponseMetric,
			Aliases:   []string{"adk_response_match"},
			Keys:      []string{"invocations"},
			Threshold: 0.8,
			Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
				inv, err := settings.Invocations(n)
				if err != nil {
					return nil, err
				}
				th := 0.8
				if env.Threshold != nil {
					th = *env.Threshold
				}
				if th, err = adkThreshold(n, th); err != nil {
					return nil, err
				}
				return adk.NewResponseMatch(inv, th), nil
			},
		},
	}
	for _, m := range adk.JudgedMetrics {
		keys := []string{"invocations", "judge", "model", "temperature"}
		if m == adk.RubricResponse || m == adk.RubricToolUse {
			keys = append(keys, "rubrics")
		}
		out = append(out, spec.Spec{
			Type: m, Keys: keys, Threshold: 0.8,
			Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
				inv, err := settings.Invocations(n)
				if err != nil {
					return nil, err
				}
				var rubrics []adk.Rubric
				if v := n.Get("rubrics"); v != nil {
					if rubrics, err = settings.Rubrics(v); err != nil {
						return nil, err
					}
				}
				h, err := env.Judge(n, false)
				if err != nil {
					return nil, err
				}
				th, err := adkThreshold(n, 0.8)
				if err != nil {
					return nil, err
				}
				e, err := adk.NewJudged(m, inv, rubrics, h, th)
				if err != nil {
					return nil, n.Errorf("%v", err)
				}
				return e, nil
			},
		})
	}
	return out
}

// adkThreshold reads a metric's own threshold key, for the metric's
// per-invocation verdicts; def when there is none.
func adkThreshold(n *config.Node, def float64) (float64, error) {
	v := n.Get("threshold")
	if v == nil {
		return def, nil
	}
	return v.Float()
}
