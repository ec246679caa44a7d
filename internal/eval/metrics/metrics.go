// Package metrics is the execution_metrics evaluator: budgets on a whole
// run.
//
// Each limit that is set is one check:
//  1. max_tool_calls: the number of steps;
//  2. max_llm_calls: the number of model calls the trace reports;
//  3. max_tokens: input + output tokens (or the reported total);
//  4. max_cost_usd and max_duration_ms: the run's cost and duration;
//  5. target_exploration_ratio with exploration_tolerance (default 0.2):
//     the share of calls to exploration tools (exploration_tools, default
//     read grep glob search list Read Grep Glob WebSearch WebFetch) must be
//     within the tolerance of the target.
//
// A check passes when the figure is ≤ its limit. A figure the trace does
// not report fails its check as "not reported": a budget that cannot be
// verified is not met. The score is the checks passed over the checks set.
package metrics

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/score"
)

// DefaultExplorationTools are the tools that count as exploration.
var DefaultExplorationTools = []string{"read", "grep", "glob", "search", "list", "Read", "Grep", "Glob", "WebSearch", "WebFetch"}

// Options are the limits of an execution_metrics evaluator; nil is not
// checked.
type Options struct {
	MaxToolCalls  *float64 // the number of steps
	MaxLLMCalls   *float64 // the model calls the trace reports
	MaxTokens     *float64 // input + output tokens, or the reported total
	MaxCostUSD    *float64
	MaxDurationMS *float64
	// TargetExplorationRatio, in [0, 1], is the share of calls to
	// ExplorationTools the run should make, within ExplorationTolerance
	// (nil: 0.2).
	TargetExplorationRatio *float64
	ExplorationTolerance   *float64
	// ExplorationTools default to DefaultExplorationTools.
	ExplorationTools []string
}

type limit struct {
	key  string
	fig  figure // the figure key names, found once
	max  float64
	name string // the check's name, e.g. "cost ≤ 0.05 USD"
	unit string
}

// A figure is the trace's figure a limit bounds.
type figure uint8

const (
	toolCalls figure = iota
	llmCalls
	tokens
	costUSD
	durationMS
)

// The checks of the limits, by suite key: the figure's name and unit.
var checks = map[string]struct{ name, unit string }{
	"max_tool_calls":  {"tool calls", ""},
	"max_llm_calls":   {"llm calls", ""},
	"max_tokens":      {"tokens", ""},
	"max_cost_usd":    {"cost", " USD"},
	"max_duration_ms": {"duration", "ms"},
}

// Evaluator is a configured execution_metrics.
type Evaluator struct {
	limits    []limit
	target    *float64
	tolerance float64
	explore   map[string]bool
	ratioName string // the exploration check's name
}

// ReadsText says that the evaluator may be handed arguments and results
// kept as JSON text (see eval.TextReader): it never looks at them.
func (*Evaluator) ReadsText() bool { return true }

// New builds an execution_metrics evaluator. It refuses options that set
// no limit, a negative limit or tolerance, and a target ratio outside
// [0, 1]; the error names the setting by its suite key.
func New(o Options) (*Evaluator, error) {
	e := &Evaluator{tolerance: 0.2, explore: map[string]bool{}}
	for _, l := range []struct {
		key string
		v   *float64
		fig figure
	}{{"max_tool_calls", o.MaxToolCalls, toolCalls}, {"max_llm_calls", o.MaxLLMCalls, llmCalls}, {"max_tokens", o.MaxTokens, tokens}, {"max_cost_usd", o.MaxCostUSD, costUSD}, {"max_duration_ms", o.MaxDurationMS, durationMS}} {
		if l.v == nil {
			continue
		}
		if *l.v < 0 || math.IsNaN(*l.v) {
			return nil, &OptionError{Key: l.key, Msg: "must not be negative, got " + num(*l.v)}
		}
		c := checks[l.key]
		e.limits = append(e.limits, limit{key: l.key, fig: l.fig, max: *l.v, name: fmt.Sprintf("%s ≤ %s%s", c.name, num(*l.v), c.unit), unit: c.unit})
	}
	if r := o.TargetExplorationRatio; r != nil {
		if *r < 0 || *r > 1 || math.IsNaN(*r) {
			return nil, &OptionError{Key: "target_exploration_ratio", Msg: "target_exploration_ratio must be between 0 and 1"}
		}
		e.target = r
	}
	if t := o.ExplorationTolerance; t != nil {
		if *t < 0 || math.IsNaN(*t) {
			return nil, &OptionError{Key: "exploration_tolerance", Msg: "must not be negative, got " + num(*t)}
		}
		e.tolerance = *t
	}
	tools := o.ExplorationTools
	if tools == nil {
		tools = DefaultExplorationTools
	}
	for _, t := range tools {
		e.explore[t] = true
	}
	if e.target != nil {
		e.ratioName = fmt.Sprintf("exploration ratio %s ± %s", num(*e.target), num(e.tolerance))
	}
	if len(e.limits) == 0 && e.target == nil {
		return nil, &OptionError{Msg: "execution_metrics sets no limit", Hint: "set one of max_tool_calls, max_llm_calls, max_tokens, max_cost_usd, max_duration_ms, target_exploration_ratio"}
	}
	return e, nil
}

// An OptionError is a setting New refuses; Key is its suite key, "" for
// the options as a whole.
type OptionError struct {
	Key, Msg, Hint string
}

func (e *OptionError) Error() string {
	if e.Hint != "" {
		return e.Msg + " (" + e.Hint + ")"
	}
	return e.Msg
}

// Evaluate checks each limit against the trajectory's figures.
func (e *Evaluator) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	n := len(e.limits)
	if e.target != nil {
		n++
	}
	d := newDetails(len(t.Steps), n)
	passed := 0
	m := t.Metrics
	for _, l := range e.limits {
		var got float64
		known := true
		switch l.fig {
		case toolCalls:
			got = float64(len(t.Steps))
		case llmCalls:
			if known = m.LLMCalls != nil; known {
				got = float64(*m.LLMCalls)
			}
		case tokens:
			var s int64
			s, known = m.Tokens.Sum()
			got = float64(s)
		case costUSD:
			if known = m.CostUSD != nil; known {
				got = *m.CostUSD
			}
		case durationMS:
			if known = m.DurationMS != nil; known {
				got = *m.DurationMS
			}
		}
		c := trajeval.Check{Name: l.name}
		switch {
		case !known:
			c.Status, c.Message = trajeval.CheckFail, "not reported by the trace"
		case got < 0 || math.IsNaN(got):
			// A negative figure is corrupt data, not a figure under budget.
			c.Status, c.Message = trajeval.CheckFail, "the trace reports "+num(got)+l.unit+", which cannot be right"
		case got <= l.max:
			c.Status, c.Message = trajeval.CheckPass, gotText(got, l.unit)
			passed++
		default:
			c.Status, c.Message = trajeval.CheckFail, gotText(got, l.unit)
		}
		d.Checks = append(d.Checks, c)
	}
	if e.target != nil {
		c := trajeval.Check{Name: e.ratioName}
		if len(t.Steps) == 0 {
			c.Status, c.Message = trajeval.CheckFail, "no tool calls to measure"
		} else {
			n := 0
			for j := range t.Steps { // by index: a range value copies each step
				if e.explore[t.Steps[j].Name] {
					n++
				}
			}
			ratio := float64(n) / float64(len(t.Steps))
			c.Status, c.Message = trajeval.CheckFail, gotText(ratio, "")
			if math.Abs(ratio-*e.target) <= e.tolerance+1e-12 {
				c.Status = trajeval.CheckPass
				passed++
			}
		}
		d.Checks = append(d.Checks, c)
	}
	return trajeval.Outcome{Score: score.Ratio(passed, len(d.Checks), 1), Details: d}, nil
}

// gotText is "got " num(f) unit, in one allocation.
func gotText(f float64, unit string) string {
	// A count without a unit, the most common figure, is written once
	// for the run (see counts).
	if unit == "" && f >= 0 && f < float64(len(counts)) && f == math.Trunc(f) && !math.Signbit(f) {
		c := &counts[int(f)]
		if s := c.Load(); s != nil {
			return *s
		}
		s := gotFigure(f, "")
		c.Store(&s)
		return s
	}
	return gotFigure(f, unit)
}

// counts holds the texts of the counts below its length once written:
// a run's traces report the same few hundred counts (calls, tokens) over
// and over. Written by any goroutine; two may write one entry, with the
// same text.
var counts [4096]atomic.Pointer[string]

// gotFigure returns "got F" and unit, F as 'f' formats it.
func gotFigure(f float64, unit string) string {
	var buf [48]byte
	b := append(buf[:0], "got "...)
	// Most figures are counts: a whole number below 2⁵³ is its integer's
	// digits in 'f' format, without strconv's shortest search.
	if f >= 0 && f < 1<<53 && f == math.Trunc(f) && !math.Signbit(f) {
		b = strconv.AppendUint(b, uint64(f), 10)
	} else {
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	return string(append(b, unit...))
}

// A detailsBox is the Details of an evaluation with room for up to four
// checks (every budget but one with a ratio), in one allocation.
type detailsBox struct {
	d      trajeval.Details
	checks [4]trajeval.Check
}

// newDetails returns the Details of a trajectory of na steps, with room
// for n checks.
func newDetails(na, n int) *trajeval.Details {
	if n > len(detailsBox{}.checks) {
		return &trajeval.Details{Actual: na, Checks: make([]trajeval.Check, 0, n)}
	}
	b := new(detailsBox)
	b.d = trajeval.Details{Actual: na, Checks: b.checks[:0:n]}
	return &b.d
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
