// Package settings reads the evaluator settings that several suite
// dialects share (expected calls, argument rules, minimums) from the
// positioned configuration tree into the evaluator packages' Go values,
// placing every mistake at its key. Like packages spec and builtin, it is
// the suite-file side of the evaluators.
package settings

import (
	"errors"
	"slices"
	"strconv"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
)

// Calls reads a list of expected calls. An item is a map
// {tool, args, args_match, max_duration_ms, output} (name is accepted for
// tool, and input for args, as AgentV's traces name them) or, as a
// shorthand, a tool name. args is a map (operators allowed) or the word
// any; output is the result expected, any value (operators allowed). Every item's mistake is reported, each at its place (see
// [config.Node.Join]).
func Calls(n *config.Node) ([]trajeval.ExpectedCall, error) {
	items, err := n.List()
	if err != nil {
		return nil, err
	}
	calls := make([]trajeval.ExpectedCall, 0, len(items))
	var errs []error
	for _, it := range items {
		c, err := Call(it)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		calls = append(calls, c)
	}
	if err := n.Join(errs); err != nil {
		return nil, err
	}
	return calls, nil
}

// Call reads one expected call (see [Calls]).
func Call(it *config.Node) (trajeval.ExpectedCall, error) {
	var c trajeval.ExpectedCall
	if it.Kind == config.String {
		return trajeval.ExpectedCall{Tool: it.Text}, nil
	}
	if it.Kind != config.Map {
		return c, it.Errorf("an expected call is a map with a tool, or a tool name; got %s", it.Kind)
	}
	if err := it.Check("tool", "name", "args", "input", "args_match", "max_duration_ms", "output"); err != nil {
		return c, err
	}
	if it.Has("args") && it.Has("input") {
		return c, it.Get("input").Errorf("the arguments are given both as args and as input").With("keep one: input is AgentV's name for args")
	}
	tn, _ := it.First("tool", "name")
	if tn == nil {
		return c, it.Errorf("expected call has no tool").With("add tool: NAME")
	}
	var err error
	if c.Tool, err = tn.Name(); err != nil {
		return c, err
	}
	if a, _ := it.First("args", "input"); a != nil {
		switch {
		case a.Kind == config.String && a.Text == "any":
		case a.Kind == config.Null:
		case a.Kind == config.Map:
			c.Args = a.Value()
		default:
			return c, a.Errorf("args must be a map of argument values or the word any, got %s", a.Kind)
		}
	}
	if m := it.Get("args_match"); m != nil {
		if c.ArgsMatch, err = ArgsMatch(m); err != nil {
			return c, err
		}
		if c.ArgsMatch.Mode == trajeval.ArgsPaths && c.Args != nil {
			for i, p := range c.ArgsMatch.Paths {
				if !HasPath(c.Args, p) {
					return c, m.Items[i].Errorf("args_match path %s is not among this call's args, so it would compare nothing", p).
						With("name a path under args (e.g. %s), or add the value to args", firstPath(c.Args))
				}
			}
		}
	}
	if d := it.Get("max_duration_ms"); d != nil {
		v, err := d.NonNegative()
		if err != nil {
			return c, err
		}
		c.MaxDurationMS = &v
	}
	if o := it.Get("output"); o != nil && o.Kind != config.Null {
		c.Output = o.Value()
		if _, err := argmatch.New(c.Output, trajeval.ArgsMatch{}, argmatch.Options{}); err != nil {
			return c, PlaceCompileError(o, err)
		}
	}
	// Compile now so a bad operator is reported at its place.
	if _, err := argmatch.New(c.Args, c.ArgsMatch, argmatch.Options{}); err != nil {
		a, _ := it.First("args", "input")
		return c, PlaceCompileError(a, err)
	}
	return c, nil
}

// PlaceCompileError places an argument compile error at its value below
// args; other errors are returned as they are.
func PlaceCompileError(args *config.Node, err error) error {
	var ce *argmatch.CompileError
	if errors.As(err, &ce) && args != nil {
		at := args.At(ce.Path.Keys()...)
		e := at.Errorf("%s", ce.Msg)
		e.Hint = ce.Hint
		e.Path = ce.Path.Under(args.Path)
		return e
	}
	return err
}

// ArgsMatch reads an argument rule: partial (or superset), exact,
// subset, ignore, or a list of dot-paths.
func ArgsMatch(n *config.Node) (trajeval.ArgsMatch, error) {
	if n.Kind == config.List {
		paths, err := n.Strings()
		if err != nil {
			return trajeval.ArgsMatch{}, err
		}
		for i, p := range paths {
			if _, err := argmatch.SplitPath(p); err != nil {
				return trajeval.ArgsMatch{}, n.Items[i].Errorf("%s", err).With("a path is the argument's keys, with . or an index: city, when.day, passengers[0].name")
			}
		}
		return trajeval.ArgsMatch{Mode: trajeval.ArgsPaths, Paths: paths}, nil
	}
	s, err := n.Enum(argmatch.Modes...)
	if err != nil {
		return trajeval.ArgsMatch{}, err
	}
	m, _ := argmatch.ParseMode(s)
	return trajeval.ArgsMatch{Mode: m}, nil
}

// ExpectedCalls is an expected: list read by config.Decode (see
// [Calls]); Node is the list, for placing later errors at its items.
type ExpectedCalls struct {
	Calls []trajeval.ExpectedCall
	Node  *config.Node
}

// UnmarshalConfig reads the list.
func (e *ExpectedCalls) UnmarshalConfig(n *config.Node) error {
	calls, err := Calls(n)
	e.Calls, e.Node = calls, n
	return err
}

// ArgsRule is an args_match setting read by config.Decode: a word or a
// list of dot-paths (see [ArgsMatch]).
type ArgsRule struct{ trajeval.ArgsMatch }

// UnmarshalConfig reads the rule.
func (r *ArgsRule) UnmarshalConfig(n *config.Node) error {
	m, err := ArgsMatch(n)
	r.ArgsMatch = m
	return err
}

// HasPath reports whether args, a value read from a suite file, holds a
// value at path (an args_match path: keys, and list indexes as digits).
func HasPath(args any, path string) bool {
	keys, err := argmatch.SplitPath(path)
	if err != nil {
		return false
	}
	v := args
	for _, k := range keys {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return true
}

// firstPath returns an argument name of args for a hint, "city" when it
// has none.
func firstPath(args any) string {
	if m, ok := args.(map[string]any); ok {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		if len(keys) > 0 {
			slices.Sort(keys)
			return keys[0]
		}
	}
	return "city"
}
