// Package suite loads eval suites: the cases to score, where each case's
// trace is, and the evaluators that score it.
//
// A suite file is read by the first dialect that claims it, asked in the
// order of [Options.Dialects] (package dialects lists the built-in ones:
// a Google ADK eval set, a UiPath evaluation set, a τ²-bench task file,
// a BFCL possible-answer file, a Vertex AI dataset), then AgentV's YAML
// (with AgentV's newer spellings as aliases), which claims the rest. Each
// dialect translates its settings into the same evaluators, so one engine
// scores them all.
package suite

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/target"
)

// A Suite is a set of cases from one file.
type Suite struct {
	Name    string
	File    string // path of the suite file
	Dialect string
	// Traces is the suite's own traces file for cases without a trace:
	// key: the suite's traces: key, else a traces.jsonl (or
	// NAME.traces.jsonl) beside the suite file. The run's --traces wins.
	Traces string
	// TracesNode is the traces: key that named Traces, for errors; nil
	// when the file was found beside the suite.
	TracesNode *config.Node
	// Workers is how many cases the suite asks to score at once
	// (execution.workers); 0 when it does not say.
	Workers int
	Cases   []*Case
	// Evaluators are the suite's own evaluators (execution.evaluators),
	// which every case inherits. A suite with no cases applies them to
	// every trajectory of its traces (see Suite.Open).
	Evaluators []*eval.Configured
	// Target runs the agent for the cases that have no recorded trace:
	// --target NAME, else the suite's execution.target; nil when neither
	// names one.
	Target *target.Target
	// TargetNode is the definition of Target, for errors.
	TargetNode *config.Node
	choice     targetChoice
	// Warnings are problems that did not stop the suite from loading.
	Warnings []trajeval.Warning
	// Exhaustive says that its traces hold runs of its cases only (a
	// τ²-bench results file and its tasks): a trajectory of them whose id
	// matches no case is an error row of the suite, not a warning.
	Exhaustive bool
	// uniqueIDs says that the loader checked its cases' ids for repeats.
	uniqueIDs bool
}

// Open reports whether the suite has no cases and scores every trajectory
// of its traces with its own evaluators instead: each trajectory is then a
// case, named by its id.
func (s *Suite) Open() bool { return len(s.Cases) == 0 && len(s.Evaluators) > 0 }

// warn records a problem that does not stop the suite from loading.
func (s *Suite) warn(w trajeval.Warning) { s.Warnings = append(s.Warnings, w) }

// A Case is one scenario to score. What few cases have (a trace file of
// their own, turns, an expected outcome) is held apart, so that a suite
// of a million cases that have none of it holds a few words a case.
type Case struct {
	ID         string
	Input      string // the user input, as text
	Evaluators []*eval.Configured
	// Place is where the case is in its file, for later errors: a place,
	// not the case's nodes, which go with the rest of the document once
	// the case is read.
	Place config.Place
	more  *caseMore
}

// caseMore is what few cases have.
type caseMore struct {
	expectedOutcome string
	trace           string
	traceNode       *config.Node
	turns           []*Turn
}

// get returns c's rare fields, made on first use.
func (c *Case) get() *caseMore {
	if c.more == nil {
		c.more = &caseMore{}
	}
	return c.more
}

// Trace returns the path of the case's recorded trace ("" when the run's
// --traces file must supply it, matched by ID).
func (c *Case) Trace() string {
	if c.more == nil {
		return ""
	}
	return c.more.trace
}

// TraceNode returns the trace: key that named Trace, for errors; nil when
// none did.
func (c *Case) TraceNode() *config.Node {
	if c.more == nil {
		return nil
	}
	return c.more.traceNode
}

// SetTrace sets the case's trace file and the key that named it.
func (c *Case) SetTrace(path string, n *config.Node) { c.get().trace, c.get().traceNode = path, n }

// Turns returns the per-turn expectations of a multi-turn case; Turns()[i]
// scores turn i+1 of the trajectory.
func (c *Case) Turns() []*Turn {
	if c.more == nil {
		return nil
	}
	return c.more.turns
}

// SetTurns sets the case's per-turn expectations.
func (c *Case) SetTurns(turns []*Turn) {
	if turns != nil || c.more != nil {
		c.get().turns = turns
	}
}

// ExpectedOutcome returns what the case's judges are told to expect.
func (c *Case) ExpectedOutcome() string {
	if c.more == nil {
		return ""
	}
	return c.more.expectedOutcome
}

// SetExpectedOutcome sets what the case's judges are told to expect.
func (c *Case) SetExpectedOutcome(s string) {
	if s != "" || c.more != nil {
		c.get().expectedOutcome = s
	}
}

// A Turn is the expectations for one turn of a conversation.
type Turn struct {
	Input      string
	Evaluators []*eval.Configured
	Node       *config.Node
}

// Options steer loading.
type Options struct {
	Threshold *float64 // --threshold
	Config    string   // --config: a dialect's side file (ADK test_config.json)
	// Judges is the run's judge runtime; nil when suites are only
	// validated (judged evaluators then load but cannot run).
	Judges *judge.Runtime
	Target string // --target: the target of every suite, over execution.target
	// MaxOutput is --max-output: the cap in bytes of what a target's
	// command may write to each stream, over the target's max_output; 0
	// keeps the target's.
	MaxOutput int64
	Traces    string // --traces: the run's traces file, which wins over targets
	// Dialects are asked in order whether a file is theirs; AgentV's YAML,
	// which claims the rest, is asked last. nil reads AgentV's YAML only;
	// dialects.All() is every built-in dialect.
	Dialects []Dialect
	// Basis is --basis: the τ²-bench reward components to score (see
	// package suite/tau2), over each task's reward_basis; nil keeps the
	// tasks' own.
	Basis []string
	// Questions is --questions: the question file of BFCL possible-answer
	// files (package bfcl), over the one found beside them.
	Questions string
}
