// Package ragas is Ragas's ToolCallAccuracy and ToolCallF1, computed on
// the agent's steps (all turns flattened) with optimal pairing.
//
// Let R be the reference calls {name, args} and P the steps. Arguments
// compare as JSON values: numbers by value (1 = 1.0), objects by keys and
// values at every depth; a missing args object is the empty object.
//
// ToolCallAccuracy:
//  1. both empty: 1; one of them empty: 0;
//  2. the gate: with StrictOrder the names of P must be the names of R in
//     the same order; without, the same names as a multiset (so any
//     missing, extra or repeated call scores 0, as in Ragas);
//  3. the pairs: with StrictOrder, P[i] with R[i]; without, within each
//     name, the pairing with the largest total argument score (Kuhn–
//     Munkres);
//  4. the argument score of a pair: 1 when both args are empty, 0 when only
//     the reference's are, else the share of the reference's keys whose
//     value the step gives equal (extra step keys are ignored);
//  5. the score: the sum of the pairs' argument scores / |R|, at most 1.
//
// Ragas pairs the unordered case by sorting both lists on the name and the
// arguments' text and zipping them, which can pair two calls of one tool
// wrongly, and compares arguments as Python text, so 1 ≠ 1.0; trajeval
// pairs optimally and compares values. When every argument value is a
// scalar (so that its Python text is known), the outcome carries Ragas's
// own value in Notes["ragas_score"], with a warning, whenever it differs.
//
// ToolCallF1: the largest one-to-one matching of R into P, a call
// matching a step with the same name and equal arguments; precision
// hits / |P|, recall hits / |R|, score their harmonic mean. Repeated calls
// count: two identical calls must be made twice. Both empty scores 1.
// Ragas builds sets of calls, so repeats collapse, scores both empty 0
// and rounds to 4 places; when its value differs, the outcome carries it
// in Notes["ragas_score"] with a warning.
package ragas

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/score"
)

// A Call is one reference tool call.
type Call struct {
	Name string
	// Args is the call's arguments, a JSON object as package jsonv
	// decodes it; nil is the empty object.
	Args map[string]any
}

func check(ref []Call) error {
	for i, c := range ref {
		if c.Name == "" {
			return fmt.Errorf("reference tool call %d: the name is empty", i+1)
		}
	}
	return nil
}

// Accuracy is a configured ToolCallAccuracy.
type Accuracy struct {
	Reference   []Call
	StrictOrder bool
}

// NewAccuracy builds ToolCallAccuracy; it refuses a call with no name.
func NewAccuracy(ref []Call, strictOrder bool) (*Accuracy, error) {
	if err := check(ref); err != nil {
		return nil, err
	}
	return &Accuracy{Reference: ref, StrictOrder: strictOrder}, nil
}

// ArgScore is the share of ref's keys whose value got gives equal: 1 when
// both are empty, 0 when only ref is.
func ArgScore(ref, got map[string]any) float64 {
	if len(ref) == 0 {
		return score.Bool(len(got) == 0)
	}
	n := 0
	for k, v := range ref {
		if g, ok := got[k]; ok && jsonv.Equal(v, g) {
			n++
		}
	}
	return float64(n) / float64(len(ref))
}

func args(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

// ReadsText says that the evaluator reads arguments through
// trajeval.Decoded (see eval.TextReader): none when the tools called
// differ from the reference's.
func (*Accuracy) ReadsText() bool { return true }

// Evaluate scores t.
func (a *Accuracy) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	ref, steps := a.Reference, t.Steps
	vals := eval.NewValues(steps)
	mode := "any_order"
	if a.StrictOrder {
		mode = "strict_order"
	}
	d := &trajeval.Details{Mode: mode, Expected: len(ref), Actual: len(steps), Notes: map[string]any{}}
	switch {
	case len(ref) == 0 && len(steps) == 0:
		return trajeval.Outcome{Score: 1, Details: d}, nil
	case len(ref) == 0:
		d.Notes["reason"] = "no reference tool calls, but the agent made some"
		explainPairs(d, ref, steps, nil, nil)
		return trajeval.Outcome{Score: 0, Details: d}, nil
	case len(steps) == 0:
		d.Notes["reason"] = "the agent made no tool calls"
		explainPairs(d, ref, steps, nil, nil)
		return trajeval.Outcome{Score: 0, Details: d}, nil
	}
	rn := names(ref, func(c Call) string { return c.Name })
	pn := names(steps, func(s trajeval.Step) string { return s.Name })
	var pairs []align.Pair
	if a.StrictOrder {
		if !slices.Equal(rn, pn) {
			d.Notes["reason"] = fmt.Sprintf("the tool sequence differs: expected [%s], called [%s]", strings.Join(rn, ", "), strings.Join(pn, ", "))
			explainPairs(d, ref, steps, nil, nil)
			return trajeval.Outcome{Score: 0, Details: d}, nil
		}
		for i := range ref {
			pairs = append(pairs, align.Pair{Item: i, Step: i})
		}
	} else {
		sr, sp := slices.Clone(rn), slices.Clone(pn)
		slices.Sort(sr)
		slices.Sort(sp)
		if !slices.Equal(sr, sp) {
			d.Notes["reason"] = fmt.Sprintf("the tools called differ: expected [%s], called [%s] (in any order)", strings.Join(sr, ", "), strings.Join(sp, ", "))
			explainPairs(d, ref, steps, nil, nil)
			return trajeval.Outcome{Score: 0, Details: d}, nil
		}
		pairs = pairByName(ref, vals, steps)
	}
	scores := make([]float64, len(pairs))
	var total float64
	for k, p := range pairs {
		scores[k] = ArgScore(ref[p.Item].Args, args(vals.Args(p.Step)))
		total += scores[k]
	}
	explainPairs(d, ref, steps, pairs, scores)
	out := a.withPeer(trajeval.Outcome{Score: total / float64(len(ref)), Details: d}, vals, steps)
	if err := vals.Err(); err != nil {
		return trajeval.Outcome{}, err
	}
	return out, nil
}

// withPeer notes Ragas's own value when it differs from out's.
func (a *Accuracy) withPeer(out trajeval.Outcome, vals *eval.Values, steps []trajeval.Step) trajeval.Outcome {
	peer, ok := a.ragasAccuracy(vals, steps)
	if !ok || math.Abs(peer-out.Score) <= 1e-9 {
		return out
	}
	out.Details.Notes["ragas_score"] = peer
	why := "it compares argument values as Python text, so 1 is not 1.0"
	if !a.StrictOrder {
		why += ", and pairs calls of one tool by sorting both lists on that text"
	}
	out.Details.Warnings = append(out.Details.Warnings, fmt.Sprintf("Ragas's own ToolCallAccuracy would score %.4g: %s", peer, why))
	return out
}

// pairByName pairs the calls of each name with the steps of that name,
// with the largest total argument score. The multisets of names are equal.
func pairByName(ref []Call, vals *eval.Values, steps []trajeval.Step) []align.Pair {
	byName := map[string][2][]int{}
	var order []string
	for i, c := range ref {
		g, ok := byName[c.Name]
		if !ok {
			order = append(order, c.Name)
		}
		g[0] = append(g[0], i)
		byName[c.Name] = g
	}
	for j, s := range steps {
		g := byName[s.Name]
		g[1] = append(g[1], j)
		byName[s.Name] = g
	}
	var out []align.Pair
	for _, n := range order {
		g := byName[n]
		// Shift every weight up by one, so pairs whose arguments all differ
		// are still made: the gate has paired the names already.
		w := make([][]float64, len(g[0]))
		for a, i := range g[0] {
			w[a] = make([]float64, len(g[1]))
			for b, j := range g[1] {
				w[a][b] = 1 + ArgScore(ref[i].Args, args(vals.Args(j)))
			}
		}
		for _, p := range align.MaxWeight(w) {
			out = append(out, align.Pair{Item: g[0][p.Item], Step: g[1][p.Step]})
		}
	}
	slices.SortFunc(out, func(a, b align.Pair) int { return a.Item - b.Item })
	return out
}

// explainPairs fills the alignment, with each pair's argument score when
// below 1, the missing calls and the extra steps.
func explainPairs(d *trajeval.Details, ref []Call, steps []trajeval.Step, pairs []align.Pair, scores []float64) {
	usedR := make([]bool, len(ref))
	usedS := make([]bool, len(steps))
	var partial []map[string]any
	for k, p := range pairs {
		usedR[p.Item], usedS[p.Step] = true, true
		d.Matched = append(d.Matched, trajeval.Pair{Item: p.Item + 1, Step: stepNo(steps, p.Step), Tool: ref[p.Item].Name})
		if scores[k] < 1 {
			partial = append(partial, map[string]any{"item": p.Item + 1, "step": stepNo(steps, p.Step), "arg_score": scores[k]})
		}
	}
	d.Hits = len(pairs)
	for i, c := range ref {
		if !usedR[i] {
			d.Missing = append(d.Missing, trajeval.Missing{Item: i + 1, Tool: c.Name})
		}
	}
	for j, s := range steps {
		if !usedS[j] {
			d.Extra = append(d.Extra, trajeval.Extra{Step: stepNo(steps, j), Tool: s.Name})
		}
	}
	if partial != nil {
		d.Notes["partial_pairs"] = partial
	}
}

func stepNo(steps []trajeval.Step, j int) int {
	if steps[j].Index > 0 {
		return steps[j].Index
	}
	return j + 1
}

// F1 is a configured ToolCallF1.
type F1 struct {
	Reference []Call
	inner     *trajectory.Evaluator
}

// NewF1 builds ToolCallF1 on the tool_trajectory engine (any order,
// exact arguments, f1); it refuses a call with no name.
func NewF1(ref []Call) (*F1, error) {
	if err := check(ref); err != nil {
		return nil, err
	}
	o := trajectory.Options{Mode: trajectory.AnyOrder, Score: score.F1, ArgsMatch: trajeval.ArgsMatch{Mode: trajeval.ArgsExact}}
	for _, c := range ref {
		in := map[string]any{}
		if c.Args != nil {
			in = argmatch.Literal(c.Args).(map[string]any)
		}
		o.Expected = append(o.Expected, trajeval.ExpectedCall{Tool: c.Name, Args: in})
	}
	inner, err := trajectory.New(o)
	if err != nil {
		return nil, err
	}
	return &F1{Reference: ref, inner: inner}, nil
}

// ReadsText says that the evaluator is to be handed values, though it
// reads arguments through trajeval.Decoded (see eval.TextReader):
// Ragas's own value compares the arguments of every tool called more
// than once, on most traces nearly all of them, and text scanned by the
// reader and decoded after costs more than values decoded as they are
// read (2,000 traces × 20 steps, four evaluators: 728 M instructions
// against 678 M).
func (*F1) ReadsText() bool { return false }

// Evaluate scores t.
func (f *F1) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	c := *t
	c.Steps = slices.Clone(t.Steps)
	for i := range c.Steps {
		if c.Steps[i].Args == nil {
			c.Steps[i].Args = map[string]any{}
		}
	}
	out, err := f.inner.Evaluate(ctx, &c)
	if err != nil || out.Details == nil {
		return out, err
	}
	out.Details.Mode = "f1"
	vals := eval.NewValues(c.Steps)
	peer := f.ragasF1(vals, c.Steps)
	if err := vals.Err(); err != nil {
		return trajeval.Outcome{}, err
	}
	if math.Abs(peer-out.Score) > 5e-5 {
		if out.Details.Notes == nil {
			out.Details.Notes = map[string]any{}
		}
		out.Details.Notes["ragas_score"] = peer
		why := "it counts each distinct call once, however often it is made or expected"
		if len(f.Reference) == 0 && len(c.Steps) == 0 {
			why = "it scores 0 when nothing is expected and nothing is called"
		}
		out.Details.Warnings = append(out.Details.Warnings, fmt.Sprintf("Ragas's own ToolCallF1 would score %.4g: %s", peer, why))
	}
	return out, nil
}

// ragasF1 is Ragas's own value: F1 over sets of distinct calls, rounded
// to 4 places, 0 when both sets are empty.
func (f *F1) ragasF1(vals *eval.Values, steps []trajeval.Step) float64 {
	type call struct {
		name string
		args any
	}
	var want []call
	for _, r := range f.Reference {
		a := any(map[string]any{})
		if r.Args != nil {
			a = r.Args
		}
		if !slices.ContainsFunc(want, func(x call) bool { return x.name == r.Name && jsonv.Equal(x.args, a) }) {
			want = append(want, call{r.Name, a})
		}
	}
	// got holds the first step of each distinct call; arguments are
	// decoded only to compare calls of one name.
	var got []int
	for j := range steps {
		dup := false
		for _, k := range got {
			if steps[k].Name == steps[j].Name && vals.SameArgs(k, j) {
				dup = true
				break
			}
		}
		if !dup {
			got = append(got, j)
		}
	}
	tp := 0
	for _, k := range got {
		for _, w := range want {
			if steps[k].Name == w.name && jsonv.Equal(vals.Args(k), w.args) {
				tp++
				break
			}
		}
	}
	if tp == 0 {
		return 0
	}
	p, r := float64(tp)/float64(len(got)), float64(tp)/float64(len(want))
	return math.Round(2*p*r/(p+r)*1e4) / 1e4
}
