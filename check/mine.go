package check

import (
	"context"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/mine"
)

// The errors of [Mine], for errors.Is.
var (
	ErrNoRuns   = mine.ErrNoRuns   // no trajectory given
	ErrTooLarge = mine.ErrTooLarge // runs too long to compare in bounded time and memory
)

// A Mined expectation: what [Mine] found that several good runs had in
// common.
type Mined struct {
	// YAML is a suite with no cases holding the expectation, with a
	// comment beside each entry saying what in the runs it stands for:
	// trajeval eval FILE --traces NEW.jsonl scores later runs with it.
	YAML []byte
	// Evaluators are the suite's evaluators, loaded from YAML: a
	// tool_trajectory evaluator, then a tool_rules evaluator when the
	// order of many calls varied (see [Mine]). Pass them all to
	// Evaluate.
	Evaluators []trajeval.Evaluator
	// Notes say where the expectation had to be loosened, or calls left
	// out.
	Notes []string
}

// Mine returns the most specific expectation it finds that every one of
// runs passes: an ordered backbone of the calls, any_order groups where
// their order varied, optional calls, repeats with the counts seen,
// one_of alternatives, and arguments kept when constant, else tied to an
// earlier call's value ($from), a range, a choice or a type. Every run
// is scored with the result before Mine returns it, and passes. The rules
// and their cost are in docs/mining.md.
//
// Mine returns [ErrNoRuns] for no runs, and an error wrapping
// ErrTooLarge for runs too long to compare in bounded time.
func Mine(ctx context.Context, runs ...*trajeval.Trajectory) (Mined, error) {
	r, err := mine.Mine(ctx, runs, mine.Options{})
	if err != nil {
		return Mined{}, err
	}
	m := Mined{YAML: r.YAML, Notes: r.Notes}
	for _, c := range r.Evaluators {
		m.Evaluators = append(m.Evaluators, Configure(build(c.Type, c.Eval, nil), Settings{Name: c.Name}))
	}
	return m, nil
}
