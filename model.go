package trajeval

import core "github.com/trajeval/trajeval/internal/trajeval"

// The domain model. Its types are defined in an internal package so that
// the readers and evaluators, which this package calls, can share them
// without an import cycle; these aliases make them this package's own
// (trajeval.Trajectory and the internal type are one type).

// A Trajectory is what one agent run did: its turns, the tool calls it made
// (flattened over all turns, in the order the model issued them) and the
// run-level metrics its trace reported, and, for a multi-agent run, its
// Agents with the agent that called each. Every trace format is read into
// this one model, so every evaluator works on every source.
type Trajectory = core.Trajectory

// A Turn is one user message and the agent's final answer to it.
type Turn = core.Turn

// A Step is one tool call: its 1-based Index in issue order, Turn, the
// format's call ID, Name, Args and Result (JSON values), Error and
// ErrorMessage, DurationMS, StartTime and EndTime, ParallelGroup (steps
// issued together share it) and the sub-Agent that made it. Zero values
// stand for "the trace does not say".
type Step = core.Step

// An Agent is one agent of a multi-agent trace (Trajectory.Agents): its
// Name and the Parent agent that called it (as a tool, as a sub-agent, or
// by a handoff); Parent is "" for a top-level agent or when the trace
// does not say.
type Agent = core.Agent

// Metrics are the run-level figures a trace reports; each is nil when the
// trace does not report it.
type Metrics = core.Metrics

// Tokens counts the tokens of a run.
type Tokens = core.Tokens

// An Evaluator scores one trajectory. Evaluate returns the raw outcome; an
// error means the evaluator could not run (status error), never a low
// score. [Evaluate] turns the outcome into a [Result] with the
// evaluator's [Settings]: those of its Settings() Settings method, if it
// has one, else the defaults of a deterministic evaluator.
type Evaluator = core.Evaluator

// EvaluatorFunc adapts a function to [Evaluator].
type EvaluatorFunc = core.EvaluatorFunc

// An Outcome is an evaluator's score before its threshold is applied.
type Outcome = core.Outcome

// An ExpectedCall is one tool call the agent should make.
type ExpectedCall = core.ExpectedCall

// ArgsMatch says how expected arguments are compared with actual ones: a
// mode, or a list of dot-paths that alone are compared.
type ArgsMatch = core.ArgsMatch

// ArgsMode names an argument-matching rule.
type ArgsMode = core.ArgsMode

// The argument modes. Superset is an alias of Partial.
const (
	ArgsPartial = core.ArgsPartial // expected ⊆ actual, recursively
	ArgsExact   = core.ArgsExact   // same keys at every depth
	ArgsSubset  = core.ArgsSubset  // actual ⊆ expected
	ArgsIgnore  = core.ArgsIgnore  // always match
	ArgsPaths   = core.ArgsPaths   // only ArgsMatch.Paths are compared
)

// Status is the verdict of a case or an evaluator.
type Status = core.Status

// The three verdicts. An error is neither a pass nor a silent fail: the
// case or evaluator could not be scored.
const (
	StatusPass  = core.StatusPass
	StatusFail  = core.StatusFail
	StatusError = core.StatusError
)

// A Result is one evaluator's verdict on one trajectory: its Name and
// Type, Score (0 to 1), Status, the Threshold and Weight it was scored
// with, whether it is Required, the Error that kept it from running, the
// Details that explain the score, and the results of its Members (a
// composite's, or those of [Evaluate] with several evaluators).
//
// Passed() reports whether Status is pass. Explain() returns the
// explanation the text report gives, one line per evaluator:
//  1. its verdict (✓ pass, ✗ fail, ! error), name, type and score, with
//     the threshold it missed, or "failed by its verdict" when the
//     evaluator's own verdict failed it;
//  2. the reason it could not run, if it could not;
//  3. for a result that did not pass: how the expected calls lined up
//     with the steps (✓ step N, ✗ missing), each near miss with the
//     argument paths that differ, the extra steps, each check, the
//     dialect's notes and the warnings; then its members, explained the
//     same way, indented;
//  4. for a result that passed: its warnings alone.
type Result = core.Result

// A CaseResult is the verdict on one eval case: its ID and Suite, Status,
// Score, the Error that kept it from being scored, the Results of its
// Evaluators, its Warnings, and whether it was scored from a Partial
// trajectory.
//
// Passed() reports whether Status is pass. Explain() returns the text
// report's explanation of the case: a heading (PASS, FAIL or ERROR, id,
// score, suite), the reason it could not be scored, and each evaluator
// explained as [Result]'s Explain does.
type CaseResult = core.CaseResult

// Details explain a score: how the expected calls lined up with the
// actual steps, what is missing, what is extra, and each check that ran.
type Details = core.Details

// A Scope, in Details, says which steps an evaluator saw when it was
// limited to some agents (agent: in a suite, check.ForAgent in Go): the
// names or globs asked for, the trace's agents they took in, and how many
// steps they kept of how many.
type Scope = core.Scope

// A Pair says that an expected item matched an actual step.
type Pair = core.Pair

// Missing is an expected item that no step matched, with the steps that
// came closest.
type Missing = core.Missing

// A NearMiss is a step that almost matched an expected item.
type NearMiss = core.NearMiss

// An ArgDiff is one argument path whose value did not match: Want and Got
// as JSON text, "(absent)" and "(missing)" for a key on one side only. In
// a result row they are JSON values, a side without a value left out.
type ArgDiff = core.ArgDiff

// Extra is an actual step that no expected item used.
type Extra = core.Extra

// A Check is one pass/fail test inside an evaluator.
type Check = core.Check

// Check statuses.
const (
	CheckPass = core.CheckPass
	CheckFail = core.CheckFail
	CheckSkip = core.CheckSkip
)

// JudgeUsage counts the judge calls of an evaluator, a case or a run.
type JudgeUsage = core.JudgeUsage

// A Format reads one trace format into trajectories.
type Format = core.Format

// An Input is one trace file being read.
type Input = core.Input

// A Warning is a problem in a trace that did not stop it from being read.
type Warning = core.Warning

// A SniffError is a format's reason for not claiming a file.
type SniffError = core.SniffError

// A SpecError is a mistake in a suite or configuration file, located for
// the person who must fix it.
type SpecError = core.SpecError

// A TraceError is a trace that could not be read, located at its file,
// line and column.
type TraceError = core.TraceError

// Sentinel errors, for errors.Is.
var (
	ErrNoTrace       = core.ErrNoTrace
	ErrEmptyTrace    = core.ErrEmptyTrace
	ErrUnknownFormat = core.ErrUnknownFormat
	ErrConfig        = core.ErrConfig
	ErrCorruptTrace  = core.ErrCorruptTrace
	// ErrNoAgent: an evaluator limited to some agents (agent:,
	// check.ForAgent) was given a trace that names none of them.
	ErrNoAgent = core.ErrNoAgent
)

// TypeAll is the Type of the Result that check.Evaluate returns for
// several evaluators: its Members are theirs, and they decide whether it
// passes.
const TypeAll = core.TypeAll
