package check

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
)

// A Check is an evaluator whose settings are known to be valid: [Compile]
// has looked at them. Its Run gives the verdict (Passed, Score, Explain).
// It is itself a trajeval.Evaluator, so it goes wherever one does
// (Evaluate, trajevaltest.Check, a suite's Go evaluators).
// Goroutines may share it.
type Check struct {
	ev trajeval.Evaluator
}

// Compile returns ev ready to run, or at once the setting error its
// Evaluate would return (an invalid regular expression, an empty tool
// name, an option the evaluator does not take), matching [ErrSetting]. A
// nil evaluator is a setting error too. An evaluator made outside this
// package is taken as it is.
func Compile(ev trajeval.Evaluator) (*Check, error) {
	if ev == nil {
		return nil, errorf("a nil evaluator")
	}
	if err := Validate(ev); err != nil {
		return nil, err
	}
	return &Check{ev: ev}, nil
}

// MustCompile is [Compile] for evaluators written as literals, whose
// settings are the programmer's to get right: it panics on a setting
// error, as regexp.MustCompile does. Build evaluators from settings read
// at run time with Compile.
func MustCompile(ev trajeval.Evaluator) *Check {
	c, err := Compile(ev)
	if err != nil {
		panic("check: MustCompile: " + err.Error())
	}
	return c
}

// Run scores t and returns the verdict, as Evaluate gives it: the
// score, whether it passes (threshold 1 unless Configure set
// another), and the explanation of what matched and what did not. A nil
// trajectory is scored as an empty one.
func (c *Check) Run(ctx context.Context, t *trajeval.Trajectory) trajeval.Result {
	return Evaluate(ctx, t, c.ev)
}

// Evaluate returns the raw outcome of the evaluator, before a threshold
// makes it a verdict; use [Check.Run] for the verdict.
func (c *Check) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	if t == nil {
		t = &trajeval.Trajectory{}
	}
	return c.ev.Evaluate(ctx, t)
}

// Type returns the evaluator's type as a suite file names it, e.g.
// "tool_trajectory", or "" for an evaluator made elsewhere without one.
func (c *Check) Type() string {
	if ty, ok := c.ev.(interface{ Type() string }); ok {
		return ty.Type()
	}
	return ""
}

// Settings returns the evaluator's settings when Configure made
// it, and the defaults otherwise, so that Run scores it as they say.
func (c *Check) Settings() Settings {
	if s, ok := c.ev.(interface{ Settings() Settings }); ok {
		return s.Settings()
	}
	return Settings{}
}

// String describes the evaluator, e.g. "tool_trajectory (in_order)".
func (c *Check) String() string {
	if s, ok := c.ev.(fmt.Stringer); ok {
		return s.String()
	}
	return c.Type()
}
