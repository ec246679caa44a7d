// Package eval runs configured evaluators: an evaluator with the settings
// every type shares, applied to its outcome.
//
// A [Configured] evaluator scores a trajectory in this order:
//  1. its evaluator runs; one that returns an error, or panics, gives
//     status error and no score, never a silent score. An error that
//     joins several (errors.Join) is written one per line, the first
//     [errlist.Max] of them;
//  2. the score is clamped to [0, 1] (NaN is 0);
//  3. pass or fail is decided on that score: the evaluator's own verdict
//     (Outcome.Verdict) when it gives one, else score ≥ Threshold;
//  4. Negate then scores 1 − score and swaps pass and fail: with threshold
//     0.5, a negated evaluator whose score is 0.3 passes and reports 0.7.
//     An evaluator that cannot run stays an error;
//  5. Weight is its share of the case score and Required false lets the
//     case pass even when it fails; both are carried into the result for
//     the case to use.
//
// An evaluator is handed the trajectory with the JSON text a reader kept
// of its arguments and results decoded (see trajeval.Decoded), unless it
// says it reads them through trajeval.Decoded itself ([TextReader]).
//
// This package knows nothing of suite files: package spec reads an
// evaluator's keys into a Configured, and the evaluator packages build
// their evaluators from Go values.
package eval

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/errlist"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/score"
)

// Case is what evaluators may know about the case they score.
type Case struct {
	ID              string
	Input           string // the user's input, after the suite's
	ExpectedOutcome string // what the answer should achieve, in words
	ExpectedOutput  string // the reference answer, as text
}

// A Configured evaluator is an evaluator with its shared settings.
type Configured struct {
	Name      string
	Type      string
	Weight    float64
	Required  bool
	Threshold float64
	Negate    bool
	Eval      trajeval.Evaluator
}

// A TextReader is an evaluator that may say it reads every argument and
// result it looks at through trajeval.Decoded (or looks at none), so that
// it may be handed JSON text that a reader kept: a type switch elsewhere
// would take the text for no value at all. ReadsText answers for the
// evaluator as configured: a composite reads text when each of its
// members does. An evaluator that would decode nearly every argument or
// result all the same answers false: a reader decodes values as it reads
// them at less cost than it scans text to be decoded after.
type TextReader interface {
	trajeval.Evaluator
	ReadsText() bool
}

// ReadsText reports whether e may be handed arguments and results kept as
// JSON text: e is a [TextReader] that says it reads them. A run asks it
// of every evaluator of a case before it lets the readers keep text, and
// [Configured.Run] before it hands e a trajectory as it is.
func ReadsText(e trajeval.Evaluator) bool {
	r, ok := e.(TextReader)
	return ok && r.ReadsText()
}

// ReadsText reports whether c's evaluator reads kept JSON text itself
// (see [ReadsText]) and c is not negated. A negated evaluator is handed
// the trajectory decoded: text that does not decode (put there by hand;
// a reader's always does) matches no expected call of the argument
// matchers, a lower score, which negate would make a pass; decoded, it
// is an error.
func (c *Configured) ReadsText() bool { return !c.Negate && ReadsText(c.Eval) }

// Run scores t and applies the shared settings.
func (c *Configured) Run(ctx context.Context, t *trajeval.Trajectory) trajeval.Result {
	r := trajeval.Result{Name: c.Name, Type: c.Type, Threshold: c.Threshold, Weight: c.Weight, Required: c.Required}
	if !c.ReadsText() {
		var err error
		if t, err = t.DecodeText(); err != nil {
			r.Status, r.Error = trajeval.StatusError, "the trace's arguments or results: "+err.Error()
			return r
		}
	}
	out, err := safeEvaluate(ctx, c.Eval, t)
	r.Judge = out.Judge
	if err != nil {
		r.Status, r.Error = trajeval.StatusError, safeErrorText(err)
		return r
	}
	r.Score, r.Details, r.Members = clamp(out.Score), out.Details, out.Members
	pass := r.Score >= c.Threshold-1e-9
	if out.Verdict != nil {
		pass = *out.Verdict
	}
	if c.Negate {
		r.Score, pass = 1-r.Score, !pass
	}
	r.Status = trajeval.StatusFail
	if pass {
		r.Status = trajeval.StatusPass
	}
	return r
}

// errorText writes err for a result: each error it joins on its own
// line, bounded as configuration errors are.
func errorText(err error) string {
	errs := errlist.Split(err)
	if len(errs) <= 1 {
		return err.Error()
	}
	lines := make([]string, 0, min(len(errs), errlist.Max+1))
	for _, e := range errs[:min(len(errs), errlist.Max)] {
		lines = append(lines, e.Error())
	}
	if more := len(errs) - errlist.Max; more > 0 {
		lines = append(lines, "and "+plural.Count(more, "more error", "more errors"))
	}
	return strings.Join(lines, "\n")
}

// safeEvaluate turns a panic in an evaluator into an error, so one bad
// evaluator cannot lose the results already computed.
func safeEvaluate(ctx context.Context, e trajeval.Evaluator, t *trajeval.Trajectory) (out trajeval.Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("evaluator failed: %v", p)
		}
	}()
	return e.Evaluate(ctx, t)
}

// safeErrorText is errorText for an evaluator's error, whose Error method
// is the evaluator's code too: a typed nil error panics there, after
// safeEvaluate has returned.
func safeErrorText(err error) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = fmt.Sprintf("evaluator failed: its error cannot be written: %v", p)
		}
	}()
	return errorText(err)
}

func clamp(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return max(0, min(1, f))
}

// Ratio returns num/den, or whenEmpty when den is 0 (see package score).
func Ratio(num, den int, whenEmpty float64) float64 { return score.Ratio(num, den, whenEmpty) }

// Bool returns a pointer to b, for Outcome.Verdict.
func Bool(b bool) *bool { return &b }
