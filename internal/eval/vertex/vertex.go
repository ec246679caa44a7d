// Package vertex is Vertex AI's Gen AI evaluation trajectory metrics,
// translated onto the tool_trajectory evaluator (package trajectory).
//
// A reference trajectory is a list of calls {tool_name, tool_input}; the
// predicted trajectory is the agent's steps, all turns flattened. Let R be
// the reference calls and P the predicted steps. A reference call matches
// a step when:
//  1. the tool names are equal (case-sensitive);
//  2. the inputs are the same JSON object: the same keys at every depth and
//     equal values, numbers by value (1 = 1.0); a missing tool_input is the
//     empty object, and so are a step's absent arguments. Keys that start
//     with "$" are literal keys, never operators.
//
// Each call is matched at most once, so a repeated call must be repeated
// in the reference (duplicates count, as a multiset). The metrics:
//  1. trajectory_exact_match: 1 iff P and R have the same length and match
//     position by position, else 0;
//  2. trajectory_in_order_match: 1 iff every call of R matches a step of P
//     in R's order (other steps may sit between), else 0;
//  3. trajectory_any_order_match: 1 iff every call of R matches a distinct
//     step of P in any order (extra steps allowed), else 0;
//  4. trajectory_precision: hits / |P|, with hits the largest one-to-one
//     matching of R into P; empty P scores 1 when R is empty too, else 0;
//  5. trajectory_recall: hits / |R|; empty R scores 1;
//  6. trajectory_single_tool_use: 1 iff some step calls ToolName (any
//     input), else 0; it takes no reference.
//
// Empty R: exact_match scores 1 iff P is empty too; in_order_match and
// any_order_match score 1. Matchings are optimal (package align), so the
// scores do not depend on the order the calls are listed in. Vertex
// computes these metrics in its service, whose code is not public; its
// documentation defines them as above.
package vertex

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/score"
)

// The metric names, as Vertex spells them.
const (
	ExactMatch    = "trajectory_exact_match"
	InOrderMatch  = "trajectory_in_order_match"
	AnyOrderMatch = "trajectory_any_order_match"
	Precision     = "trajectory_precision"
	Recall        = "trajectory_recall"
	SingleToolUse = "trajectory_single_tool_use"
)

// Metrics lists the metrics, in Vertex's documentation order.
var Metrics = []string{ExactMatch, InOrderMatch, AnyOrderMatch, Precision, Recall, SingleToolUse}

// A Call is one reference call.
type Call struct {
	ToolName string
	// ToolInput is the call's input, a JSON object as package jsonv
	// decodes it; nil is the empty object.
	ToolInput map[string]any
}

// Options configure one metric.
type Options struct {
	Metric string // one of Metrics
	// Reference is the expected trajectory; every metric but
	// SingleToolUse needs it (it may be empty).
	Reference []Call
	// ToolName is the tool SingleToolUse looks for; only it takes one.
	ToolName string
}

// Evaluator is one configured metric.
type Evaluator struct {
	Metric string
	inner  *trajectory.Evaluator
}

// New builds a metric. It refuses an unknown metric, a reference call
// with no tool name, a ToolName on any metric but SingleToolUse, and a
// reference on SingleToolUse or a missing ToolName there.
func New(o Options) (*Evaluator, error) {
	t := trajectory.Options{ArgsMatch: trajeval.ArgsMatch{Mode: trajeval.ArgsExact}}
	switch o.Metric {
	case ExactMatch:
		t.Mode, t.Score = trajectory.Exact, score.Binary
	case InOrderMatch:
		t.Mode, t.Score = trajectory.InOrder, score.Binary
	case AnyOrderMatch:
		t.Mode, t.Score = trajectory.AnyOrder, score.Binary
	case Precision:
		t.Mode, t.Score = trajectory.AnyOrder, score.Precision
	case Recall:
		t.Mode, t.Score = trajectory.AnyOrder, score.Recall
	case SingleToolUse:
		if o.ToolName == "" {
			return nil, fmt.Errorf("%s needs a tool_name", SingleToolUse)
		}
		if o.Reference != nil {
			return nil, fmt.Errorf("%s takes no reference trajectory, only a tool_name", SingleToolUse)
		}
		t.Mode, t.Score = trajectory.AnyOrder, score.Binary
		t.Expected = []trajeval.ExpectedCall{{Tool: o.ToolName}}
	default:
		return nil, fmt.Errorf("unknown metric %q (one of %s)", o.Metric, strings.Join(Metrics, ", "))
	}
	if o.ToolName != "" && o.Metric != SingleToolUse {
		return nil, fmt.Errorf("%s takes no tool_name (only %s does)", o.Metric, SingleToolUse)
	}
	for i, c := range o.Reference {
		if c.ToolName == "" {
			return nil, fmt.Errorf("reference call %d: the tool_name is empty", i+1)
		}
		in := map[string]any{}
		if c.ToolInput != nil {
			in = argmatch.Literal(c.ToolInput).(map[string]any)
		}
		t.Expected = append(t.Expected, trajeval.ExpectedCall{Tool: c.ToolName, Args: in})
	}
	inner, err := trajectory.New(t)
	if err != nil {
		return nil, err
	}
	return &Evaluator{Metric: o.Metric, inner: inner}, nil
}

// ReadsText says that the evaluator reads arguments through
// trajeval.Decoded (see eval.TextReader): the tool_trajectory engine
// does, and arguments kept as text are never nil.
func (*Evaluator) ReadsText() bool { return true }

// Evaluate scores t.
func (e *Evaluator) Evaluate(ctx context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	// A step with no arguments was called with the empty input.
	if slices.ContainsFunc(t.Steps, func(s trajeval.Step) bool { return s.Args == nil }) {
		c := *t
		c.Steps = slices.Clone(t.Steps)
		for i := range c.Steps {
			if c.Steps[i].Args == nil {
				c.Steps[i].Args = map[string]any{}
			}
		}
		t = &c
	}
	return e.inner.Evaluate(ctx, t)
}
