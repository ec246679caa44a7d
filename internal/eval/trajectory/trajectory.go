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
//  5. Dokimos's modes: strict = exact scored binary; superset = any_order
//     scored binary; precision = any_order scored precision; recall =
//     any_order scored recall. With these four, arguments default to exact
//     (Dokimos's default), else to partial.
//
// Matching is optimal, never greedy; among the largest matchings the one
// with the most latency passes wins. A matched call with max_duration_ms
// passes its latency check iff the step's duration ≤ the limit; a step with
// no duration skips the check (out of the denominator, with a warning); an
// unmatched call with a limit fails it ("not checked: call missing").
//
// Empty E: exact scores 1 iff A is empty; in_order and any_order score 1.
//
// score: recall (default, the formulas above), precision (hits / |A|), f1,
// max (hits / max(|E|,|A|)) or binary (1 iff the recall score is 1).
package trajectory

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/calls"
)

func init() {
	eval.Register(eval.Spec{
		Type:      "tool_trajectory",
		Keys:      []string{"mode", "expected", "minimums", "args_match", "score", "trim", "case_insensitive"},
		Threshold: 1,
		Build:     build,
	})
}

// Modes are the valid mode names.
var Modes = []string{"any_order", "in_order", "exact", "subset", "strict", "superset", "precision", "recall"}

// Scores are the valid score normalisations.
var Scores = []string{"recall", "precision", "f1", "max", "binary"}

// A Minimum requires a tool to be called at least N times.
type Minimum struct {
	Tool string
	N    int
}

// order names how each mode's alignment treats order, for explanations.
var order = map[string]calls.Order{"exact": calls.Positional, "in_order": calls.Ordered, "any_order": calls.Unordered}

// Evaluator is a configured tool_trajectory.
type Evaluator struct {
	Mode     string // any_order, in_order, exact or subset
	Score    string
	Calls    []trajeval.ExpectedCall
	Items    []calls.Item
	Minimums []Minimum
	classes  *calls.Classes // Items, prepared once
}

func build(n *config.Node, env *eval.Env) (trajeval.Evaluator, error) {
	e := &Evaluator{Mode: "any_order", Score: "recall"}
	if m := n.Get("mode"); m != nil {
		mode, err := m.Enum(Modes...)
		if err != nil {
			return nil, err
		}
		e.Mode = mode
	}
	dokimos := ""
	switch e.Mode {
	case "strict":
		dokimos, e.Mode, e.Score = e.Mode, "exact", "binary"
	case "superset":
		dokimos, e.Mode, e.Score = e.Mode, "any_order", "binary"
	case "precision", "recall":
		dokimos, e.Mode, e.Score = e.Mode, "any_order", e.Mode
	}
	if s := n.Get("score"); s != nil {
		score, err := s.Enum(Scores...)
		if err != nil {
			return nil, err
		}
		if dokimos != "" && score != e.Score {
			return nil, s.Errorf("mode %s already scores %s", dokimos, e.Score).With("use mode %s with score: %s instead", e.Mode, score)
		}
		e.Score = score
	}
	var def trajeval.ArgsMatch
	if dokimos != "" {
		def.Mode = trajeval.ArgsExact
	}
	if a := n.Get("args_match"); a != nil {
		m, err := calls.ParseArgsMatch(a)
		if err != nil {
			return nil, err
		}
		def = m
	}
	var opt argmatch.Options
	for _, k := range []string{"trim", "case_insensitive"} {
		if v := n.Get(k); v != nil {
			b, err := v.BoolValue()
			if err != nil {
				return nil, err
			}
			if k == "trim" {
				opt.Trim = b
			} else {
				opt.CaseInsensitive = b
			}
		}
	}
	exp, mins := n.Get("expected"), n.Get("minimums")
	var expected []trajeval.ExpectedCall
	if exp != nil {
		var err error
		if expected, err = calls.Parse(exp); err != nil {
			return nil, err
		}
	}
	if mins != nil {
		if e.Mode != "any_order" {
			return nil, mins.Errorf("minimums only count in any_order mode, not %s", e.Mode).With("use mode: any_order, or list the calls under expected")
		}
		var err error
		if e.Minimums, err = ParseMinimums(mins, env); err != nil {
			return nil, err
		}
	}
	if exp == nil && (mins == nil || e.Mode != "any_order") {
		need := "expected"
		if e.Mode == "any_order" {
			need = "expected or minimums"
		}
		return nil, n.Errorf("mode %s needs %s", e.Mode, need).With("add expected: [{tool: NAME}, ...]")
	}
	if e.Mode == "subset" {
		for i, c := range expected {
			if c.MaxDurationMS != nil {
				return nil, exp.Items[i].Errorf("max_duration_ms is not checked in subset mode").With("use in_order, exact or any_order for latency checks")
			}
		}
	}
	items, err := calls.Compile(expected, def, opt)
	if err != nil {
		return nil, err // already placed by calls.Parse
	}
	e.Calls, e.Items, e.classes = expected, items, calls.Prepare(items)
	return e, nil
}

// Evaluate scores t.
func (e *Evaluator) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	steps := t.Steps
	d := &trajeval.Details{Mode: e.Mode, Expected: len(e.Calls), Actual: len(steps)}
	if e.Mode == "subset" {
		return e.subset(steps, d), nil
	}
	cl := e.classes
	if cl == nil {
		cl = calls.Prepare(e.Items)
	}
	r := cl.Relate(steps)
	var a align.Alignment
	switch e.Mode {
	case "exact":
		a = align.Exact(r)
	case "in_order":
		a = align.InOrder(r)
	default:
		a = align.AnyOrder(r)
	}
	d.Hits = len(a.Pairs)
	if len(e.Items) > 0 {
		calls.Explain(d, e.Items, steps, a, order[e.Mode])
	}
	latPass, latSkip, latN := e.latency(steps, a, d)
	minMet := e.minimums(steps, d)

	ne, na, hits := len(e.Calls), len(steps), len(a.Pairs)
	var recall float64
	switch e.Mode {
	case "exact":
		if ne == 0 {
			recall = b2f(na == 0)
		} else {
			recall = eval.Ratio(hits+latPass, max(ne, na)+latN-latSkip, 1)
		}
	case "in_order":
		recall = eval.Ratio(hits+latPass, ne+latN-latSkip, 1)
	default:
		recall = eval.Ratio(hits+minMet+latPass, ne+len(e.Minimums)+latN-latSkip, 1)
	}
	return trajeval.Outcome{Score: normalise(e.Score, recall, hits, ne, na), Details: d}, nil
}

func normalise(how string, recall float64, hits, ne, na int) float64 {
	switch how {
	case "precision":
		return eval.Ratio(hits, na, b2f(ne == 0))
	case "f1":
		if ne == 0 && na == 0 {
			return 1
		}
		if ne == 0 || na == 0 || hits == 0 {
			return 0
		}
		p, r := float64(hits)/float64(na), float64(hits)/float64(ne)
		return 2 * p * r / (p + r)
	case "max":
		return eval.Ratio(hits, max(ne, na), 1)
	case "binary":
		return b2f(recall >= 1-1e-12)
	}
	return recall
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (e *Evaluator) subset(steps []trajeval.Step, d *trajeval.Details) trajeval.Outcome {
	allowed := 0
	for j := range steps {
		s := &steps[j]
		ok := false
		for i := range e.Calls {
			if e.Items[i].Matches(s) {
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
	recall := eval.Ratio(allowed, len(steps), 1)
	return trajeval.Outcome{Score: normalise(e.Score, recall, allowed, len(e.Calls), len(steps)), Details: d}
}

// latency runs the max_duration_ms checks of the matched and missing calls.
func (e *Evaluator) latency(steps []trajeval.Step, a align.Alignment, d *trajeval.Details) (pass, skipped, total int) {
	step := make(map[int]int, len(a.Pairs))
	for _, p := range a.Pairs {
		step[p.Item] = p.Step
	}
	for i, c := range e.Calls {
		if c.MaxDurationMS == nil {
			continue
		}
		total++
		name := fmt.Sprintf("latency %s (call %d) ≤ %vms", c.Tool, i+1, *c.MaxDurationMS)
		j, ok := step[i]
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
		for _, s := range steps {
			if n, ok := count[s.Name]; ok {
				count[s.Name] = n + 1
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
			for _, s := range steps {
				if s.Name == m.Tool {
					n++
				}
			}
		}
		st := trajeval.CheckFail
		if n >= m.N {
			st = trajeval.CheckPass
			met++
		}
		d.Checks = append(d.Checks, trajeval.Check{Name: "minimum " + m.Tool + " ≥ " + strconv.Itoa(m.N), Status: st, Message: "called " + strconv.Itoa(n) + " times"})
	}
	return met
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}
