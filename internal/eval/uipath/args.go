package uipath

import (
	"context"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/score"
)

// Matching is tool_call_args and tool_call_output: expected calls paired
// with steps in any order by a maximum matching.
type Matching struct {
	Items  []calls.Item
	Strict bool
	mode   string
}

// An ArgsCall is one expected call of tool_call_args: a tool and its
// arguments (nil: any arguments).
type ArgsCall struct {
	Tool string
	Args map[string]any
}

// NewArgs builds tool_call_args: arguments compared exactly, or, with
// subset, the expected ones only (partial). It refuses an empty list, an
// empty tool name and arguments that do not compile (an
// [*argmatch.CompileError] underneath).
func NewArgs(expected []ArgsCall, strict, subset bool) (*Matching, error) {
	if len(expected) == 0 {
		return nil, &OptionError{Index: -1, Msg: "the list of expected calls is empty"}
	}
	m := &Matching{mode: "exact", Strict: strict}
	am := trajeval.ArgsMatch{Mode: trajeval.ArgsExact}
	if subset {
		am.Mode, m.mode = trajeval.ArgsPartial, "subset"
	}
	for i, c := range expected {
		if c.Tool == "" {
			return nil, &OptionError{Index: i, Msg: "the tool name is empty"}
		}
		var args any
		if c.Args != nil {
			args = c.Args
		}
		mt, err := argmatch.New(args, am, argmatch.Options{})
		if err != nil {
			return nil, &OptionError{Index: i, Msg: err.Error(), Err: err}
		}
		m.Items = append(m.Items, calls.Args(c.Tool, mt))
	}
	if strict {
		m.mode = "strict " + m.mode
	}
	return m, nil
}

// ReadsText says that the evaluator reads arguments and results through
// trajeval.Decoded (see eval.TextReader): its argument matchers and
// output comparisons decode those of the steps of the expected tools.
func (*Matching) ReadsText() bool { return true }

// Evaluate scores t.
func (m *Matching) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	trail := argmatch.TrailOf(t.Steps)
	return m.evaluate(&trail), nil
}

// EvaluateScoped scores the steps of t at the positions in, as an agent
// scope asks (see [trajeval.WholeEvaluator]): a $from in the expected
// arguments looks back along every step of t, whichever agent made it.
func (m *Matching) EvaluateScoped(_ context.Context, t *trajeval.Trajectory, in []int) (trajeval.Outcome, error) {
	return m.evaluate(argmatch.ScopedTrail(t.Steps, in)), nil
}

// evaluate scores the steps of trail.
func (m *Matching) evaluate(trail *argmatch.Trail) trajeval.Outcome {
	a := calls.Prepare(m.Items).Align(calls.Unordered, trail)
	d := newDetails(m.mode)
	calls.ExplainTrail(d, m.Items, trail, a, calls.Unordered)
	sc := score.Ratio(d.Hits, len(m.Items), 1)
	if m.Strict {
		sc = score.AllOrNothing(d.Hits, len(m.Items))
	}
	return trajeval.Outcome{Score: sc, Details: d}
}
