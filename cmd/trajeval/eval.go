package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/trace"
	"github.com/trajeval/trajeval/suite"
)

// evalFlags are eval's flags.
type evalFlags struct {
	traces, out, format, from, config string
	questions                         string
	threshold                         float64
	workers                           int
	filters                           []string
	shard                             string
	basis                             []string
	verbose, lenient, quiet           bool
	tg                                targetFlags
	view                              viewFlags
	judges                            judge.Runtime
	hist                              historyFlags
}

func evalCmd() *cobra.Command {
	var e evalFlags
	c := &cobra.Command{
		Use:   "eval PATH...",
		Short: "Score recorded traces against the suites at PATH (files or folders)",
		Long: `Score recorded traces against suites.

PATH is a suite file or a folder searched for suite files: AgentV YAML,
ADK *.evalset.json / *.test.json (with test_config.json beside them or
--config), UiPath evaluation sets, BFCL possible-answer files (with their
question file beside them or --questions). Each case's trace comes from its trace:
key, else from --traces FILE (one trace per line, matched to cases by id).

An evaluator's pass threshold is the first that is set: its own threshold:
(or required: N); --threshold; the turn's, then the case's
execution.threshold; the suite's execution.threshold (or threshold:); the
type's default (1.0 for deterministic evaluators). So --threshold
overrides a file's defaults, never an evaluator's own.

A suite with no cases scores every trajectory of --traces FILE (or of its
traces: file) with its evaluators: each trajectory is a case, named by its
id, else by its place in the file ("line 12", or "#12" in formats without
lines). That is how a day of production traces is scored.

--workers N scores up to N cases at once (default: the largest
execution.workers of the suites, else one per CPU, or one when cases run a
target); the output is the same in the same order whatever N is.

--filter PATTERN (repeatable) runs only the cases whose id it matches: a
glob (research-*, *-refund?, [ab]*; * does not cross /) matched against the
whole id, or a regular expression when written /RE/ (/^refund-[0-9]+$/),
found anywhere in the id. Each pattern is also tried on SUITE/ID, the
case's suite name and id, so shop/* picks every case of suite shop. A case
runs when some pattern matches it, with all its turns and trials; a suite
with no cases picks trajectories by their ids. A pattern that matches
nothing is an error (exit 2) naming the nearest ids.

--shard K/N runs part K of N of the cases (after --filter), so that N CI
machines share a suite: every machine gets the same suites and its own K,
and each case runs on exactly one, with all its trials. The parts are
balanced (they differ by one case at most) and the same on every machine;
each row says its shard ("shard": "2/3"). trajeval report merges the
shards' results files into one report; in the run history the shards of
one run are one run when they share --run-id ID (default: the CI
service's own run id: GITHUB_RUN_ID, CI_PIPELINE_ID, BUILDKITE_BUILD_ID,
CIRCLE_WORKFLOW_ID, BITBUCKET_BUILD_NUMBER, BUILD_BUILDID or BUILD_TAG).

A case with no recorded trace (no trace:, no --traces) runs its suite's
target: --target NAME, else the suite's execution.target, defined under
targets: in the suite or in a targets.yaml beside it. --trials N runs each
such case N times. An agent that runs past its timeout_seconds, or writes
more than --max-output bytes (else its target's max_output, else 256 MiB)
to standard output, standard error or {OUTPUT_FILE}, is killed with every
process it started, and its case is an error. --out FILE gets each row as soon as its case is done;
after Ctrl-C or a crash, the same command with --resume runs only what is
missing. The first Ctrl-C lets the cases under way finish; a second stops
at once.

Judged evaluators (llm_judge and the judged evaluators of the dialects)
ask an OpenAI-compatible endpoint: OPENAI_API_KEY, OPENAI_BASE_URL and
TRAJEVAL_JUDGE_MODEL (or TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL),
or a judge: block in the suite (docs/judges.md). Answers are cached: a
rerun of an unchanged suite asks nothing.

Every run is recorded in the run history (docs/history.md): in --db, else
$TRAJEVAL_DB, else .trajeval/runs.db at the project's root (the git work
tree's root, else the first suite's folder); --no-db
records nothing. A case that did not pass keeps its trajectory and
evaluators' details there, for the first --keep-failing N such cases of a
run (default 1000; all for every one). trajeval runs lists the runs, show
prints one.

Exit codes: 0 every case passed, 1 some case failed or could not be scored,
2 the command or a file was wrong, 130 interrupted before every case ran.`,
		Args: needs(1, -1, "a suite file or folder", "trajeval eval SUITE.yaml (trajeval init writes a first suite)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.run(cmd, args)
		},
	}
	f := c.Flags()
	f.StringVar(&e.traces, "traces", "", "trace file (any format) holding the cases' trajectories, matched by id")
	f.StringVarP(&e.out, "out", "o", "", "also write results as JSON Lines to this file, one row per case")
	f.StringVar(&e.format, "format", "text", "report format on standard output: "+strings.Join(report.Formats, ", "))
	f.Float64Var(&e.threshold, "threshold", 0, "pass threshold for evaluators that set none, over the file's defaults")
	f.IntVar(&e.workers, "workers", 0, "score up to N cases at once (default: the suites' execution.workers, else one per CPU, or 1 with a target)")
	f.StringVar(&e.from, "from", "", "force the trace format instead of detecting it")
	f.StringVar(&e.config, "config", "", "ADK test_config.json for eval sets (default: the one beside each eval set)")
	f.StringVar(&e.questions, "questions", "", "BFCL question file for possible-answer files (default: the one beside them)")
	f.BoolVarP(&e.verbose, "verbose", "v", false, "explain passing evaluators too")
	f.BoolVarP(&e.quiet, "quiet", "q", false, "no progress on standard error (a bar on a terminal, else a line every 10s)")
	f.BoolVar(&e.lenient, "lenient", false, "score what comes before the damage of a cut-off or corrupt trace, marked partial, instead of an error")
	f.IntVar(&e.judges.Workers, "judge-workers", 4, "judge requests sent at once")
	f.StringVar(&e.judges.CacheDir, "cache-dir", "", "folder of the judge's cached answers (default: trajeval/judge under the user cache folder)")
	f.BoolVar(&e.judges.NoCache, "no-cache", false, "ask the judge again instead of using cached answers")
	f.StringVar(&e.shard, "shard", "", "run part K of N of the cases, such as 2/3, on each of N machines (see above)")
	f.StringArrayVar(&e.filters, "filter", nil, "run only the cases whose id matches this glob, or /regular expression/ (repeatable; see above)")
	f.StringSliceVar(&e.basis, "basis", nil, "τ²-bench tasks: score only these reward components, e.g. ACTION,COMMUNICATE (default: each task's reward_basis)")
	e.tg.register(f)
	e.view.register(f)
	e.hist.register(f)
	c.SuggestFor = []string{"run", "test"} // trajeval run: did you mean eval?
	return c
}

// run is eval: it
//  1. checks the flags and turns them into the run's options;
//  2. loads the suites at paths and plans which cases run;
//  3. builds the report on standard output, with the progress on standard
//     error unless --quiet;
//  4. opens the --out file (reading what it holds with --resume) and the
//     run history;
//  5. runs the cases, each row going to the history, the --out file and
//     the report as soon as its case is done;
//  6. closes everything, keeping the first error, and turns the summary
//     into the exit code.
func (e *evalFlags) run(cmd *cobra.Command, args []string) error {
	if err := agentvSpelling(args); err != nil {
		return err
	}
	opts, err := e.options(cmd)
	if err != nil {
		return err
	}
	// If the run is recorded: the git process, and opening a history that
	// exists, while the suite loads.
	start := e.hist.startHistory(cmd.Context(), args)
	defer start.finish()
	s, err := load(opts, args)
	if err != nil {
		return configErrors(cmd, err)
	}
	picked, err := s.Plan(opts)
	switch {
	case errors.Is(err, trajeval.ErrConfig):
		return configErrors(cmd, err)
	case errors.Is(err, run.ErrTrialsNeedTarget):
		return usageError{err}
	case err != nil:
		return err
	}
	printWarnings(cmd, s.Warnings)
	stdout := cmd.OutOrStdout()
	if !isTerminal(stdout) {
		// A file or a pipe: a few large writes, flushed every second and
		// at the end.
		fw := newFlushWriter(stdout, time.Second)
		defer fw.Close()
		stdout = fw
	}
	w, prog, err := e.reporter(cmd, stdout, total(s, picked, e.tg.trials))
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	warn := func(w trajeval.Warning) { prog.Clear(); fmt.Fprintln(stderr, "warning:", w) }
	opts.Warn = warn
	file, err := e.openOut(&opts, warn)
	if err != nil {
		return err
	}
	if file != nil {
		defer file.Close()
	}
	opts.Stop = stopOf(cmd.Context())
	rec, err := e.hist.begin(cmd, args, s, &opts, start)
	if err != nil {
		return err
	}
	rs, err := runCases(cmd.Context(), s, opts, rec, file, w)
	rec.end(err)
	if file != nil && file.resume != nil && err == nil {
		file.resume.warnUnused(e.out, warn)
	}
	err = closeEval(err, w, rs, stdout, file)
	if err != nil {
		return interrupted(err, e.out)
	}
	if rs.Failed > 0 || rs.Errors > 0 {
		return errCasesFailed
	}
	return nil
}

// options checks eval's flags and returns the run's options; a wrong flag
// is a usage error.
func (e *evalFlags) options(cmd *cobra.Command) (suite.RunOptions, error) {
	var opts suite.RunOptions
	if !slices.Contains(report.Formats, e.format) {
		return opts, usageError{fmt.Errorf("unknown --format %q (%s)", e.format, strings.Join(report.Formats, ", "))}
	}
	if e.from != "" {
		if _, err := trace.Lookup(e.from); err != nil {
			return opts, usageError{err}
		}
	}
	if cmd.Flags().Changed("workers") && e.workers < 1 {
		return opts, usageError{fmt.Errorf("--workers must be at least 1, got %d", e.workers)}
	}
	if err := e.tg.check(cmd, e.out); err != nil {
		return opts, err
	}
	if e.judges.Workers < 1 {
		return opts, usageError{fmt.Errorf("--judge-workers must be at least 1, got %d", e.judges.Workers)}
	}
	tg, judges := &e.tg, &e.judges
	opts = suite.RunOptions{
		Traces: e.traces, Format: e.from, Lenient: e.lenient, Target: tg.target, Trials: tg.trials, MaxOutput: tg.maxOutput,
		Filter: e.filters, Workers: e.workers, Config: e.config, Basis: e.basis, Questions: e.questions,
		Judge:        suite.JudgeOptions{Workers: judges.Workers, CacheDir: judges.CacheDir, NoCache: judges.NoCache, Getenv: getenv(cmd.Context())},
		IncludeTrace: tg.includeTrace, DumpTraces: tg.dump,
	}
	if e.shard != "" {
		sh, err := suite.ParseShard(e.shard)
		if err != nil {
			return opts, usageError{fmt.Errorf("--shard: %w", err)}
		}
		opts.Shard = sh
	}
	if cmd.Flags().Changed("threshold") {
		if e.threshold < 0 || e.threshold > 1 {
			return opts, usageError{fmt.Errorf("--threshold must be between 0 and 1, got %v", e.threshold)}
		}
		if e.threshold == 0 {
			return opts, usageError{errors.New("--threshold 0 would pass every evaluator that sets no threshold of its own; give a threshold above 0, or leave the flag out to keep the files' thresholds")}
		}
		opts.Threshold = e.threshold
	}
	return opts, nil
}

// total returns how many cases a run of picked makes, 0 when not known up
// front (a suite with no cases has as many as trajectories).
func total(s *suite.Suite, picked []*suite.Case, trials int) int {
	if len(s.Open) > 0 {
		return 0
	}
	return len(picked) * max(trials, 1)
}

// reporter returns the report of --format on stdout, with its view flags
// applied, and, unless --quiet, the progress on standard error of a run of
// total cases.
func (e *evalFlags) reporter(cmd *cobra.Command, stdout io.Writer, total int) (report.Writer, *report.Progress, error) {
	w, err := report.New(e.format, stdout)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if t, ok := w.(*report.Text); ok {
		t.Verbose = e.verbose
	}
	if w, err = e.view.apply(cmd, e.format, w, cmd.OutOrStdout()); err != nil {
		return nil, nil, err
	}
	if e.quiet {
		return w, nil, nil
	}
	prog := &report.Progress{W: cmd.ErrOrStderr(), Total: total, Terminal: isTerminal(cmd.ErrOrStderr())}
	if isTerminal(cmd.OutOrStdout()) {
		return prog.Wrap(w), prog, nil // the report shares the terminal with the bar
	}
	return report.Multi{w, prog}, prog, nil
}

// openOut opens the --out file, nil without one. It is locked before
// --resume reads it, so a second run on the same file stops here and rows
// cannot splice; with --resume, the rows it holds go to opts.Done and its
// warnings to warn.
func (e *evalFlags) openOut(opts *suite.RunOptions, warn func(trajeval.Warning)) (*outFile, error) {
	if e.out == "" {
		return nil, nil
	}
	file, err := newOut(e.out)
	if err != nil {
		return nil, err
	}
	if !e.tg.resume {
		return file, nil
	}
	resumed, err := readDone(e.out)
	if err != nil {
		file.Close()
		return nil, err
	}
	for _, x := range resumed.warnings {
		warn(x)
	}
	for _, r := range resumed.rows {
		opts.Done = append(opts.Done, r)
	}
	file.resume = resumed
	return file, nil
}

// runCases runs the cases of s, sending each row to the report w, the
// --out file (unless it came from there) and the history rec, and returns
// their summary.
func runCases(ctx context.Context, s *suite.Suite, opts suite.RunOptions, rec *recording, file *outFile, w report.Writer) (report.Summary, error) {
	var rs report.Summary
	var resumed *done
	if file != nil {
		resumed = file.resume
	}
	// When the report keeps nothing of a row, each row's details go to
	// the next cases' once written: by the recorder, when the history is
	// on (it holds a kept row until encoded), else here.
	recycle := file == nil && writesAtOnce(w)
	if recycle {
		rec.returnDetails()
	}
	for r, err := range s.Run(ctx, opts) {
		if err != nil {
			return rs, err
		}
		row := rec.reported(r)
		rs.Add(row)
		if row.Judge != nil {
			if rs.Judge == nil {
				rs.Judge = &trajeval.JudgeUsage{}
			}
			rs.Judge.Add(row.Judge)
		}
		if resumed.has(row) {
			// A row of the --out file: reported, not written again.
			resumed.reported++
		} else if file != nil {
			file.Case(row)
		}
		err := w.Case(row)
		// Recorded once reported: the recorder may give its details
		// back at once.
		rec.record(r)
		if err != nil {
			return rs, err
		}
		if recycle && rec == nil {
			// The row is written and nothing else holds it: its
			// details' memory goes to the next cases'.
			for i := range row.Evaluators {
				trajectory.Recycle(row.Evaluators[i].Details)
			}
		}
	}
	return rs, nil
}

// writesAtOnce reports whether w writes each row as it comes and keeps
// nothing of it: JSON Lines, the progress, or both.
func writesAtOnce(w report.Writer) bool {
	switch w := w.(type) {
	case *report.JSONL, *report.Progress:
		return true
	case report.Multi:
		for _, m := range w {
			if !writesAtOnce(m) {
				return false
			}
		}
		return len(w) > 0
	}
	return false
}

// closeEval closes the report (with its summary rs), the flushed standard
// output and the --out file, and returns err, else the first error of
// closing them.
func closeEval(err error, w report.Writer, rs report.Summary, stdout io.Writer, file *outFile) error {
	if cerr := w.Close(rs); err == nil {
		err = cerr
	}
	if fw, ok := stdout.(*flushWriter); ok {
		if ferr := fw.Close(); err == nil {
			err = ferr
		}
	}
	if file != nil {
		if ferr := file.Close(); err == nil {
			err = ferr
		}
	}
	return err
}

// isTerminal reports whether w is a terminal that understands redrawing a
// line.
func isTerminal(w io.Writer) bool {
	f, ok := escape.Raw(w).(*os.File)
	return ok && os.Getenv("TERM") != "dumb" && term.IsTerminal(int(f.Fd()))
}

// printWarnings prints the suites' load warnings on standard error.
func printWarnings(cmd *cobra.Command, warnings []trajeval.Warning) {
	for _, w := range warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
}

// configErrors prints every configuration error of err (an errors.Join of
// them, as LoadSuite returns) and returns one error for the exit code.
func configErrors(cmd *cobra.Command, err error) error {
	errs := []error{err}
	if list, ok := err.(interface{ Unwrap() []error }); ok {
		errs = list.Unwrap()
	}
	w := cmd.ErrOrStderr()
	n := 0
	for _, e := range errs {
		fmt.Fprintln(w, e)
		// A line standing for the errors of a list left out counts them.
		var more *config.MoreErrors
		if errors.As(e, &more) {
			n += more.N
		} else {
			n++
		}
	}
	return errors.New(plural.Count(n, "configuration error", "configuration errors"))
}

type envKey struct{}

// getenv returns the command's environment: the process's, or the one a
// test puts in ctx (scripts run in one process and cannot share its
// environment).
func getenv(ctx context.Context) func(string) string {
	if f, ok := ctx.Value(envKey{}).(func(string) string); ok {
		return f
	}
	return os.Getenv
}
