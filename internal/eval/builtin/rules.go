package builtin

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/errlist"
	"github.com/trajeval/trajeval/internal/eval/rules"
	"github.com/trajeval/trajeval/internal/eval/rules/pattern"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/suggest"
)

// rulesSettings are tool_rules's keys in a suite file.
type rulesSettings struct {
	Rules           *config.Node       `config:"rules,required"`
	PerTurn         bool               `config:"per_turn"`
	ArgsMatch       *settings.ArgsRule `config:"args_match"`
	Trim            bool               `config:"trim"`
	CaseInsensitive bool               `config:"case_insensitive"`
}

var rulesSpec = spec.Spec{
	Type:      "tool_rules",
	Keys:      config.Keys(reflect.TypeFor[rulesSettings]()),
	Threshold: 1,
	Build:     buildRules,
}

// ruleKinds are the keys that say what a rule checks.
func ruleKinds() []string {
	out := make([]string, len(rules.Kinds))
	for i, k := range rules.Kinds {
		out[i] = string(k)
	}
	return out
}

func buildRules(n *config.Node, _ *spec.Env) (trajeval.Evaluator, error) {
	var s rulesSettings
	if err := config.Decode(n, &s, spec.CommonKeys...); err != nil {
		return nil, err
	}
	items, err := nonEmptyList(s.Rules, "rules", "rule, e.g. never: delete")
	if err != nil {
		return nil, err
	}
	o := rules.Options{PerTurn: s.PerTurn}
	o.Strings.Trim, o.Strings.CaseInsensitive = s.Trim, s.CaseInsensitive
	if s.ArgsMatch != nil {
		o.ArgsMatch = s.ArgsMatch.ArgsMatch
	}
	// Every rule's mistakes are reported, each at its place.
	named := map[string]bool{}
	var errs []error
	read := make([]*config.Node, 0, len(items)) // the node of each rule of o.Rules
	for _, it := range items {
		r, err := readRule(it)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if r.Name != "" {
			if named[r.Name] {
				errs = append(errs, it.Get("name").Errorf("two rules are named %q", r.Name).With("a name tells a rule's check from the others in reports: give each its own"))
				continue
			}
			named[r.Name] = true
		}
		o.Rules = append(o.Rules, r)
		read = append(read, it)
	}
	if len(o.Rules) == 0 {
		return nil, s.Rules.Join(errs)
	}
	e, err := rules.New(o)
	for _, err := range errlist.Split(err) {
		var oe *rules.OptionError
		if errors.As(err, &oe) && oe.Rule >= 0 && oe.Rule < len(read) {
			errs = append(errs, placeRuleError(read[oe.Rule], oe))
		} else {
			errs = append(errs, s.Rules.Errorf("%v", err))
		}
	}
	if err := s.Rules.Join(errs); err != nil {
		return nil, err
	}
	return e, nil
}

// readRule reads one rule: a map with one kind key, and name (any kind)
// or where (pattern).
func readRule(it *config.Node) (rules.Rule, error) {
	var r rules.Rule
	if it.Kind != config.Map {
		return r, it.Errorf("a rule is a map such as {never: delete}, got %s", it.Kind).With("one of %s", strings.Join(ruleKinds(), ", "))
	}
	var kindEntry *config.Entry
	for i := range it.Entries {
		e := &it.Entries[i]
		c := config.Canon(e.Key)
		switch {
		case c == "name" || c == "where":
		case slices.Contains(ruleKinds(), c):
			if kindEntry != nil {
				return r, ruleKeyErr(it, e, "a rule has one kind, this one has %s and %s", kindEntry.Key, e.Key).With("write one rule per check")
			}
			kindEntry = e
		default:
			err := ruleKeyErr(it, e, "unknown rule %q", e.Key)
			if sug := suggest.Closest(c, append(ruleKinds(), "name", "where")); sug != "" {
				err.Hint = fmt.Sprintf("did you mean %q?", sug)
			} else {
				err.Hint = "rules: " + strings.Join(ruleKinds(), ", ")
			}
			return r, err
		}
	}
	if err := it.Check(append(ruleKinds(), "name", "where")...); err != nil {
		return r, err // a key repeated under two spellings
	}
	if kindEntry == nil {
		return r, it.Errorf("the rule says nothing to check").With("give one of %s", strings.Join(ruleKinds(), ", "))
	}
	if v := it.Get("name"); v != nil {
		name, err := v.Name()
		if err != nil {
			return r, err
		}
		if name == "" {
			return r, v.Errorf("the rule's name is empty").With("name the check, or leave name out and the rule names it, e.g. never delete")
		}
		r.Name = name
	}
	r.Kind = rules.Kind(config.Canon(kindEntry.Key))
	v := kindEntry.Value
	var err error
	switch r.Kind {
	case rules.Never, rules.First, rules.Last, rules.NoRepeat:
		r.Tool, err = readTool(v)
	case rules.AtMost, rules.AtLeast, rules.Exactly:
		r.Tool, r.N, err = readCount(v, string(r.Kind))
	case rules.Before, rules.After, rules.ImmediatelyAfter:
		r.Tool, r.Then, err = readPair(v, string(r.Kind))
	case rules.Within:
		err = readWithin(v, &r)
	case rules.Pattern:
		if r.Pattern, err = v.Str(); err == nil && strings.TrimSpace(r.Pattern) == "" {
			err = v.Errorf("the pattern is empty").With(`e.g. pattern: "search+ read_document{2,} synthesize"`)
		}
	}
	if err != nil {
		return r, err
	}
	if w := it.Get("where"); w != nil {
		if r.Kind != rules.Pattern {
			return r, w.Errorf("%s takes no where: only a pattern has items", r.Kind).With("give the tool its args, e.g. %s: {tool: NAME, args: {...}}", r.Kind)
		}
		if r.Where, err = readWhere(w); err != nil {
			return r, err
		}
	}
	return r, nil
}

func ruleKeyErr(it *config.Node, e *config.Entry, format string, args ...any) *trajeval.SpecError {
	err := it.Errorf(format, args...)
	err.Line, err.Col = e.KeyLine, e.KeyCol
	err.Path = it.Path + "." + e.Key
	return err
}

// readTool reads a tool: its name, or {tool, args, args_match}, extra
// keys being read by the caller.
func readTool(v *config.Node, extra ...string) (rules.Tool, error) {
	var t rules.Tool
	switch v.Kind {
	case config.String, config.Number, config.Bool:
		t.Name, _ = v.Name()
	case config.Map:
		if err := v.Check(append([]string{"tool", "args", "args_match"}, extra...)...); err != nil {
			return t, err
		}
		tn := v.Get("tool")
		if tn == nil {
			return t, v.Errorf("the tool has no name").With("add tool: NAME")
		}
		var err error
		if t.Name, err = tn.Name(); err != nil {
			return t, err
		}
		if err := readToolArgs(v, &t); err != nil {
			return t, err
		}
	default:
		return t, v.Errorf("a tool is a name or {tool, args}, got %s", v.Kind)
	}
	if t.Name == "" {
		return t, v.Errorf("the tool name is empty")
	}
	return t, nil
}

// readToolArgs reads args and args_match of the map v into t.
func readToolArgs(v *config.Node, t *rules.Tool) error {
	if a := v.Get("args"); a != nil {
		switch {
		case a.Kind == config.String && a.Text == "any", a.Kind == config.Null:
		case a.Kind == config.Map:
			t.Args = a.Value()
		default:
			return a.Errorf("args must be a map of argument values or the word any, got %s", a.Kind)
		}
	}
	if m := v.Get("args_match"); m != nil {
		var err error
		if t.ArgsMatch, err = settings.ArgsMatch(m); err != nil {
			return err
		}
	}
	return nil
}

// readCount reads {TOOL: n}, or {tool, args, args_match, n}.
func readCount(v *config.Node, kind string) (rules.Tool, int, error) {
	if v.Kind != config.Map || len(v.Entries) == 0 {
		return rules.Tool{}, 0, v.Errorf("%s is {TOOL: n}, got %s", kind, v.Kind).With("e.g. %s: {search: 3}, or {tool: search, args: {...}, n: 3}", kind)
	}
	var t rules.Tool
	num := v.Get("n")
	if tn := v.Get("tool"); tn != nil && tn.Kind != config.Number {
		// The long form; a tool called "tool" with a count is the short one.
		var err error
		if t, err = readTool(v, "n"); err != nil {
			return t, 0, err
		}
		if num == nil {
			return t, 0, v.Errorf("%s has no count", kind).With("add n: COUNT")
		}
	} else {
		if len(v.Entries) > 1 {
			e := v.Entries[1]
			err := ruleKeyErr(v, &e, "%s takes one tool, this one has %s and %s", kind, v.Entries[0].Key, e.Key)
			return t, 0, err.With("write one rule per tool")
		}
		t.Name, num = v.Entries[0].Key, v.Entries[0].Value
		if t.Name == "" {
			return t, 0, v.Errorf("the tool name is empty")
		}
	}
	n, err := num.Int()
	if err != nil {
		return t, 0, err
	}
	if n < 0 {
		return t, 0, num.Errorf("a count must not be negative, got %d", n)
	}
	if n > 1<<31 {
		return t, 0, num.Errorf("a count of %d calls is beyond any trajectory", n)
	}
	return t, int(n), nil
}

// readPair reads [A, B].
func readPair(v *config.Node, kind string) (rules.Tool, rules.Tool, error) {
	var a, b rules.Tool
	if v.Kind != config.List || len(v.Items) != 2 {
		what := v.Kind.String()
		if v.Kind == config.List {
			what = fmt.Sprintf("%d items", len(v.Items))
		}
		hint := map[string]string{
			"before":            "[A, B]: every B has an A earlier",
			"after":             "[A, B]: every A is followed later by a B",
			"immediately_after": "[A, B]: every B comes right after an A",
		}[kind]
		return a, b, v.Errorf("%s is a list of two tools, got %s", kind, what).With("%s", hint)
	}
	var err error
	if a, err = readTool(v.Items[0]); err != nil {
		return a, b, err
	}
	b, err = readTool(v.Items[1])
	return a, b, err
}

// readWithin reads {after: A, then: B, steps: n}.
func readWithin(v *config.Node, r *rules.Rule) error {
	if v.Kind != config.Map {
		return v.Errorf("within is {after: A, then: B, steps: n}, got %s", v.Kind)
	}
	if err := v.Check("after", "then", "steps"); err != nil {
		return err
	}
	for _, k := range []string{"after", "then", "steps"} {
		if v.Get(k) == nil {
			return v.Errorf("within has no %s", k).With("within is {after: A, then: B, steps: n}")
		}
	}
	var err error
	if r.Tool, err = readTool(v.Get("after")); err != nil {
		return err
	}
	if r.Then, err = readTool(v.Get("then")); err != nil {
		return err
	}
	steps := v.Get("steps")
	n, err := steps.Int()
	if err != nil {
		return err
	}
	if n < 1 || n > 1<<31 {
		return steps.Errorf("within.steps must be at least 1, got %d", n).With("1 is the next step")
	}
	r.N = int(n)
	return nil
}

// readWhere reads the pattern's items: {ITEM: {tool, args, args_match}}
// or {ITEM: TOOL}.
func readWhere(w *config.Node) (map[string]rules.Tool, error) {
	entries, err := w.MapEntries()
	if err != nil {
		return nil, err
	}
	out := map[string]rules.Tool{}
	for _, e := range entries {
		v := e.Value
		var t rules.Tool
		switch v.Kind {
		case config.Map:
			if err := v.Check("tool", "args", "args_match"); err != nil {
				return nil, err
			}
			if tn := v.Get("tool"); tn != nil {
				if t.Name, err = tn.Name(); err != nil {
					return nil, err
				}
			}
			if err := readToolArgs(v, &t); err != nil {
				return nil, err
			}
		default:
			if t, err = readTool(v); err != nil {
				return nil, err
			}
		}
		out[e.Key] = t
	}
	return out, nil
}

// placeRuleError places an error of rules.New at the rule's setting; a
// pattern's syntax error at its character when the pattern is written on
// one line as it is.
func placeRuleError(it *config.Node, oe *rules.OptionError) error {
	kind := it
	for _, k := range ruleKinds() {
		if v := it.Get(k); v != nil {
			kind = v
		}
	}
	at := kind
	field := oe.Field
	switch {
	case field == "then" && kind.Kind == config.List && len(kind.Items) == 2:
		at = kind.Items[1]
	case field == "then" && kind.Kind == config.Map:
		at = orNode(kind.Get("then"), kind)
	case field == "tool" && kind.Kind == config.List && len(kind.Items) == 2:
		at = kind.Items[0]
	case field == "tool" && kind.Kind == config.Map && kind.Get("after") != nil:
		at = kind.Get("after")
	case strings.HasPrefix(field, "where."):
		w := it.Get("where")
		at = orNode(w.Get(strings.TrimPrefix(field, "where.")), orNode(w, it))
	}
	var se *pattern.SyntaxError
	if errors.As(oe.Err, &se) {
		e := at.Errorf("%s", se.Error())
		if at.TextCol > 0 && se.Offset <= len(at.Text) {
			e.Col = at.TextCol + utf8.RuneCountInString(at.Text[:se.Offset])
		}
		return e.With("items are tool names separated by spaces, with . | ( ) * + ? {m,n}")
	}
	if oe.Err != nil {
		if a := at.Get("args"); a != nil {
			return settings.PlaceCompileError(a, oe.Err)
		}
		return at.Errorf("%s", oe.Err)
	}
	e := at.Errorf("%s", oe.Msg)
	e.Hint = oe.Hint
	return e
}

func orNode(n, def *config.Node) *config.Node {
	if n == nil {
		return def
	}
	return n
}
