// Package rules is the tool_rules evaluator: temporal rules over the
// agent's tool calls, each one pass/fail check, scored as the share of
// rules that hold.
//
// A rule names tools by [Tool]: a name, compared case-sensitively, and
// optional arguments compared as in tool_trajectory (package argmatch:
// the modes partial, exact, subset, ignore and paths, and the operators
// $regex, $lt and the others). A call "of T" is a step whose name is T's
// and whose arguments match T's; "never delete with force: true" is one
// rule.
//
// The rules, with S the steps in issue order (of the whole trajectory, or
// of one turn with PerTurn):
//  1. never T: no call of T;
//  2. at_most {T: n}, at_least {T: n}, exactly {T: n}: the number of calls
//     of T is ≤ n, ≥ n, = n; n = 0 is allowed (exactly 0 is never);
//  3. before [A, B]: every call of B has a call of A earlier; it holds
//     when B is never called;
//  4. after [A, B]: every call of A has a call of B later; it holds when A
//     is never called;
//  5. immediately_after [A, B]: every call of B is the step right after a
//     call of A; a B at the very start breaks it;
//  6. within {after: A, then: B, steps: n}: every call of A has a call of
//     B later, at most n steps after it (n ≥ 1; 1 is the next step); a
//     window cut off by the end of S is not met;
//  7. first T, last T: the first (last) response of S calls T; an empty S
//     breaks both;
//  8. no_repeat T: no call of T is the very next step (in issue order,
//     whatever its tool) after a call of T with equal arguments (numbers
//     by value, a call without arguments has {}); the same call again
//     with any step between is allowed;
//  9. pattern P: the names of S, as a whole, match the regular expression
//     P (see package pattern: . any call, | ( ) * + ? {m,n}); where gives
//     items of P arguments: a where key used as an item of P stands for
//     its tool (tool:, the key itself by default) with its arguments.
//
// Order and parallel calls:
//  1. "earlier" and "later" (before, after, within) mean a lower or
//     higher step index outside the other step's parallel group: calls
//     issued together in one model response are not before one another,
//     since neither could use the other's result; within counts steps by
//     index;
//  2. a "response" (first, last) is the first or last step with the steps
//     issued together with it (its parallel group);
//  3. immediately_after and no_repeat look at neighbouring indexes, and
//     pattern at the sequence of names, as issued.
//
// Scopes, score and explanations:
//  1. with PerTurn, each rule is checked in every turn, 1 to the last turn
//     the trajectory has (its turns or a step's turn; a step whose turn is
//     unknown belongs to turn 1), and holds when it holds in each; a turn
//     without calls is checked too (at_least fails there, never holds);
//  2. the score is the rules that hold over the rules; every rule is a
//     check named by its Name, else by the rule as written;
//  3. a rule that is broken names the step that broke it: its index,
//     turn, tool and arguments (a count rule names the first call over
//     the limit, or, under it, the steps of the tool whose arguments did
//     not match); a broken pattern gives the longest prefix of the calls
//     the pattern could consume and what it expected next; with PerTurn,
//     the first turn where the rule broke, and how many did.
//
// [New] refuses, with the rule's index and its setting: no rules, an
// unknown kind, an empty tool name, a negative count, a within window
// below 1, a pattern that does not parse (with its column), a where item
// the pattern does not use, and arguments that do not compile.
package rules

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/rules/pattern"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/score"
)

// A Kind is what a rule checks.
type Kind string

// The kinds, by their suite keys.
const (
	Never            Kind = "never"
	AtMost           Kind = "at_most"
	AtLeast          Kind = "at_least"
	Exactly          Kind = "exactly"
	Before           Kind = "before"
	After            Kind = "after"
	ImmediatelyAfter Kind = "immediately_after"
	Within           Kind = "within"
	First            Kind = "first"
	Last             Kind = "last"
	NoRepeat         Kind = "no_repeat"
	Pattern          Kind = "pattern"
)

// Kinds lists every kind, in the order of the package documentation.
var Kinds = []Kind{Never, AtMost, AtLeast, Exactly, Before, After, ImmediatelyAfter, Within, First, Last, NoRepeat, Pattern}

// A Tool names the calls a rule is about.
type Tool struct {
	Name string
	// Args are the expected arguments (operators allowed); nil accepts
	// any.
	Args any
	// ArgsMatch says how Args compare; zero: Options.ArgsMatch, else
	// partial.
	ArgsMatch trajeval.ArgsMatch
}

// A Rule is one temporal rule.
type Rule struct {
	Name string // for reports; "" names the rule by what it says
	Kind Kind
	// Tool is the tool of never, the counts, first, last and no_repeat,
	// and A of before, after, immediately_after and within.
	Tool Tool
	// Then is B of before, after, immediately_after and within.
	Then Tool
	// N is the count of at_most, at_least and exactly, and within's
	// window in steps.
	N int
	// Pattern is the expression of a pattern rule; Where gives its items
	// arguments (and a tool when the item's name is not the tool's).
	Pattern string
	Where   map[string]Tool
}

// Options configure a tool_rules evaluator.
type Options struct {
	Rules   []Rule
	PerTurn bool // check each rule in every turn
	// ArgsMatch is the argument mode of the tools that set none; zero:
	// partial.
	ArgsMatch trajeval.ArgsMatch
	Strings   argmatch.Options
}

// An OptionError is a rule New refuses: Rule is its index (−1: the
// options as a whole), Field the setting at fault ("tool", "then", "n",
// "pattern", "where.ITEM"; "" for the rule as a whole). Err is the cause,
// a *pattern.SyntaxError or an *argmatch.CompileError, when there is one.
type OptionError struct {
	Rule  int
	Field string
	Msg   string
	Hint  string
	Err   error
}

func (e *OptionError) Error() string {
	s := e.Msg
	if e.Rule >= 0 {
		s = fmt.Sprintf("rule %d: %s", e.Rule+1, s)
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *OptionError) Unwrap() error { return e.Err }

// ErrNoRules is the error of options without rules.
var ErrNoRules = errors.New("tool_rules has no rules")

// Evaluator is a configured tool_rules evaluator. It is only read once
// built, so goroutines may share it.
type Evaluator struct {
	rules   []*rule
	perTurn bool
	// looksAt holds the tools whose arguments a rule looks at: a
	// matcher's tools, and no_repeat's.
	looksAt map[string]bool
}

// a tool compiled: its name and argument matcher.
type tool struct {
	name string
	args *argmatch.Matcher // nil: any
	text string            // the tool as a rule shows it
}

func (t *tool) matches(s *trajeval.Step) bool {
	return s.Name == t.name && (t.args == nil || t.args.Match(s.Args))
}

type rule struct {
	Rule
	label string
	a, b  *tool
	pat   *pattern.Pattern
	items []*tool // the pattern's items; nil for the wildcard
}

// New builds a tool_rules evaluator. A rule that does not compile is an
// [*OptionError]; several are joined (errors.Join), one per rule, in order.
func New(o Options) (*Evaluator, error) {
	if len(o.Rules) == 0 {
		return nil, &OptionError{Rule: -1, Msg: ErrNoRules.Error(), Hint: "give at least one rule, e.g. never: delete", Err: ErrNoRules}
	}
	e := &Evaluator{perTurn: o.PerTurn}
	var errs []error
	for i, r := range o.Rules {
		c, err := compileRule(r, o)
		if err != nil {
			err.Rule = i
			errs = append(errs, err)
			continue
		}
		e.rules = append(e.rules, c)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	e.looksAt = map[string]bool{}
	for _, c := range e.rules {
		for _, t := range append([]*tool{c.a, c.b}, c.items...) {
			if t != nil && (t.args != nil || c.Kind == NoRepeat && t == c.a) {
				e.looksAt[t.name] = true
			}
		}
	}
	return e, nil
}

func compileTool(t Tool, field string, o Options) (*tool, *OptionError) {
	if t.Name == "" {
		return nil, &OptionError{Field: field, Msg: "the tool name is empty"}
	}
	c := &tool{name: t.Name, text: t.Name}
	mode := t.ArgsMatch
	if mode.IsZero() {
		mode = o.ArgsMatch
	}
	if t.Args != nil {
		m, err := argmatch.New(t.Args, mode, o.Strings)
		if err != nil {
			return nil, &OptionError{Field: field, Msg: err.Error(), Err: err}
		}
		if m.LooksBack() {
			// A rule matches each step on its own: a $from would never
			// find its earlier step, and the rule would never apply.
			return nil, &OptionError{Field: field, Msg: "$from is not taken in tool_rules (a rule checks each call on its own); check where a value came from with tool_trajectory's $from or the grounding evaluator"}
		}
		if !m.AcceptsAll() {
			c.args = m
			c.text += " " + jsonv.Marshal(t.Args)
		}
	}
	return c, nil
}

func compileRule(r Rule, o Options) (*rule, *OptionError) {
	c := &rule{Rule: r}
	var err *OptionError
	switch r.Kind {
	case Never, First, Last, NoRepeat:
		c.a, err = compileTool(r.Tool, "tool", o)
	case AtMost, AtLeast, Exactly:
		if c.a, err = compileTool(r.Tool, "tool", o); err == nil && r.N < 0 {
			err = &OptionError{Field: "n", Msg: fmt.Sprintf("%s: the count must not be negative, got %d", r.Kind, r.N)}
		}
	case Before, After, ImmediatelyAfter, Within:
		if c.a, err = compileTool(r.Tool, "tool", o); err == nil {
			c.b, err = compileTool(r.Then, "then", o)
		}
		if err == nil && r.Kind == Within && r.N < 1 {
			err = &OptionError{Field: "n", Msg: fmt.Sprintf("within: steps must be at least 1, got %d", r.N), Hint: "1 is the next step"}
		}
	case Pattern:
		err = c.compilePattern(o)
	default:
		names := make([]string, len(Kinds))
		for i, k := range Kinds {
			names[i] = string(k)
		}
		return nil, &OptionError{Msg: fmt.Sprintf("unknown rule kind %q", r.Kind), Hint: "one of " + strings.Join(names, ", ")}
	}
	if err != nil {
		return nil, err
	}
	if r.Kind != Pattern && len(r.Where) > 0 {
		return nil, &OptionError{Field: "where", Msg: fmt.Sprintf("%s takes no where: only a pattern has items", r.Kind)}
	}
	c.label = r.Name
	if c.label == "" {
		c.label = c.describe()
	}
	return c, nil
}

func (c *rule) compilePattern(o Options) *OptionError {
	p, err := pattern.Parse(c.Pattern)
	if err != nil {
		return &OptionError{Field: "pattern", Msg: err.Error(), Err: err}
	}
	c.pat = p
	used := map[string]bool{}
	for _, it := range p.Items() {
		if it.Any {
			c.items = append(c.items, nil)
			continue
		}
		used[it.Name] = true
		t := Tool{Name: it.Name}
		if w, ok := c.Where[it.Name]; ok {
			t = w
			if t.Name == "" {
				t.Name = it.Name
			}
		}
		ct, oe := compileTool(t, "where."+it.Name, o)
		if oe != nil {
			return oe
		}
		c.items = append(c.items, ct)
	}
	keys := make([]string, 0, len(c.Where))
	for k := range c.Where {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !used[k] {
			return &OptionError{Field: "where." + k, Msg: fmt.Sprintf("where names %q, which the pattern does not use", k),
				Hint: "a where key is an item of the pattern"}
		}
	}
	return nil
}

// describe writes the rule as a suite would.
func (c *rule) describe() string {
	switch c.Kind {
	case Never, First, Last, NoRepeat:
		return fmt.Sprintf("%s %s", c.Kind, c.a.text)
	case AtMost, AtLeast, Exactly:
		return fmt.Sprintf("%s %d %s", c.Kind, c.N, c.a.text)
	case Before, After, ImmediatelyAfter:
		return fmt.Sprintf("%s [%s, %s]", c.Kind, c.a.text, c.b.text)
	case Within:
		return fmt.Sprintf("%s within %d %s after %s", c.b.text, c.N, plural(c.N, "step", "steps"), c.a.text)
	}
	return fmt.Sprintf("pattern %q", c.Pattern)
}

// ReadsText says that the evaluator reads arguments through
// trajeval.Decoded (see eval.TextReader): its argument matchers decode
// those of the steps of a rule's tools, and so do its messages.
func (*Evaluator) ReadsText() bool { return true }

// Evaluate checks every rule; the score is the share that hold.
func (e *Evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Actual: len(t.Steps), Expected: len(e.rules)}
	if err := e.checkText(t.Steps); err != nil {
		return trajeval.Outcome{}, err
	}
	scopes := [][]trajeval.Step{t.Steps}
	if e.perTurn {
		scopes = turns(t)
	}
	for _, r := range e.rules {
		if err := ctx.Err(); err != nil {
			return trajeval.Outcome{}, err
		}
		c := trajeval.Check{Name: r.label, Status: trajeval.CheckPass}
		broken := 0
		for k, steps := range scopes {
			v, ok := r.check(steps)
			if ok {
				continue
			}
			if broken++; broken == 1 {
				c.Status, c.Message = trajeval.CheckFail, v
				if e.perTurn {
					c.Message = fmt.Sprintf("turn %d: %s", k+1, v)
				}
			}
		}
		if broken > 1 {
			c.Message += fmt.Sprintf(" (broken in %d turns of %d)", broken, len(scopes))
		}
		if broken == 0 {
			d.Hits++
		}
		d.Checks = append(d.Checks, c)
	}
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(e.rules), 1), Details: d}, nil
}

// checkText returns the error of the first arguments that a rule looks
// at and that are JSON text that does not decode: text a reader kept
// always does, and text put there by hand that does not would match no
// pattern and equal nothing, so that a never or no_repeat rule would
// hold. Text a Parser reads whole is not decoded here.
func (e *Evaluator) checkText(steps []trajeval.Step) error {
	for j := range steps {
		raw, ok := trajeval.KeptText(steps[j].Args)
		if !ok || !e.looksAt[steps[j].Name] {
			continue
		}
		if _, ok := jsonv.Composite(raw); ok {
			continue
		}
		if _, err := trajeval.Decoded(raw); err != nil {
			n := steps[j].Index
			if n <= 0 {
				n = j + 1
			}
			return fmt.Errorf("the trace's arguments or results: step %d's arguments: %w", n, err)
		}
	}
	return nil
}

// turns splits the steps by turn: a step whose turn is unknown belongs to
// turn 1, and every turn up to the last is a scope, with calls or not.
func turns(t *trajeval.Trajectory) [][]trajeval.Step {
	n := max(len(t.Turns), 1)
	for _, s := range t.Steps {
		n = max(n, s.Turn)
	}
	out := make([][]trajeval.Step, n)
	for _, s := range t.Steps {
		k := max(s.Turn, 1) - 1
		out[k] = append(out[k], s)
	}
	return out
}
