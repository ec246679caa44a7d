package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// handoff is a triage agent that called billing as a tool; billing called
// ledger.
func handoff() *trajeval.Trajectory {
	t := &trajeval.Trajectory{
		Steps: []trajeval.Step{
			{Name: "classify", Agent: "triage"},
			{Name: "invoice", Agent: "billing"},
			{Name: "post", Agent: "ledger"},
		},
		Agents: []trajeval.Agent{{Name: "billing", Parent: "triage"}, {Name: "ledger", Parent: "billing"}},
	}
	t.Finish()
	return t
}

func TestConfigured_Run_agent(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		status trajeval.Status
		score  float64
		scope  string // the details' scope line
		err    string
		reason string
	}{
		{"one agent", "{type: tool_trajectory, mode: exact, agent: billing, expected: [{tool: invoice}]}",
			trajeval.StatusPass, 1, `agent "billing": 1 of 3 steps (billing)`, "",
			"billing made exactly one call; the others' calls are not its extras"},
		{"unscoped", "{type: tool_trajectory, mode: exact, expected: [{tool: invoice}]}",
			trajeval.StatusFail, 0, "", "", "without agent:, every step counts: classify sits where invoice is due"},
		{"sub-agents", "{type: tool_trajectory, mode: exact, agent: billing, include_subagents: true, expected: [{tool: invoice}, {tool: post}]}",
			trajeval.StatusPass, 1, `agents "billing" and the agents it called: 2 of 3 steps (billing, ledger)`, "",
			"ledger was called by billing"},
		{"glob list", "{type: tool_trajectory, mode: exact, agent: [tri*, ledger], expected: [{tool: classify}, {tool: post}]}",
			trajeval.StatusPass, 1, `agents "tri*", "ledger": 2 of 3 steps (triage, ledger)`, "", "a list of names and globs"},
		{"unknown agent", "{type: tool_trajectory, mode: exact, agent: refunds, expected: [{tool: refund}]}",
			trajeval.StatusError, 0, "", `no step was made by agent "refunds" (agents in this trace: triage, billing, ledger)`,
			"a name the trace lacks is an error, never a silent 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := build(t, tt.yaml).Run(context.Background(), handoff())
			if r.Status != tt.status || r.Score != tt.score {
				t.Fatalf("Run = %s %v (%s), want %s %v: %s", r.Status, r.Score, r.Error, tt.status, tt.score, tt.reason)
			}
			if tt.err != "" && r.Error != tt.err {
				t.Errorf("error = %q, want %q", r.Error, tt.err)
			}
			got := ""
			if r.Details != nil && r.Details.Scope != nil {
				got = r.Details.Scope.String()
			}
			if got != tt.scope {
				t.Errorf("scope = %q, want %q: %s", got, tt.scope, tt.reason)
			}
		})
	}
}

func TestBuild_agentErrors(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		err    string
		reason string
	}{
		{"bad glob", "type: tool_trajectory\nexpected: [{tool: a}]\nagent: [billing, \"ref[\"]\n",
			`suite.yaml:3:18: agent[1]: agent "ref[" is not a valid glob`, "placed at the glob, not the key"},
		{"empty name", "type: tool_trajectory\nexpected: [{tool: a}]\nagent: \"\"\n", "suite.yaml:3:8: agent: an agent name is empty", "an empty name matches nothing"},
		{"empty list", "type: tool_trajectory\nexpected: [{tool: a}]\nagent: []\n", "agent lists no agent", "an empty list would score nothing"},
		{"not a name", "type: tool_trajectory\nexpected: [{tool: a}]\nagent: {name: a}\n", "suite.yaml:3:9: agent: expected a name", "a map is no agent"},
		{"sub-agents alone", "type: tool_trajectory\nexpected: [{tool: a}]\ninclude_subagents: true\n",
			"suite.yaml:3:20: include_subagents: include_subagents needs agent:", "include_subagents without agent: would be ignored"},
		{"sub-agents not a bool", "type: tool_trajectory\nexpected: [{tool: a}]\nagent: a\ninclude_subagents: yes please\n",
			"suite.yaml:4:20: include_subagents: expected true or false", "a misspelt flag is refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := config.Parse("suite.yaml", []byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			_, err = spec.Build(n, &spec.Env{Types: types})
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Build error = %v, want %q: %s", err, tt.err, tt.reason)
			}
		})
	}
}
