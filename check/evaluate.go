package check

import (
	"context"
	"fmt"
	"math"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/run"
	isuite "github.com/trajeval/trajeval/internal/suite"
)

// Evaluate scores t with each evaluator and returns the verdict.
//
// Each evaluator's raw [trajeval.Outcome] becomes a [trajeval.Result] by these rules:
//  1. Its settings are its own when it has a Settings() Settings method
//     (evaluators made by [Configure], and those of a loaded suite.Suite, have
//     one); otherwise the defaults of a deterministic evaluator: threshold
//     1, weight 1, required, not negated. Its Type is what a Type() string
//     method says (the evaluators of package check have one).
//  2. The score is clamped to [0, 1] (NaN is 0). It passes when it reaches
//     the threshold, unless the outcome carries its own Verdict, which
//     decides instead. Negate then scores 1 − score and swaps pass and
//     fail.
//  3. An evaluator that returns an error, panics, or is nil gets
//     [trajeval.StatusError] with the reason in Error and a score of 0: never a
//     pass, never a silent fail.
//
// With one evaluator, Evaluate returns its Result. With several, it
// returns one Result of Type [trajeval.TypeAll] whose Members are theirs, in order,
// combined as a suite combines a case's evaluators:
//  1. its Score is the mean of the members' scores, weighted by their
//     weights;
//  2. it passes iff every required member passes;
//  3. it is [trajeval.StatusError] when any member is, with that member's reason.
//
// With no evaluator, the Result is an error: nothing to score is not a
// pass. A nil trajectory is scored as an empty one (no steps, no turns):
// nil and empty trajectories are valid input, and what an evaluator
// expects of them is its own rule. A trajectory built by hand whose steps
// have no Index is scored as a reader would give it: a copy, completed
// by [trajeval.Trajectory.Finish]; t itself is not changed.
func Evaluate(ctx context.Context, t *trajeval.Trajectory, evaluators ...trajeval.Evaluator) trajeval.Result {
	t = run.Prepare(t)
	switch len(evaluators) {
	case 0:
		return trajeval.Result{Name: trajeval.TypeAll, Type: trajeval.TypeAll, Status: trajeval.StatusError, Threshold: 1, Weight: 1, Required: true,
			Error: "no evaluators to run: pass Evaluate at least one", Members: []trajeval.Result{}}
	case 1:
		return configured(evaluators[0], "evaluator").Run(ctx, t)
	}
	c := &isuite.Case{Evaluators: make([]*eval.Configured, len(evaluators))}
	for i, e := range evaluators {
		c.Evaluators[i] = configured(e, fmt.Sprintf("evaluator %d", i+1))
	}
	r := run.Score(ctx, &isuite.Suite{}, c, t)
	return trajeval.Result{Name: trajeval.TypeAll, Type: trajeval.TypeAll, Score: r.Score, Status: r.Status, Threshold: 1, Weight: 1, Required: true,
		Error: r.Error, Members: r.Evaluators, Judge: r.Judge}
}

// Settings say how [Evaluate] turns an evaluator's [trajeval.Outcome] into a
// [trajeval.Result]. The zero value holds the defaults of a deterministic
// evaluator.
type Settings struct {
	// Name names the Result; "" is "evaluator" (with its place in the
	// list, from 1, when Evaluate has several).
	Name string
	// Type says what kind of evaluator it is, e.g. "tool_trajectory"; it
	// is shown beside the name.
	Type string
	// Threshold is the score at or above which it passes, in (0, 1]; 0
	// is 1.
	Threshold float64
	// Weight is its share of a combined score; 0 is 1.
	Weight float64
	// Optional lets the combined result pass when this evaluator fails
	// (required: false in a suite).
	Optional bool
	// Negate scores 1 − score and swaps pass and fail; pass or fail is
	// decided first, on the score before negation.
	Negate bool
}

// Configure returns e with settings s: the fields of s that are set
// (not zero) replace e's own settings (see [Evaluate]). A threshold
// below 0 or above 1, or a negative or infinite weight, makes the
// evaluator an error when it runs.
func Configure(e trajeval.Evaluator, s Settings) trajeval.Evaluator {
	if se, ok := e.(configuredEvaluator); ok {
		c := *se.Configured()
		apply(&c, s)
		return preset{&c}
	}
	own := Settings{}
	if h, ok := e.(interface{ Settings() Settings }); ok {
		own = h.Settings()
	}
	own = own.with(s)
	if w, ok := e.(withSettings); ok {
		e = w.Evaluator // configured again: one layer
	}
	return withSettings{e, own}
}

// withSettings is an evaluator with its settings.
type withSettings struct {
	trajeval.Evaluator
	s Settings
}

func (w withSettings) Settings() Settings { return w.s }

// configuredEvaluator is an evaluator that carries its settings as a run
// uses them: those of a loaded suite (package suite), and those that
// Configure gives one.
type configuredEvaluator interface {
	trajeval.Evaluator
	Configured() *eval.Configured
}

// preset is an evaluator with the settings a run uses.
type preset struct{ c *eval.Configured }

// Configured returns the evaluator with its settings.
func (e preset) Configured() *eval.Configured { return e.c }

// Evaluate returns the raw outcome; Evaluate applies the settings.
func (e preset) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	return e.c.Eval.Evaluate(ctx, t)
}

// Settings returns the evaluator's settings from its suite file.
func (e preset) Settings() Settings { return settingsOf(e.c) }

// settingsOf returns the settings c holds.
func settingsOf(c *eval.Configured) Settings {
	return Settings{Name: c.Name, Type: c.Type, Threshold: c.Threshold, Weight: c.Weight, Optional: !c.Required, Negate: c.Negate}
}

// with returns own with the fields of s that are set (not zero) in their
// place; Optional and Negate hold when either sets them.
func (own Settings) with(s Settings) Settings {
	if s.Name != "" {
		own.Name = s.Name
	}
	if s.Type != "" {
		own.Type = s.Type
	}
	if s.Threshold != 0 {
		own.Threshold = s.Threshold
	}
	if s.Weight != 0 {
		own.Weight = s.Weight
	}
	own.Optional = own.Optional || s.Optional
	own.Negate = own.Negate || s.Negate
	return own
}

// configured gives e its settings: its own, else the defaults, named name.
func configured(e trajeval.Evaluator, name string) *eval.Configured {
	if se, ok := e.(configuredEvaluator); ok {
		return se.Configured()
	}
	c := &eval.Configured{Name: name, Weight: 1, Required: true, Threshold: 1, Eval: e}
	if e == nil {
		c.Eval = trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
			return trajeval.Outcome{}, fmt.Errorf("%s is nil: pass an evaluator", name)
		})
		return c
	}
	if h, ok := e.(interface{ Type() string }); ok {
		c.Type = h.Type() // the check package's evaluators say what they are
	}
	if h, ok := e.(interface{ Settings() Settings }); ok {
		apply(c, h.Settings())
	}
	return c
}

// apply sets the fields of s that are set on c, and makes c an error when
// they are out of range.
func apply(c *eval.Configured, s Settings) {
	m := settingsOf(c).with(s)
	c.Name, c.Type, c.Threshold, c.Weight, c.Required, c.Negate = m.Name, m.Type, m.Threshold, m.Weight, !m.Optional, m.Negate
	var bad string
	switch {
	case !(s.Threshold >= 0 && s.Threshold <= 1): // NaN too
		bad = fmt.Sprintf("threshold must be between 0 and 1, got %v", s.Threshold)
	case !(s.Weight >= 0) || math.IsInf(s.Weight, 1):
		bad = fmt.Sprintf("weight must be a number of at least 0, got %v", s.Weight)
	}
	if bad != "" {
		c.Eval = trajeval.EvaluatorFunc(func(context.Context, *trajeval.Trajectory) (trajeval.Outcome, error) {
			return trajeval.Outcome{}, fmt.Errorf("%s: %s", c.Name, bad)
		})
	}
}
