package check

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/rules"
)

// A Rule is one temporal rule of [Rules], made by [Never], [AtMost],
// [AtLeast], [Exactly], [Before], [After], [ImmediatelyAfter], [Within],
// [First], [Last], [NoRepeat] or [Pattern]. It is an [Option].
type Rule struct {
	r   rules.Rule
	err error
}

func (r Rule) apply(o *options) {
	o.rules = append(o.rules, r)
	o.given["Rule"] = true
}

// Named names the rule in reports (by default the rule as written, e.g.
// "never delete").
func (r Rule) Named(name string) Rule {
	r.r.Name = name
	return r
}

// ruleTool turns an expected call into a rule's tool: its name, Args and
// ArgsMode; MaxDuration and Returns do not apply.
func ruleTool(c ToolCall) (rules.Tool, error) {
	switch {
	case c.err != nil:
		return rules.Tool{}, c.err
	case c.maxDur != nil:
		return rules.Tool{}, errorf("call %s: a rule does not check latency (MaxDuration)", c.tool)
	case c.output != nil:
		return rules.Tool{}, errorf("call %s: a rule does not compare results (Returns)", c.tool)
	}
	t := rules.Tool{Name: c.tool}
	if c.args != nil {
		v, err := jsonArgs(c.args)
		if err != nil {
			return t, errorf("call %s: %w", c.tool, err)
		}
		t.Args = v
	}
	if c.mode != nil {
		t.ArgsMatch = *c.mode
	}
	return t, nil
}

func oneTool(kind rules.Kind, tool string, n int, opts []CallOption) Rule {
	t, err := ruleTool(Call(tool, opts...))
	return Rule{r: rules.Rule{Kind: kind, Tool: t, N: n}, err: err}
}

func twoTools(kind rules.Kind, a, b ToolCall, n int) Rule {
	ta, err := ruleTool(a)
	tb, err2 := ruleTool(b)
	return Rule{r: rules.Rule{Kind: kind, Tool: ta, Then: tb, N: n}, err: firstErr(err, err2)}
}

// Never: no call of tool (with opts' [Args], the calls whose arguments
// match them), e.g. Never("delete", Args{"force": true}).
func Never(tool string, opts ...CallOption) Rule { return oneTool(rules.Never, tool, 0, opts) }

// AtMost: at most n calls of tool.
func AtMost(tool string, n int, opts ...CallOption) Rule {
	return oneTool(rules.AtMost, tool, n, opts)
}

// AtLeast: at least n calls of tool.
func AtLeast(tool string, n int, opts ...CallOption) Rule {
	return oneTool(rules.AtLeast, tool, n, opts)
}

// Exactly: exactly n calls of tool.
func Exactly(tool string, n int, opts ...CallOption) Rule {
	return oneTool(rules.Exactly, tool, n, opts)
}

// Before: every call of b has a call of a earlier (outside b's parallel
// group); it holds when b is never called.
func Before(a, b ToolCall) Rule { return twoTools(rules.Before, a, b, 0) }

// After: every call of a has a call of b later (outside a's parallel
// group); it holds when a is never called.
func After(a, b ToolCall) Rule { return twoTools(rules.After, a, b, 0) }

// ImmediatelyAfter: every call of b is the step right after a call of a.
func ImmediatelyAfter(a, b ToolCall) Rule { return twoTools(rules.ImmediatelyAfter, a, b, 0) }

// Within: every call of a has a call of b at most steps later (1 is the
// next step).
func Within(a, b ToolCall, steps int) Rule { return twoTools(rules.Within, a, b, steps) }

// First: the first call (or a call issued with it) is a call of tool; no
// calls break it.
func First(tool string, opts ...CallOption) Rule { return oneTool(rules.First, tool, 0, opts) }

// Last: the last call (or a call issued with it) is a call of tool; no
// calls break it.
func Last(tool string, opts ...CallOption) Rule { return oneTool(rules.Last, tool, 0, opts) }

// NoRepeat: no call of tool is the very next step (whatever its tool)
// after a call of tool with equal arguments; with another step between,
// the same call again is allowed.
func NoRepeat(tool string, opts ...CallOption) Rule { return oneTool(rules.NoRepeat, tool, 0, opts) }

// A PatternItem gives an item of a [Pattern] its tool and arguments; made
// by [Where].
type PatternItem struct {
	name string
	call ToolCall
}

// Where makes item, a name used in the pattern, stand for call: its tool
// and arguments. Where("small", Call("refund", Args{"amount": Lt(100)}))
// lets "search+ small" require a small refund.
func Where(item string, call ToolCall) PatternItem { return PatternItem{item, call} }

// Pattern: the names of the calls, as a whole, match the regular
// expression expr over tool names: items separated by spaces, . for any
// call, | ( ) * + ? and {m,n}. A syntax error is a setting error with its
// column.
func Pattern(expr string, where ...PatternItem) Rule {
	r := Rule{r: rules.Rule{Kind: rules.Pattern, Pattern: expr}}
	for _, w := range where {
		t, err := ruleTool(w.call)
		if err != nil {
			r.err = firstErr(r.err, err)
			continue
		}
		if r.r.Where == nil {
			r.r.Where = map[string]rules.Tool{}
		}
		r.r.Where[w.name] = t
	}
	return r
}

// PerTurn checks each rule of [Rules] in every turn: a rule holds when it
// holds in each turn (a step whose turn is unknown belongs to turn 1).
var PerTurn Option = flag("PerTurn")

// Rules checks temporal rules over the calls. It takes rules and the
// options PerTurn, ArgsMode (for the rules' calls that set none),
// IgnoreCase and TrimSpace:
//  1. each rule is one check, pass or fail; the score is the rules that
//     hold over the rules;
//  2. a broken rule names the step that broke it (index, turn, tool,
//     arguments); a broken pattern, the longest run of calls it fits and
//     what it expected next;
//  3. "earlier" and "later" skip calls issued together in one parallel
//     group, which cannot use each other's results.
//
// No rules, a negative count, a Within window below 1, a pattern that does
// not parse and a Where item the pattern does not use are setting errors.
func Rules(opts ...Option) trajeval.Evaluator {
	const typ = "tool_rules"
	o := collect(opts)
	if err := o.only("Rule", "PerTurn", "ArgsMode", "IgnoreCase", "TrimSpace"); err != nil {
		return build(typ, nil, err)
	}
	ro := rules.Options{PerTurn: o.perTurn, Strings: o.strings}
	if o.args != nil {
		ro.ArgsMatch = *o.args
	}
	for _, r := range o.rules {
		if r.err != nil {
			return build(typ, nil, r.err)
		}
		ro.Rules = append(ro.Rules, r.r)
	}
	ev, err := rules.New(ro)
	return build(typ, ev, wrap(err))
}
