// Package deepeval is DeepEval's ToolCorrectnessMetric, computed on the
// agent's steps (all turns flattened) with optimal pairing.
//
// Let E be the expected tools and A the steps. What a pair (e, a) is
// worth, its weight, is:
//  1. 0 when the names differ (case-sensitive);
//  2. else 1, times the input similarity when InputParameters is set, and
//     0 when Output is set and the step's result is not the expected
//     output (JSON values, numbers by value; a result that is text holding
//     JSON is decoded first);
//  3. the input similarity of two objects is 1 when they are equal, else
//     the sum over the keys both have, divided by the number of keys
//     either has, of 1 for an equal value, the similarity of two nested
//     objects, else 0 (DeepEval's partial credit); ExactMatch wants equal
//     objects. A missing input is the empty object.
//
// The score, with ExactMatch, ConsiderOrdering or neither:
//  1. ExactMatch: 1 iff |E| = |A| and every pair (E[i], A[i]) weighs 1;
//  2. ConsiderOrdering: the heaviest order-preserving pairing (a weighted
//     longest common subsequence), its weight / |E|;
//  3. neither: the heaviest one-to-one pairing in any order (Kuhn–Munkres),
//     its weight / |E|; extra steps cost nothing.
//
// Empty E scores 1 when A is empty too, else 0. Strict makes the score 1
// when it is 1, else 0 (DeepEval's strict_mode).
//
// DeepEval pairs the third way greedily: each expected tool, in order,
// takes the best step not yet taken, and a step counts as taken when any
// step with the same name, input and output was (so two identical calls
// count once). Its score is then lower than the optimum; the outcome
// carries DeepEval's own value in Notes["deepeval_score"] and a warning
// whenever the two differ.
package deepeval

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/score"
)

// A Call is one expected tool.
type Call struct {
	Name string
	// InputParameters is the expected input, a JSON object as package
	// jsonv decodes it; nil is the empty object.
	InputParameters map[string]any
	// Output is the expected result; HasOutput says it was given (it may
	// be null).
	Output    any
	HasOutput bool
}

// Options configure ToolCorrectness. The zero value compares names in
// any order.
type Options struct {
	Expected []Call
	// InputParameters and Output are DeepEval's evaluation_params besides
	// the tool's name, which is always compared.
	InputParameters, Output bool
	ExactMatch              bool // should_exact_match
	ConsiderOrdering        bool // should_consider_ordering
	Strict                  bool // strict_mode: 1 or 0
	// Reason adds DeepEval's one-sentence reason to the notes
	// (include_reason).
	Reason bool
}

// Correctness is a configured ToolCorrectnessMetric.
type Correctness struct{ o Options }

// New builds ToolCorrectness. It refuses an expected tool with no name,
// and one with no output when Output is compared.
func New(o Options) (*Correctness, error) {
	for i, c := range o.Expected {
		switch {
		case c.Name == "":
			return nil, fmt.Errorf("expected tool %d: the name is empty", i+1)
		case o.Output && !c.HasOutput:
			return nil, fmt.Errorf("expected tool %d (%s): output is compared but none is given", i+1, c.Name)
		}
	}
	return &Correctness{o: o}, nil
}

// Mode names the scoring rule, for explanations.
func (c *Correctness) Mode() string {
	switch {
	case c.o.ExactMatch:
		return "exact_match"
	case c.o.ConsiderOrdering:
		return "ordering"
	}
	return "any_order"
}

// ReadsText says that the evaluator reads arguments and results through
// trajeval.Decoded (see eval.TextReader): only those of the steps named
// as an expected tool.
func (*Correctness) ReadsText() bool { return true }

// weight is what pairing expected tool e with step j is worth.
func (c *Correctness) weight(e *Call, v *eval.Values, steps []trajeval.Step, j int) float64 {
	if e.Name != steps[j].Name {
		return 0
	}
	w := 1.0
	if c.o.InputParameters {
		if c.o.ExactMatch {
			w = score.Bool(jsonv.Equal(object(e.InputParameters), object(v.Args(j))))
		} else {
			w = Similarity(object(e.InputParameters), object(v.Args(j)))
		}
	}
	if c.o.Output && !sameResult(e.Output, v.Result(j)) {
		w = 0
	}
	return w
}

// Similarity is DeepEval's partial credit of two input objects: 1 when
// they are equal, else the share of the keys either has whose values are
// equal (nested objects counting their own similarity).
func Similarity(want, got any) float64 {
	if jsonv.Equal(want, got) {
		return 1
	}
	w, ok1 := want.(map[string]any)
	g, ok2 := got.(map[string]any)
	if !ok1 || !ok2 {
		return 0
	}
	union := len(w)
	for k := range g {
		if _, ok := w[k]; !ok {
			union++
		}
	}
	var sum float64
	for k, wv := range w {
		gv, ok := g[k]
		if !ok {
			continue
		}
		if jsonv.Equal(wv, gv) {
			sum++
		} else {
			sum += nested(wv, gv)
		}
	}
	return sum / float64(union)
}

func nested(w, g any) float64 {
	_, ok1 := w.(map[string]any)
	_, ok2 := g.(map[string]any)
	if ok1 && ok2 {
		return Similarity(w, g)
	}
	return 0
}

func object(v any) any {
	switch x := v.(type) {
	case nil:
		return map[string]any{}
	case map[string]any:
		if x == nil {
			return map[string]any{}
		}
	}
	return v
}

// sameResult compares an expected output with a step's result; a result
// that is text holding a JSON object or array is decoded when the output
// is not text.
func sameResult(want, got any) bool {
	if jsonv.Equal(want, got) {
		return true
	}
	if s, ok := got.(string); ok {
		if _, text := want.(string); !text {
			if v, ok := jsonv.ParseMaybeJSON(s); ok {
				return jsonv.Equal(want, v)
			}
		}
	}
	return false
}

// Evaluate scores t.
func (c *Correctness) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	exp, steps := c.o.Expected, t.Steps
	vals := eval.NewValues(steps)
	d := &trajeval.Details{Mode: c.Mode(), Expected: len(exp), Actual: len(steps)}
	w := make([][]float64, len(exp))
	for i := range exp {
		w[i] = make([]float64, len(steps))
		for j := range steps {
			w[i][j] = c.weight(&exp[i], vals, steps, j)
		}
	}
	var pairs []align.Pair
	var s float64
	switch {
	case c.o.ExactMatch:
		ok := len(exp) == len(steps)
		for i := range exp {
			if i < len(steps) && w[i][i] == 1 {
				pairs = append(pairs, align.Pair{Item: i, Step: i})
			} else {
				ok = false
			}
		}
		s = score.Bool(ok)
	case c.o.ConsiderOrdering:
		pairs = align.OrderedMaxWeight(w)
	default:
		pairs = align.MaxWeight(w)
	}
	if !c.o.ExactMatch {
		var total float64
		for _, p := range pairs {
			total += w[p.Item][p.Step]
		}
		s = ratio(total, len(exp), len(steps))
	}
	explain(d, exp, steps, w, pairs)
	if !c.o.ExactMatch && !c.o.ConsiderOrdering {
		if peer := c.greedy(exp, vals, steps, w); math.Abs(peer-s) > 1e-9 {
			d.Notes["deepeval_score"] = peer
			d.Warnings = append(d.Warnings, fmt.Sprintf("DeepEval's own ToolCorrectnessMetric would score %.4g: it pairs each expected tool with the best step left, first come first served, and counts identical calls once", peer))
		}
	}
	if c.o.Reason {
		d.Notes["reason"] = c.reason(exp, steps, pairs, w, s)
	}
	if c.o.Strict {
		s = score.Bool(s >= 1-1e-12)
	}
	if err := vals.Err(); err != nil {
		return trajeval.Outcome{}, err
	}
	return trajeval.Outcome{Score: s, Details: d}, nil
}

// ratio is the score of total weight against want expected tools: empty E
// scores 1 when A is empty too, else 0.
func ratio(total float64, want, got int) float64 {
	if want == 0 {
		return score.Bool(got == 0)
	}
	return total / float64(want)
}

// greedy is DeepEval's own pairing of the any-order rule.
func (c *Correctness) greedy(exp []Call, v *eval.Values, steps []trajeval.Step, w [][]float64) float64 {
	var taken []int
	same := func(a, b int) bool {
		return steps[a].Name == steps[b].Name && jsonv.Equal(object(v.Args(a)), object(v.Args(b))) && jsonv.Equal(v.Result(a), v.Result(b))
	}
	var total float64
	for i := range exp {
		best, at := 0.0, -1
		for j := range steps {
			used := false
			for _, k := range taken {
				if same(k, j) {
					used = true
					break
				}
			}
			if !used && w[i][j] > best {
				best, at = w[i][j], j
			}
		}
		if at >= 0 {
			total += best
			taken = append(taken, at)
		}
	}
	return ratio(total, len(exp), len(steps))
}

// explain fills the alignment, the missing tools, the extra steps and the
// weight of each pair that is worth less than 1.
func explain(d *trajeval.Details, exp []Call, steps []trajeval.Step, w [][]float64, pairs []align.Pair) {
	d.Notes = map[string]any{}
	d.Hits = len(pairs)
	usedItem := make([]bool, len(exp))
	usedStep := make([]bool, len(steps))
	var partial []map[string]any
	for _, p := range pairs {
		usedItem[p.Item], usedStep[p.Step] = true, true
		d.Matched = append(d.Matched, trajeval.Pair{Item: p.Item + 1, Step: stepNo(steps, p.Step), Tool: exp[p.Item].Name})
		if w[p.Item][p.Step] < 1 {
			partial = append(partial, map[string]any{"item": p.Item + 1, "step": stepNo(steps, p.Step), "weight": w[p.Item][p.Step]})
		}
	}
	for i, e := range exp {
		if usedItem[i] {
			continue
		}
		m := trajeval.Missing{Item: i + 1, Tool: e.Name}
		for j := range steps {
			if steps[j].Name != e.Name {
				continue
			}
			why := "inputs or output differ"
			switch {
			case w[i][j] > 0 && usedStep[j]:
				why = "matches, but the step went to another expected tool"
			case w[i][j] > 0:
				why = "matches, but out of order"
			}
			m.Near = append(m.Near, trajeval.NearMiss{Step: stepNo(steps, j), Tool: steps[j].Name, Why: why})
		}
		d.Missing = append(d.Missing, m)
	}
	for j := range steps {
		if !usedStep[j] {
			d.Extra = append(d.Extra, trajeval.Extra{Step: stepNo(steps, j), Tool: steps[j].Name})
		}
	}
	if partial != nil {
		d.Notes["partial_pairs"] = partial
	}
}

// reason is a DeepEval-style sentence.
func (c *Correctness) reason(exp []Call, steps []trajeval.Step, pairs []align.Pair, w [][]float64, s float64) string {
	var names []string
	for _, e := range exp {
		names = append(names, e.Name)
	}
	want := "[" + strings.Join(names, ", ") + "]"
	names = names[:0]
	for _, st := range steps {
		names = append(names, st.Name)
	}
	got := "[" + strings.Join(names, ", ") + "]"
	if s >= 1-1e-12 {
		switch {
		case c.o.ExactMatch:
			return fmt.Sprintf("Exact match: expected %s, called %s.", want, got)
		case c.o.ConsiderOrdering:
			return fmt.Sprintf("Correct ordering: all expected tools %s were called in the correct order.", want)
		}
		return fmt.Sprintf("All expected tools %s were called (order not considered).", want)
	}
	if c.o.ExactMatch {
		return fmt.Sprintf("Not an exact match: expected %s, called %s.", want, got)
	}
	var missing []string
	matched := map[int]bool{}
	for _, p := range pairs {
		matched[p.Item] = true
	}
	for i, e := range exp {
		if !matched[i] {
			missing = append(missing, e.Name)
		}
	}
	what := "Incomplete tool usage"
	if c.o.ConsiderOrdering {
		what = "Incorrect tool usage"
	}
	if len(missing) == 0 {
		return fmt.Sprintf("%s: every expected tool was paired, some with inputs or output that differ; expected %s, called %s.", what, want, got)
	}
	return fmt.Sprintf("%s: missing or out-of-order tools [%s]; expected %s, called %s.", what, strings.Join(missing, ", "), want, got)
}

// stepNo is step j's 1-based number in the trajectory.
func stepNo(steps []trajeval.Step, j int) int {
	if steps[j].Index > 0 {
		return steps[j].Index
	}
	return j + 1
}
