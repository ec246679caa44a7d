// Package mine writes one expectation that accepts every one of several
// good runs of an agent: a suite with no cases whose tool_trajectory
// evaluator (and, where it helps, a tool_rules evaluator) scores later runs
// against what the good runs had in common.
//
// The rules, in the order they are applied:
//  1. Each run's calls are read in issue order; calls issued together (one
//     parallel group) are put in name order, since the evaluator takes
//     them in any order anyway. A call without a tool name cannot be
//     expected: it is left out, and the mode becomes in_order (calls may sit
//     between expected ones), else the mode is exact (the runs made only
//     these calls).
//  2. Consecutive calls of one tool are one segment (a loop); the k-th
//     segment of tool T in a run is the item (T, k). An item is one entry
//     of the expectation, the same item in every run that has it.
//  3. Item u is before item v when u comes first in every run that has
//     both. Items whose order varied, and every item caught between them,
//     form one any_order group (the strongly connected components of the
//     order graph); the groups and items are then written in an order that
//     every run follows (a topological order, ties broken by the mean
//     position in the runs). A group of more than 12 entries cannot be an
//     any_order group: it is written as a repeat of a one_of of its tools,
//     with tool_rules for the before relations and counts that held.
//  4. An item missing from some runs is optional; one that ran more than
//     once in a row is a repeat with the fewest and most times seen.
//     Neighbouring optional items present in the same runs are one
//     in_order entry; neighbouring optional entries no run has two of are
//     one one_of (optional when some runs have none of them). Calls made
//     once in every run, followed by optional entries that repeat their
//     tools in order, are a loop: a repeat of an in_order of the calls,
//     1 to as many passes as seen.
//  5. Arguments: a value equal in every call of an item is kept as it is;
//     a value that varied and always equals what one earlier call of the
//     same tool returned or was given, at one path, becomes a $from; a
//     number that varied becomes a range ($approx around the midpoint); a
//     string that varied among a few values, each seen at least twice,
//     becomes a $oneOf; anything else a $type. Objects are compared key by
//     key, recursively. When every call of an item had the same keys at
//     every depth the arguments are compared exactly, else as a subset
//     (no key the runs never had). Arguments that are not an object are
//     not expected (the tool's name is).
//  6. The suite is loaded and scored against every run it was mined from
//     before it is returned: each must pass. If one does not (a case the
//     rules above miss), the arguments are loosened (literals and types
//     only, then none), then the order (any of the tools seen, as many
//     times as the runs made calls), then the count (mode subset: only
//     the tools seen, for runs with a parallel group of more than 14
//     calls, which groups cannot take; with calls without a name, no
//     order at all), and a note says so. The last step accepts every
//     run: what it checks is the tool_rules that held in every run.
//
// The YAML says why, beside each entry and argument ("optional: called in 7
// of 12 runs").
package mine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// ErrNoRuns says there is nothing to mine.
var ErrNoRuns = errors.New("no runs to mine")

// ErrTooLarge says the runs are too long to mine in bounded time and
// memory.
var ErrTooLarge = errors.New("the runs are too large to mine")

// Bounds on the order graph: the pairs of segments compared (Σ over runs
// of n²/2 for n segments: time) and the distinct pairs of items kept
// (memory). 1,000 runs of 50 calls compare at most 1.25 million pairs.
const (
	maxPairs    = 50_000_000
	maxDistinct = 4_000_000
)

// Options name what is mined.
type Options struct {
	Name    string   // the suite's name; "mined" when empty
	Sources []string // the files the runs came from, named in the header
}

// A Result is a mined suite.
type Result struct {
	YAML []byte
	// Evaluators are the suite's evaluators, as it loads: tool_trajectory,
	// then tool_rules when there are rules.
	Evaluators []*eval.Configured
	// Notes say what the user should know: a call left out, a rule
	// loosened.
	Notes []string
}

// Mine returns the suite that accepts every run (see the package rules).
func Mine(ctx context.Context, runs []*trajeval.Trajectory, o Options) (*Result, error) {
	if len(runs) == 0 {
		return nil, ErrNoRuns
	}
	if o.Name == "" {
		o.Name = "mined"
	}
	runs, err := prepare(runs)
	if err != nil {
		return nil, err
	}
	m, err := newMiner(runs)
	if err != nil {
		return nil, err
	}
	var why []string
	for lv := levelFull; lv <= levelAllowList; lv++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		y := m.render(lv, o)
		res, err := Check(ctx, y, runs)
		if err == nil && res.Failed == 0 {
			r := &Result{YAML: y, Evaluators: res.Evaluators, Notes: slices.Clone(m.notes)}
			if lv > levelFull {
				r.Notes = append(r.Notes, fmt.Sprintf("the most specific expectation did not pass on every run (%s): %s", why[len(why)-1], loosened[lv]))
			}
			return r, nil
		}
		if err != nil {
			why = append(why, err.Error())
		} else {
			why = append(why, res.First)
		}
	}
	return nil, fmt.Errorf("the mined suite does not pass on its own runs (please report this as a bug): %s", why[len(why)-1])
}

// prepare returns copies of the runs as a reader gives them: nil is a run
// without calls, steps are numbered, arguments and results are JSON values
// (json.Number, map[string]any ...), whatever Go values a program built
// them with. The runs given are not changed.
func prepare(runs []*trajeval.Trajectory) ([]*trajeval.Trajectory, error) {
	out := make([]*trajeval.Trajectory, len(runs))
	for i, t := range runs {
		c := &trajeval.Trajectory{}
		if t != nil {
			*c = *t
		}
		c.Steps, c.Turns = slices.Clone(c.Steps), slices.Clone(c.Turns)
		for j := range c.Steps {
			s := &c.Steps[j]
			var err error
			if s.Args, err = jsonValue(s.Args); err != nil {
				return nil, fmt.Errorf("run %d, call %d (%s): its arguments: %w", i+1, j+1, s.Name, err)
			}
			if s.Result, err = jsonValue(s.Result); err != nil {
				return nil, fmt.Errorf("run %d, call %d (%s): its result: %w", i+1, j+1, s.Name, err)
			}
		}
		c.Finish()
		out[i] = c
	}
	return out, nil
}

// jsonValue returns v in the JSON data model, a copy: Go values a program
// wrote (int, float64, structs, typed maps) as JSON would read them back.
func jsonValue(v any) (any, error) {
	if n, err := jsonv.Normalize(v); err == nil {
		return n, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonv.Decode(data)
}

// A level is how much of what the runs share is expected.
type level int

const (
	levelFull      level = iota // every rule
	levelTypes                  // arguments: literals and types only
	levelNames                  // no arguments
	levelAnything               // the tools seen, in any order, as many calls as seen
	levelAllowList              // only the tools seen (no groups: a parallel group too large for them)
)

var loosened = map[level]string{
	levelTypes:     "arguments that varied are checked by type only",
	levelNames:     "arguments are not checked",
	levelAnything:  "the order is not checked, only which tools were called and how many calls were made",
	levelAllowList: "only which tools were called is checked (mode subset, or no order when calls lack a name), with the rules that held",
}

// Holdout splits n runs into those to mine and those held back: a share
// frac of them (rounded, at least 1 when frac > 0, and never all), chosen
// by a shuffle seeded by seed, so the same seed holds back the same runs.
func Holdout(n int, frac float64, seed uint64) (mine, held []int) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	k := int(frac*float64(n) + 0.5)
	if frac > 0 && k == 0 {
		k = 1
	}
	k = min(k, n-1)
	if k <= 0 {
		return idx, nil
	}
	r := rand.New(rand.NewPCG(seed, 0x6d696e65))
	r.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	held, mine = slices.Clone(idx[:k]), slices.Clone(idx[k:])
	slices.Sort(held)
	slices.Sort(mine)
	return mine, held
}
