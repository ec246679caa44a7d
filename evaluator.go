package trajeval

import "context"

// An Evaluator scores one trajectory.
//
// Evaluate returns the raw outcome; the engine applies the evaluator's
// threshold, weight and required flag to it. An error means the evaluator
// could not run (the case gets status error), never a low score.
// check.Evaluate turns the outcome into a [Result] with the evaluator's
// settings: those of its Settings method (see check.Configure), if it has
// one, else the defaults of a deterministic evaluator.
//
// A run reuses the memory of a trajectory it has scored for the ones it
// reads next (see [StepPool]). The rules for Evaluate:
//  1. t, its steps, and what they point at (Args and Result, JSON text
//     included, Error, DurationMS) are the evaluator's only until
//     Evaluate returns: it keeps no reference to any of them, in its own
//     state or in a goroutine that outlives the call.
//  2. The Outcome holds copies: strings and numbers read from a step
//     (a Go string made from its bytes with string(b) is a copy; one made
//     with unsafe is not), values decoded with [Decoded], and never a
//     step's pointers (Error, DurationMS, a *json.RawMessage) or a slice
//     of its text, in Details.Notes either.
type Evaluator interface {
	Evaluate(ctx context.Context, t *Trajectory) (Outcome, error)
}

// EvaluatorFunc adapts a function to [Evaluator].
type EvaluatorFunc func(ctx context.Context, t *Trajectory) (Outcome, error)

// Evaluate calls f.
func (f EvaluatorFunc) Evaluate(ctx context.Context, t *Trajectory) (Outcome, error) {
	return f(ctx, t)
}

// An Outcome is an evaluator's score before its threshold is applied.
type Outcome struct {
	Score float64
	// Verdict, when set, decides pass or fail in place of the threshold
	// (negate still swaps it). Two evaluators set it: a composite with
	// all_pass (every member that is required passes) and the code
	// evaluator when its program prints "pass". Binary scores need no
	// verdict: they are 0 or 1 and meet the threshold or not.
	Verdict *bool
	Details *Details
	Members []Result
	// Judge is what the evaluator's judge calls cost, even when it then
	// failed; nil when it asked no judge.
	Judge *JudgeUsage
}

// An ExpectedCall is one tool call the agent should make.
type ExpectedCall struct {
	Tool string
	// Args is the expected argument object (operators included); nil accepts
	// any arguments.
	Args          any
	ArgsMatch     ArgsMatch // zero: the evaluator's setting
	MaxDurationMS *float64
	// Output is the expected result (AgentV's output:), compared with the
	// step's result as expected arguments are under partial; nil checks
	// nothing.
	Output any
}

// ArgsMatch says how expected arguments are compared with actual ones
// (docs/scoring.md §2.2): a mode, or a list of dot-paths that alone are compared.
type ArgsMatch struct {
	Mode  ArgsMode
	Paths []string
}

// IsZero reports whether no mode was set.
func (m ArgsMatch) IsZero() bool { return m.Mode == "" && m.Paths == nil }

// ArgsMode names an argument-matching rule.
type ArgsMode string

// The argument modes. Superset is an alias of Partial.
const (
	ArgsPartial ArgsMode = "partial" // expected ⊆ actual, recursively
	ArgsExact   ArgsMode = "exact"   // same keys at every depth
	ArgsSubset  ArgsMode = "subset"  // actual ⊆ expected
	ArgsIgnore  ArgsMode = "ignore"  // always match
	ArgsPaths   ArgsMode = "paths"   // only ArgsMatch.Paths are compared
)
