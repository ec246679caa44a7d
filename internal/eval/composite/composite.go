// Package composite is the composite evaluator: several member evaluators
// scored as one.
//
// Members are listed under evaluators (or assertions) and need distinct
// names. The aggregator decides the score:
//  1. weighted_average (default): the mean of the members' scores weighted
//     by aggregator.weights {member: w} (a member not listed weighs its own
//     weight, default 1);
//  2. min: the lowest member score;
//  3. all_pass: the share of members that pass; the composite passes only
//     when every member does, except members marked required: false.
//
// For weighted_average and min the composite passes when its score reaches
// its threshold. A member that cannot run makes the composite an error.
// A member setting that the aggregator would not use is a configuration
// error: required: true/false outside all_pass, weight outside
// weighted_average, and a weight given both on the member and in
// aggregator.weights.
package composite

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func specsComposite() []eval.Spec {
	var out []eval.Spec
	out = append(out, eval.Spec{
		Type:      "composite",
		Keys:      []string{"evaluators", "assertions", "aggregator"},
		Threshold: 1,
		Build:     build,
	})
	return out
}

// Aggregators are the valid aggregator types.
var Aggregators = []string{"weighted_average", "min", "all_pass"}

// Evaluator is a configured composite.
type Evaluator struct {
	Members    []*eval.Configured
	Aggregator string
	Weights    []float64
}

func build(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	list, key := n.First("evaluators", "assertions")
	if list == nil {
		return nil, n.Errorf("composite has no members").With("list them under evaluators:")
	}
	if n.Has("evaluators") && n.Has("assertions") {
		return nil, n.Get("assertions").Errorf("give members under evaluators or assertions, not both")
	}
	_ = key
	members, errs := eval.BuildList(list, env, map[string]*config.Node{})
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(members) == 0 {
		return nil, list.Errorf("composite has no members")
	}
	e := &Evaluator{Members: members, Aggregator: "weighted_average"}
	weights := map[string]float64{}
	if ag := n.Get("aggregator"); ag != nil {
		if ag.Kind == config.String {
			a, err := ag.Enum(Aggregators...)
			if err != nil {
				return nil, err
			}
			e.Aggregator = a
		} else {
			if err := ag.Check("type", "weights"); err != nil {
				return nil, err
			}
			if t := ag.Get("type"); t != nil {
				a, err := t.Enum(Aggregators...)
				if err != nil {
					return nil, err
				}
				e.Aggregator = a
			}
			if w := ag.Get("weights"); w != nil {
				if e.Aggregator != "weighted_average" {
					return nil, w.Errorf("weights only apply to weighted_average")
				}
				entries, err := w.MapEntries()
				if err != nil {
					return nil, err
				}
				var names []string
				for _, m := range members {
					names = append(names, m.Name)
				}
				for _, en := range entries {
					f, err := en.Value.NonNegative()
					if err != nil {
						return nil, err
					}
					if !contains(names, en.Key) {
						err := en.Value.Errorf("weight for %q, which is not a member", en.Key)
						if s := suggest.Closest(en.Key, names); s != "" {
							err.Hint = fmt.Sprintf("did you mean %q?", s)
						} else {
							err.Hint = fmt.Sprintf("members: %v", names)
						}
						return nil, err
					}
					weights[en.Key] = f
				}
			}
		}
	}
	for _, m := range members {
		if err := unused(m, e.Aggregator, weights); err != nil {
			return nil, err
		}
		w, ok := weights[m.Name]
		if !ok {
			w = m.Weight
		}
		e.Weights = append(e.Weights, w)
	}
	return e, nil
}

// unused returns an error for a member setting the aggregator would not
// use.
func unused(m *eval.Configured, aggregator string, weights map[string]float64) error {
	if r := m.Node.Get("required"); r != nil && r.Kind == config.Bool && aggregator != "all_pass" {
		return r.Errorf("required has no effect on a member of a %s composite: the member counts through its score", aggregator).
			With("use aggregator: all_pass to let a member fail, or remove it")
	}
	w := m.Node.Get("weight")
	switch {
	case w == nil:
	case aggregator != "weighted_average":
		return w.Errorf("weight has no effect on a member of a %s composite", aggregator).With("remove it, or use aggregator: weighted_average")
	default:
		if _, ok := weights[m.Name]; ok {
			return w.Errorf("the weight of %s is given both here and in aggregator.weights", m.Name).With("keep one")
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Evaluate runs every member and aggregates.
func (e *Evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	out := trajeval.Outcome{}
	var sum, wsum float64
	low, passing, blocking := 1.0, 0, 0
	for i, m := range e.Members {
		r := m.Run(ctx, t)
		out.Members = append(out.Members, r)
		if r.Judge != nil {
			if out.Judge == nil {
				out.Judge = &trajeval.JudgeUsage{}
			}
			out.Judge.Add(r.Judge)
		}
		if r.Status == trajeval.StatusError {
			return out, fmt.Errorf("member %s: %s", m.Name, r.Error)
		}
		sum += e.Weights[i] * r.Score
		wsum += e.Weights[i]
		low = min(low, r.Score)
		if r.Status == trajeval.StatusPass {
			passing++
		} else if m.Required {
			blocking++
		}
	}
	switch e.Aggregator {
	case "min":
		out.Score = low
	case "all_pass":
		out.Score = float64(passing) / float64(len(e.Members))
		out.Verdict = eval.Bool(blocking == 0)
	default:
		if wsum == 0 {
			return out, fmt.Errorf("every member weighs 0")
		}
		out.Score = sum / wsum
	}
	return out, nil
}
