package uipath

import (
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/trajeval"
)

// required returns the value of key, or an error placed at n.
func required(n *config.Node, key string) (*config.Node, error) {
	v := n.Get(key)
	if v == nil {
		return nil, n.Errorf("missing %s", key)
	}
	return v, nil
}

// nonEmptyList returns the items of a list that must not be empty.
func nonEmptyList(v *config.Node, key, what string) ([]*config.Node, error) {
	items, err := v.List()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, v.Errorf("%s is empty", key).With("list at least one %s", what)
	}
	return items, nil
}

// boolKey returns the boolean value of an optional key.
func boolKey(n *config.Node, key string) (bool, error) {
	v := n.Get(key)
	if v == nil || v.Kind == config.Null {
		return false, nil
	}
	return v.BoolValue()
}

// toolName reads the name of an expected call: name, or tool.
func toolName(n *config.Node) (string, error) {
	v, _ := n.First("name", "tool")
	if v == nil {
		return "", n.Errorf("the call has no name").With("give name: <tool>")
	}
	s, err := v.Name()
	if err == nil && s == "" {
		return "", v.Errorf("the tool name is empty")
	}
	return s, err
}

// binary turns a fraction into UiPath's strict score: 1 when all met.
func binary(met, total int) float64 {
	if met == total {
		return 1
	}
	return 0
}

func newDetails(mode string) *trajeval.Details { return &trajeval.Details{Mode: mode} }

func modeName(strict bool, loose string) string {
	if strict {
		return "strict"
	}
	return loose
}
