package builtin

import (
	"errors"
	"reflect"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/metrics"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// metricsSettings are execution_metrics's keys in a suite file.
type metricsSettings struct {
	MaxToolCalls           *float64 `config:"max_tool_calls,nonnegative"`
	MaxLLMCalls            *float64 `config:"max_llm_calls,nonnegative"`
	MaxTokens              *float64 `config:"max_tokens,nonnegative"`
	MaxCostUSD             *float64 `config:"max_cost_usd,nonnegative"`
	MaxDurationMS          *float64 `config:"max_duration_ms,nonnegative"`
	TargetExplorationRatio *float64 `config:"target_exploration_ratio"`
	ExplorationTolerance   *float64 `config:"exploration_tolerance,nonnegative"`
	ExplorationTools       names    `config:"exploration_tools"`
}

var metricsSpec = spec.Spec{
	Type:      "execution_metrics",
	Keys:      config.Keys(reflect.TypeFor[metricsSettings]()),
	Threshold: 1,
	Build: func(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
		var s metricsSettings
		if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
			return nil, err
		}
		e, err := metrics.New(metrics.Options{
			MaxToolCalls: s.MaxToolCalls, MaxLLMCalls: s.MaxLLMCalls, MaxTokens: s.MaxTokens,
			MaxCostUSD: s.MaxCostUSD, MaxDurationMS: s.MaxDurationMS,
			TargetExplorationRatio: s.TargetExplorationRatio, ExplorationTolerance: s.ExplorationTolerance,
			ExplorationTools: s.ExplorationTools,
		})
		var oe *metrics.OptionError
		if errors.As(err, &oe) {
			at := n
			if v := n.Get(oe.Key); v != nil {
				at = v
			}
			e := at.Errorf("%s", oe.Msg)
			e.Hint = oe.Hint
			return nil, e
		}
		return e, err
	},
}

// names is a list of names; one name is a list of one.
type names []string

func (s *names) UnmarshalConfig(n *config.Node) error {
	v, err := n.Strings()
	*s = v
	return err
}
