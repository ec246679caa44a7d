// Package composite is the composite evaluator: several member evaluators
// scored as one.
//
// Members are listed under evaluators (or assertions) and need distinct
// names. The aggregator decides the score:
//  1. weighted_average (default): the mean of the members' scores weighted
//     by aggregator.weights {member: w} (a member not listed weighs its own
//     weight, default 1);
//  2. min: the lowest member score;
//  3. all_pass: the share of members that pass; the composite passes only
//     when every member does, except members marked required: false.
//
// For weighted_average and min the composite passes when its score reaches
// its threshold. A member that cannot run makes the composite an error.
// A member setting that the aggregator would not use is a configuration
// error: required: true/false outside all_pass, weight outside
// weighted_average, and a weight given both on the member and in
// aggregator.weights.
package composite

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
)

// Aggregators are the valid aggregator types.
var Aggregators = []string{"weighted_average", "min", "all_pass"}

// Options configure a composite.
type Options struct {
	// Members are the evaluators scored as one, with their shared
	// settings (name, weight, required, threshold, negate).
	Members []*eval.Configured
	// Aggregator is one of Aggregators; "" is weighted_average.
	Aggregator string
	// Weights override members' own weights by name, for
	// weighted_average only.
	Weights map[string]float64
}

// Evaluator is a configured composite.
type Evaluator struct {
	Members    []*eval.Configured
	Aggregator string
	Weights    []float64
}

// New builds a composite. It refuses no members, two members with one
// name, an unknown aggregator, weights outside weighted_average, a
// weight for a name that is no member, and a negative weight.
func New(o Options) (*Evaluator, error) {
	if len(o.Members) == 0 {
		return nil, errors.New("composite has no members")
	}
	e := &Evaluator{Members: o.Members, Aggregator: o.Aggregator}
	if e.Aggregator == "" {
		e.Aggregator = "weighted_average"
	}
	if !slices.Contains(Aggregators, e.Aggregator) {
		return nil, fmt.Errorf("unknown aggregator %q (one of weighted_average, min, all_pass)", e.Aggregator)
	}
	if len(o.Weights) > 0 && e.Aggregator != "weighted_average" {
		return nil, errors.New("weights only apply to weighted_average")
	}
	names := map[string]bool{}
	for _, m := range o.Members {
		if names[m.Name] {
			return nil, fmt.Errorf("two members are named %q", m.Name)
		}
		names[m.Name] = true
	}
	for name, w := range o.Weights {
		if !names[name] {
			return nil, fmt.Errorf("weight for %q, which is not a member", name)
		}
		if w < 0 {
			return nil, fmt.Errorf("the weight of %s must not be negative", name)
		}
	}
	for _, m := range o.Members {
		w, ok := o.Weights[m.Name]
		if !ok {
			w = m.Weight
		}
		e.Weights = append(e.Weights, w)
	}
	return e, nil
}

// ReadsText reports whether every member reads kept JSON text itself
// (see eval.ReadsText): then the composite may be handed text, which it
// hands on. Otherwise it is handed the trajectory decoded once, for all
// its members.
func (e *Evaluator) ReadsText() bool {
	for _, m := range e.Members {
		if !m.ReadsText() {
			return false
		}
	}
	return true
}

// Evaluate runs every member and aggregates.
func (e *Evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	out := trajeval.Outcome{}
	var sum, wsum float64
	low, passing, blocking := 1.0, 0, 0
	for i, m := range e.Members {
		r := m.Run(ctx, t)
		out.Members = append(out.Members, r)
		if r.Judge != nil {
			if out.Judge == nil {
				out.Judge = &trajeval.JudgeUsage{}
			}
			out.Judge.Add(r.Judge)
		}
		if r.Status == trajeval.StatusError {
			return out, fmt.Errorf("member %s: %s", m.Name, r.Error)
		}
		sum += e.Weights[i] * r.Score
		wsum += e.Weights[i]
		low = min(low, r.Score)
		if r.Status == trajeval.StatusPass {
			passing++
		} else if m.Required {
			blocking++
		}
	}
	switch e.Aggregator {
	case "min":
		out.Score = low
	case "all_pass":
		out.Score = float64(passing) / float64(len(e.Members))
		out.Verdict = eval.Bool(blocking == 0)
	default:
		if wsum == 0 {
			return out, fmt.Errorf("every member weighs 0")
		}
		out.Score = sum / wsum
	}
	return out, nil
}
