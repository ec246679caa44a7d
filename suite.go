package trajeval

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// A Suite is the eval cases loaded from a suite file, or from every suite
// file of a folder. See [LoadSuite].
type Suite struct {
	// Cases are its cases, suite file by suite file, in file order.
	Cases []*Case
	// Warnings are the problems that did not stop it from loading, such
	// as a setting that checks nothing.
	Warnings []Warning

	path   string
	suites []*suite.Suite
	judges *judge.Runtime
}

// A Case is one eval case of a [Suite].
type Case struct {
	ID    string
	Suite string // the name of its suite
	File  string // its suite file
	Input string // the user's input, as text
	// Evaluators are the case's own evaluators, each with the settings
	// its file gives it (name, threshold, weight, required, negate), which
	// [Evaluate] applies. A multi-turn case's per-turn evaluators are not
	// among them: [Case.Score] runs them.
	Evaluators []Evaluator

	c *suite.Case
	s *suite.Suite
}

// LoadSuite loads the suite file at path, or every suite file in the
// folder at path (searched recursively; hidden folders, testdata and
// node_modules are skipped).
//
// These dialects are read, each translated into the same evaluators:
//  1. AgentV YAML (evalcases or tests, with AgentV's newer spellings);
//  2. Google ADK eval sets (*.evalset.json, *.test.json), with the
//     test_config.json beside them;
//  3. UiPath evaluation sets (JSON with evaluations and evaluatorRefs);
//  4. τ²-bench task files (a list of tasks with evaluation_criteria),
//     scored against the results file beside them (docs/tau2.md).
//
// The error holds every configuration error found, not only the first,
// sorted by file, line and column: each is a *[SpecError] (file:line:col,
// the setting's path, the message and a hint), wrapping [ErrConfig]. The
// error is an errors.Join of them: errors.As finds the first, and its
// Unwrap() []error method lists them all.
//
// A judged evaluator (llm_judge and the judged evaluators of the
// dialects) asks the OpenAI-compatible endpoint of its judge: block, or
// of OPENAI_API_KEY, OPENAI_BASE_URL and TRAJEVAL_JUDGE_MODEL, and caches
// the answers under the user's cache folder, as the command does.
func LoadSuite(path string) (*Suite, error) {
	s := &Suite{path: path, judges: &judge.Runtime{}}
	if err := s.load(suite.Options{Judges: s.judges}); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Suite) load(opts suite.Options) error {
	opts.Dialects = dialects.All()
	suites, errs := suite.Load([]string{s.path}, opts)
	if len(errs) > 0 {
		suite.SortErrors(errs)
		return errors.Join(errs...)
	}
	s.suites, s.Cases, s.Warnings = suites, nil, nil
	for _, ss := range suites {
		s.Warnings = append(s.Warnings, ss.Warnings...)
		for _, c := range ss.Cases {
			evs := make([]Evaluator, len(c.Evaluators))
			for i, e := range c.Evaluators {
				evs[i] = suiteEvaluator{e}
			}
			s.Cases = append(s.Cases, &Case{ID: c.ID, Suite: ss.Name, File: ss.File, Input: c.Input, Evaluators: evs, c: c, s: ss})
		}
	}
	return nil
}

// Score scores t as the case, as [Suite.Run] would: its evaluators, then
// each turn's evaluators on that turn's steps alone. Its score is the
// mean of the evaluators' scores, weighted by their weights; it passes
// iff every required evaluator passes; an evaluator that cannot run makes
// it [StatusError]. A nil t is scored as an empty trajectory, and steps
// built by hand are numbered, as [Evaluate] does.
func (c *Case) Score(ctx context.Context, t *Trajectory) CaseResult {
	if c.c == nil {
		return CaseResult{ID: c.ID, Suite: c.Suite, Status: StatusError, Evaluators: []Result{},
			Error: "the case has no evaluators: score the cases of a suite that LoadSuite loaded"}
	}
	t = prepare(t)
	r := run.Score(ctx, c.s, c.c, t)
	r.Partial = t.Partial
	return r
}

// RunOptions steer [Suite.Run]; the zero value runs the suite as its
// files say, one case at a time.
type RunOptions struct {
	// Traces is a trace file holding the trajectories of the cases that
	// name no trace file of their own, matched to cases by id (the
	// command's --traces). It is streamed: each trajectory is scored as
	// it is read.
	Traces string
	// Format forces the format of every trace; "" detects it.
	Format string
	// Lenient scores what comes before the damage of a damaged trace,
	// marked Partial, instead of an error.
	Lenient bool
	// Workers is how many cases are scored at once; 0 is the suites'
	// execution.workers, else 1. Results come in the same order whatever
	// it is.
	Workers int
	// Threshold is the pass threshold of every evaluator that sets none
	// of its own, over the files' defaults (the command's --threshold); 0
	// leaves the files' thresholds.
	Threshold float64
	// Only, when set, runs only the cases for which it returns true:
	// the others are neither scored nor run by a target, and their traces
	// are passed over in silence. It is given the cases of the suite the
	// run loaded, so compare them by Suite and ID.
	Only func(*Case) bool
	// Warn receives each problem that did not stop a case from being
	// scored (a trace that matches no case, a damaged trace read
	// leniently); nil drops them. It is called one warning at a time,
	// possibly from another goroutine.
	Warn func(Warning)
}

// Run scores every case of the suite and yields each result as soon as
// it is known, in file order (with Traces, in that file's order, and the
// cases it holds no trace for last).
//
// The rules:
//  1. A case's trace is its own trace file; else Options.Traces; else the
//     suite's target, run for the case (the agent is run headless, and
//     its trace read like a recorded one); else the traces file of the
//     suite (its traces: key, or a traces.jsonl beside it).
//  2. A case with no trace, an unreadable trace or an evaluator that
//     cannot run is yielded with [StatusError] and the reason, never a
//     silent 0 or a pass; the run goes on.
//  3. An error that stops the whole run (an unknown Format, a threshold
//     out of range, a suite file that no longer loads, a judged evaluator
//     with no judge to ask, ctx ending) is yielded last, with a zero
//     CaseResult.
//  4. Breaking out of the loop stops the run cleanly: no new case starts,
//     target commands under way are stopped, and Run returns when they
//     have.
//
// The loop body runs on the caller's goroutine. Setting Threshold or
// Traces reads the suite files again, since both change how they load.
// Trials, resuming and choosing another target are the command's alone.
func (s *Suite) Run(ctx context.Context, opts RunOptions) iter.Seq2[CaseResult, error] {
	return func(yield func(CaseResult, error) bool) {
		if err := s.runAll(ctx, opts, yield); err != nil {
			yield(CaseResult{}, err)
		}
	}
}

// runAll runs the suites on another goroutine and yields their results
// on this one, so that the loop body may call t.FailNow or panic.
func (s *Suite) runAll(ctx context.Context, opts RunOptions, yield func(CaseResult, error) bool) error {
	suites, cases := s.suites, s.Cases
	if opts.Threshold != 0 || opts.Traces != "" {
		if !(opts.Threshold >= 0 && opts.Threshold <= 1) {
			return fmt.Errorf("%w: the threshold must be between 0 and 1, got %v", ErrConfig, opts.Threshold)
		}
		again := &Suite{path: s.path, judges: s.judges}
		lo := suite.Options{Judges: s.judges, Traces: opts.Traces}
		if opts.Threshold != 0 {
			lo.Threshold = &opts.Threshold
		}
		if err := again.load(lo); err != nil {
			return err
		}
		suites, cases = again.suites, again.Cases
	}
	if err := s.judges.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan CaseResult)
	more := make(chan bool)
	done := make(chan error, 1)
	ro := run.Options{Traces: opts.Traces, From: opts.Format, Workers: opts.Workers, Lenient: opts.Lenient, Warn: opts.Warn}
	if opts.Only != nil {
		// The cases left out are run as if a previous run had done them,
		// and their rows are dropped.
		ro.Done = map[run.Key]CaseResult{}
		for _, c := range cases {
			if !opts.Only(c) {
				ro.Done[run.Key{Suite: c.Suite, ID: c.ID}] = CaseResult{ID: c.ID, Suite: c.Suite}
			}
		}
		ro.Kept = func(CaseResult) error { return nil }
	}
	go func() {
		_, err := run.Run(ctx, suites, ro, func(r CaseResult) error {
			select {
			case results <- r:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case ok := <-more:
				if !ok {
					return errBreak
				}
				return nil
			case <-ctx.Done():
				// The loop body left without returning (t.FailNow, a
				// panic): cancel ends the run.
				return ctx.Err()
			}
		})
		done <- err
	}()
	for {
		select {
		case r := <-results:
			ok := yield(r, nil)
			more <- ok
			if !ok {
				cancel()
				<-done
				return nil
			}
		case err := <-done:
			return err
		}
	}
}
