// Package spec reads evaluators from suite files: the evaluator types a
// suite may name, their keys, and the environment their builders read.
//
// Every evaluator type is a [Spec]; a [Registry] is the ordered list of
// types a suite may use (package builtin assembles the built-in list; no
// type registers itself). A Spec's Build reads the type's own keys from
// the positioned configuration tree and calls the evaluator package's
// constructor, which takes Go values; the evaluator packages and package
// eval know nothing of suite files. [Build] reads the keys every type
// shares into an [eval.Configured]:
//  1. name: unique within a case (default: the type);
//  2. type: the evaluator type; snake_case, kebab-case and camelCase
//     spellings are the same type;
//  3. weight: its share of the case score (default 1);
//  4. required: false lets the case pass even when this evaluator fails
//     (default true); a number is a required minimum score (its threshold);
//  5. threshold: the score at or above which it passes. The first that is
//     set wins: the evaluator's own threshold (or required as a number);
//     the run's --threshold; the turn's, then the case's
//     execution.threshold; the suite's execution.threshold (or threshold);
//     the type's default (1.0 for every deterministic evaluator). So the
//     command line overrides a file's defaults, never an evaluator's own;
//  6. negate: true scores 1 − score and swaps pass and fail (see package
//     eval for the order of the rules);
//  7. agent: a name, a glob (billing-*) or a list of them, and
//     include_subagents: true, score only the steps those agents made
//     (and the agents they called, transitively); see
//     [trajeval.AgentScope] for how the trajectory is cut. The result's
//     details say which scope was applied and how many steps it kept. An
//     agent the trace does not name makes the evaluator an error that
//     lists the trace's agents; an invalid glob is a configuration error.
//
// A judged evaluator's judge comes from the suite's judge: block and the
// evaluator's own judge, model and temperature keys ([Env.Judge],
// [JudgeBlocks]); the evaluator gets it as a Go value, a judge.Handle.
//
// A mistake is a configuration error placed at its key, with a hint.
package spec

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/errlist"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/shape"
	"github.com/trajeval/trajeval/internal/suggest"
)

// A Spec describes one evaluator type.
type Spec struct {
	Type      string   // canonical name, e.g. "tool_trajectory"
	Aliases   []string // other names, e.g. "uipath_tool_call_order"
	Keys      []string // the type's own keys, besides the common ones
	Threshold float64  // default threshold
	Build     func(n *config.Node, env *Env) (trajeval.Evaluator, error)

	// The documentation of the type, for `trajeval evaluators` and the
	// suite's JSON Schema. Settings documents each of Keys, in any order
	// (the built-in types are checked to document every key they take, and
	// none they do not).
	Summary  string        // one line: what it scores
	Settings []shape.Field // its own keys
	Example  string        // one evaluator in YAML, as an item of an evaluators list
}

// CommonKeys are accepted by every evaluator.
var CommonKeys = []string{"name", "type", "weight", "required", "threshold", "negate", "description", "agent", "include_subagents"}

// CommonSettings document CommonKeys, in the same order.
var CommonSettings = []shape.Field{
	{Key: "name", Shape: shape.Name(), Default: "the type", Doc: "Unique within a case; names the evaluator in reports."},
	{Key: "type", Shape: shape.Name(), Required: true, Doc: "The evaluator type, in any spelling (tool_trajectory = tool-trajectory = toolTrajectory), or one of its aliases."},
	{Key: "weight", Shape: shape.NonNegative(), Default: "1", Doc: "Its share of the case's score."},
	{Key: "required", Shape: shape.OneOf("true or false, or a minimum score from 0 to 1", shape.Bool(), shape.Fraction()), Default: "true",
		Doc: "false lets the case pass even when this evaluator fails; a number is a required minimum score (its threshold)."},
	{Key: "threshold", Shape: shape.Fraction(), Default: "the type's", Doc: "The score at or above which it passes (over --threshold and the case's and suite's thresholds)."},
	{Key: "negate", Shape: shape.Bool(), Default: "false", Doc: "Scores 1 − score and swaps pass and fail."},
	{Key: "description", Shape: shape.Text(), Doc: "A note for readers; not scored."},
	scopeSettings[0], // agent
	scopeSettings[1], // include_subagents
}

// A Registry is an ordered list of evaluator types, looked up by name in
// any spelling (snake_case, kebab-case, camelCase).
type Registry struct {
	specs  []*Spec
	byName map[string]*Spec
}

// NewRegistry returns the registry of specs, in order. A name (type or
// alias) given twice is an error.
func NewRegistry(specs ...Spec) (*Registry, error) {
	r := &Registry{byName: map[string]*Spec{}}
	for i := range specs {
		s := &specs[i]
		for _, n := range append([]string{s.Type}, s.Aliases...) {
			k := canonType(n)
			if _, dup := r.byName[k]; dup {
				return nil, fmt.Errorf("evaluator type %q is defined twice", n)
			}
			r.byName[k] = s
		}
		r.specs = append(r.specs, s)
	}
	return r, nil
}

func canonType(s string) string { return config.Canon(s) }

// Types returns the canonical names of every type, sorted.
func (r *Registry) Types() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.specs))
	for _, s := range r.specs {
		out = append(out, s.Type)
	}
	sort.Strings(out)
	return out
}

// Specs returns the spec of every type, in the registry's order.
func (r *Registry) Specs() []*Spec {
	if r == nil {
		return nil
	}
	return slices.Clone(r.specs)
}

// Lookup returns the spec of a type name in any spelling.
func (r *Registry) Lookup(name string) (*Spec, bool) {
	if r == nil {
		return nil, false
	}
	s, ok := r.byName[canonType(name)]
	return s, ok
}

// Env is what a builder may need beyond its own node.
type Env struct {
	// Types are the evaluator types a suite may use.
	Types     *Registry
	Dir       string   // folder of the suite file, for relative paths
	Threshold *float64 // default for evaluators that set none: --threshold, else the turn's, case's or suite's; nil for the type's
	Case      eval.Case
	// ForCases marks the evaluators of a suite's execution built once
	// for its cases, which therefore have no Case.
	ForCases bool
	// Warn receives problems that do not stop the evaluator from loading
	// (see [Env.Warnf]); nil discards them.
	Warn func(trajeval.Warning)
	// Defaults are suite-level settings a dialect passes down (e.g. tool
	// definitions for validity checks); nil when none.
	Defaults map[string]any
	// Judges is the run's judge runtime; nil when the suite is only
	// validated, so judged evaluators load but cannot run.
	Judges *judge.Runtime
	// JudgeBlock is the suite's judge: block, nil when it has none.
	JudgeBlock *config.Node
}

// WantsJudge reports whether an evaluator whose judge is optional should
// ask one: its judge: key is a block or true, or the suite has a judge:
// block and the evaluator does not say judge: false.
func (e *Env) WantsJudge(n *config.Node) (bool, error) {
	switch b := n.Get("judge"); {
	case b == nil:
		return e.JudgeBlock != nil, nil
	case b.Kind == config.Bool:
		return b.BoolValue()
	case b.Kind == config.Map:
		return true, nil
	default:
		return false, b.Errorf("judge must be a block (base_url, model, …), true or false, got %s", b.Kind)
	}
}

// Judge returns the judge of the evaluator at n: the suite's judge: block,
// then the evaluator's own judge: block and its model and temperature
// keys, over the environment (see judge.Resolve). A mistake in a block is
// a configuration error. A missing endpoint, key or model is not: the
// handle carries it, and unless optional the run reports it once, before
// any case runs.
func (e *Env) Judge(n *config.Node, optional bool) (judge.Handle, error) {
	own := &config.Node{Kind: config.Map, File: n.File, Line: n.Line, Col: n.Col, Path: n.Path}
	for _, k := range []string{"model", "temperature"} {
		if v := n.Get(k); v != nil {
			own.Entries = append(own.Entries, config.Entry{Key: k, KeyLine: v.Line, KeyCol: v.Col, Value: v})
		}
	}
	blocks := []*config.Node{e.JudgeBlock, own}
	if b := n.Get("judge"); b != nil && b.Kind != config.Bool {
		blocks = []*config.Node{e.JudgeBlock, b, own}
	}
	bs, err := JudgeBlocks(blocks...)
	if err != nil || e.Judges == nil {
		return judge.Handle{}, err
	}
	j, err := e.Judges.Judge(e.Judges.Settings(bs...))
	if err != nil && !optional {
		// Said once for the run, before any case: place it, so the user
		// sees which evaluator asks for a judge.
		e.Judges.NoteMissing(fmt.Errorf("%s: %w", n.Errorf("this evaluator asks a judge").Error(), err))
	}
	return judge.Handle{Judge: j, Err: err}, nil
}

// Warnf reports a problem at n that does not stop loading, such as a
// setting that checks nothing.
func (e *Env) Warnf(n *config.Node, format string, args ...any) {
	if e == nil || e.Warn == nil {
		return
	}
	w := trajeval.Warning{Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		w.File, w.Line, w.Place = n.File, n.Line, n.Path
	}
	e.Warn(w)
}

// Build reads one evaluator from its node.
func Build(n *config.Node, env *Env) (*eval.Configured, error) {
	if n.Kind != config.Map {
		return nil, n.Errorf("an evaluator must be a map with at least a type, got %s", n.Kind)
	}
	tn := n.Get("type")
	if tn == nil {
		return nil, n.Errorf("evaluator has no type").With("add type: tool_trajectory (or one of %s)", strings.Join(env.Types.Types(), ", "))
	}
	typ, err := tn.Str()
	if err != nil {
		return nil, err
	}
	spec, ok := env.Types.Lookup(typ)
	if !ok {
		e := tn.Errorf("unknown evaluator type %q", typ)
		if s := suggest.Closest(canonType(typ), env.Types.Types()); s != "" {
			e.Hint = fmt.Sprintf("did you mean %q?", s)
		} else {
			e.Hint = "types: " + strings.Join(env.Types.Types(), ", ")
		}
		return nil, e
	}
	if err := n.Check(append(append([]string{}, CommonKeys...), spec.Keys...)...); err != nil {
		return nil, err
	}
	c := &eval.Configured{Name: spec.Type, Type: spec.Type, Weight: 1, Required: true, Threshold: spec.Threshold}
	if env.Threshold != nil {
		c.Threshold = *env.Threshold
	}
	if v := n.Get("name"); v != nil {
		if c.Name, err = v.Name(); err != nil {
			return nil, err
		}
	}
	if v := n.Get("weight"); v != nil {
		if c.Weight, err = v.NonNegative(); err != nil {
			return nil, err
		}
	}
	if v := n.Get("threshold"); v != nil {
		if c.Threshold, err = v.Float(); err != nil {
			return nil, err
		}
		if c.Threshold < 0 || c.Threshold > 1 {
			return nil, v.Errorf("threshold must be between 0 and 1, got %s", v.Text)
		}
	}
	if v := n.Get("required"); v != nil {
		switch v.Kind {
		case config.Number:
			f, err := v.Float()
			if err != nil {
				return nil, err
			}
			if f < 0 || f > 1 {
				return nil, v.Errorf("required as a minimum score must be between 0 and 1, got %s", v.Text)
			}
			if n.Get("threshold") == nil {
				c.Threshold = f
			}
		default:
			if c.Required, err = v.BoolValue(); err != nil {
				return nil, err
			}
		}
	}
	if v := n.Get("negate"); v != nil {
		if c.Negate, err = v.BoolValue(); err != nil {
			return nil, err
		}
	}
	scope, err := buildScope(n)
	if err != nil {
		return nil, err
	}
	if c.Eval, err = spec.Build(n, env); err != nil {
		return nil, err
	}
	if scope != nil {
		c.Eval = trajeval.Scoped(c.Eval, *scope)
	}
	return c, nil
}

// BuildList reads a list of evaluators, checking that names are unique
// among themselves and with the names already in taken, to which it adds
// each evaluator's name and node. It returns every error it finds, not
// only the first: an evaluator's several errors (see [config.Node.Join])
// each on its own.
func BuildList(n *config.Node, env *Env, taken map[string]*config.Node) ([]*eval.Configured, []error) {
	items, err := n.List()
	if err != nil {
		return nil, []error{err}
	}
	var out []*eval.Configured
	var errs []error
	for _, it := range items {
		c, err := Build(it, env)
		if err != nil {
			errs = append(errs, errlist.Split(err)...)
			continue
		}
		if prev, dup := taken[c.Name]; dup {
			e := it.Errorf("two evaluators are named %q", c.Name)
			e.Hint = fmt.Sprintf("the other is at line %d; give each a distinct name", prev.Line)
			errs = append(errs, e)
			continue
		}
		taken[c.Name] = it
		out = append(out, c)
	}
	return out, errs
}

// Place returns err placed at n, for a constructor's error: an unplaced
// *trajeval.SpecError (no file and no line) takes n's place and keeps its
// message and hint; any other error but a placed SpecError becomes a
// SpecError at n with its text; nil stays nil.
func Place(n *config.Node, err error) error {
	if err == nil {
		return nil
	}
	var se *trajeval.SpecError
	if !errors.As(err, &se) {
		return n.Errorf("%v", err)
	}
	if se.File != "" || se.Line != 0 {
		return err
	}
	e := n.Errorf("%s", se.Msg)
	e.Hint = se.Hint
	return e
}
