package suite

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/run"
	isuite "github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/bfcl"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/suite/tau2"
	"github.com/trajeval/trajeval/internal/target"
	"github.com/trajeval/trajeval/internal/trace"
)

// A Suite is the eval cases loaded from suite files, or from every suite
// file of folders. See [Load].
type Suite struct {
	// Cases are its cases, suite file by suite file, in file order.
	Cases []*Case
	// Open names its suites that have no cases: each scores every
	// trajectory of its traces (RunOptions.Traces, else its own traces
	// file) with its evaluators, as a case named by the trajectory's id.
	Open []string
	// Warnings are the problems that did not stop it from loading, such
	// as a setting that checks nothing.
	Warnings []trajeval.Warning

	paths  []string
	load   loadKey // the settings it was loaded with
	suites []*isuite.Suite
	judges *judge.Runtime
}

// loadKey is what of [RunOptions] changes how suite files load.
type loadKey struct {
	config, target, traces string
	maxOutput              int64
	questions              string
	threshold              float64
	judgeWorkers           int
	cacheDir               string
	noCache                bool
	basis                  string // Basis joined by commas, "-" when nil
}

func keyOf(o RunOptions) loadKey {
	basis := "-"
	if o.Basis != nil {
		basis = strings.Join(o.Basis, ",")
	}
	return loadKey{config: o.Config, target: o.Target, maxOutput: o.MaxOutput, traces: o.Traces, questions: o.Questions, threshold: o.Threshold,
		judgeWorkers: o.Judge.Workers, cacheDir: o.Judge.CacheDir, noCache: o.Judge.NoCache, basis: basis}
}

// A Case is one eval case of a [Suite].
type Case struct {
	ID    string
	Suite string // the name of its suite
	File  string // its suite file
	Input string // the user's input, as text
	// Evaluators are the case's own evaluators, each with the settings
	// its file gives it (name, threshold, weight, required, negate), which
	// [check.Evaluate] applies. A multi-turn case's per-turn evaluators are not
	// among them: [Case.Score] runs them. Cases of one file with the same
	// evaluators (the suite's) share this slice: replace it rather than
	// write into it.
	Evaluators []trajeval.Evaluator

	c *isuite.Case
	s *isuite.Suite
}

// Load loads the suite files at paths, and every suite file in the
// folders at paths (searched recursively; hidden folders, testdata and
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
// sorted by file, line and column: each is a *[trajeval.SpecError] (file:line:col,
// the setting's path, the message and a hint), wrapping [trajeval.ErrConfig]. The
// error is an errors.Join of them: errors.As finds the first, and its
// Unwrap() []error method lists them all.
//
// A judged evaluator (llm_judge and the judged evaluators of the
// dialects) asks the OpenAI-compatible endpoint of its judge: block, or
// of OPENAI_API_KEY, OPENAI_BASE_URL and TRAJEVAL_JUDGE_MODEL, and caches
// the answers under the user's cache folder, as the command does.
//
// Load loads with the zero [RunOptions]; [RunOptions.Load] loads
// with the settings of a run.
func Load(paths ...string) (*Suite, error) {
	return RunOptions{}.Load(paths...)
}

// Load loads the suites at paths as [Load] does, with the settings
// of o that change how suite files load: Config, Questions, Target,
// MaxOutput, Threshold, Traces and Judge. [Suite.Run] with the same settings then does not read
// the files again. A Threshold out of range is an error wrapping
// [trajeval.ErrConfig].
func (o RunOptions) Load(paths ...string) (*Suite, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("%w: no suite file or folder to load", trajeval.ErrConfig)
	}
	if !(o.Threshold >= 0 && o.Threshold <= 1) {
		return nil, fmt.Errorf("%w: the threshold must be between 0 and 1, got %v", trajeval.ErrConfig, o.Threshold)
	}
	s := &Suite{paths: paths, load: keyOf(o)}
	s.judges = &judge.Runtime{Getenv: o.Judge.Getenv, Workers: o.Judge.Workers, CacheDir: o.Judge.CacheDir, NoCache: o.Judge.NoCache}
	lo := isuite.Options{Config: o.Config, Target: o.Target, MaxOutput: o.MaxOutput, Traces: o.Traces, Judges: s.judges, Dialects: dialects.All(), Basis: o.Basis, Questions: o.Questions}
	if o.Threshold != 0 {
		lo.Threshold = &o.Threshold
	}
	if err := tau2.CheckBasis(o.Basis); err != nil {
		return nil, &trajeval.SpecError{Msg: err.Error()}
	}
	suites, errs := isuite.Load(paths, lo)
	if o.Basis != nil && len(errs) == 0 && !slices.ContainsFunc(suites, func(s *isuite.Suite) bool { return s.Dialect == tau2.Dialect.Name }) {
		// A setting that changes nothing is a mistake.
		errs = append(errs, &trajeval.SpecError{Msg: "the reward basis (Basis, --basis) applies to τ²-bench task files, and no suite is one", Hint: "leave it out, or load a tasks.json"})
	}
	if o.Questions != "" && len(errs) == 0 && !slices.ContainsFunc(suites, func(s *isuite.Suite) bool { return s.Dialect == bfcl.Dialect.Name }) {
		errs = append(errs, &trajeval.SpecError{Msg: "a question file (Questions, --questions) applies to BFCL possible-answer files, and no suite is one", Hint: "leave it out, or load BFCL's possible answers"})
	}
	if o.MaxOutput > 0 && len(errs) == 0 && !slices.ContainsFunc(suites, func(s *isuite.Suite) bool { return s.Target != nil }) {
		errs = append(errs, &trajeval.SpecError{Msg: "an output cap (MaxOutput, --max-output) applies to targets, and no suite has one", Hint: "leave it out, or name a target with --target NAME or execution.target"})
	}
	if len(errs) > 0 {
		isuite.SortErrors(errs)
		return nil, errors.Join(errs...)
	}
	s.suites = suites
	for _, ss := range suites {
		s.Warnings = append(s.Warnings, ss.Warnings...)
		if ss.Open() {
			s.Open = append(s.Open, ss.Name)
		}
		// One slice of Cases a file, not an allocation each, and one
		// slice of Evaluators for the cases that share the suite's: a
		// suite may list a million cases.
		cases := make([]Case, len(ss.Cases))
		var shared []*eval.Configured
		evs := []trajeval.Evaluator{}
		for i, c := range ss.Cases {
			if !sameSlice(c.Evaluators, shared) {
				shared, evs = c.Evaluators, make([]trajeval.Evaluator, len(c.Evaluators))
				for i, e := range c.Evaluators {
					evs[i] = evaluator{e}
				}
			}
			cases[i] = Case{ID: c.ID, Suite: ss.Name, File: ss.File, Input: c.Input, Evaluators: evs[:len(evs):len(evs)], c: c, s: ss}
			s.Cases = append(s.Cases, &cases[i])
		}
	}
	return s, nil
}

// sameSlice reports whether a and b are the same slice: the same
// elements, not equal ones.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// CheckFiles checks what a run would find only case by case, as the
// command's validate does: that every trace file the suites name (trace:
// and traces:) exists and reads without error as a run would read it
// (damage is the reader's positioned error), and that the program of every
// target a case runs is found. The error joins a *[trajeval.SpecError] for each
// problem, at the setting's place, sorted as [Load]'s.
func (s *Suite) CheckFiles() error {
	errs := isuite.CheckTraces(s.suites)
	errs = append(errs, isuite.CheckContents(context.Background(), s.suites)...)
	errs = append(errs, isuite.CheckTargets(s.suites, s.load.traces)...)
	isuite.SortErrors(errs)
	return errors.Join(errs...)
}

// Score scores t as the case, as [Suite.Run] would: its evaluators, then
// each turn's evaluators on that turn's steps alone. Its score is the
// mean of the evaluators' scores, weighted by their weights; it passes
// iff every required evaluator passes; an evaluator that cannot run makes
// it [trajeval.StatusError]. A nil t is scored as an empty trajectory, and steps
// built by hand are numbered, as [check.Evaluate] does.
func (c *Case) Score(ctx context.Context, t *trajeval.Trajectory) trajeval.CaseResult {
	if c.c == nil {
		return trajeval.CaseResult{ID: c.ID, Suite: c.Suite, Status: trajeval.StatusError, Evaluators: []trajeval.Result{},
			Error: "the case has no evaluators: score the cases of a suite that Load loaded"}
	}
	t = run.Prepare(t)
	r := run.Score(ctx, c.s, c.c, t)
	r.Partial = t.Partial
	return r
}

// ErrStopped ends a run whose [RunOptions].Stop closed before every case
// ran.
var ErrStopped = run.ErrStopped

// RunOptions steer [Suite.Run]; the zero value runs the suites as their
// files say, each case once.
//
// Its settings answer four questions:
//  1. where each case's trajectory comes from: Traces, Format, Lenient,
//     Target, Trials;
//  2. which cases run: Filter, Only, Done;
//  3. how they are scored: Threshold, Config, Judge, Workers;
//  4. what comes back besides the results: IncludeTrace, DumpTraces,
//     Warn; and when to stop: Stop.
//
// Config, Target, Threshold, Traces and Judge change how the suite files
// load. A run with other values of them than its suite was loaded with
// ([RunOptions.Load]; [Load] loads with none) reads the files again
// first, and a configuration error is the run's error.
type RunOptions struct {
	// Traces is a trace file holding the trajectories of the cases that
	// name no trace file of their own, matched to cases by id (the
	// command's --traces). It is streamed: each trajectory is scored as
	// it is read. A suite with no cases scores every trajectory in it.
	Traces string
	// Format forces the format of every trace; "" detects it.
	Format string
	// Lenient scores what comes before the damage of a damaged trace,
	// marked Partial, instead of an error.
	Lenient bool
	// Target names the target that runs the cases with no recorded trace
	// (no trace: and no Traces), over each suite's execution.target. Each
	// suite that runs one must define it, under targets: or in a
	// targets.yaml beside it.
	Target string
	// Trials runs each case that runs a target that many times; 0 and 1
	// run it once. Each row carries its Attempt, 1 to Trials. A case with
	// a recorded trace is the same on every trial: it is scored once,
	// with a warning, and Trials with no case that runs a target is an
	// error.
	Trials int
	// MaxOutput caps, in bytes, what a target's command may write to
	// standard output, to standard error and to {OUTPUT_FILE}, each, over
	// each target's max_output; 0 keeps the targets' own (256 MiB when
	// they set none). Set with no suite that has a target, it is an error
	// wrapping [trajeval.ErrConfig]. A command that writes more is killed and its
	// case is an error naming the stream.
	MaxOutput int64

	// Filter picks the cases to run by id; nil runs them all. Its rules:
	//  1. a pattern is a glob, matched against the whole id: * matches any
	//     characters but /, ? one character, [a-z] one of a class, and \
	//     escapes (see path.Match);
	//  2. a pattern written /RE/ is a regular expression (Go's syntax),
	//     found anywhere in the id unless anchored with ^ and $;
	//  3. each pattern is tried on the case's id and on SUITE/ID, its
	//     suite's name and its id: refund-* picks the refund cases of
	//     every suite, shop/* every case of suite shop;
	//  4. a case is picked when some pattern matches it; a multi-turn
	//     case is one case, and every trial of a picked case runs;
	//  5. a suite with no cases picks the trajectories of its traces by
	//     the id their rows have (the trajectory's id, else "line N" or
	//     "#N");
	//  6. a pattern that picks nothing is an error naming it and the ids
	//     nearest to it: before any case runs, or, when some suite has no
	//     cases, at the end of the run, once its traces are read;
	//  7. the cases left out are neither run nor scored, and their
	//     trajectories in a traces file are passed over in silence.
	Filter []string
	// Only, when set, runs only the cases for which it returns true, as
	// Filter does; a case runs when both pick it. It is given the cases
	// of the suite the run loaded, so compare them by Suite and ID. The
	// trajectories of a suite with no cases are not cases: Only is not
	// asked about them.
	Only func(*Case) bool
	// Done holds rows a previous run completed, for instance read back
	// from its results file, to finish that run: a case (an attempt,
	// with Trials) with a row of the same Suite, ID and Attempt is not
	// run again, and the row is yielded in its place, as it was. Rows
	// that are no case of this run are not yielded.
	Done []trajeval.CaseResult
	// Shard runs one part of the cases picked by Filter and Only (see
	// [Shard] for how they are split), and stamps each result with it
	// (CaseResult.Shard); the zero Shard runs them all.
	Shard Shard

	// Workers is how many cases are scored at once; 0 is the largest
	// execution.workers of the suites, else 1 when some case runs a target
	// (agents run one at a time unless asked), else one per CPU. Results
	// come in the same order whatever it is.
	Workers int
	// Threshold is the pass threshold of every evaluator that sets none
	// of its own, over the files' defaults (the command's --threshold); 0
	// leaves the files' thresholds. It must be between 0 and 1.
	Threshold float64
	// Config is the ADK test_config.json of every ADK eval set, over the
	// one beside each; "" uses the one beside each.
	Config string
	// Basis narrows the reward of every τ²-bench task to these components
	// (ACTION, COMMUNICATE, NL_ASSERTION, DB, ENV_ASSERTION): a task's
	// reward is then the product over its reward_basis and Basis (see
	// docs/tau2.md). nil keeps each task's reward_basis. A name τ² does
	// not know, or a Basis when no suite is a τ² task file, is an error.
	Basis []string
	// Questions is the BFCL question file of every BFCL possible-answer
	// file, over the one found beside each; "" uses the one beside each.
	// Questions when no suite is a BFCL possible-answer file is an error.
	Questions string
	// Judge steers the requests of judged evaluators.
	Judge JudgeOptions

	// IncludeTrace puts the trajectory each case was scored on into its
	// result (CaseResult.Trajectory).
	IncludeTrace bool
	// Steps, when set with IncludeTrace, lends each result that alone
	// holds its trajectory that trajectory (see trajeval.StepPool.Lend):
	// the caller gives its steps back with Steps.TakeBack once nothing
	// reads them, so that a long run reuses them. nil lends none.
	Steps *trajeval.StepPool
	// DropPassing, with IncludeTrace, leaves the trajectory out of the
	// result of a case that passed, its steps given back to Steps as it is
	// scored: for a caller that keeps only the failing cases'.
	DropPassing bool
	// KeepsFailing, with DropPassing, is asked once a case that did not
	// pass is scored: false leaves its trajectory out of its result too,
	// its steps given back as a passing case's. It is called from the
	// scoring goroutines; nil keeps every failing case's trajectory.
	KeepsFailing func() bool
	// DumpTraces is a folder to write each trace a target produced to, as
	// SUITE/ID.json (ID.attempt-N.json with Trials); the result's Trace
	// names the file. "" writes none.
	DumpTraces string
	// Warn receives each problem that did not stop a case from being
	// scored (a trace that matches no case, a damaged trace read
	// leniently); nil drops them. Run calls it on the goroutine that
	// ranges over it, in order with the results.
	Warn func(trajeval.Warning)
	// Stop, when closed, starts no new case: the cases under way finish
	// and are yielded, and the run ends with [ErrStopped]. Ending ctx
	// instead stops at once, killing the targets under way.
	Stop <-chan struct{}
}

// JudgeOptions steer the requests of judged evaluators (llm_judge and the
// judged evaluators of the dialects).
type JudgeOptions struct {
	// Workers is how many requests are sent at once; 0 is 4.
	Workers int
	// CacheDir is the folder of cached answers; "" is trajeval/judge
	// under the user's cache folder.
	CacheDir string
	// NoCache asks the judge again instead of using cached answers.
	NoCache bool
	// Getenv reads the judge's variables (OPENAI_API_KEY,
	// OPENAI_BASE_URL, TRAJEVAL_JUDGE_MODEL, ...) when the suite files
	// load; nil reads the process's environment.
	Getenv func(string) string
}

// Plan returns the cases s.Run(ctx, o) would score, in order, or why it
// would stop before scoring any:
//  1. an unknown Format, a Threshold out of range, a suite file that no
//     longer loads with o's settings (see [RunOptions]);
//  2. a judged evaluator with no judge to ask;
//  3. a suite with no cases and no traces to score (a *[trajeval.SpecError]
//     each, joined);
//  4. Trials with no case that runs a target;
//  5. a Filter pattern that is malformed, or that picks no case when
//     every suite has cases (a suite without cases picks among its
//     trajectories, known only as Run reads them).
//  6. a trace file that a picked case, its suite or o.Traces would have
//     the run read and that cannot be opened (a *[trajeval.SpecError] at the key
//     that names it, with the names near it), so that a mistyped path is
//     a configuration error, not a failed case.
//
// The trajectories of the suites in s.Open are not known before they are
// read, and are not among the cases.
func (s *Suite) Plan(o RunOptions) ([]*Case, error) {
	p, err := s.prepare(o)
	if err != nil {
		return nil, err
	}
	var picked []*Case
	for _, c := range p.s.Cases {
		if p.opts.Only == nil || p.opts.Only(c.Suite, c.ID) {
			picked = append(picked, c)
		}
	}
	return picked, nil
}

// A plan is a run made ready: the suites as o loads them, and the
// internal run's options. It holds nothing a case: a run holds it to its
// end, and a suite may list a million cases.
type plan struct {
	s      *Suite
	filter *filter
	opts   run.Options
}

func (s *Suite) prepare(o RunOptions) (*plan, error) {
	if o.Format != "" {
		if _, err := trace.Lookup(o.Format); err != nil {
			return nil, err
		}
	}
	cur := s
	if keyOf(o) != s.load {
		again, err := o.Load(s.paths...)
		if err != nil {
			return nil, err
		}
		cur = again
	}
	if err := cur.judges.Err(); err != nil {
		return nil, err
	}
	f, err := compileFilter(o.Filter)
	if err != nil {
		return nil, err
	}
	p := &plan{s: cur, filter: f}
	p.opts = run.Options{
		Traces: o.Traces, From: o.Format, Workers: o.Workers, Lenient: o.Lenient, Warn: o.Warn,
		Trials: o.Trials, DumpTraces: o.DumpTraces, IncludeTrace: o.IncludeTrace, Steps: o.Steps, DropPassing: o.DropPassing, KeepsFailing: o.KeepsFailing, Stop: o.Stop,
	}
	if len(o.Done) > 0 {
		p.opts.Done = make(map[run.Key]trajeval.CaseResult, len(o.Done))
		for _, r := range o.Done {
			if _, dup := p.opts.Done[run.KeyOf(r)]; !dup {
				p.opts.Done[run.KeyOf(r)] = r
			}
		}
	}
	if f != nil || o.Only != nil {
		type key struct{ suite, id string }
		cases := make(map[key]*Case, len(cur.Cases))
		for _, c := range cur.Cases {
			cases[key{c.Suite, c.ID}] = c
		}
		p.opts.Only = func(suiteName, id string) bool {
			picked := f.match(suiteName, id)
			f.note(suiteName, id) // a near miss of the patterns that picked nothing yet
			if !picked {
				return false
			}
			c, ok := cases[key{suiteName, id}]
			return o.Only == nil || !ok || o.Only(c)
		}
	}
	if o.Shard != (Shard{}) {
		if err := o.Shard.check(); err != nil {
			return nil, err
		}
		base := p.opts.Only
		keys := make([]string, 0, len(cur.Cases))
		for _, c := range cur.Cases {
			if base == nil || base(c.Suite, c.ID) {
				keys = append(keys, shardKey(c.Suite, c.ID))
			}
		}
		in := o.Shard.pick(keys)
		p.opts.Only = func(suiteName, id string) bool {
			return (base == nil || base(suiteName, id)) && in(suiteName, id)
		}
	}
	if err := run.Check(cur.suites, p.opts); err != nil {
		return nil, err
	}
	if len(cur.Open) == 0 {
		if err := f.unmatched("case id"); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// SuperviseTargets must be called first in main, before anything else, by
// a program that runs targets (cases with no recorded trace, run by their
// suite's agent). When the program was started as the supervisor of an
// agent, it does that job and exits; otherwise it returns at once, and
// each agent then runs under a supervisor: the program itself, started
// again, which kills every process of the agent when its run ends, and
// when the program is killed (on Linux, a process that called setsid
// too). Without it an agent runs as the program's own child, and a
// process the agent detaches from it may outlive the run.
func SuperviseTargets() { target.Supervise() }

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
//     cannot run is yielded with [trajeval.StatusError] and the reason, never a
//     silent 0 or a pass; the run goes on.
//  3. Each result says where its trajectory came from (Trace), when its
//     case started (StartedAt) and how long it took (DurationMS).
//  4. An error that stops the whole run is yielded last, with a zero
//     CaseResult: what [Suite.Plan] reports, before any case; a Filter
//     pattern that picked nothing in a suite with no cases, at the end;
//     [ErrStopped] or ctx's error when stopped.
//  5. Breaking out of the loop stops the run cleanly: no new case starts,
//     target commands under way are stopped, and Run returns when they
//     have.
//
// The loop body runs on the caller's goroutine. The run goes on while it
// does: a slow loop body holds up the run only when a few hundred results
// wait for it.
func (s *Suite) Run(ctx context.Context, opts RunOptions) iter.Seq2[trajeval.CaseResult, error] {
	return func(yield func(trajeval.CaseResult, error) bool) {
		if err := s.runAll(ctx, opts, yield); err != nil {
			yield(trajeval.CaseResult{}, err)
		}
	}
}

// runAll runs the suites on another goroutine and yields their results
// on this one, so that the loop body may call t.FailNow or panic.
func (s *Suite) runAll(ctx context.Context, opts RunOptions, yield func(trajeval.CaseResult, error) bool) error {
	p, err := s.prepare(opts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Results and warnings come through one handover, so that they
	// reach the caller in the run's order.
	// When cases run agents, each result is handed over and waited for:
	// the caller has written it (say, to --out) before the next agent
	// starts, so a run killed while an agent works loses no finished
	// case. An agent's run costs far more than the wait.
	h := newHandover()
	send := func(it *item) error {
		if err := h.put(ctx, it); err != nil || it.ack == nil {
			return err
		}
		select {
		case <-it.ack:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ro := p.opts
	agents := run.RunsTarget(p.s.suites, ro)
	if opts.Warn != nil {
		ro.Warn = func(w trajeval.Warning) { send(&item{w: &w}) }
	}
	done := make(chan error, 1)
	go func() {
		shard := opts.Shard.String()
		_, err := run.Run(ctx, p.s.suites, ro, func(r trajeval.CaseResult) error {
			if shard != "" {
				r.Shard = shard
			}
			var ack chan struct{}
			if agents {
				ack = make(chan struct{})
			}
			return send(&item{r: r, ack: ack})
		})
		h.close() // every sender has returned with run.Run
		done <- err
	}()
	judged := false
	var batch []item
	for batch = h.take(batch); len(batch) > 0; batch = h.take(batch) {
		for i := range batch {
			it := &batch[i]
			if it.w != nil {
				opts.Warn(*it.w)
				continue
			}
			judged = judged || it.r.Judge != nil
			more := yield(it.r, nil)
			if it.ack != nil {
				close(it.ack)
			}
			if !more {
				cancel()
				for len(h.take(nil)) > 0 {
					// Let the run end: what it still hands on is dropped.
				}
				<-done
				return nil
			}
		}
	}
	err = <-done
	if cerr := p.s.judges.CacheErr(); judged && cerr != nil && !opts.Judge.NoCache && opts.Warn != nil {
		opts.Warn(trajeval.Warning{Msg: "judge answers are not all cached: " + cerr.Error()})
	}
	if err == nil && len(p.s.Open) > 0 {
		err = p.filter.unmatched("id of a case or a trajectory")
	}
	return err
}
