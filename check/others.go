package check

import (
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/metrics"
	"github.com/trajeval/trajeval/internal/eval/uipath"
)

// Limits are the budgets of [ExecutionMetrics]; a nil limit is not
// checked. Go's new(10) makes a pointer to 10.
type Limits struct {
	MaxToolCalls *int           // the number of tool calls
	MaxLLMCalls  *int           // the model calls the trace reports
	MaxTokens    *int           // input + output tokens, or the reported total
	MaxCostUSD   *float64       // the run's cost
	MaxDuration  *time.Duration // the run's duration
	// ExplorationRatio, in [0, 1], is the share of calls to
	// ExplorationTools the run should make, within ExplorationTolerance
	// (nil: 0.2).
	ExplorationRatio     *float64
	ExplorationTolerance *float64
	// ExplorationTools name the exploration tools; nil means read, grep,
	// glob, search, list, Read, Grep, Glob, WebSearch and WebFetch.
	ExplorationTools []string
}

// ExecutionMetrics checks the run against budgets. Each limit set is one
// check:
//  1. a figure passes when it is at most its limit;
//  2. a figure the trace does not report fails its check ("not
//     reported"): a budget that cannot be verified is not met;
//  3. the exploration ratio passes within the tolerance of its target;
//     with no calls at all it fails.
//
// The score is the checks passed over the checks set. No limit at all, a
// negative limit and a ratio outside [0, 1] are setting errors.
func ExecutionMetrics(l Limits) trajeval.Evaluator {
	f := func(i *int) *float64 {
		if i == nil {
			return nil
		}
		v := float64(*i)
		return &v
	}
	o := metrics.Options{
		MaxToolCalls: f(l.MaxToolCalls), MaxLLMCalls: f(l.MaxLLMCalls), MaxTokens: f(l.MaxTokens),
		MaxCostUSD: l.MaxCostUSD, TargetExplorationRatio: l.ExplorationRatio,
		ExplorationTolerance: l.ExplorationTolerance, ExplorationTools: l.ExplorationTools,
	}
	if l.MaxDuration != nil {
		ms := float64(*l.MaxDuration) / float64(time.Millisecond)
		o.MaxDurationMS = &ms
	}
	ev, err := metrics.New(o)
	return build("execution_metrics", ev, wrap(err))
}

// wrap makes an internal constructor's error a setting error.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	return &settingErr{msg: err.Error(), cause: err}
}

// ToolCallOrder is UiPath's order check. It takes calls (names only) and
// the option Strict:
//  1. the score is |LCS| / |expected|, the longest common subsequence of
//     expected and actual names, so calls between expected ones cost
//     nothing; calls of one parallel group may be taken in any order;
//  2. no actual calls score 0;
//  3. Strict: 1 when the actual names are exactly the expected list,
//     else 0.
//
// No calls is a setting error.
func ToolCallOrder(opts ...Option) trajeval.Evaluator {
	const typ = "tool_call_order"
	o := collect(opts)
	if err := firstErr(o.only("calls", "Strict"), o.callSettings(false, false, false)); err != nil {
		return build(typ, nil, err)
	}
	names := make([]string, len(o.calls))
	for i, c := range o.calls {
		names[i] = c.tool
	}
	ev, err := uipath.NewOrder(names, o.strict)
	return build(typ, ev, wrap(err))
}

// A Count is a constraint of [ToolCallCount], made by [CountOf]. It is an
// [Option].
type Count struct {
	tool string
	op   string
	n    int
}

func (c Count) apply(o *options) {
	o.counts = append(o.counts, c)
	o.given["Count"] = true
}

// CountOf constrains how many times tool is called: op is one of = == !=
// > < >= <= ("=" is "=="), n a count ≥ 0; for example CountOf("search",
// ">=", 1).
func CountOf(tool, op string, n int) Count { return Count{tool, op, n} }

// ToolCallCount is UiPath's count check. It takes Count options and
// Strict:
//  1. the count of a tool is the number of calls with that exact name;
//  2. the score is the share of constraints met; Strict: 1 when all are
//     met, else 0.
//
// No constraint, an unknown operator, an empty name and a negative count
// are setting errors.
func ToolCallCount(opts ...Option) trajeval.Evaluator {
	const typ = "tool_call_count"
	o := collect(opts)
	if err := o.only("Count", "Strict"); err != nil {
		return build(typ, nil, err)
	}
	cs := make([]uipath.Constraint, len(o.counts))
	for i, c := range o.counts {
		cs[i] = uipath.Constraint{Tool: c.tool, Op: c.op, N: int64(c.n)}
	}
	ev, err := uipath.NewCount(cs, o.strict)
	return build(typ, ev, wrap(err))
}

// ToolCallArgs is UiPath's argument check. It takes calls with [Args],
// [SubsetArgs] (as an option for all calls) and Strict:
//  1. expected calls pair with actual ones in any order, one to one, by
//     the largest matching;
//  2. a call matches when the names are equal and the arguments are
//     exactly equal (with SubsetArgs: the expected ones are present and
//     match, as PartialArgs); a call without Args matches any arguments;
//  3. the score is the share of expected calls matched; Strict: 1 when
//     all are, else 0.
//
// No calls is a setting error; so are an ArgsMode other than SubsetArgs
// and per-call modes.
func ToolCallArgs(opts ...Option) trajeval.Evaluator {
	const typ = "tool_call_args"
	o := collect(opts)
	err := firstErr(o.only("calls", "ArgsMode", "Strict"), o.callSettings(false, false, true))
	subset := false
	if err == nil && o.args != nil {
		if subset = o.args.Mode == SubsetArgs.m.Mode; !subset {
			err = errorf("ToolCallArgs compares arguments exactly, or with SubsetArgs; other modes do not apply")
		}
	}
	var want []uipath.ArgsCall
	for _, c := range o.calls {
		if err != nil {
			break
		}
		if c.mode != nil {
			err = errorf("call %s: ToolCallArgs takes no per-call ArgsMode", c.tool)
			break
		}
		ac := uipath.ArgsCall{Tool: c.tool}
		if c.args != nil {
			v, jerr := jsonArgs(c.args)
			if jerr != nil {
				err = errorf("call %s: %w", c.tool, jerr)
				break
			}
			ac.Args = v.(map[string]any)
		}
		want = append(want, ac)
	}
	if err != nil {
		return build(typ, nil, err)
	}
	ev, err := uipath.NewArgs(want, o.strict, subset)
	return build(typ, ev, wrap(err))
}

// ToolCallOutput is UiPath's result check. It takes calls with [Returns]
// and Strict:
//  1. expected results pair with actual calls in any order, one to one;
//  2. a call matches when the names are equal and its result equals the
//     expected one as JSON values (a string holding JSON is parsed), as
//     text, or equals the result's "content" field;
//  3. the score is the share matched; Strict: 1 when all are, else 0.
//
// No calls, and a call without Returns, are setting errors.
func ToolCallOutput(opts ...Option) trajeval.Evaluator {
	const typ = "tool_call_output"
	o := collect(opts)
	if err := firstErr(o.only("calls", "Strict"), o.callSettings(true, false, false)); err != nil {
		return build(typ, nil, err)
	}
	var want []uipath.Output
	for _, c := range o.calls {
		if c.output == nil {
			return build(typ, nil, errorf("call %s: no expected result (give Returns(value))", c.tool))
		}
		v, err := jsonValue(*c.output)
		if err != nil {
			return build(typ, nil, errorf("call %s: %w", c.tool, err))
		}
		want = append(want, uipath.Output{Tool: c.tool, Output: v})
	}
	ev, err := uipath.NewOutput(want, o.strict)
	return build(typ, ev, wrap(err))
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
