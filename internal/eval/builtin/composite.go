package builtin

import (
	"fmt"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/composite"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/suggest"
)

var compositeSpec = spec.Spec{
	Type:      "composite",
	Keys:      []string{"evaluators", "assertions", "aggregator"},
	Threshold: 1,
	Build:     buildComposite,
}

// buildComposite reads a composite's members (evaluators, or AgentV's
// assertions) and aggregator, refusing member settings the aggregator
// would not use.
func buildComposite(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
	list, _ := n.First("evaluators", "assertions")
	if list == nil {
		return nil, n.Errorf("composite has no members").With("list them under evaluators:")
	}
	if n.Has("evaluators") && n.Has("assertions") {
		return nil, n.Get("assertions").Errorf("give members under evaluators or assertions, not both")
	}
	nodes := map[string]*config.Node{}
	members, errs := spec.BuildList(list, env, nodes)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(members) == 0 {
		return nil, list.Errorf("composite has no members")
	}
	o := composite.Options{Members: members, Aggregator: "weighted_average"}
	if ag := n.Get("aggregator"); ag != nil {
		if ag.Kind == config.String {
			a, err := ag.Enum(composite.Aggregators...)
			if err != nil {
				return nil, err
			}
			o.Aggregator = a
		} else {
			if err := ag.Check("type", "weights"); err != nil {
				return nil, err
			}
			if t := ag.Get("type"); t != nil {
				a, err := t.Enum(composite.Aggregators...)
				if err != nil {
					return nil, err
				}
				o.Aggregator = a
			}
			if w := ag.Get("weights"); w != nil {
				if o.Aggregator != "weighted_average" {
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
				o.Weights = map[string]float64{}
				for _, en := range entries {
					f, err := en.Value.NonNegative()
					if err != nil {
						return nil, err
					}
					if !slices.Contains(names, en.Key) {
						err := en.Value.Errorf("weight for %q, which is not a member", en.Key)
						if s := suggest.Closest(en.Key, names); s != "" {
							err.Hint = fmt.Sprintf("did you mean %q?", s)
						} else {
							err.Hint = fmt.Sprintf("members: %v", names)
						}
						return nil, err
					}
					o.Weights[en.Key] = f
				}
			}
		}
	}
	for _, m := range members {
		if err := unusedMemberSetting(m, nodes[m.Name], o.Aggregator, o.Weights); err != nil {
			return nil, err
		}
	}
	e, err := composite.New(o)
	if err != nil {
		return nil, n.Errorf("%v", err) // the checks above place every case first
	}
	return e, nil
}

// unusedMemberSetting returns an error for a setting of the member m,
// written at n, that the aggregator would not use.
func unusedMemberSetting(m *eval.Configured, n *config.Node, aggregator string, weights map[string]float64) error {
	if r := n.Get("required"); r != nil && r.Kind == config.Bool && aggregator != "all_pass" {
		return r.Errorf("required has no effect on a member of a %s composite: the member counts through its score", aggregator).
			With("use aggregator: all_pass to let a member fail, or remove it")
	}
	w := n.Get("weight")
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
