package dokimos

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
	sc "github.com/trajeval/trajeval/internal/score"
)

// The match modes of tool_correctness.
const (
	NamesOnly     = "names_only"
	NamesAndOrder = "names_and_order"
	NamesAndArgs  = "names_and_args"
)

// Correctness is tool_correctness.
type Correctness struct {
	Match    string
	Expected []calls.Item
}

// Matches are the match modes of tool_correctness.
var Matches = []string{NamesOnly, NamesAndOrder, NamesAndArgs}

// NewCorrectness builds tool_correctness. match is one of Matches ("":
// names_only); def is the argument rule of calls that set none (zero:
// exact). Arguments count only with names_and_args. It refuses an
// unknown match, an empty tool name, a latency limit and arguments that
// do not compile (an [*argmatch.CompileError] underneath).
func NewCorrectness(match string, expected []trajeval.ExpectedCall, def trajeval.ArgsMatch, opt argmatch.Options) (*Correctness, error) {
	if match == "" {
		match = NamesOnly
	}
	if !slices.Contains(Matches, match) {
		return nil, fmt.Errorf("unknown match %q (one of %s)", match, strings.Join(Matches, ", "))
	}
	if def.IsZero() {
		def.Mode = trajeval.ArgsExact
	}
	exp := slices.Clone(expected)
	for i, e := range exp {
		switch {
		case e.Tool == "":
			return nil, fmt.Errorf("expected call %d: the tool name is empty", i+1)
		case e.MaxDurationMS != nil:
			return nil, fmt.Errorf("expected call %d: tool_correctness does not check latency", i+1)
		}
		if match != NamesAndArgs {
			exp[i].Args, exp[i].ArgsMatch = nil, trajeval.ArgsMatch{} // names only
		}
	}
	items, err := calls.Compile(exp, def, opt)
	if err != nil {
		return nil, err
	}
	return &Correctness{Match: match, Expected: items}, nil
}

// ReadsText says that the evaluator reads arguments through
// trajeval.Decoded (see eval.TextReader): its argument matchers decode
// those of the steps of the expected tools.
func (*Correctness) ReadsText() bool { return true }

// Evaluate scores t.
func (c *Correctness) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	trail := argmatch.TrailOf(t.Steps)
	return c.evaluate(&trail), nil
}

// EvaluateScoped scores the steps of t at the positions in, as an agent
// scope asks (see [trajeval.WholeEvaluator]): a $from in the expected
// arguments looks back along every step of t, whichever agent made it.
func (c *Correctness) EvaluateScoped(_ context.Context, t *trajeval.Trajectory, in []int) (trajeval.Outcome, error) {
	return c.evaluate(argmatch.ScopedTrail(t.Steps, in)), nil
}

// evaluate scores the steps of trail.
func (c *Correctness) evaluate(trail *argmatch.Trail) trajeval.Outcome {
	steps := trail.Steps()
	cl := calls.Prepare(c.Expected)
	d := &trajeval.Details{Mode: c.Match}
	ne, na := len(c.Expected), len(steps)
	var score float64
	switch c.Match {
	case NamesOnly:
		// Explain with a name-only matching; score on the name sets.
		a := cl.Align(calls.Unordered, trail)
		calls.ExplainTrail(d, c.Expected, trail, a, calls.Unordered)
		want, got := map[string]bool{}, map[string]bool{}
		for _, it := range c.Expected {
			want[it.Tool] = true
		}
		for _, s := range steps {
			got[s.Name] = true
		}
		common := 0
		for n := range want {
			if got[n] {
				common++
			}
		}
		score = sc.HarmonicF1(common, len(want), len(got))
		d.Notes = map[string]any{"expected_tools": len(want), "actual_tools": len(got), "common_tools": common}
	case NamesAndOrder:
		a := cl.Align(calls.Ordered, trail)
		calls.ExplainTrail(d, c.Expected, trail, a, calls.Ordered)
		score = sc.Ratio(len(a.Pairs), max(ne, na), 1)
	case NamesAndArgs:
		a := cl.Align(calls.Unordered, trail)
		calls.ExplainTrail(d, c.Expected, trail, a, calls.Unordered)
		score = sc.HarmonicF1(len(a.Pairs), ne, na)
	}
	return trajeval.Outcome{Score: score, Details: d}
}
