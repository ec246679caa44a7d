package adk

import (
	"context"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/score"
)

// The metric names, as ADK spells them.
const (
	TrajectoryMetric = "tool_trajectory_avg_score"
	ResponseMetric   = "response_match_score"
)

// The match types of tool_trajectory_avg_score.
const (
	Exact    = "EXACT"
	InOrder  = "IN_ORDER"
	AnyOrder = "ANY_ORDER"
)

// matchOrder is how each match type aligns calls.
var matchOrder = map[string]calls.Order{Exact: calls.Positional, InOrder: calls.Ordered, AnyOrder: calls.Unordered}

// MatchTypes lists the match types.
var MatchTypes = []string{Exact, InOrder, AnyOrder}

// Trajectory is tool_trajectory_avg_score.
type Trajectory struct {
	matchType string
	items     [][]calls.Item
	classes   []*calls.Classes // each invocation's items, prepared once
}

// NewTrajectory returns tool_trajectory_avg_score for the expected
// invocations under a match type (EXACT, IN_ORDER or ANY_ORDER).
func NewTrajectory(invocations []Invocation, matchType string, ignoreArgs bool) (*Trajectory, error) {
	if !contains(MatchTypes, matchType) {
		return nil, fmt.Errorf("unknown match_type %q (one of %s)", matchType, strings.Join(MatchTypes, ", "))
	}
	if len(invocations) == 0 {
		return nil, fmt.Errorf("no expected invocations")
	}
	e := &Trajectory{matchType: matchType}
	for i, inv := range invocations {
		items, err := inv.items(ignoreArgs)
		if err != nil {
			return nil, fmt.Errorf("invocation %d: %w", i+1, err)
		}
		e.items = append(e.items, items)
		e.classes = append(e.classes, calls.Prepare(items))
	}
	return e, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ReadsText says that the evaluator reads arguments through
// trajeval.Decoded (see eval.TextReader): its argument matchers decode
// those of the steps of the expected tools.
func (*Trajectory) ReadsText() bool { return true }

// Evaluate scores t.
func (e *Trajectory) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	actual := turns(t)
	d := &trajeval.Details{Mode: strings.ToLower(e.matchType), Expected: len(e.items), Actual: len(actual)}
	if w := countWarning(len(e.items), len(actual)); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	var members []trajeval.Result
	for i, items := range e.items {
		r := trajeval.Result{Name: fmt.Sprintf("invocation %d", i+1), Type: TrajectoryMetric, Threshold: 1, Weight: 1, Required: true, Turn: i + 1, Status: trajeval.StatusFail}
		if i >= len(actual) {
			r.Details = &trajeval.Details{Mode: d.Mode, Expected: len(items), Warnings: []string{"the trace has no such turn"}}
			for k, it := range items {
				r.Details.Missing = append(r.Details.Missing, trajeval.Missing{Item: k + 1, Tool: it.Tool})
			}
			members = append(members, r)
			continue
		}
		steps := actual[i]
		order := matchOrder[e.matchType]
		sc := e.classes[i].Scratch()
		trail := argmatch.TrailOf(steps)
		a := sc.Align(order, &trail)
		r.Details = &trajeval.Details{Mode: d.Mode}
		sc.Explain(r.Details, items, &trail, a, order)
		pass := len(a.Pairs) == len(items)
		sc.Release()
		if e.matchType == Exact && len(steps) != len(items) {
			pass = false
		}
		if pass {
			r.Score, r.Status = 1, trajeval.StatusPass
			d.Hits++
		}
		members = append(members, r)
	}
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(e.items), 0), Details: d, Members: members}, nil
}
