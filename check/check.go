package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/score"
)

// evaluator is what every constructor returns: an evaluator of a type, or
// the setting error that keeps it from running.
type evaluator struct {
	typ string
	ev  trajeval.Evaluator
	err error
}

// Evaluate scores t, or returns the evaluator's setting error.
func (e *evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	if e.err != nil {
		return trajeval.Outcome{}, e.err
	}
	if t == nil {
		t = &trajeval.Trajectory{}
	}
	return e.ev.Evaluate(ctx, t)
}

// Type returns the evaluator's type as a suite file names it, e.g.
// "tool_trajectory".
func (e *evaluator) Type() string { return e.typ }

// String describes the evaluator, e.g. "tool_trajectory (in_order)".
func (e *evaluator) String() string {
	if tr, ok := e.ev.(*trajectory.Evaluator); ok {
		return fmt.Sprintf("%s (%s)", e.typ, tr.Mode)
	}
	return e.typ
}

func build(typ string, ev trajeval.Evaluator, err error) trajeval.Evaluator {
	if err != nil {
		return &evaluator{typ: typ, err: fmt.Errorf("%s: %w", typ, err)}
	}
	return &evaluator{typ: typ, ev: ev}
}

// ErrSetting matches every setting error of this package's evaluators,
// for errors.Is.
var ErrSetting = errors.New("invalid setting")

// settingErr is a setting error: its message, matching ErrSetting and
// wrapping the cause, if any.
type settingErr struct {
	msg   string
	cause error
}

func (e *settingErr) Error() string   { return e.msg }
func (e *settingErr) Is(t error) bool { return t == ErrSetting }
func (e *settingErr) Unwrap() error   { return e.cause }

func errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &settingErr{msg: err.Error(), cause: errors.Unwrap(err)}
}

// Validate returns the setting error of an evaluator made by this
// package: the error its Evaluate would return before scoring anything.
// It returns nil for a valid evaluator and for evaluators made elsewhere.
func Validate(e trajeval.Evaluator) error {
	if ev, ok := e.(*evaluator); ok {
		return ev.err
	}
	return nil
}

// An Option is one part of an evaluator built by this package: an
// expected call ([Call]) or a setting ([ArgsMode], [Score], [Minimum],
// [IgnoreCase], [TrimSpace], [Strict], [Count], [Match]). Each
// constructor says which options it takes; any other is a setting error,
// never silently ignored.
type Option interface {
	apply(*options)
}

// options collect what the Options of one constructor say.
type options struct {
	calls    []ToolCall
	args     *trajeval.ArgsMatch
	score    score.Normalisation
	minimums []trajectory.Minimum
	strings  argmatch.Options
	strict   bool
	counts   []Count
	match    Match
	pattern  *string
	blankOK  bool
	entries  []Entry    // calls and groups, in order
	nested   []ToolCall // the calls inside groups
	rules    []Rule
	perTurn  bool
	given    map[string]bool // the kinds of options given, by name
	errs     []error
}

func collect(opts []Option) *options {
	o := &options{given: map[string]bool{}}
	for _, op := range opts {
		if op == nil {
			o.errs = append(o.errs, errorf("a nil option"))
			continue
		}
		op.apply(o)
	}
	return o
}

// only returns an error for the first kind of option given that is not
// one of allowed.
func (o *options) only(allowed ...string) error {
	if len(o.errs) > 0 {
		return o.errs[0]
	}
	for _, k := range []string{"calls", "ArgsMode", "Score", "Minimum", "IgnoreCase", "TrimSpace", "Strict", "Count", "Match", "ErrorPattern", "BlankResultOK", "groups", "Rule", "PerTurn"} {
		if !o.given[k] {
			continue
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		if !ok {
			if k == "calls" {
				return errorf("this evaluator takes no expected calls")
			}
			if k == "groups" {
				return errorf("this evaluator takes no groups (Unordered, Sequence, Either, Optional, Repeat): InOrder does")
			}
			return errorf("this evaluator does not take the %s option", k)
		}
	}
	return nil
}

// A ToolCall is one expected call, made by [Call]. It is an [Option].
type ToolCall struct {
	tool   string
	args   Args
	mode   *trajeval.ArgsMatch
	maxDur *time.Duration
	output *any
	err    error
}

func (c ToolCall) apply(o *options) {
	o.calls = append(o.calls, c)
	o.entries = append(o.entries, c)
	o.given["calls"] = true
}

// A CallOption is a setting of one expected call: [Args], an [ArgsMode],
// [MaxDuration] or [Returns].
type CallOption interface {
	applyCall(*ToolCall)
}

// Call returns an expected call of the tool named tool (compared
// case-sensitively). Its options apply in order; an empty name is a
// setting error.
func Call(tool string, opts ...CallOption) ToolCall {
	c := ToolCall{tool: tool}
	if tool == "" {
		c.err = errorf("a call has an empty tool name")
	}
	for _, op := range opts {
		if op == nil {
			c.err = errorf("call %s: a nil option", tool)
			continue
		}
		op.applyCall(&c)
	}
	return c
}

// Args are expected arguments: argument name → value. A value is a Go
// value (compared by its JSON value: numbers by value, strings exactly,
// nested maps and slices element by element) or an operator such as
// [Regex]. Keys are literal, even those that start with "$". Args is a
// [CallOption]; given twice, the later Args win.
type Args map[string]any

func (a Args) applyCall(c *ToolCall) { c.args = a }

// MaxDuration limits how long the call may take: one more check in the
// score, passed when the matched step's duration is at most d. A step
// with no duration skips the check; a missing call fails it. A negative
// limit is a setting error.
func MaxDuration(d time.Duration) CallOption { return maxDuration(d) }

type maxDuration time.Duration

func (d maxDuration) applyCall(c *ToolCall) {
	v := time.Duration(d)
	if v < 0 {
		c.err = errorf("call %s: MaxDuration must not be negative, got %v", c.tool, v)
	}
	c.maxDur = &v
}

// Returns is the result an expected call should return, for
// [ToolCallOutput]: equal as JSON values, or as text, or equal to the
// result's "content" field.
func Returns(v any) CallOption { return returns{v} }

type returns struct{ v any }

func (r returns) applyCall(c *ToolCall) { v := r.v; c.output = &v }

// An ArgsMode says how expected arguments are compared with actual ones.
// It is a [CallOption] (for one call) and an [Option] (for the calls that
// set none).
type ArgsMode struct{ m trajeval.ArgsMatch }

// The argument modes.
var (
	// PartialArgs, the default: every expected key must be present and
	// match, recursively; other keys are allowed at every depth.
	PartialArgs = ArgsMode{trajeval.ArgsMatch{Mode: trajeval.ArgsPartial}}
	// ExactArgs: the same keys at every depth, every value matching.
	ExactArgs = ArgsMode{trajeval.ArgsMatch{Mode: trajeval.ArgsExact}}
	// SubsetArgs: every actual key must be expected, with a matching
	// value; expected keys may be missing.
	SubsetArgs = ArgsMode{trajeval.ArgsMatch{Mode: trajeval.ArgsSubset}}
	// IgnoreArgs: arguments are not compared.
	IgnoreArgs = ArgsMode{trajeval.ArgsMatch{Mode: trajeval.ArgsIgnore}}
)

// ArgPaths compares only the listed dot-paths (e.g. "query",
// "filter.year", "items[0].id" or "items.0.id"), each by exact value. A
// path the expected arguments do not have is skipped; one the actual
// arguments lack is a difference. A path that does not parse, or holds a
// * wildcard, is a setting error.
func ArgPaths(paths ...string) ArgsMode {
	return ArgsMode{trajeval.ArgsMatch{Mode: trajeval.ArgsPaths, Paths: paths}}
}

func (m ArgsMode) applyCall(c *ToolCall) { v := m.m; c.mode = &v }

func (m ArgsMode) apply(o *options) {
	v := m.m
	o.args = &v
	o.given["ArgsMode"] = true
}

// A Score says how hits become a score, for the trajectory evaluators
// ([InOrder], [AnyOrder], [Exact], [Subset]). It is an [Option].
type Score string

// The scores. Let hits be the matched calls, E the expected calls and A
// the actual ones.
const (
	ScoreRecall    Score = "recall"    // the mode's score (the default)
	ScorePrecision Score = "precision" // hits / |A|; 1 when nothing was expected nor called
	ScoreF1        Score = "f1"        // 2·hits / (|E| + |A|); 1 when both are empty
	ScoreMax       Score = "max"       // hits / max(|E|, |A|): missing and extra calls count
	ScoreBinary    Score = "binary"    // 1 when the recall score is 1, else 0
)

func (s Score) apply(o *options) {
	o.score = score.Normalisation(s)
	o.given["Score"] = true
}

// Minimum requires the tool to be called at least n times, in [AnyOrder]
// only: each minimum met is one hit, each minimum one more in the
// denominator. An empty tool name or n < 0 is a setting error.
func Minimum(tool string, n int) Option { return minimum{tool, n} }

type minimum struct {
	tool string
	n    int
}

func (m minimum) apply(o *options) {
	o.minimums = append(o.minimums, trajectory.Minimum{Tool: m.tool, N: m.n})
	o.given["Minimum"] = true
}

// IgnoreCase compares expected and actual strings without regard to case
// (literals and the text of Contains; Regex has its own (?i)).
var IgnoreCase Option = flag("IgnoreCase")

// TrimSpace compares strings with their surrounding white space removed.
var TrimSpace Option = flag("TrimSpace")

// Strict makes UiPath's evaluators all or nothing: 1 when every expected
// item is met, else 0; for [ToolCallOrder], 1 only when the calls are
// exactly the expected list.
var Strict Option = flag("Strict")

// BlankResultOK makes [ToolErrors] count a call with no result as a
// success (by default it is a failure).
var BlankResultOK Option = flag("BlankResultOK")

type flag string

func (f flag) apply(o *options) {
	switch f {
	case "IgnoreCase":
		o.strings.CaseInsensitive = true
	case "TrimSpace":
		o.strings.Trim = true
	case "Strict":
		o.strict = true
	case "BlankResultOK":
		o.blankOK = true
	case "PerTurn":
		o.perTurn = true
	}
	o.given[string(f)] = true
}

// expected turns the calls into expected calls, with their arguments in
// the JSON data model; the first bad setting is an error.
func (o *options) expected() ([]trajeval.ExpectedCall, error) {
	out := make([]trajeval.ExpectedCall, 0, len(o.calls))
	for i, c := range o.calls {
		e, err := c.expected(fmt.Sprintf("call %d (%s)", i+1, c.tool))
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// expected turns the call into an expected call; name names it in errors.
func (c ToolCall) expected(name string) (trajeval.ExpectedCall, error) {
	if c.err != nil {
		return trajeval.ExpectedCall{}, c.err
	}
	e := trajeval.ExpectedCall{Tool: c.tool}
	if c.args != nil {
		v, err := jsonArgs(c.args)
		if err != nil {
			return e, errorf("%s: %w", name, err)
		}
		e.Args = v
	}
	if c.mode != nil {
		e.ArgsMatch = *c.mode
	}
	if c.maxDur != nil {
		ms := float64(*c.maxDur) / float64(time.Millisecond)
		e.MaxDurationMS = &ms
	}
	return e, nil
}

// noOutputs refuses Returns on calls of an evaluator that compares no
// results, and MaxDuration on one that checks no latency.
func (o *options) callSettings(outputs, latency, args bool) error {
	for _, c := range append(o.calls[:len(o.calls):len(o.calls)], o.nested...) {
		switch {
		case c.err != nil:
			return c.err
		case c.output != nil && !outputs:
			return errorf("call %s: this evaluator does not compare results (Returns)", c.tool)
		case c.maxDur != nil && !latency:
			return errorf("call %s: this evaluator does not check latency (MaxDuration)", c.tool)
		case (c.args != nil || c.mode != nil) && !args:
			return errorf("call %s: this evaluator compares names only (no Args or ArgsMode)", c.tool)
		}
	}
	return nil
}

// InOrder expects the calls in this order, other calls allowed between
// them: the largest order-preserving matching. It takes calls and the
// options ArgsMode, Score, IgnoreCase and TrimSpace.
func InOrder(opts ...Option) trajeval.Evaluator { return sequence(trajectory.InOrder, opts) }

// AnyOrder expects the calls in any order, each matched by a different
// step, and the minimums met. It takes calls and the options ArgsMode,
// Score, Minimum, IgnoreCase and TrimSpace.
func AnyOrder(opts ...Option) trajeval.Evaluator { return sequence(trajectory.AnyOrder, opts) }

// Exact expects exactly these calls, position by position; steps of one
// parallel group may come in any order. Extra calls lower the score. It
// takes calls and the options ArgsMode, Score, IgnoreCase and TrimSpace.
func Exact(opts ...Option) trajeval.Evaluator { return sequence(trajectory.Exact, opts) }

// Subset allows only these calls: the score is the share of actual calls
// that match some expected call (an expected call may match many). It
// takes calls (without MaxDuration) and the options ArgsMode, Score,
// IgnoreCase and TrimSpace.
func Subset(opts ...Option) trajeval.Evaluator { return sequence(trajectory.Subset, opts) }

func sequence(mode trajectory.Mode, opts []Option) trajeval.Evaluator {
	const typ = "tool_trajectory"
	o := collect(opts)
	allowed := []string{"calls", "ArgsMode", "Score", "IgnoreCase", "TrimSpace", "groups"}
	if mode == trajectory.AnyOrder {
		allowed = append(allowed, "Minimum")
	}
	if err := o.only(allowed...); err != nil {
		return build(typ, nil, err)
	}
	if err := o.callSettings(false, mode != trajectory.Subset, true); err != nil {
		return build(typ, nil, err)
	}
	exp, err := o.expected()
	if err != nil {
		return build(typ, nil, err)
	}
	to := trajectory.Options{Mode: mode, Score: o.score, Expected: exp, Minimums: o.minimums, Strings: o.strings}
	if o.given["groups"] {
		if to.Groups, err = expects(o.entries, "expected"); err != nil {
			return build(typ, nil, err)
		}
		to.Expected = nil
	}
	if o.args != nil {
		to.ArgsMatch = *o.args
	}
	ev, err := trajectory.New(to)
	if err != nil {
		return build(typ, nil, &settingErr{msg: err.Error(), cause: err})
	}
	return build(typ, ev, nil)
}
