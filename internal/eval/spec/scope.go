package spec

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/shape"
)

// scopeSettings document the keys that limit an evaluator to some
// agents' steps; they are common keys (see CommonKeys).
var scopeSettings = []shape.Field{
	{Key: "agent", Shape: shape.OneOf("an agent name or glob, or a list of them", shape.Text(), shape.List(shape.Text())),
		Default: "every step",
		Doc: "Scores only the steps made by these agents (billing, or billing-* as a glob). Steps are numbered afresh, every turn stays, " +
			"run-level metrics count as not reported; an agent the trace does not name makes the evaluator an error. " +
			"grounding, and a $from in expected arguments, check these agents' calls against everything earlier in the whole trace, every agent's calls included."},
	{Key: "include_subagents", Shape: shape.Bool(), Default: "false",
		Doc: "With agent:, also the steps of the agents they called (as a tool, as a sub-agent, by a handoff), transitively."},
}

// buildScope reads agent: and include_subagents: from an evaluator's
// node; nil when it has no agent:. A malformed glob, an empty name, or
// include_subagents without agent is a configuration error at its place.
func buildScope(n *config.Node) (*trajeval.AgentScope, error) {
	an, sn := n.Get("agent"), n.Get("include_subagents")
	if an == nil {
		if sn != nil {
			return nil, sn.Errorf("include_subagents needs agent:").With("name the agent whose sub-agents to include, e.g. agent: support")
		}
		return nil, nil
	}
	s := &trajeval.AgentScope{}
	items := []*config.Node{an}
	if an.Kind == config.List {
		items = an.Items
		if len(items) == 0 {
			return nil, an.Errorf("agent lists no agent").With("give a name, a glob such as billing-*, or a list of them")
		}
	}
	for _, it := range items {
		name, err := it.Name()
		if err != nil {
			return nil, err
		}
		if name == "" {
			return nil, it.Errorf("an agent name is empty").With("write the name of the agent whose steps to score")
		}
		if err := (trajeval.AgentScope{Agents: []string{name}}).Validate(); err != nil {
			return nil, it.Errorf("%v", err).With(`a glob uses * (any run of characters but /), ? (one character), [a-z] (a class) and \ to quote`)
		}
		s.Agents = append(s.Agents, name)
	}
	if sn != nil {
		var err error
		if s.Subagents, err = sn.BoolValue(); err != nil {
			return nil, err
		}
	}
	return s, nil
}
