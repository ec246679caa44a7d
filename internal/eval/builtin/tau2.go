package builtin

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/tau2"
)

// tau2Specs are τ²-bench's ACTION and COMMUNICATE checks as evaluator
// types of a YAML suite (τ²'s task files are a suite dialect of their
// own, package suite/tau2).
func tau2Specs() []spec.Spec {
	return []spec.Spec{
		{Type: "tau2_action", Keys: []string{"actions"}, Threshold: 1, Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
			an := n.Get("actions")
			if an == nil {
				return nil, n.Errorf("tau2_action needs actions").With(`e.g. actions: [{name: cancel_reservation, arguments: {reservation_id: EHGLP3}}]`)
			}
			acts, err := Tau2Actions(an)
			if err != nil {
				return nil, err
			}
			return tau2.NewAction(acts), nil
		}},
		{Type: "tau2_communicate", Keys: []string{"communicate_info"}, Threshold: 1, Build: func(n *config.Node, env *spec.Env) (trajeval.Evaluator, error) {
			in := n.Get("communicate_info")
			if in == nil {
				return nil, n.Errorf("tau2_communicate needs communicate_info").With(`e.g. communicate_info: ["1628"]`)
			}
			info, err := Tau2Texts(in)
			if err != nil {
				return nil, err
			}
			return tau2.NewCommunicate(info), nil
		}},
	}
}

// tau2ActionKeys are the keys of a τ² action.
var tau2ActionKeys = []string{"action_id", "name", "arguments", "compare_args", "requestor", "info"}

// Tau2Texts reads a list of texts (communicate_info, nl_assertions);
// absent or null is none.
func Tau2Texts(n *config.Node) ([]string, error) {
	if n == nil || n.Kind == config.Null {
		return nil, nil
	}
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, err := it.Str()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Tau2Actions reads τ²'s expected actions: [{action_id, name, arguments,
// compare_args, requestor, info}]; absent or null is none. A misspelt
// key, an action without a name, arguments that are not an object and a
// requestor other than assistant or user are errors at their place.
func Tau2Actions(n *config.Node) ([]tau2.ExpectedAction, error) {
	if n == nil || n.Kind == config.Null {
		return nil, nil
	}
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	var out []tau2.ExpectedAction
	for _, it := range items {
		if it.Kind != config.Map {
			return nil, it.Errorf("an action is an object {action_id, name, arguments, compare_args}, got %s", it.Kind)
		}
		if err := it.Check(tau2ActionKeys...); err != nil {
			return nil, err
		}
		a := tau2.ExpectedAction{Requestor: "assistant", Args: map[string]any{}}
		nn := it.Get("name")
		if nn == nil {
			return nil, it.Errorf("the action has no name").With(`e.g. {"action_id": "0_1", "name": "cancel_reservation", "arguments": {"reservation_id": "EHGLP3"}}`)
		}
		if a.Name, err = nn.Name(); err != nil {
			return nil, err
		}
		if v := it.Get("action_id"); v != nil && v.Kind != config.Null {
			if a.ID, err = v.Name(); err != nil {
				return nil, err
			}
		}
		if v := it.Get("arguments"); v != nil && v.Kind != config.Null {
			if v.Kind != config.Map {
				return nil, v.Errorf("arguments must be an object, got %s", v.Kind)
			}
			a.Args = v.Value().(map[string]any)
		}
		if v := it.Get("compare_args"); v != nil && v.Kind != config.Null {
			items, err := v.List()
			if err != nil {
				return nil, err
			}
			a.CompareArgs = []string{}
			for _, k := range items {
				s, err := k.Str()
				if err != nil {
					return nil, err
				}
				a.CompareArgs = append(a.CompareArgs, s)
			}
		}
		if v := it.Get("requestor"); v != nil && v.Kind != config.Null {
			if a.Requestor, err = v.Enum("assistant", "user"); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}
