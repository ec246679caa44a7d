// Package run scores suites: it finds each case's trajectory, runs the
// case's evaluators and hands each result on as soon as it is known.
//
// The rules:
//  1. A case's own trace: file wins; otherwise the run's --traces file
//     supplies it, else its suite's traces file (see suite.Suite.Traces),
//     matched by case id (never by position).
//  2. The --traces file is streamed: each trajectory is scored when it is
//     read, so millions of traces never sit in memory. Its results come in
//     the file's order; cases it has no trajectory for come last, as errors.
//  3. A case with no trace, an unreadable trace, or an evaluator that cannot
//     run has status error, never a silent 0 or pass.
//  4. A case's score is the weighted mean of its evaluators' scores; it
//     passes iff every evaluator that is not required: false passes.
//  5. Multi-turn cases: each turn's evaluators score that turn's steps
//     alone; a trace with fewer turns than the case expects fails the
//     missing turns' evaluators ("turn N is not in the trace"), and one with
//     more turns is reported as a warning. Turns are never silently
//     truncated.
package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/trace"
)

// Options steer a run.
type Options struct {
	Traces string // --traces FILE, "" for none
	From   string // force a trace format
	Warn   func(trajeval.Warning)
}

// Summary counts the verdicts of a run.
type Summary struct {
	Cases, Passed, Failed, Errors int
	// Judge sums the judge calls of every case; nil when none asked one.
	Judge *trajeval.JudgeUsage
}

// OK reports whether every case passed.
func (s Summary) OK() bool { return s.Failed == 0 && s.Errors == 0 }

func (s *Summary) add(r trajeval.CaseResult) {
	s.Cases++
	if r.Judge != nil {
		if s.Judge == nil {
			s.Judge = &trajeval.JudgeUsage{}
		}
		s.Judge.Add(r.Judge)
	}
	switch r.Status {
	case trajeval.StatusPass:
		s.Passed++
	case trajeval.StatusFail:
		s.Failed++
	default:
		s.Errors++
	}
}

type entry struct {
	c     *suite.Case
	suite *suite.Suite
	done  bool
}

// Run scores every case of suites and calls emit with each result. It
// stops early only when ctx ends or emit fails; results emitted before are
// kept by the caller.
func Run(ctx context.Context, suites []*suite.Suite, opts Options, emit func(trajeval.CaseResult) error) (Summary, error) {
	var sum Summary
	out := func(r trajeval.CaseResult) error {
		sum.add(r)
		return emit(r)
	}
	warn := opts.Warn
	if warn == nil {
		warn = func(trajeval.Warning) {}
	}
	// Cases without a trace: key, grouped by the traces file that
	// supplies them: the run's --traces, else their suite's own.
	type source struct {
		file  string
		byID  map[string]*entry
		order []*entry
	}
	var sources []*source
	bySource := map[string]*source{}
	for _, s := range suites {
		for _, c := range s.Cases {
			if c.Trace != "" {
				if err := ctx.Err(); err != nil {
					return sum, err
				}
				if err := out(scoreFromFile(ctx, s, c, opts.From, warn)); err != nil {
					return sum, err
				}
				continue
			}
			file := opts.Traces
			if file == "" {
				file = s.Traces
			}
			src, ok := bySource[file]
			if !ok {
				src = &source{file: file, byID: map[string]*entry{}}
				bySource[file] = src
				sources = append(sources, src)
			}
			e := &entry{c: c, suite: s}
			src.byID[c.ID] = e
			src.order = append(src.order, e)
		}
	}
	for _, src := range sources {
		if err := runSource(ctx, src.file, src.byID, src.order, opts, warn, out); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// runSource streams one traces file and scores the cases it supplies.
func runSource(ctx context.Context, file string, byID map[string]*entry, order []*entry, opts Options, warn func(trajeval.Warning), out func(trajeval.CaseResult) error) error {
	if file == "" {
		for _, e := range order {
			r := errorResult(e, fmt.Errorf("%w %q: give the case a trace: file, or run with --traces FILE", trajeval.ErrNoTrace, e.c.ID))
			if err := out(r); err != nil {
				return err
			}
		}
		return nil
	}
	var readErr error
	err := trace.Read(ctx, file, opts.From, warn, func(t *trajeval.Trajectory) error {
		e, ok := byID[t.ID]
		switch {
		case !ok:
			warn(trajeval.Warning{File: file, Place: "trace " + t.ID, Msg: "matches no case id; skipped"})
			return nil
		case e.done:
			warn(trajeval.Warning{File: file, Place: "trace " + t.ID, Msg: "appears twice; the first was scored"})
			return nil
		}
		e.done = true
		return out(Score(ctx, e.suite, e.c, t))
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var te *trajeval.TraceError
		if !errors.As(err, &te) {
			return err
		}
		readErr = err
	}
	for _, e := range order {
		if e.done {
			continue
		}
		why := fmt.Errorf("%w %q in %s", trajeval.ErrNoTrace, e.c.ID, file)
		if readErr != nil {
			why = fmt.Errorf("no trace %q: %w", e.c.ID, readErr)
		}
		if err := out(errorResult(e, why)); err != nil {
			return err
		}
	}
	return nil
}

func errorResult(e *entry, err error) trajeval.CaseResult {
	return trajeval.CaseResult{ID: e.c.ID, Suite: e.suite.Name, Status: trajeval.StatusError, Error: err.Error(), Evaluators: []trajeval.Result{}}
}

// scoreFromFile reads a case's own trace file. A file holding several
// trajectories must hold one with the case's id.
func scoreFromFile(ctx context.Context, s *suite.Suite, c *suite.Case, from string, warn func(trajeval.Warning)) trajeval.CaseResult {
	var found, first *trajeval.Trajectory
	n := 0
	var warnings []string
	w := func(x trajeval.Warning) {
		warnings = append(warnings, x.String())
		warn(x)
	}
	err := trace.Read(ctx, c.Trace, from, w, func(t *trajeval.Trajectory) error {
		n++
		if n == 1 {
			first = t
		}
		if t.ID == c.ID && found == nil {
			found = t
		}
		return nil
	})
	e := &entry{c: c, suite: s}
	switch {
	case err != nil:
		r := errorResult(e, err)
		r.Warnings = warnings
		return r
	case n == 0:
		return errorResult(e, fmt.Errorf("%w: %s holds no trajectory", trajeval.ErrEmptyTrace, c.Trace))
	case found == nil && n == 1:
		found = first
	case found == nil:
		return errorResult(e, fmt.Errorf("%w: %s holds %d trajectories and none has id %q", trajeval.ErrNoTrace, c.Trace, n, c.ID))
	}
	r := Score(ctx, s, c, found)
	r.Warnings = append(warnings, r.Warnings...)
	return r
}

// Score runs a case's evaluators on t.
func Score(ctx context.Context, s *suite.Suite, c *suite.Case, t *trajeval.Trajectory) trajeval.CaseResult {
	r := trajeval.CaseResult{ID: c.ID, Suite: s.Name}
	for _, ev := range c.Evaluators {
		r.Evaluators = append(r.Evaluators, ev.Run(ctx, t))
	}
	if len(c.Turns) > 0 {
		r.Evaluators = append(r.Evaluators, scoreTurns(ctx, c, t, &r)...)
	}
	if r.Evaluators == nil {
		// Nothing to score is not a pass.
		r.Evaluators = []trajeval.Result{}
		r.Status, r.Error = trajeval.StatusError, "the case has no evaluators"
		return r
	}
	aggregate(&r)
	return r
}

func scoreTurns(ctx context.Context, c *suite.Case, t *trajeval.Trajectory, r *trajeval.CaseResult) []trajeval.Result {
	have := turnCount(t)
	if have > len(c.Turns) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the trace has %d turns, the case expects %d; turns %d to %d are not scored per turn", have, len(c.Turns), len(c.Turns)+1, have))
	}
	var out []trajeval.Result
	for i, turn := range c.Turns {
		n := i + 1
		if n > have {
			r.Warnings = append(r.Warnings, fmt.Sprintf("the case expects %d turns, the trace has %d", len(c.Turns), have))
			for _, ev := range turn.Evaluators {
				out = append(out, trajeval.Result{Name: ev.Name, Type: ev.Type, Turn: n, Status: trajeval.StatusFail, Threshold: ev.Threshold,
					Weight: ev.Weight, Required: ev.Required, Error: fmt.Sprintf("turn %d is not in the trace", n)})
			}
			continue
		}
		view := TurnView(t, n)
		for _, ev := range turn.Evaluators {
			res := ev.Run(ctx, view)
			res.Turn = n
			out = append(out, res)
		}
	}
	return out
}

// turnCount is the number of turns of t: its turn list, or the highest turn
// its steps name.
func turnCount(t *trajeval.Trajectory) int {
	n := len(t.Turns)
	for _, s := range t.Steps {
		n = max(n, s.Turn)
	}
	return n
}

// TurnView returns the trajectory of turn n alone: its steps, renumbered
// from 1, and its turn. Run-level metrics do not belong to one turn and
// are left unreported.
func TurnView(t *trajeval.Trajectory, n int) *trajeval.Trajectory {
	v := &trajeval.Trajectory{ID: fmt.Sprintf("%s#turn%d", t.ID, n)}
	if n <= len(t.Turns) {
		v.Turns = []trajeval.Turn{t.Turns[n-1]}
	}
	v.Steps = t.TurnSteps(n)
	for i := range v.Steps {
		v.Steps[i].Index = i + 1
	}
	return v
}

func aggregate(r *trajeval.CaseResult) {
	var sum, wsum float64
	pass := true
	for _, e := range r.Evaluators {
		if e.Judge != nil {
			if r.Judge == nil {
				r.Judge = &trajeval.JudgeUsage{}
			}
			r.Judge.Add(e.Judge)
		}
		if e.Status == trajeval.StatusError {
			r.Status = trajeval.StatusError
			if r.Error == "" {
				r.Error = fmt.Sprintf("evaluator %s: %s", e.Name, e.Error)
			}
		}
		sum += e.Weight * e.Score
		wsum += e.Weight
		if e.Required && e.Status != trajeval.StatusPass {
			pass = false
		}
	}
	if wsum > 0 {
		r.Score = sum / wsum
	}
	if r.Status == trajeval.StatusError {
		return
	}
	r.Status = trajeval.StatusFail
	if pass {
		r.Status = trajeval.StatusPass
	}
}
