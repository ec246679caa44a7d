package trajeval

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/trajeval/trajeval/internal/plural"
)

// An Agent is one agent of a trace and the agent that called it.
//
// A trajectory lists each (Name, Parent) pair once. An agent called by
// two agents is listed twice; an agent no other agent called, or whose
// caller the trace does not say, is listed once with Parent "".
type Agent struct {
	Name string
	// Parent is the agent that called it: as a tool (agent-as-tool), as a
	// sub-agent (a Task side chain, a nested agent span), or by handing
	// the conversation over (a handoff).
	Parent string
}

// ErrNoAgent is returned when an agent scope names no agent of the trace.
var ErrNoAgent = errors.New("no such agent in the trace")

// An AgentScope limits what an evaluator sees to the steps some agents
// made (a suite's agent: and include_subagents: keys).
//
// Apply builds the scoped trajectory:
//  1. an agent is in scope when its name matches one of Agents, each an
//     exact name or a glob as [path.Match] reads it (* any run of
//     characters but /, ? one character, [a-z] a class, \ quotes);
//  2. with Subagents, every agent called by an agent in scope is in
//     scope too, transitively (see [Agent]);
//  3. the steps made by an agent in scope are kept, in order, and
//     numbered afresh from 1, so the details' step numbers count the
//     scoped steps; a step with no agent is never in scope;
//  4. every turn stays (a turn whose steps all went stays, with no
//     steps), so turn numbers and per-turn comparisons still line up;
//     parallel groups keep their numbers (a group may keep one step);
//  5. the run-level metrics (duration, cost, tokens, LLM calls) are the
//     whole run's, never one agent's: the scoped trajectory reports none,
//     so a budget on them fails as "not reported" rather than charging
//     the run to one agent;
//  6. an evaluator that reads the whole trajectory (a [WholeEvaluator]:
//     grounding, whose sources are every agent's results, and the
//     evaluators whose expected arguments may hold a $from, which looks
//     back along every agent's calls) scores the steps in scope,
//     numbered as here, but sees every step;
//  7. when no agent of the trace (neither a step's agent nor one of its
//     Agents) matches, Apply returns an error wrapping [ErrNoAgent] that
//     lists the trace's agents: the evaluator cannot run, never a
//     silent 0. An agent that is in the trace but made no tool call
//     gives an empty trajectory and a warning.
type AgentScope struct {
	Agents    []string // names or globs
	Subagents bool     // include the agents they called, transitively
}

// Validate returns an error for an empty name or a malformed glob.
func (s AgentScope) Validate() error {
	if len(s.Agents) == 0 {
		return errors.New("an agent scope names no agent")
	}
	for _, p := range s.Agents {
		if p == "" {
			return errors.New("an agent name is empty")
		}
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("agent %q is not a valid glob: %w", p, err)
		}
	}
	return nil
}

// String describes the scope, e.g. `"billing-*" and the agents it called`.
func (s AgentScope) String() string {
	q := make([]string, len(s.Agents))
	for i, a := range s.Agents {
		q[i] = fmt.Sprintf("%q", a)
	}
	str := strings.Join(q, ", ")
	if s.Subagents {
		str += " and the agents it called"
		if len(s.Agents) > 1 {
			str = strings.TrimSuffix(str, "it called") + "they called"
		}
	}
	return str
}

// A Scope says which steps an evaluator saw when it was limited to some
// agents: the scope asked for, the agents it took in and how many steps
// it kept.
type Scope struct {
	Agents           []string `json:"agents"` // the names or globs asked for
	IncludeSubagents bool     `json:"include_subagents,omitempty"`
	InScope          []string `json:"in_scope"` // the trace's agents in scope, in the trace's order
	Steps            int      `json:"steps"`    // steps kept
	Of               int      `json:"of"`       // steps of the whole trajectory
}

// String renders the scope as the text report shows it, e.g.
// `agent "billing": 3 of 7 steps (billing)`.
func (s Scope) String() string {
	as := AgentScope{Agents: s.Agents, Subagents: s.IncludeSubagents}
	word := "agent"
	if len(s.Agents) > 1 || s.IncludeSubagents {
		word = "agents"
	}
	return fmt.Sprintf("%s %s: %d of %s (%s)", word, as, s.Steps, plural.Count(s.Of, "step", "steps"), strings.Join(s.InScope, ", "))
}

// AgentNames returns the trace's agents, each once, in order of first
// appearance: those of Agents (callers before the agents they called),
// then those only its steps name.
func (t *Trajectory) AgentNames() []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, a := range t.Agents {
		add(a.Parent)
		add(a.Name)
	}
	for _, s := range t.Steps {
		add(s.Agent)
	}
	return out
}

// Apply returns the trajectory t limited to the scope (see [AgentScope])
// and what it kept. t is not changed.
func (s AgentScope) Apply(t *Trajectory) (*Trajectory, *Scope, error) {
	v, _, note, err := s.apply(t)
	return v, note, err
}

// apply is Apply that also returns the positions in t.Steps of the steps
// kept, in order.
func (s AgentScope) apply(t *Trajectory) (*Trajectory, []int, *Scope, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, nil, err
	}
	names := t.AgentNames()
	in := map[string]bool{}
	for _, n := range names {
		for _, p := range s.Agents {
			if ok, _ := path.Match(p, n); ok {
				in[n] = true
			}
		}
	}
	if len(in) == 0 {
		return nil, nil, nil, s.noAgent(names)
	}
	if s.Subagents {
		for grew := true; grew; {
			grew = false
			for _, a := range t.Agents {
				if a.Parent != "" && in[a.Parent] && !in[a.Name] {
					in[a.Name], grew = true, true
				}
			}
		}
	}
	v := &Trajectory{ID: t.ID, Turns: t.Turns, Agents: t.Agents, Partial: t.Partial, Line: t.Line}
	kept := []int{}
	for j, st := range t.Steps {
		if st.Agent != "" && in[st.Agent] {
			st.Index = len(v.Steps) + 1
			v.Steps = append(v.Steps, st)
			kept = append(kept, j)
		}
	}
	note := &Scope{Agents: slices.Clone(s.Agents), IncludeSubagents: s.Subagents, Steps: len(v.Steps), Of: len(t.Steps)}
	for _, n := range names {
		if in[n] {
			note.InScope = append(note.InScope, n)
		}
	}
	return v, kept, note, nil
}

func (s AgentScope) noAgent(names []string) error {
	what := fmt.Sprintf("no step was made by agent %q", s.Agents[0])
	if len(s.Agents) > 1 || strings.ContainsAny(s.Agents[0], `*?[\`) {
		what = fmt.Sprintf("no step was made by an agent matching %s", AgentScope{Agents: s.Agents})
	}
	if len(names) == 0 {
		return noAgentError(what + ": the trace names no agent")
	}
	return noAgentError(fmt.Sprintf("%s (agents in this trace: %s)", what, strings.Join(names, ", ")))
}

// noAgentError is a scope that names no agent of the trace; it matches
// [ErrNoAgent].
type noAgentError string

func (e noAgentError) Error() string   { return string(e) }
func (e noAgentError) Is(t error) bool { return t == ErrNoAgent }

// A WholeEvaluator is an evaluator that, limited to some agents, still
// reads the whole trajectory. [Scoped] calls its EvaluateScoped with the
// whole trajectory t and the positions in t.Steps of the steps in scope,
// in order, instead of Evaluate with the scoped trajectory. It scores
// only those steps, numbered from 1 as [AgentScope.Apply] numbers them,
// and may read the others: grounding checks the scoped agents' calls
// against every earlier result, and a $from matches a scoped call's
// argument against every earlier call, whichever agent made it.
type WholeEvaluator interface {
	Evaluator
	EvaluateScoped(ctx context.Context, t *Trajectory, in []int) (Outcome, error)
}

// Scoped returns ev limited to the steps of the agents of s: it scores
// the trajectory [AgentScope.Apply] gives (a [WholeEvaluator] is given
// the whole trajectory and the steps in scope), and its details carry the
// [Scope] (with a warning when the scope kept no step, and one for each
// name or glob of a list that matches no agent of the trace, which may be
// misspelt). An invalid scope, or one that names no agent of the trace,
// is an error: the evaluator cannot run.
func Scoped(ev Evaluator, s AgentScope) Evaluator {
	return scoped{ev, s}
}

type scoped struct {
	ev    Evaluator
	scope AgentScope
}

// ReadsText reports whether the evaluator e limits reads each argument
// and result it looks at through [Decoded], so that it may be handed
// JSON text a reader kept (see [Input.KeepText]): a scope reads only
// each step's agent, so it reads text exactly when its evaluator does.
func (e scoped) ReadsText() bool {
	r, ok := e.ev.(interface{ ReadsText() bool })
	return ok && r.ReadsText()
}

func (e scoped) Evaluate(ctx context.Context, t *Trajectory) (Outcome, error) {
	if t == nil {
		t = &Trajectory{}
	}
	v, kept, note, err := e.scope.apply(t)
	if err != nil {
		return Outcome{}, err
	}
	var out Outcome
	if w, ok := e.ev.(WholeEvaluator); ok {
		out, err = w.EvaluateScoped(ctx, t, kept)
	} else {
		out, err = e.ev.Evaluate(ctx, v)
	}
	if err != nil {
		return out, err
	}
	d := Details{}
	if out.Details != nil {
		d = *out.Details
	}
	d.Scope = note
	if note.Steps == 0 {
		d.Warnings = append(slices.Clip(d.Warnings), fmt.Sprintf("%s made no tool call", strings.Join(note.InScope, ", ")))
	}
	if len(e.scope.Agents) > 1 {
		names := t.AgentNames()
		for _, p := range e.scope.Agents {
			if !slices.ContainsFunc(names, func(n string) bool { ok, _ := path.Match(p, n); return ok }) {
				d.Warnings = append(slices.Clip(d.Warnings), fmt.Sprintf("agent %q matches no agent of this trace (agents in this trace: %s)", p, strings.Join(names, ", ")))
			}
		}
	}
	out.Details = &d
	return out, nil
}
