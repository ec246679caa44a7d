// Package run scores suites: it finds each case's trajectory, runs the
// case's evaluators and hands each result on as soon as it is known.
//
// The rules:
//  1. A case's trace comes from, in order: its own trace: file; the run's
//     --traces file; its suite's target, run for the case (see
//     package target); its suite's traces file (see suite.Suite.Traces).
//     Traces files are matched to cases by id, never by position.
//  2. A suite with no cases (suite.Suite.Open) scores every trajectory of
//     the --traces file, else of its own traces file, with its evaluators:
//     each trajectory is a case, named by its id; one with no id is named
//     by its place in the file: "line N" where the format knows the line
//     it starts on (JSON Lines), else "#N", its position (1-based). Ids
//     are not checked for repeats, so that memory does not grow with the
//     number of traces. Without traces to score, such a suite is an error
//     (see suite.CheckOpen). A traces file that also supplies cases gives,
//     for each trajectory, the case it matches first, then one row per
//     open suite, in suite order.
//  3. The --traces file is streamed: each trajectory is scored when it is
//     read, so millions of traces never sit in memory. Its results come in
//     the file's order; cases it has no trajectory for come last, as errors.
//  4. A case with no trace, an unreadable trace, or an evaluator that cannot
//     run has status error, never a silent 0 or pass. A trace cut off or
//     broken by a syntax error is unreadable: the cases of a --traces file
//     read before the break keep their results, every case not yet found
//     is an error naming the break, and so is one row of each suite with
//     no cases, named by the place of the break.
//  5. With Lenient, what comes before the damage is read instead (see
//     trace.Options.Lenient); a case scored from a trajectory the damage
//     touched is marked Partial and warned about.
//  6. A case's score is the weighted mean of its evaluators' scores; it
//     passes iff every evaluator that is not required: false passes.
//  7. Multi-turn cases: each turn's evaluators score that turn's steps
//     alone; a trace with fewer turns than the case expects fails the
//     missing turns' evaluators ("turn N is not in the trace"), and one with
//     more turns is reported as a warning. Turns are never silently
//     truncated.
//  8. Up to Options.Workers cases are scored at once (--workers, else the
//     largest execution.workers of the suites, else 1 when some case runs
//     a target, so that agents run one at a time unless asked, else one
//     per CPU that Go may use, runtime.GOMAXPROCS). Results, and the
//     warnings met with each, come in the same order whatever the number.
//  9. A --traces file that no case needs (each names its own trace: file)
//     is not read, with a warning.
//  10. With Options.Trials N > 1, each case that runs a target runs N times,
//     and its rows carry the attempt (1 to N). A recorded trace is the same
//     on every trial, so its case is scored once, with a warning; trials
//     with no case that runs a target are an error (ErrTrialsNeedTarget).
//  11. A target's run becomes a trajectory as a trace file does: a failed
//     run, an empty or unreadable output is an error of the case (its
//     attempt's), and the run goes on.
//  12. Options.Done holds rows a previous run completed (--resume): their
//     cases are not run again, and the rows are handed on, in their place,
//     to Options.Kept.
//  13. When Options.Stop is closed, no new case starts; the cases under way
//     finish and are handed on, and Run returns ErrStopped. When ctx ends,
//     target commands under way are killed and nothing more is handed on.
//  14. With Options.Only, a case it rejects is neither run nor scored, nor
//     reported missing, and the trajectories of its id in a traces file are
//     passed over in silence; a suite with no cases scores only the
//     trajectories whose ids it accepts. A row naming a break in a traces
//     file is kept whatever Only says: cases may have been lost in it.
//  15. Each row says where its trajectory came from (Trace: the file as
//     the caller named it, or the file a target's trace was dumped to),
//     when its case started (StartedAt, UTC, to the millisecond) and how
//     long it took (DurationMS, wall time: reading its own trace file or
//     running its target, and scoring). Rows of Options.Done are handed
//     on as they were.
//  16. A traces file may hold several runs of one case, each marked with
//     its trial (trajeval.Trajectory.Trial, as a τ²-bench results file
//     gives them): each trial is scored as an attempt of the case, as
//     with Options.Trials, so that the report gives pass^k; the same trial
//     twice is scored once, with a warning. --trials is not needed for
//     them.
//  17. A trajectory whose id matches no case is skipped with a warning,
//     unless a suite it could belong to says its traces hold its cases
//     only (suite.Suite.Exhaustive): it is then an error row of that
//     suite (unless Options.Only leaves its id out).
package run

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/trace"
)

// Options steer a run.
type Options struct {
	Traces string // --traces FILE, "" for none
	From   string // force a trace format
	// Workers is how many cases are scored at once: 0 takes the largest
	// execution.workers of the suites, else 1 when some case runs a
	// target, else runtime.GOMAXPROCS(0). Results come in the same order
	// whatever it is.
	Workers int
	// Lenient scores what comes before the damage of a damaged trace,
	// marked partial, instead of an error.
	Lenient bool
	Warn    func(trajeval.Warning)
	// Trials is how many times a case that runs a target runs (rule 10); 0
	// and 1 run it once, with attempt 0 in its row.
	Trials int
	// DumpTraces is a folder to write each trace a target produced to, as
	// SUITE/ID.json (ID.attempt-N.json with trials); "" for none.
	DumpTraces string
	// IncludeTrace puts the trajectory each case was scored on into its row.
	IncludeTrace bool
	// Steps, when set, is the pool the readers of traces files take their
	// step slices from (else the run makes its own, without
	// IncludeTrace). With IncludeTrace, a row that alone holds its
	// trajectory has it lent (trajeval.StepPool.Lend): the caller that
	// holds the row last gives its steps back (Steps.TakeBack) once done
	// with it. A trajectory several rows hold (rule 2) is never lent.
	Steps *trajeval.StepPool
	// DropPassing, with IncludeTrace, keeps the trajectory only in the
	// rows of cases that did not pass: a passing case's job gives its
	// steps back to Steps at once (as without IncludeTrace), for a caller
	// that keeps only failing cases' trajectories (the run history
	// without --include-trace).
	DropPassing bool
	// KeepsFailing, with DropPassing, is asked once a case that did not
	// pass is scored: false keeps its trajectory out of its row too, and
	// its job gives the steps back at once, as a passing case's (the run
	// history once it keeps the most failing cases it keeps,
	// history.Recorder.KeepsFailing). Nil keeps every failing case's. It
	// is called from the scoring goroutines.
	KeepsFailing func() bool
	// Done holds the rows of cases a previous run completed (rule 12).
	Done map[Key]trajeval.CaseResult
	// Kept receives the rows of Done in their place; nil hands them to
	// emit.
	Kept func(trajeval.CaseResult) error
	// Stop, when closed, starts no new case (rule 13).
	Stop <-chan struct{}
	// Only, when set, is asked about every case and every trajectory of a
	// suite with no cases, by suite name and id, and the run keeps those
	// it returns true for (rule 14). It is called from one goroutine at a
	// time, in the run's order.
	Only func(suite, id string) bool
}

// picked reports whether the run keeps case id of suite s (rule 14).
func (o Options) picked(s *suite.Suite, id string) bool {
	return o.Only == nil || o.Only(s.Name, id)
}

// Errors of a run.
var (
	// ErrStopped is returned when Options.Stop closed before every case
	// ran.
	ErrStopped = errors.New("stopped before every case ran")
	// ErrTrialsNeedTarget is returned when Trials asks for several trials
	// and no case runs a target.
	ErrTrialsNeedTarget = errors.New("trials need a target")
)

// partialWarning is the warning of a case scored from a partial trajectory.
const partialWarning = "the trace was damaged and read leniently: the case was scored from a partial trajectory"

// keep says which rows keep the trajectory they were scored on.
type keep struct {
	rows keepRows
	// failing, with keepFailing, is Options.KeepsFailing; nil for true.
	failing func() bool
}

// keepRows is which rows a keep keeps the trajectories of.
type keepRows uint8

const (
	keepNone    keepRows = iota
	keepAll              // Options.IncludeTrace
	keepFailing          // Options.IncludeTrace with Options.DropPassing
)

// keep is which rows keep their trajectories.
func (o Options) keep() keep {
	switch {
	case !o.IncludeTrace:
		return keep{rows: keepNone}
	case o.DropPassing:
		return keep{rows: keepFailing, failing: o.KeepsFailing}
	}
	return keep{rows: keepAll}
}

// keeps reports whether the row of a case of status s keeps its
// trajectory.
func (k keep) keeps(s trajeval.Status) bool {
	switch k.rows {
	case keepAll:
		return true
	case keepFailing:
		return s != trajeval.StatusPass && (k.failing == nil || k.failing())
	}
	return false
}

// score scores a case from t, read from the file named from, marking it
// partial when t is, and keeping t in the row as keep says. It takes the
// one option it needs, not Options: a job's closure holds what it names,
// once a case. With steps set, t is this job's alone: when the row does
// not keep it, nothing holds it once scored, and its steps go back to the
// pool; when it does, the row alone holds it, and it is lent to the row's
// last holder (see Options.Steps and readSteps).
func score(ctx context.Context, r *trajeval.CaseResult, s *suite.Suite, c *suite.Case, t *trajeval.Trajectory, from string, keep keep, steps *trajeval.StepPool) {
	scoreTo(ctx, r, s, c, t)
	r.Trace = from
	if t.Partial {
		r.Partial = true
		r.Warnings = append(r.Warnings, partialWarning)
	}
	if keep.keeps(r.Status) {
		r.Trajectory = t
		steps.Lend(t)
	} else if steps != nil {
		steps.Put(t.Steps)
		t.Steps = nil
	}
}

// Summary counts the verdicts of a run.
type Summary struct {
	Cases, Passed, Failed, Errors int
	// Judge sums the judge calls of every case; nil when none asked one.
	Judge *trajeval.JudgeUsage
}

// OK reports whether every case passed.
func (s Summary) OK() bool { return s.Failed == 0 && s.Errors == 0 }

func (s *Summary) add(r *trajeval.CaseResult) {
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

// An entry is a case a traces file supplies: its suite, by position in
// the source's suites, and its position in that suite's cases. It holds
// no pointer, so that the collector, which marks what a run holds at
// every collection, passes over a million of them as one block.
type entry struct {
	suite, i int32
	flags    entryFlags
}

// entryFlags are what a run learns of an entry.
type entryFlags uint8

const (
	done entryFlags = 1 << iota // scored, or its row handed on
	kept                        // completed by a previous run: its row is in Options.Done
	skip                        // left out by Options.Only: its trajectory is passed over
)

func (e *entry) is(f entryFlags) bool { return e.flags&f != 0 }

// Run scores every case of suites and calls emit with each result, in
// order, from one goroutine at a time. It stops early only when ctx ends
// or emit fails; results emitted before are kept by the caller. An
// unknown opts.From is an error before any case is scored.
func Run(ctx context.Context, suites []*suite.Suite, opts Options, emit func(trajeval.CaseResult) error) (Summary, error) {
	var sum Summary
	if err := Check(suites, opts); err != nil {
		return sum, err
	}
	warn := opts.Warn
	if warn == nil {
		warn = func(trajeval.Warning) {}
	}
	kept := opts.Kept
	if kept == nil {
		kept = emit
	}
	o := newOrdered(workers(opts.Workers, suites, opts), warn, func(r *trajeval.CaseResult) error {
		if err := ctx.Err(); err != nil {
			// Stopped at once: a case cut short is no result.
			return err
		}
		sum.add(r)
		if len(opts.Done) > 0 {
			if _, ok := opts.Done[KeyOf(*r)]; ok {
				return kept(*r)
			}
		}
		return emit(*r)
	})
	err := run(ctx, suites, opts, o)
	// Every result submitted is emitted, even after an error, so that the
	// summary counts what the caller was given.
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	return sum, err
}

// Check returns what would stop a run of suites with opts before any
// case: an unknown opts.From; suites with no cases and no traces to score
// (one *trajeval.SpecError each, joined); a trace file that a picked case,
// its suite or the run would read and that cannot be opened (one
// *trajeval.SpecError each, at the key that names it); trials with no case
// that runs a target (ErrTrialsNeedTarget). Run checks the same first.
func Check(suites []*suite.Suite, opts Options) error {
	if opts.From != "" {
		if _, err := trace.Lookup(opts.From); err != nil {
			return err
		}
	}
	if errs := suite.CheckOpen(suites, opts.Traces); len(errs) > 0 {
		return errors.Join(errs...)
	}
	var pick func(s *suite.Suite, c *suite.Case) bool
	if opts.Only != nil {
		pick = func(s *suite.Suite, c *suite.Case) bool { return opts.Only(s.Name, c.ID) }
	}
	if errs := suite.CheckPicked(suites, opts.Traces, pick); len(errs) > 0 {
		return errors.Join(errs...)
	}
	if opts.Trials > 1 && !runsTarget(suites, opts) {
		return fmt.Errorf("%w: --trials %d runs a case several times, and every case has a recorded trace, which is the same on every trial; give the suites a target (execution.target or --target NAME)", ErrTrialsNeedTarget, opts.Trials)
	}
	return nil
}

// RunsTarget reports whether some case of suites runs a target (an
// agent) rather than reading a recorded trace.
func RunsTarget(suites []*suite.Suite, opts Options) bool { return runsTarget(suites, opts) }

// workers returns how many cases to score at once.
func workers(n int, suites []*suite.Suite, opts Options) int {
	if n > 0 {
		return n
	}
	for _, s := range suites {
		n = max(n, s.Workers)
	}
	switch {
	case n > 0:
		return n
	case runsTarget(suites, opts):
		return 1 // agents run one at a time unless asked
	}
	return runtime.GOMAXPROCS(0)
}

func run(ctx context.Context, suites []*suite.Suite, opts Options, o *ordered) error {
	// Cases without a trace: key, grouped by the traces file that
	// supplies them: the run's --traces, else their suite's own.
	var sources []*source
	bySource := map[string]*source{}
	// The cases each traces file may supply, so that its index is made
	// once at its size rather than grown through a million cases.
	supplies := map[string]int{}
	for _, s := range suites {
		for _, c := range s.Cases {
			if from := s.Source(c, opts.Traces); from == suite.FromTraces || from == suite.FromSuite {
				supplies[tracesOf(s, opts)]++
			}
		}
	}
	sourceOf := func(file string) *source {
		src, ok := bySource[file]
		if !ok {
			src = &source{file: file, byID: suite.NewIDIndex(supplies[file]), entries: make([]entry, 0, supplies[file])}
			bySource[file] = src
			sources = append(sources, src)
		}
		return src
	}
	if opts.Traces != "" && !needsTraces(suites) {
		o.Warn(trajeval.Warning{File: opts.Traces, Msg: "not read: every case names its own trace: file"})
	}
	warnTargets(suites, opts, o)
	for _, s := range suites {
		if s.Open() {
			src := sourceOf(tracesOf(s, opts))
			src.open = append(src.open, s)
			continue
		}
		for i, c := range s.Cases {
			from := s.Source(c, opts.Traces)
			if !opts.picked(s, c.ID) {
				if from == suite.FromTraces || from == suite.FromSuite {
					// Known, so that its trajectory is passed over in silence.
					sourceOf(tracesOf(s, opts)).add(s, i, skip)
				}
				continue
			}
			if from == suite.FromTarget {
				if err := runTarget(ctx, s, c, opts, o); err != nil {
					return err
				}
				continue
			}
			if from == suite.FromFile {
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := submit(s, c, opts, o, func(warn func(trajeval.Warning), r *trajeval.CaseResult) {
					*r = scoreFromFile(ctx, s, c, opts, warn)
				}); err != nil {
					return err
				}
				continue
			}
			src := sourceOf(tracesOf(s, opts))
			var flags entryFlags
			if _, ok := opts.Done[Key{s.Name, c.ID, 0}]; ok {
				flags = kept
			}
			src.add(s, i, flags)
			if s.Exhaustive && src.exhaustive == nil {
				src.exhaustive = s
			}
		}
	}
	for _, src := range sources {
		if err := runSource(ctx, src, opts, o); err != nil {
			return err
		}
	}
	return nil
}

// tracesOf returns the traces file of suite s: the run's, else its own.
func tracesOf(s *suite.Suite, opts Options) string {
	if opts.Traces != "" {
		return opts.Traces
	}
	return s.Traces
}

// IndexBytes is about what a run holds for each case its traces files
// supply, from before the first trajectory is read to the end: its entry
// (12 bytes) and its slots in the index by id (2 to 4 of 4 bytes).
const IndexBytes = 28

// A source is a traces file and what it supplies: the cases matched to its
// trajectories by id, and the suites with no cases that score every one.
type source struct {
	file string
	// entries are the cases it supplies, in the run's order, and those
	// Options.Only leaves out (skip); byID indexes them. Values in one
	// slice, not one allocation each: a suite may list a million cases.
	entries []entry
	byID    suite.IDIndex
	// next is the position lookup tries before byID: the one after the
	// last it found, for traces mostly come in their cases' order. The
	// try skips the index's hash and its slot, a cache miss once reading
	// has passed through the cache. replaced is set when an entry took
	// the place of another of its id in byID: then the try is not made,
	// for the entry after the last found may be the one replaced.
	next     int32
	replaced bool
	// suites are the suites of the entries, in the order met.
	suites []*suite.Suite
	// trials are the trials scored of the entries whose traces mark them
	// (trajeval.Trajectory.Trial), by position.
	trials map[int32]map[int]bool
	open   []*suite.Suite
	// exhaustive is the first suite whose traces hold its cases only
	// (suite.Suite.Exhaustive); nil when none.
	exhaustive *suite.Suite
}

// add adds case i of s, which takes the place of an entry of the same id
// in byID.
func (src *source) add(s *suite.Suite, i int, flags entryFlags) {
	if n := len(src.suites); n == 0 || src.suites[n-1] != s {
		src.suites = append(src.suites, s)
	}
	src.entries = append(src.entries, entry{suite: int32(len(src.suites) - 1), i: int32(i), flags: flags})
	if src.byID.Put(s.Cases[i].ID, int32(len(src.entries)-1), src.idOf) {
		src.replaced = true
	}
}

// of returns the suite and case of e.
func (src *source) of(e *entry) (*suite.Suite, *suite.Case) {
	s := src.suites[e.suite]
	return s, s.Cases[e.i]
}

// idOf returns the case id of the entry at position i.
func (src *source) idOf(i int32) string {
	e := &src.entries[i]
	return src.suites[e.suite].Cases[e.i].ID
}

// lookup returns the entry of case id and its position. It is called by
// one goroutine at a time (the reader's callback).
func (src *source) lookup(id string) (*entry, int32, bool) {
	if i := src.next; !src.replaced && int(i) < len(src.entries) && src.idOf(i) == id {
		src.next = i + 1
		return &src.entries[i], i, true
	}
	i, ok := src.byID.Get(id, src.idOf)
	if !ok {
		return nil, 0, false
	}
	src.next = i + 1
	return &src.entries[i], i, true
}

// order returns the entries of the cases src supplies, in the run's order.
func (src *source) order() iter.Seq[*entry] {
	return func(yield func(*entry) bool) {
		for i := range src.entries {
			if e := &src.entries[i]; !e.is(skip) && !yield(e) {
				return
			}
		}
	}
}

// needsTraces reports whether some case has no trace: file of its own, or
// some suite has no cases.
func needsTraces(suites []*suite.Suite) bool {
	for _, s := range suites {
		if s.Open() {
			return true
		}
		for _, c := range s.Cases {
			if c.Trace() == "" {
				return true
			}
		}
	}
	return false
}

// result is a job whose result is already known.
func result(r trajeval.CaseResult) job {
	return func(_ func(trajeval.Warning), out *trajeval.CaseResult) { *out = r }
}

// runSource streams one traces file and scores the cases it supplies.
func runSource(ctx context.Context, src *source, opts Options, o *ordered) error {
	file := src.file
	if file == "" {
		for e := range src.order() {
			s, c := src.of(e)
			r := errorResult(s, c, fmt.Errorf("%w %q: give the case a trace: file, run with --traces FILE, or give the suite a target", trajeval.ErrNoTrace, c.ID))
			if err := submit(s, c, opts, o, result(r)); err != nil {
				return err
			}
		}
		return nil
	}
	if len(src.open) == 0 && !slices.ContainsFunc(src.entries, func(e entry) bool { return !e.is(skip | kept) }) {
		// Every case this file supplies is done: it need not be read.
		for e := range src.order() {
			s, c := src.of(e)
			if err := submit(s, c, opts, o, nil); err != nil {
				return err
			}
		}
		return nil
	}
	var readErr error
	read := 0 // trajectories read
	steps := readSteps(opts)
	err := trace.Read(ctx, file, trace.Options{From: opts.From, Lenient: opts.Lenient, KeepText: keepText && src.readsText(), Steps: steps, Warn: o.Warn}, func(t *trajeval.Trajectory) error {
		read++
		if len(src.open) > 0 {
			return scoreOpen(ctx, src, t, read, opts, o, steps)
		}
		return scoreMatched(ctx, src, t, opts, o, steps)
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
		id := fmt.Sprintf("#%d", read+1)
		if te.Line > 0 {
			id = fmt.Sprintf("line %d", te.Line)
		}
		for _, s := range src.open {
			c := &suite.Case{ID: id}
			if err := submit(s, c, opts, o, result(errorResult(s, c, err))); err != nil {
				return err
			}
		}
	}
	for e := range src.order() {
		if e.is(done) {
			continue
		}
		s, c := src.of(e)
		why := fmt.Errorf("%w %q in %s", trajeval.ErrNoTrace, c.ID, file)
		if readErr != nil {
			why = fmt.Errorf("no trace %q: %w", c.ID, readErr)
		}
		if err := submit(s, c, opts, o, result(errorResult(s, c, why))); err != nil {
			return err
		}
	}
	return nil
}

// scoreOpen submits trajectory t, the n-th of its file, as the case it
// matches (if any) and as a case of each suite with no cases (rule 2).
// Its steps go back to the pool steps only when one job scores it.
func scoreOpen(ctx context.Context, src *source, t *trajeval.Trajectory, n int, opts Options, o *ordered, steps *trajeval.StepPool) error {
	if len(src.open) > 1 {
		steps = nil
	}
	if _, _, ok := src.lookup(t.ID); ok && t.ID != "" {
		if err := scoreMatched(ctx, src, t, opts, o, nil); err != nil {
			return err
		}
		steps = nil
	}
	id := t.ID
	if id == "" {
		id = fmt.Sprintf("#%d", n)
		if t.Line > 0 {
			id = fmt.Sprintf("line %d", t.Line)
		}
	}
	include, trial := opts.keep(), t.Trial // t is not read once scored into steps
	for _, s := range src.open {
		if !opts.picked(s, id) {
			continue
		}
		c := &suite.Case{ID: id, Evaluators: s.Evaluators}
		if err := submitAttempt(s, c, t.Trial, opts, o, func(_ func(trajeval.Warning), r *trajeval.CaseResult) {
			score(ctx, r, s, c, t, src.file, include, steps)
			r.Attempt = trial
		}); err != nil {
			return err
		}
	}
	return nil
}

// scoreMatched submits trajectory t as the case whose id it has; steps,
// when set, takes its steps back once scored (see score).
func scoreMatched(ctx context.Context, src *source, t *trajeval.Trajectory, opts Options, o *ordered, steps *trajeval.StepPool) error {
	file, include := src.file, opts.keep()
	e, pos, ok := src.lookup(t.ID)
	switch {
	case t.ID == "":
		o.Warn(trajeval.Warning{File: file, Line: t.Line, Msg: "a trace without an id cannot be matched to a case; skipped"})
		return nil
	case !ok && src.exhaustive != nil && opts.picked(src.exhaustive, t.ID):
		s := src.exhaustive
		c := &suite.Case{ID: t.ID}
		r := errorResult(s, c, fmt.Errorf("the trace in %s has id %q, and %s has no case of that id", file, t.ID, s.File))
		r.Attempt = t.Trial
		return submitAttempt(s, c, t.Trial, opts, o, result(r))
	case !ok:
		o.Warn(trajeval.Warning{File: file, Line: t.Line, Place: "trace " + t.ID, Msg: "matches no case id; skipped"})
		return nil
	case e.is(skip):
		return nil
	case t.Trial > 0:
		// Several runs of the case (rule 16): each trial once.
		if src.trials[pos][t.Trial] {
			o.Warn(trajeval.Warning{File: file, Line: t.Line, Place: "trace " + t.ID, Msg: fmt.Sprintf("trial %d appears twice; the first was scored", t.Trial)})
			return nil
		}
		if src.trials == nil {
			src.trials = map[int32]map[int]bool{}
		}
		if src.trials[pos] == nil {
			src.trials[pos] = map[int]bool{}
		}
		src.trials[pos][t.Trial] = true
		e.flags |= done
		s, c := src.of(e)
		trial := t.Trial
		return submitAttempt(s, c, trial, opts, o, func(_ func(trajeval.Warning), r *trajeval.CaseResult) {
			score(ctx, r, s, c, t, file, include, steps)
			r.Attempt = trial
		})
	case e.is(done):
		o.Warn(trajeval.Warning{File: file, Line: t.Line, Place: "trace " + t.ID, Msg: "appears twice; the first was scored"})
		return nil
	}
	e.flags |= done
	s, c := src.of(e)
	return submit(s, c, opts, o, func(_ func(trajeval.Warning), r *trajeval.CaseResult) { score(ctx, r, s, c, t, file, include, steps) })
}

// errorResult is the row of case c of s that err kept from being scored.
func errorResult(s *suite.Suite, c *suite.Case, err error) trajeval.CaseResult {
	return trajeval.CaseResult{ID: c.ID, Suite: s.Name, Status: trajeval.StatusError, Error: err.Error(), Evaluators: []trajeval.Result{}}
}

// scoreFromFile reads a case's own trace file. A file holding several
// trajectories must hold one with the case's id.
func scoreFromFile(ctx context.Context, s *suite.Suite, c *suite.Case, opts Options, warn func(trajeval.Warning)) trajeval.CaseResult {
	t, warnings, err := readOne(c, c.Trace(), opts.Lenient, warn, func(o trace.Options, yield func(*trajeval.Trajectory) error) error {
		o.From = opts.From
		return trace.Read(ctx, c.Trace(), o, yield)
	})
	if err != nil {
		r := errorResult(s, c, err)
		r.Warnings = warnings
		return r
	}
	var r trajeval.CaseResult
	score(ctx, &r, s, c, t, c.Trace(), opts.keep(), nil)
	r.Warnings = append(warnings, r.Warnings...)
	return r
}

// timed returns j, recording when it starts and how long it takes in its
// row (rule 15).
func timed(j job) job {
	return func(warn func(trajeval.Warning), r *trajeval.CaseResult) {
		start := time.Now()
		j(warn, r)
		r.StartedAt = start.UTC().Truncate(time.Millisecond)
		r.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	}
}

// readSteps returns the pool a traces file's readers take their step
// slices from, and the run gives each trajectory's back to once the one
// job that scores it is done (score), or lends it to the caller with its
// row: Options.Steps when set; else nil, so that every slice is made new,
// when rows keep their trajectories (IncludeTrace) with no pool to lend
// them from; nil too when a test turns recycling off. A trajectory is the
// reader's until yielded, then its job's, then its row's when the row
// keeps it; a row holds no step of it otherwise: evaluators copy what
// they report (ids, names, numbers). So the slices in flight are about
// the trajectories between the reader and the rows (and the rows' last
// holder), not one per trajectory read.
func readSteps(opts Options) *trajeval.StepPool {
	switch {
	case !RecycleSteps:
		return nil
	case opts.Steps != nil:
		return opts.Steps
	case opts.IncludeTrace:
		return nil
	}
	return new(trajeval.StepPool)
}

// RecycleSteps lets a run reuse the step slices of the trajectories it
// has scored, and the memory they point at (see readSteps). Tests, of
// this package and of the command, turn it off to compare the two: a
// run's results must not change.
var RecycleSteps = true

// keepText lets the trace readers keep arguments and results as JSON text
// (see trajeval.Input.KeepText): the evaluators decode what they look at,
// or are handed the trajectory decoded (see eval.TextReader). Tests turn
// it off to compare the two.
var keepText = true

// Prepare returns t as the evaluators expect it: nil is empty, and steps
// built by hand (with no Index) are numbered by
// [trajeval.Trajectory.Finish], on a copy: t itself is not changed.
func Prepare(t *trajeval.Trajectory) *trajeval.Trajectory {
	if t == nil {
		return &trajeval.Trajectory{}
	}
	if !slices.ContainsFunc(t.Steps, func(s trajeval.Step) bool { return s.Index == 0 }) {
		return t
	}
	c := *t
	c.Steps, c.Turns = slices.Clone(t.Steps), slices.Clone(t.Turns)
	c.Finish()
	return &c
}

// Score runs a case's evaluators on t.
func Score(ctx context.Context, s *suite.Suite, c *suite.Case, t *trajeval.Trajectory) trajeval.CaseResult {
	var r trajeval.CaseResult
	scoreTo(ctx, &r, s, c, t)
	return r
}

// scoreTo is Score, written to r: a run scores each case into the place
// it is handed on from.
func scoreTo(ctx context.Context, r *trajeval.CaseResult, s *suite.Suite, c *suite.Case, t *trajeval.Trajectory) {
	*r = trajeval.CaseResult{ID: c.ID, Suite: s.Name}
	if n := evaluatorCount(c); n > 0 {
		// At its size: grown by append, the results of three evaluators
		// take three allocations and two copies.
		r.Evaluators = make([]trajeval.Result, 0, n)
	}
	for _, ev := range c.Evaluators {
		r.Evaluators = append(r.Evaluators, ev.Run(ctx, t))
	}
	if len(c.Turns()) > 0 {
		r.Evaluators = append(r.Evaluators, scoreTurns(ctx, c, t, r)...)
	}
	if r.Evaluators == nil {
		// Nothing to score is not a pass.
		r.Evaluators = []trajeval.Result{}
		r.Status, r.Error = trajeval.StatusError, "the case has no evaluators"
		return
	}
	aggregate(r)
}

// readsText reports whether every evaluator that scores the cases src
// supplies reads kept JSON text itself (see eval.TextReader): only then
// may its readers keep it. One that does not would be handed the
// trajectory decoded, and text scanned first and decoded after costs more
// than values decoded as they are read (a suite of such evaluators took
// 16% more instructions).
func (src *source) readsText() bool {
	for _, s := range src.open {
		if !slices.ContainsFunc(s.Evaluators, decodes) {
			continue
		}
		return false
	}
	for i := range src.entries {
		if _, c := src.of(&src.entries[i]); !readsText(c) {
			return false
		}
	}
	return true
}

// readsText reports whether every evaluator of case c reads kept JSON
// text itself and c scores no turns.
func readsText(c *suite.Case) bool {
	return len(c.Turns()) == 0 && !slices.ContainsFunc(c.Evaluators, decodes)
}

// decodes reports whether ev is handed trajectories decoded: it does not
// read kept text itself, as Configured.Run asks (eval.ReadsText).
func decodes(ev *eval.Configured) bool { return !ev.ReadsText() }

// evaluatorCount is how many results scoring c gives: its evaluators'
// and its turns'.
func evaluatorCount(c *suite.Case) int {
	n := len(c.Evaluators)
	for _, turn := range c.Turns() {
		n += len(turn.Evaluators)
	}
	return n
}

func scoreTurns(ctx context.Context, c *suite.Case, t *trajeval.Trajectory, r *trajeval.CaseResult) []trajeval.Result {
	have := turnCount(t)
	if have > len(c.Turns()) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the trace has %s, the case expects %d; turns %d to %d are not scored per turn", plural.Count(have, "turn", "turns"), len(c.Turns()), len(c.Turns())+1, have))
	}
	var out []trajeval.Result
	for i, turn := range c.Turns() {
		n := i + 1
		if n > have {
			r.Warnings = append(r.Warnings, fmt.Sprintf("the case expects %s, the trace has %d", plural.Count(len(c.Turns()), "turn", "turns"), have))
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
// from 1, its turn, and the whole trajectory's agents (so an agent scope
// knows an agent that is idle in this turn). Run-level metrics do not belong to one turn and
// are left unreported.
func TurnView(t *trajeval.Trajectory, n int) *trajeval.Trajectory {
	v := &trajeval.Trajectory{ID: fmt.Sprintf("%s#turn%d", t.ID, n), Agents: t.Agents}
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
	for i := range r.Evaluators {
		e := &r.Evaluators[i] // a Result is some 170 bytes: not copied
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
