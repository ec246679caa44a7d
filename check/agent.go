package check

import (
	"github.com/trajeval/trajeval"
)

// ForAgent returns ev limited to the steps made by the named agents, as
// agent: does in a suite. Each name is an exact agent name or a glob
// ("billing-*": * any run of characters but /, ? one character, [a-z] a
// class). The evaluator then scores:
//  1. only the steps whose Agent is one of them, in order, numbered
//     afresh from 1 (the details' step numbers count these steps);
//  2. every turn of the trajectory, even one left with no step;
//  3. no run-level metrics: they are the whole run's, so a budget on
//     them fails as not reported;
//  4. but [Grounding] checks these agents' calls against everything
//     earlier in the whole trajectory, every agent's results included.
//
// Its result's Details.Scope says which agents were in scope and how many
// steps were kept. A trajectory that names none of the agents makes
// Evaluate return an error matching [trajeval.ErrNoAgent] that lists the
// trajectory's agents; an agent it names that made no call gives an empty
// trajectory and a warning. No name, an empty name or a malformed glob is
// a setting error. ev's own setting error, if any, comes first.
func ForAgent(ev trajeval.Evaluator, agents ...string) trajeval.Evaluator {
	return forAgent(ev, trajeval.AgentScope{Agents: agents})
}

// ForAgentTree is [ForAgent] with the agents the named ones called,
// transitively (include_subagents: true): as a tool, as a sub-agent, or
// by handing the conversation over (see [trajeval.Agent]).
func ForAgentTree(ev trajeval.Evaluator, agents ...string) trajeval.Evaluator {
	return forAgent(ev, trajeval.AgentScope{Agents: agents, Subagents: true})
}

func forAgent(ev trajeval.Evaluator, s trajeval.AgentScope) trajeval.Evaluator {
	typ := "evaluator"
	if t, ok := ev.(interface{ Type() string }); ok {
		typ = t.Type()
	}
	if ev == nil {
		return &evaluator{typ: typ, err: errorf("ForAgent: a nil evaluator")}
	}
	if err := firstErr(Validate(ev), s.Validate()); err != nil {
		if Validate(ev) == nil {
			err = &settingErr{msg: typ + ": " + err.Error(), cause: err}
		}
		return &evaluator{typ: typ, err: err}
	}
	// The scope wraps this package's evaluator's own, which may read the
	// whole trajectory (see trajeval.WholeEvaluator).
	if c, ok := ev.(*evaluator); ok {
		ev = c.ev
	}
	return &evaluator{typ: typ, ev: trajeval.Scoped(ev, s)}
}
