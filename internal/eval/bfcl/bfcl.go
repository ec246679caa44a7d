package bfcl

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/pylit"
)

// Matching is how the calls of a parallel category are paired.
type Matching int

const (
	// Official pairs as BFCL does: each expected call, in order, takes the
	// first unused step that passes it.
	Official Matching = iota
	// Optimal pairs by a maximum bipartite matching: the steps pass when
	// some pairing passes them all.
	Optimal
)

// String returns the setting's name: official or optimal.
func (m Matching) String() string {
	if m == Optimal {
		return "optimal"
	}
	return "official"
}

// ParseMatching reads official or optimal.
func ParseMatching(s string) (Matching, error) {
	switch s {
	case "official":
		return Official, nil
	case "optimal":
		return Optimal, nil
	}
	return 0, fmt.Errorf("unknown matching %q: it is official or optimal", s)
}

// Options are the settings of a checker.
type Options struct {
	// Category is the BFCL category: simple, simple_python, multiple,
	// parallel, parallel_multiple, each also with live_, simple_java,
	// simple_javascript (see [Category]).
	Category string
	// Functions are the question's function documents.
	Functions []Function
	// GroundTruth is the possible answer: the expected calls.
	GroundTruth []Call
	Matching    Matching
	// UnderscoreToDot compares a dotted document name with its dots made
	// underscores, as BFCL does for models whose API refuses dots.
	UnderscoreToDot bool
}

// An OptionError is a setting New refuses; Key names it (category,
// functions or ground_truth).
type OptionError struct {
	Key string
	Msg string
}

// Error returns the key and the message.
func (e *OptionError) Error() string { return e.Key + ": " + e.Msg }

// A Checker is BFCL's AST checker for one entry.
type Checker struct {
	opts  Options
	rule  rule
	lang  language
	fns   []*Function // the document each expected call is checked against
	items []calls.Item
}

// New builds a checker. It refuses a category that is not one of the AST
// categories (or is Java's or JavaScript's), optimal matching outside the
// parallel categories (it would not be honoured), a possible answer the
// category cannot use (simple and multiple take one expected call), and an
// expected call with no function document of its name.
func New(o Options) (*Checker, error) {
	r, lang, err := checkCategory(o.Category)
	if err != nil {
		return nil, &OptionError{Key: "category", Msg: err.Error()}
	}
	if err := checkTypes(o.Functions, lang); err != nil {
		return nil, &OptionError{Key: "functions", Msg: err.Error()}
	}
	if o.Matching == Optimal && r != parallelRule {
		return nil, &OptionError{Key: "matching", Msg: fmt.Sprintf("category %s checks one call: matching applies to the parallel categories only", o.Category)}
	}
	if len(o.Functions) == 0 {
		return nil, &OptionError{Key: "functions", Msg: "no function documents"}
	}
	if r != parallelRule && len(o.GroundTruth) != 1 {
		return nil, &OptionError{Key: "ground_truth", Msg: fmt.Sprintf("category %s expects exactly one call, the possible answer has %d", o.Category, len(o.GroundTruth))}
	}
	c := &Checker{opts: o, rule: r, lang: lang}
	for i := range o.GroundTruth {
		want := &o.GroundTruth[i]
		var fn *Function
		if r == simpleRule {
			// BFCL checks a simple entry against its first document,
			// whatever the possible answer names.
			fn = &o.Functions[0]
		} else {
			k := slices.IndexFunc(o.Functions, func(f Function) bool { return f.Name == want.Name })
			if k < 0 {
				return nil, &OptionError{Key: "ground_truth", Msg: fmt.Sprintf("expected call %d names %s, which no function document describes", i+1, want.Name)}
			}
			fn = &o.Functions[k]
		}
		c.fns = append(c.fns, fn)
		c.items = append(c.items, calls.Item{
			Tool: c.name(fn),
			// No two expected calls are interchangeable: each has its own
			// allowed values.
			Key:   strconv.Itoa(i),
			Match: func(s *trajeval.Step) bool { return checkCall(lang, fn, want, s, o.UnderscoreToDot) == nil },
			Diff: func(s *trajeval.Step) []trajeval.ArgDiff {
				if f := checkCall(lang, fn, want, s, o.UnderscoreToDot); f != nil {
					return []trajeval.ArgDiff{f.diff()}
				}
				return nil
			},
		})
	}
	return c, nil
}

func (c *Checker) name(fn *Function) string {
	if c.opts.UnderscoreToDot {
		return strings.ReplaceAll(fn.Name, ".", "_")
	}
	return fn.Name
}

// verdict is one way of checking the steps: the pairs it found and, when
// the steps fail, BFCL's error type and messages.
type verdict struct {
	pairs     []align.Pair
	errorType string
	errors    []string
}

func (v *verdict) valid() bool { return v.errorType == "" }

// ReadsText says that the evaluator is to be handed values, though it
// reads arguments through trajeval.Decoded (see eval.TextReader): it
// looks at the arguments of every step, which the reader decodes at less
// cost than it scans them as text to be decoded after.
func (*Checker) ReadsText() bool { return false }

// Evaluate checks t's steps (all turns) and scores 1 when they pass.
func (c *Checker) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	steps, err := eval.DecodeArgs(t.Steps)
	if err != nil {
		return trajeval.Outcome{}, err
	}
	d := &trajeval.Details{Mode: c.opts.Category}
	if c.rule == parallelRule {
		d.Mode += " (" + c.opts.Matching.String() + " matching)"
	}
	notes := map[string]any{"category": c.opts.Category, "matching": c.opts.Matching.String()}
	failed := ""
	if len(steps) == 0 && c.lang != python {
		if text := textAnswer(t); text != "" {
			return trajeval.Outcome{}, fmt.Errorf("bfcl_ast: category %s: the model answered in text, which BFCL decodes with a %s parser (tree-sitter) that trajeval does not reproduce; give the decoded calls, their arguments as %s source text", c.opts.Category, c.lang, c.lang)
		}
	}
	if err := c.convertible(steps); err != nil {
		return trajeval.Outcome{}, err
	}
	if len(steps) == 0 {
		if text := textAnswer(t); text != "" {
			steps, failed = decodeText(text)
			if failed == "" {
				d.Warnings = append(d.Warnings, "the steps are the model's text answer, decoded as BFCL's prompting decoder does")
			}
		}
	}
	var v verdict
	switch {
	case failed != "":
		v = verdict{errorType: "ast_decoder:decoder_failed", errors: []string{failed}}
	case c.rule == simpleRule && len(steps) != 1:
		v = verdict{errorType: "simple_function_checker:wrong_count", errors: []string{"Wrong number of functions."}}
	case c.rule == multipleRule && len(steps) != len(c.items):
		v = verdict{errorType: "multiple_function_checker:wrong_count", errors: []string{"Wrong number of functions."}}
	case c.rule != parallelRule:
		v = c.single(steps)
	default:
		official := c.firstFit(steps)
		v = official
		if c.opts.Matching == Optimal {
			v = c.optimal(steps)
			if official.valid() != v.valid() {
				notes["official_valid"] = official.valid()
				notes["official_error_type"] = official.errorType
				d.Warnings = append(d.Warnings, whyChanged(official, v))
			}
		}
	}
	notes["valid"] = v.valid()
	if !v.valid() {
		notes["error_type"], notes["error"] = v.errorType, v.errors
	}
	calls.Explain(d, c.items, steps, align.Alignment{Pairs: v.pairs}, calls.Unordered)
	d.Notes = notes
	score := 0.0
	if v.valid() {
		score = 1
	}
	return trajeval.Outcome{Score: score, Details: d}, nil
}

// convertible refuses the steps that would stop BFCL's run: a Java or
// JavaScript value for a parameter whose type its converters do not
// implement, or a collection whose document gives no items.type.
func (c *Checker) convertible(steps []trajeval.Step) error {
	if c.lang == python {
		return nil
	}
	for i := range steps {
		args, _ := steps[i].Args.(map[string]any)
		for _, fn := range c.fns {
			if c.name(fn) != steps[i].Name {
				continue
			}
			for _, p := range sortedKeys(args) {
				doc, ok := fn.Params[p]
				if !ok {
					continue
				}
				switch {
				case c.lang == java && (unconvertible(doc.Type) || unconvertible(doc.Items)):
					return fmt.Errorf("bfcl_ast: step %d (%s): parameter %s: %w, for %s: BFCL stops here, so the case is not scored", i+1, steps[i].Name, p, errUnconvertible, doc.Type+itemsOf(doc))
				case c.lang.nests(doc.Type) && doc.Items == "":
					return fmt.Errorf("bfcl_ast: step %d (%s): parameter %s is a %s whose document gives no items.type, which BFCL reads (a KeyError): the case is not scored", i+1, steps[i].Name, p, doc.Type)
				}
			}
		}
	}
	return nil
}

func unconvertible(t string) bool {
	return t == "Set" || t == "Hashtable" || t == "Queue" || t == "Stack"
}

func itemsOf(p Param) string {
	if p.Items == "" {
		return ""
	}
	return " of " + p.Items
}

// single checks the one step of simple and multiple against the one
// expected call.
func (c *Checker) single(steps []trajeval.Step) verdict {
	if f := checkCall(c.lang, c.fns[0], &c.opts.GroundTruth[0], &steps[0], c.opts.UnderscoreToDot); f != nil {
		return verdict{errorType: f.Type, errors: []string{f.Msg}}
	}
	return verdict{pairs: []align.Pair{{Item: 0, Step: 0}}}
}

// firstFit is BFCL's parallel_function_checker_no_order: each expected
// call in order takes the first unused step that passes it. BFCL stops at
// the first call without one; the pairs of the later calls are still
// found, for the explanation.
func (c *Checker) firstFit(steps []trajeval.Step) verdict {
	var v verdict
	if len(steps) != len(c.items) {
		v = verdict{errorType: "parallel_function_checker_no_order:wrong_count", errors: []string{"Wrong number of functions."}}
	}
	used := make([]bool, len(steps))
	for i := range c.items {
		found := false
		name := callName(c.fns[i], c.opts.UnderscoreToDot)
		for j := range steps {
			// A step of another name fails: its failure is written
			// below, only when the call finds no step.
			if used[j] || steps[j].Name != name {
				continue
			}
			if checkCall(c.lang, c.fns[i], &c.opts.GroundTruth[i], &steps[j], c.opts.UnderscoreToDot) == nil {
				used[j], found = true, true
				v.pairs = append(v.pairs, align.Pair{Item: i, Step: j})
				break
			}
		}
		if !found && v.valid() {
			var why []string
			for j := range steps {
				if !used[j] {
					f := checkCall(c.lang, c.fns[i], &c.opts.GroundTruth[i], &steps[j], c.opts.UnderscoreToDot)
					why = append(why, fmt.Sprintf("step %d: %s: %s", j+1, f.Type, f.Msg))
				}
			}
			var free []string
			for j := range steps {
				if !used[j] {
					free = append(free, strconv.Itoa(j+1))
				}
			}
			v.errorType = "parallel_function_checker_no_order:cannot_find_match"
			v.errors = append([]string{fmt.Sprintf("Could not find a matching function among steps [%s] for expected call %d.", strings.Join(free, ", "), i+1)}, why...)
		}
	}
	return v
}

// optimal pairs by a maximum bipartite matching (package align).
func (c *Checker) optimal(steps []trajeval.Step) verdict {
	a := calls.Align(calls.Unordered, c.items, steps)
	v := verdict{pairs: a.Pairs}
	switch {
	case len(steps) != len(c.items):
		v.errorType, v.errors = "parallel_function_checker_no_order:wrong_count", []string{"Wrong number of functions."}
	case len(a.Pairs) < len(c.items):
		matched := make([]bool, len(c.items))
		for _, p := range a.Pairs {
			matched[p.Item] = true
		}
		i := slices.Index(matched, false)
		v.errorType = "parallel_function_checker_no_order:cannot_find_match"
		v.errors = []string{fmt.Sprintf("No pairing of the steps passes every expected call: at most %d of %d pass; expected call %d has no step.", len(a.Pairs), len(c.items), i+1)}
	}
	return v
}

// whyChanged explains why first fit and the optimal matching disagree.
func whyChanged(official, optimal verdict) string {
	var taken []string
	for _, p := range official.pairs {
		taken = append(taken, fmt.Sprintf("%d→step %d", p.Item+1, p.Step+1))
	}
	var best []string
	for _, p := range optimal.pairs {
		best = append(best, fmt.Sprintf("%d→step %d", p.Item+1, p.Step+1))
	}
	first := ""
	if len(official.errors) > 0 {
		first = official.errors[0]
	}
	return fmt.Sprintf("verdict differs from BFCL's first-fit matching, which fails (%s): it paired %s, leaving a call without a step it passes; the optimal matching pairs %s",
		strings.TrimSuffix(first, "."), strings.Join(taken, ", "), strings.Join(best, ", "))
}

// textAnswer returns the trajectory's first final text that is not
// blank, or "".
func textAnswer(t *trajeval.Trajectory) string {
	for _, tu := range t.Turns {
		if tu.FinalResponse != nil && strings.TrimSpace(*tu.FinalResponse) != "" {
			return *tu.FinalResponse
		}
	}
	return ""
}

// decodeText reads a text answer as BFCL's prompting decoder does: the
// steps it decodes to (a tuple among their arguments kept a
// pylit.Tuple, as BFCL keeps it), or BFCL's message for a text it cannot
// decode, with the reason.
func decodeText(text string) ([]trajeval.Step, string) {
	cs, err := pylit.DecodePrompting(text)
	if err != nil {
		return nil, "Invalid syntax. Failed to decode AST. " + err.Error()
	}
	steps := make([]trajeval.Step, len(cs))
	for i, c := range cs {
		steps[i] = trajeval.Step{Index: i + 1, Name: c.Name, Args: map[string]any(c.Args)}
	}
	return steps, ""
}
