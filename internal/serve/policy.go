package serve

import (
	"errors"
	"fmt"
	"slices"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/suite"
)

// A Policy is what a server scores: a suite with no cases, whose
// evaluators each score the traces their selectors pick.
type Policy struct {
	// Name is the suite's name, the suite of every result row.
	Name string
	// Select picks the traces the policy scores at all; nil picks every
	// trace.
	Select Selector
	// Evaluators are the policy's evaluators, in file order.
	Evaluators []PolicyEvaluator
	// Workers is the policy's execution.workers; 0 when it does not say.
	Workers int
	// Conversations, when set, joins the traces of a conversation into one
	// trajectory (see [Conversations]); nil scores each trace alone.
	Conversations *Conversations

	suite *suite.Suite
}

// A PolicyEvaluator is one evaluator of a [Policy] with its own selector.
type PolicyEvaluator struct {
	*eval.Configured
	// Select narrows the traces this evaluator scores; nil takes every
	// trace the policy picks.
	Select Selector
}

// A Selector picks traces by their attributes: every key must match (see
// [Selector.Match]).
type Selector []Match

// A Match is one key of a selector and the patterns its value may match.
type Match struct {
	Key      string
	Patterns []string
}

// Match reports whether the trace td is picked: for every key of s, some
// span of td, or the resource of some span, has an attribute of that key
// whose value, as text, matches one of the key's glob patterns. A nil or
// empty s picks every trace.
func (s Selector) Match(td ptrace.Traces) bool {
	for _, m := range s {
		if !m.matches(td) {
			return false
		}
	}
	return true
}

func (m Match) matches(td ptrace.Traces) bool {
	hit := func(attrs pcommon.Map) bool {
		v, ok := attrs.Get(m.Key)
		if !ok {
			return false
		}
		text := v.AsString()
		return slices.ContainsFunc(m.Patterns, func(p string) bool { return Glob(p, text) })
	}
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		if hit(rs.Resource().Attributes()) {
			return true
		}
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				if hit(spans.At(k).Attributes()) {
					return true
				}
			}
		}
	}
	return false
}

// Glob reports whether text matches pattern, where * stands for any run of
// characters (also none, also "/" and "."), ? for any one character, and
// \ makes the next character literal. Every other character stands for
// itself. It runs in time proportional to len(pattern)·len(text).
func Glob(pattern, text string) bool {
	p, t := []rune(pattern), []rune(text)
	// ok[j] says whether the pattern read so far matches t[:j].
	ok := make([]bool, len(t)+1)
	ok[0] = true
	for i := 0; i < len(p); i++ {
		c, lit := p[i], false
		if c == '\\' && i+1 < len(p) {
			i++
			c, lit = p[i], true
		}
		switch {
		case c == '*' && !lit:
			for j := 1; j <= len(t); j++ {
				ok[j] = ok[j] || ok[j-1]
			}
		default:
			for j := len(t); j >= 1; j-- {
				ok[j] = ok[j-1] && ((c == '?' && !lit) || t[j-1] == c)
			}
			ok[0] = false
		}
	}
	return ok[len(t)]
}

// LoadPolicy loads the policy file at path: an AgentV suite with no cases
// (execution.evaluators, or evaluators, and no evalcases) and a select:
// map at the top level, on each evaluator, or both. judges runs the
// judged evaluators; nil gives a runtime configured from the environment,
// as the command's eval.
//
// The rules:
//  1. select: maps attribute keys to a glob pattern (see [Glob]) or a list
//     of them; a number or bool is read as its text.
//  2. A trace is scored by an evaluator when the policy's select and the
//     evaluator's select both match it (see [Selector.Match]).
//  3. A policy with cases, a traces: file, a target, or a select: that is
//     not a map of patterns is a configuration error at its place: a
//     policy scores the traces that arrive, nothing else.
//  4. conversations:, at the top level, joins the traces of a
//     conversation into one trajectory (see [Conversations]): a map with
//     idle (a duration, default 5m), max_turns (default 100) and
//     score_turns (default false), or true for the defaults.
func LoadPolicy(path string, judges *judge.Runtime) (*Policy, error) {
	if judges == nil {
		judges = &judge.Runtime{}
	}
	p := &Policy{}
	var own []error
	var evalSelect []Selector
	dialect := suite.Dialect{
		Name:   "policy",
		Claims: func(string, *config.Node) bool { return true },
		Load: func(path string, root *config.Node, opts suite.Options) (*suite.Suite, []error) {
			if root.Kind != config.Map {
				return nil, []error{root.Errorf("a policy is a map with execution.evaluators, got a %s", root.Kind)}
			}
			own = append(own, refuse(root)...)
			sel, errs := takeSelect(root)
			own = append(own, errs...)
			p.Select = sel
			conv, err := takeConversations(root)
			if err != nil {
				own = append(own, err)
			}
			p.Conversations = conv
			list, _ := root.First("evaluators", "assertions")
			if list == nil {
				list, _ = root.Get("execution").First("evaluators", "assertions")
			}
			if list != nil && list.Kind == config.List {
				for _, item := range list.Items {
					sel, errs := takeSelect(item)
					own = append(own, errs...)
					evalSelect = append(evalSelect, sel)
				}
			}
			s, errs := suite.AgentV.Load(path, root, opts)
			return s, append(slices.Clone(own), errs...)
		},
	}
	s, errs := suite.LoadFile(path, suite.Options{Judges: judges, Dialects: []suite.Dialect{dialect}}, true)
	if len(errs) == 0 && len(s.Cases) > 0 {
		c := s.Cases[0]
		errs = append(errs, c.Place.Errorf("a policy has no cases: it scores every trace that arrives").
			With("remove the cases, and put the evaluators under execution.evaluators"))
	}
	if len(errs) == 0 && len(s.Evaluators) != len(evalSelect) {
		errs = append(errs, &trajeval.SpecError{File: path, Msg: fmt.Sprintf("%d evaluators were built from %d entries", len(s.Evaluators), len(evalSelect))})
	}
	if len(errs) > 0 {
		suite.SortErrors(errs)
		return nil, errors.Join(errs...)
	}
	p.Name, p.Workers, p.suite = s.Name, s.Workers, s
	for i, ev := range s.Evaluators {
		p.Evaluators = append(p.Evaluators, PolicyEvaluator{Configured: ev, Select: evalSelect[i]})
	}
	return p, nil
}

// refuse returns an error for each setting of a suite that a policy
// cannot honour.
func refuse(root *config.Node) []error {
	var errs []error
	if v := root.Get("traces"); v != nil {
		errs = append(errs, v.Errorf("a policy scores the traces that arrive, not a traces file").
			With("score a file with trajeval eval --traces FILE"))
	}
	if v, k := root.Get("execution").First("target", "targets"); v != nil {
		errs = append(errs, v.Errorf("a policy runs no agent: execution.%s is not used", k).With("remove it"))
	}
	if v := root.Get("targets"); v != nil {
		errs = append(errs, v.Errorf("a policy runs no agent: targets is not used").With("remove it"))
	}
	return errs
}

// takeSelect reads and removes the select: key of the map n, which the
// AgentV loader does not know.
func takeSelect(n *config.Node) (Selector, []error) {
	if n == nil || n.Kind != config.Map {
		return nil, nil
	}
	i := slices.IndexFunc(n.Entries, func(e config.Entry) bool { return config.Canon(e.Key) == "select" })
	if i < 0 {
		return nil, nil
	}
	v := n.Entries[i].Value
	n.Entries = slices.Delete(slices.Clone(n.Entries), i, i+1)
	entries, err := v.MapEntries()
	if err != nil {
		return nil, []error{err.(*trajeval.SpecError).With("select maps attribute keys to patterns, e.g. {service.name: checkout}")}
	}
	if len(entries) == 0 {
		return nil, []error{v.Errorf("select is empty: it would pick every trace").With("remove it, or name an attribute")}
	}
	var sel Selector
	var errs []error
	for _, e := range entries {
		pats, err := patterns(e.Value)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sel = append(sel, Match{Key: e.Key, Patterns: pats})
	}
	return sel, errs
}

// patterns reads the value of one select key: a scalar or a list of them.
func patterns(v *config.Node) ([]string, error) {
	items := []*config.Node{v}
	if v.Kind == config.List {
		items = v.Items
		if len(items) == 0 {
			return nil, v.Errorf("an empty list of patterns matches nothing").With(`give a pattern; "*" matches any value`)
		}
	}
	var out []string
	for _, it := range items {
		switch it.Kind {
		case config.String, config.Number, config.Bool:
			out = append(out, it.Text)
		default:
			return nil, it.Errorf("a pattern is a string, got a %s", it.Kind).With(`e.g. "billing-*"`)
		}
	}
	return out, nil
}
