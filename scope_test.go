package trajeval_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
)

// team is a support agent that calls billing as a tool; billing calls
// ledger; a search by support runs beside billing's first call; triage
// only handed the conversation to support.
func team() *trajeval.Trajectory {
	t := &trajeval.Trajectory{
		ID:    "team",
		Turns: []trajeval.Turn{{}, {}},
		Steps: []trajeval.Step{
			{Turn: 1, Name: "lookup", Agent: "support"},
			{Turn: 1, Name: "search", Agent: "support", ParallelGroup: 1},
			{Turn: 1, Name: "invoice", Agent: "billing-eu", ParallelGroup: 1},
			{Turn: 1, Name: "post", Agent: "ledger"},
			{Turn: 2, Name: "reply", Agent: "support"},
			{Turn: 2, Name: "anonymous"},
		},
		Agents:  []trajeval.Agent{{Name: "support", Parent: "triage"}, {Name: "billing-eu", Parent: "support"}, {Name: "ledger", Parent: "billing-eu"}},
		Metrics: trajeval.Metrics{CostUSD: ptr(0.5)},
	}
	t.Finish()
	return t
}

func TestAgentScope_Apply(t *testing.T) {
	tests := []struct {
		name    string
		scope   trajeval.AgentScope
		steps   string // names kept, in order
		inScope string
		err     string
		reason  string
	}{
		{"one agent", trajeval.AgentScope{Agents: []string{"support"}}, "lookup search reply", "support", "",
			"only the steps support made itself"},
		{"glob", trajeval.AgentScope{Agents: []string{"billing-*"}}, "invoice", "billing-eu", "", "a glob matches agent names"},
		{"list", trajeval.AgentScope{Agents: []string{"ledger", "billing-eu"}}, "invoice post", "billing-eu ledger", "",
			"several names: the steps of any, in trace order"},
		{"transitive sub-agents", trajeval.AgentScope{Agents: []string{"support"}, Subagents: true}, "lookup search invoice post reply",
			"support billing-eu ledger", "", "support called billing-eu, which called ledger"},
		{"handoff source", trajeval.AgentScope{Agents: []string{"triage"}, Subagents: true}, "lookup search invoice post reply",
			"triage support billing-eu ledger", "", "triage made no call itself but handed over to support"},
		{"idle agent", trajeval.AgentScope{Agents: []string{"triage"}}, "", "triage", "",
			"an agent the trace names that made no call keeps no step, without an error"},
		{"unknown agent", trajeval.AgentScope{Agents: []string{"refunds"}}, "", "",
			`no step was made by agent "refunds" (agents in this trace: triage, support, billing-eu, ledger)`,
			"a name no agent carries is an error listing the agents"},
		{"unknown glob", trajeval.AgentScope{Agents: []string{"ref*"}}, "", "",
			`no step was made by an agent matching "ref*" (agents in this trace:`, "a glob that matches nothing too"},
		{"bad glob", trajeval.AgentScope{Agents: []string{"billing-["}}, "", "", `agent "billing-[" is not a valid glob`,
			"a malformed glob is refused"},
		{"no agent", trajeval.AgentScope{}, "", "", "names no agent", "an empty scope is refused, not read as every step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := team()
			v, note, err := tt.scope.Apply(in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Apply error = %v, want %q: %s", err, tt.err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v (%s)", err, tt.reason)
			}
			if got := strings.Join(v.Names(), " "); got != tt.steps {
				t.Errorf("steps = %q, want %q: %s", got, tt.steps, tt.reason)
			}
			if got := strings.Join(note.InScope, " "); got != tt.inScope {
				t.Errorf("in scope = %q, want %q: %s", got, tt.inScope, tt.reason)
			}
			if note.Steps != len(v.Steps) || note.Of != 6 {
				t.Errorf("note counts %d of %d, want %d of 6", note.Steps, note.Of, len(v.Steps))
			}
			for i, s := range v.Steps {
				if s.Index != i+1 {
					t.Errorf("step %d has index %d: scoped steps are numbered afresh", i+1, s.Index)
				}
			}
			if len(v.Turns) != 2 {
				t.Errorf("%d turns, want 2: every turn stays", len(v.Turns))
			}
			if v.Metrics.CostUSD != nil {
				t.Errorf("the scoped trajectory reports the run's cost; it must report none")
			}
			if in.Steps[2].Index != 3 || len(in.Steps) != 6 {
				t.Errorf("Apply changed its input")
			}
		})
	}
}

func TestAgentScope_Apply_errNoAgent(t *testing.T) {
	_, _, err := trajeval.AgentScope{Agents: []string{"x"}}.Apply(&trajeval.Trajectory{Steps: []trajeval.Step{{Name: "a"}}})
	if !errors.Is(err, trajeval.ErrNoAgent) || !strings.Contains(err.Error(), "the trace names no agent") {
		t.Errorf("Apply on a trace with no agent = %v, want ErrNoAgent saying the trace names none", err)
	}
}

func TestTrajectory_Finish_agents(t *testing.T) {
	tests := []struct {
		name   string
		in     trajeval.Trajectory
		want   []trajeval.Agent
		reason string
	}{
		{"listed and named", trajeval.Trajectory{
			Steps:  []trajeval.Step{{Name: "a", Agent: "root"}, {Name: "b", Agent: "sub"}, {Name: "c", Agent: "other"}},
			Agents: []trajeval.Agent{{Name: "sub"}, {Name: "sub", Parent: "root"}, {Name: "sub", Parent: "root"}, {Name: ""}},
		}, []trajeval.Agent{{Name: "sub", Parent: "root"}, {Name: "root"}, {Name: "other"}},
			"pairs once, no callerless entry beside a caller, nameless dropped, every step's agent listed"},
		{"named by a late step only", trajeval.Trajectory{
			Steps: []trajeval.Step{{Name: "a"}, {Name: "b"}, {Name: "c", Agent: "late"}},
		}, []trajeval.Agent{{Name: "late"}}, "a step's agent is listed though no agent is and the steps before name none"},
		{"none", trajeval.Trajectory{Steps: []trajeval.Step{{Name: "a"}}, Agents: []trajeval.Agent{}},
			nil, "no agent anywhere: nil, not an empty list"},
		{"nameless only", trajeval.Trajectory{Steps: []trajeval.Step{{Name: "a"}}, Agents: []trajeval.Agent{{Parent: "p"}}},
			nil, "a listed agent without a name is dropped, and then none is left"},
		{"listed, steps name none", trajeval.Trajectory{Steps: []trajeval.Step{{Name: "a"}}, Agents: []trajeval.Agent{{Name: "x"}}},
			[]trajeval.Agent{{Name: "x"}}, "a listed agent is kept though no step names it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := tt.in
			tr.Finish()
			if !slices.Equal(tr.Agents, tt.want) || (tr.Agents == nil) != (tt.want == nil) {
				t.Errorf("Agents = %#v, want %#v: %s", tr.Agents, tt.want, tt.reason)
			}
		})
	}
}

func TestScoped(t *testing.T) {
	var seen *trajeval.Trajectory
	inner := trajeval.EvaluatorFunc(func(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
		seen = t
		return trajeval.Outcome{Score: 1, Details: &trajeval.Details{Warnings: []string{"inner"}}}, nil
	})
	out, err := trajeval.Scoped(inner, trajeval.AgentScope{Agents: []string{"triage"}}).Evaluate(context.Background(), team())
	if err != nil {
		t.Fatal(err)
	}
	if len(seen.Steps) != 0 {
		t.Errorf("the evaluator saw %d steps, want none", len(seen.Steps))
	}
	d := out.Details
	if d.Scope == nil || d.Scope.String() != `agent "triage": 0 of 6 steps (triage)` {
		t.Errorf("scope = %v, want it to say what was kept", d.Scope)
	}
	if !slices.Equal(d.Warnings, []string{"inner", "triage made no tool call"}) {
		t.Errorf("warnings = %q: an empty scope must be said", d.Warnings)
	}
}

func TestScoped_listEntryMatchingNoAgent(t *testing.T) {
	inner := trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
		return trajeval.Outcome{Score: 1}, nil
	})
	out, err := trajeval.Scoped(inner, trajeval.AgentScope{Agents: []string{"support", "biling-*"}}).Evaluate(context.Background(), team())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`agent "biling-*" matches no agent of this trace (agents in this trace: triage, support, billing-eu, ledger)`}
	if !slices.Equal(out.Details.Warnings, want) {
		t.Errorf("warnings = %q, want %q: a misspelt name in a list must not pass unsaid", out.Details.Warnings, want)
	}
}
