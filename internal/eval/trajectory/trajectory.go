// Package trajectory is the tool_trajectory evaluator: it scores the
// agent's tool calls against expected calls (docs/scoring.md §3).
//
// Let E be the expected calls, A the actual steps of all turns, M the
// minimums and Lat the expected calls with max_duration_ms.
//  1. exact: E[i] against A[i], position by position (steps of one parallel
//     group in any permutation); score (hits + lat_pass) /
//     (max(|E|,|A|) + |Lat| − lat_skipped), so extra calls count.
//  2. in_order: the largest order-preserving matching (an LCS under the
//     match rule; other steps may sit between); score (hits + lat_pass) /
//     (|E| + |Lat| − lat_skipped).
//  3. any_order (the default): the largest one-to-one matching, plus each
//     minimum met; score (hits + minimums_met + lat_pass) /
//     (|E| + |M| + |Lat| − lat_skipped).
//  4. subset: each step must match some expected call (an allow-list);
//     score allowed / |A|, 1 when A is empty.
//
// Matching is optimal, never greedy. In in_order and exact modes the
// alignment of best score counts, latency checks included (a plain list
// with a latency limit is aligned as a list with groups, below, so that
// both follow one rule and an optional call that is absent changes no
// score), and in any_order the matching of best score likewise. A matched call with max_duration_ms
// passes its latency check iff the step's duration ≤ the limit; a step with
// no duration skips the check (out of the denominator, with a warning); an
// unmatched call with a limit fails it ("not checked: call missing").
//
// Empty E: exact scores 1 iff A is empty; in_order and any_order score 1.
//
// Score: recall (default, the formulas above), precision (hits / |A|), f1,
// max (hits / max(|E|,|A|)) or binary (1 iff the recall score is 1); see
// package score.
//
// Groups ([Options].Groups, in_order and exact): an entry of the expected
// list may be a group ([Expect]) of entries, nested at will, and the list
// then stands for a set of plain lists of calls, its words:
//  1. any_order: its entries, each taken whole, in any order (a
//     permutation of the entries, not an interleaving of their calls);
//     at most 12 entries;
//  2. in_order: its entries in order;
//  3. one_of: exactly one of its entries;
//  4. optional: its entry or nothing;
//  5. repeat: its entry Min to Max times (Max may be Unbounded), each time
//     with its own choices.
//
// The score is the best in_order score of a word w, over every word and
// every alignment: (hits + lat_pass) / (|w| + |Lat(w)| − lat_skipped),
// the empty word scoring 1. So an optional call that is absent costs
// nothing (and one that is matched counts, as a listed call would), a
// one_of counts its best alternative with that alternative's calls, and a
// repeat counts Min calls, or as many as it matched up to Max (calls
// beyond Max are extra). Among words of the best score the one with the
// most hits wins, then the shortest (the smallest denominator). A latency limit counts only for the calls of w: a slow
// call that an optional, or a repeat beyond Min, may leave out is left
// out, as an extra step. Precision, f1 and max choose the word that is
// best for them (the most hits; the best 2·hits / (|w| + |A|); the best
// hits / max(|w|, |A|)), ties broken the same way; binary takes the
// recall word; each is computed with |E| = |w|. The details explain w as the plain list it is
// (Matched, Missing and Extra number its calls 1..|w|), and
// Notes["chosen"] gives each call's place in the list, e.g.
// "2 read: expected[1].any_order[0]", a run of one repeated call on one
// line ("3-5 search: expected[2].repeat").
// An alignment too large to compute (see package align) is an error of
// Evaluate, never a guess.
//
// In exact mode the same holds position by position: w[k] against A[k]
// (a parallel group's positions in any permutation), scored (hits +
// lat_pass) / (max(|w|, |A|) + |Lat(w)| − lat_skipped), so the best word
// is the one that fits the steps best; the empty word scores 1 only
// against no steps. Matched and Missing number w's calls by position.
//
// Groups in another mode are refused: any_order ignores order anyway (one
// any_order group in in_order mode is any order) and subset is an
// allow-list, so a group there would mean nothing or something new; it is
// an error, never ignored.
//
// An evaluator is built from [Options] by [New]; suite files are
// translated into Options by the YAML layer.
package trajectory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/score"
)

// A Mode says how expected calls line up with the actual steps.
type Mode string

// The modes.
const (
	AnyOrder Mode = "any_order" // the largest one-to-one matching; the default
	InOrder  Mode = "in_order"  // the largest order-preserving matching
	Exact    Mode = "exact"     // position by position; extra calls count
	Subset   Mode = "subset"    // every step must match some expected call
)

// Modes are the valid mode names.
var Modes = []string{string(AnyOrder), string(InOrder), string(Exact), string(Subset)}

// A Minimum requires a tool to be called at least N times.
type Minimum struct {
	Tool string
	N    int
}

// Options configure a tool_trajectory evaluator. The zero value expects
// nothing in any order.
type Options struct {
	// Mode is the alignment; "" is AnyOrder.
	Mode Mode
	// Score is the normalisation; "" is recall.
	Score score.Normalisation
	// Expected are the calls to find, each with its own arguments,
	// argument rule and latency limit.
	Expected []trajeval.ExpectedCall
	// ArgsMatch is the argument rule of the calls that set none; the zero
	// value is partial.
	ArgsMatch trajeval.ArgsMatch
	// Strings are the string normalisations of argument comparisons.
	Strings argmatch.Options
	// Minimums count in AnyOrder only: each one met is a hit.
	Minimums []Minimum
	// Groups, when set, replace Expected: calls and groups of calls
	// (see [Expect]); with a group, InOrder and Exact modes only.
	Groups []Expect
}

// An OptionError is a setting New refuses. Call is the 0-based index of
// the expected call it concerns, or -1; Minimum likewise for minimums.
type OptionError struct {
	Call, Minimum int
	Err           error
}

func (e *OptionError) Error() string {
	switch {
	case e.Call >= 0:
		return fmt.Sprintf("expected call %d: %v", e.Call+1, e.Err)
	case e.Minimum >= 0:
		return fmt.Sprintf("minimum %d: %v", e.Minimum+1, e.Err)
	}
	return e.Err.Error()
}

func (e *OptionError) Unwrap() error { return e.Err }

func optErr(call, minimum int, format string, args ...any) error {
	return &OptionError{Call: call, Minimum: minimum, Err: fmt.Errorf(format, args...)}
}

// order names how mode's alignment treats order, for explanations (a
// switch: a map was looked up for every trajectory).
func order(mode Mode) calls.Order {
	switch mode {
	case Exact:
		return calls.Positional
	case InOrder:
		return calls.Ordered
	}
	return calls.Unordered
}

// Evaluator is a configured tool_trajectory.
type Evaluator struct {
	Mode     Mode
	Score    score.Normalisation
	Calls    []trajeval.ExpectedCall
	Items    []calls.Item
	Minimums []Minimum
	// Groups are the expected entries when they hold a group; Calls
	// are then their calls in document order, and Items those calls.
	Groups  []Expect
	classes *calls.Classes // Items, prepared once
	auto    *align.Automaton
	paths   []string // each call's place in Groups, e.g. expected[1].any_order[0]
}

// ReadsText says that the evaluator reads arguments and results through
// trajeval.Decoded (see eval.TextReader): its argument and output
// matchers decode them where they look.
func (*Evaluator) ReadsText() bool { return true }

// New builds a tool_trajectory evaluator. It refuses, with an
// [*OptionError]:
//  1. an unknown mode or score;
//  2. an expected call with no tool name, a negative latency limit, or
//     arguments that do not compile (an unknown operator, an invalid
//     regular expression: an [*argmatch.CompileError] underneath);
//  3. a latency limit in Subset mode, which does not check latency;
//  4. minimums outside AnyOrder, a minimum with no tool name or below 0.
func New(o Options) (*Evaluator, error) {
	e := &Evaluator{Mode: o.Mode, Score: o.Score, Minimums: o.Minimums}
	if e.Mode == "" {
		e.Mode = AnyOrder
	}
	if e.Score == "" {
		e.Score = score.Recall
	}
	switch e.Mode {
	case AnyOrder, InOrder, Exact, Subset:
	default:
		return nil, optErr(-1, -1, "unknown mode %q (one of %s)", string(e.Mode), strings.Join(Modes, ", "))
	}
	if err := e.Score.Valid(); err != nil {
		return nil, &OptionError{Call: -1, Minimum: -1, Err: err}
	}
	if len(o.Groups) > 0 {
		if err := e.prepareGroups(&o); err != nil {
			return nil, err
		}
	}
	for i, c := range o.Expected {
		switch {
		case c.Tool == "":
			return nil, optErr(i, -1, "the tool name is empty")
		case c.MaxDurationMS != nil && *c.MaxDurationMS < 0:
			return nil, optErr(i, -1, "the latency limit must not be negative, got %vms", *c.MaxDurationMS)
		case c.MaxDurationMS != nil && e.Mode == Subset:
			return nil, optErr(i, -1, "a latency limit is not checked in subset mode")
		}
	}
	if len(o.Minimums) > 0 && e.Mode != AnyOrder {
		return nil, optErr(-1, -1, "minimums only count in any_order mode, not %s", e.Mode)
	}
	for i, m := range o.Minimums {
		switch {
		case m.Tool == "":
			return nil, optErr(-1, i, "the tool name is empty")
		case m.N < 0:
			return nil, optErr(-1, i, "minimum for %s must be at least 0, got %d", m.Tool, m.N)
		}
	}
	e.Calls = o.Expected
	for i, c := range o.Expected {
		mode := c.ArgsMatch
		if mode.IsZero() {
			mode = o.ArgsMatch
		}
		m, err := argmatch.New(c.Args, mode, o.Strings)
		if err != nil {
			return nil, &OptionError{Call: i, Minimum: -1, Err: err}
		}
		it := calls.Args(c.Tool, m)
		it.MaxDurationMS = c.MaxDurationMS
		if c.Output != nil {
			if it, err = withOutput(it, c.Output, o.Strings); err != nil {
				return nil, &OptionError{Call: i, Minimum: -1, Err: err}
			}
		}
		e.Items = append(e.Items, it)
	}
	e.classes = calls.Prepare(e.Items)
	if e.auto == nil {
		if err := e.preparePlain(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// ErrOption matches every error of New, for errors.Is.
var ErrOption = errors.New("invalid tool_trajectory setting")

// Is makes every OptionError match ErrOption.
func (e *OptionError) Is(target error) bool { return target == ErrOption }

// Evaluate scores t.
func (e *Evaluator) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	trail := argmatch.TrailOf(t.Steps)
	return e.evaluate(&trail)
}

// EvaluateScoped scores the steps of t at the positions in, as an agent
// scope asks (see [trajeval.WholeEvaluator]): the calls expected are
// matched against those steps alone, numbered from 1, while a $from
// looks back along every step of t issued before the call, whichever
// agent made it.
func (e *Evaluator) EvaluateScoped(_ context.Context, t *trajeval.Trajectory, in []int) (trajeval.Outcome, error) {
	return e.evaluate(argmatch.ScopedTrail(t.Steps, in))
}

// evaluate scores the steps of trail.
func (e *Evaluator) evaluate(trail *argmatch.Trail) (trajeval.Outcome, error) {
	steps := trail.Steps()
	if e.Mode == Subset {
		return e.subset(trail, &trajeval.Details{Mode: string(e.Mode), Expected: len(e.Calls), Actual: len(steps)}), nil
	}
	if e.auto != nil && e.classes != nil {
		return e.evaluateGroups(trail, &trajeval.Details{Mode: string(e.Mode), Expected: len(e.Calls), Actual: len(steps)})
	}
	d := newDetails(e.Mode, len(e.Calls), len(steps))
	defer settle(d)
	cl := e.classes
	if cl == nil { // an Evaluator not made by New
		cl = calls.Prepare(e.Items)
	}
	sc := cl.Scratch()
	defer sc.Release()
	o := order(e.Mode)
	var a align.Alignment
	if e.Mode == AnyOrder && e.limited() {
		a = e.anyOrderBest(trail, sc)
	} else {
		a = sc.Align(o, trail)
	}
	d.Hits = len(a.Pairs)
	if len(e.Items) > 0 {
		sc.Explain(d, e.Items, trail, a, o)
	}
	latPass, latSkip, latN := latency(e.Calls, steps, a, d)
	minMet := e.minimums(steps, d)

	ne, na, hits := len(e.Calls), len(steps), len(a.Pairs)
	var recall float64
	switch e.Mode {
	case Exact:
		if ne == 0 {
			recall = score.Bool(na == 0)
		} else {
			recall = score.Ratio(hits+latPass, max(ne, na)+latN-latSkip, 1)
		}
	case InOrder:
		recall = score.Ratio(hits+latPass, ne+latN-latSkip, 1)
	default:
		recall = score.Ratio(hits+minMet+latPass, ne+len(e.Minimums)+latN-latSkip, 1)
	}
	return trajeval.Outcome{Score: e.Score.Apply(recall, hits, ne, na), Details: d}, nil
}

// limited reports whether some expected call has a latency limit.
func (e *Evaluator) limited() bool {
	return slices.ContainsFunc(e.Calls, func(c trajeval.ExpectedCall) bool { return c.MaxDurationMS != nil })
}

// anyOrderBest is the any_order matching of best score, latency checks
// and minimums included (the same rule as in_order and exact).
func (e *Evaluator) anyOrderBest(trail *argmatch.Trail, sc *calls.Scratch) align.Alignment {
	steps := trail.Steps()
	r := sc.Relate(trail)
	limited := map[int32]bool{}
	lat := 0
	for i, c := range r.ItemClass {
		if e.Calls[i].MaxDurationMS != nil {
			limited[c] = true
			lat++
		}
	}
	chk := align.Checks{
		Limited: func(c int32) bool { return limited[c] },
		Skipped: func(_ int32, j int) bool { _, ok := steps[j].Duration(); return !ok },
	}
	met := e.minimums(steps, &trajeval.Details{})
	return align.AnyOrderBest(r, chk, met, len(e.Calls)+len(e.Minimums)+lat)
}

func (e *Evaluator) subset(trail *argmatch.Trail, d *trajeval.Details) trajeval.Outcome {
	allowed := 0
	steps := trail.Steps()
	for j := range steps {
		s := &steps[j]
		ok := false
		for i := range e.Calls {
			if e.Items[i].Matches(trail, j) {
				ok = true
				d.Matched = append(d.Matched, trajeval.Pair{Item: i + 1, Step: j + 1, Tool: s.Name})
				break
			}
		}
		if ok {
			allowed++
		} else {
			d.Extra = append(d.Extra, trajeval.Extra{Step: j + 1, Tool: s.Name})
		}
	}
	d.Hits = allowed
	recall := score.Ratio(allowed, len(steps), 1)
	return trajeval.Outcome{Score: e.Score.Apply(recall, allowed, len(e.Calls), len(steps)), Details: d}
}

// latency runs the max_duration_ms checks of the matched and missing
// calls of want, which a aligned with steps.
func latency(want []trajeval.ExpectedCall, steps []trajeval.Step, a align.Alignment, d *trajeval.Details) (pass, skipped, total int) {
	for i := range want {
		c := &want[i] // by pointer: a range value copies each call
		if c.MaxDurationMS == nil {
			continue
		}
		total++
		name := fmt.Sprintf("latency %s (call %d) ≤ %vms", c.Tool, i+1, *c.MaxDurationMS)
		// Pairs are sorted by item.
		k, ok := slices.BinarySearchFunc(a.Pairs, i, func(p align.Pair, i int) int { return p.Item - i })
		j := 0
		if ok {
			j = a.Pairs[k].Step
		}
		if !ok {
			d.Checks = append(d.Checks, trajeval.Check{Name: name, Status: trajeval.CheckFail, Message: "not checked: call missing"})
			continue
		}
		dur, known := steps[j].Duration()
		switch {
		case !known:
			if bad, reported := steps[j].ReportedDuration(); reported {
				skipped++
				d.Checks = append(d.Checks, trajeval.Check{Name: name, Status: trajeval.CheckSkip, Message: fmt.Sprintf("step %d reports an impossible duration (%vms)", j+1, trimFloat(bad))})
				d.Warnings = append(d.Warnings, fmt.Sprintf("latency of %s (call %d) not checked: step %d reports a duration of %vms", c.Tool, i+1, j+1, trimFloat(bad)))
				break
			}
			skipped++
			d.Checks = append(d.Checks, trajeval.Check{Name: name, Status: trajeval.CheckSkip, Message: fmt.Sprintf("step %d reports no duration", j+1)})
			d.Warnings = append(d.Warnings, fmt.Sprintf("latency of %s (call %d) not checked: step %d has no duration_ms or start/end times", c.Tool, i+1, j+1))
		case dur <= *c.MaxDurationMS:
			pass++
			d.Checks = append(d.Checks, trajeval.Check{Name: name, Status: trajeval.CheckPass, Message: fmt.Sprintf("step %d took %vms", j+1, trimFloat(dur))})
		default:
			d.Checks = append(d.Checks, trajeval.Check{Name: name, Status: trajeval.CheckFail, Message: fmt.Sprintf("step %d took %vms", j+1, trimFloat(dur))})
		}
	}
	return pass, skipped, total
}

func (e *Evaluator) minimums(steps []trajeval.Step, d *trajeval.Details) int {
	if len(e.Minimums) == 0 {
		return 0
	}
	// A few minimums count by scanning the steps; more, through a map.
	var count map[string]int
	if len(e.Minimums) > 4 {
		count = make(map[string]int, len(e.Minimums))
		for _, m := range e.Minimums {
			count[m.Tool] = 0
		}
		for j := range steps { // by index: a range value copies each step
			if n, ok := count[steps[j].Name]; ok {
				count[steps[j].Name] = n + 1
			}
		}
	}
	met := 0
	d.Checks = slices.Grow(d.Checks, len(e.Minimums))
	for _, m := range e.Minimums {
		n := 0
		if count != nil {
			n = count[m.Tool]
		} else {
			for j := range steps {
				if steps[j].Name == m.Tool {
					n++
				}
			}
		}
		st := trajeval.CheckFail
		if n >= m.N {
			st = trajeval.CheckPass
			met++
		}
		d.Checks = append(d.Checks, trajeval.Check{Name: "minimum " + m.Tool + " ≥ " + strconv.Itoa(m.N), Status: st, Message: "called " + plural.Count(n, "time", "times")})
	}
	return met
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}
