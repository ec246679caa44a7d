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

	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
	"github.com/trajeval/trajeval/internal/trace"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func evalCmd() *cobra.Command {
	var (
		traces, out, format, from, config string
		questions                         string
		threshold                         float64
		workers                           int
		verbose, lenient, quiet           bool
		tg                                targetFlags
		judges                            judge.Runtime
	)
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

A case with no recorded trace (no trace:, no --traces) runs its suite's
target: --target NAME, else the suite's execution.target, defined under
targets: in the suite or in a targets.yaml beside it. --trials N runs each
such case N times. --out FILE gets each row as soon as its case is done;
after Ctrl-C or a crash, the same command with --resume runs only what is
missing. The first Ctrl-C lets the cases under way finish; a second stops
at once.

Judged evaluators (llm_judge and the judged evaluators of the dialects)
ask an OpenAI-compatible endpoint: OPENAI_API_KEY, OPENAI_BASE_URL and
TRAJEVAL_JUDGE_MODEL (or TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL),
or a judge: block in the suite (docs/judges.md). Answers are cached: a
rerun of an unchanged suite asks nothing.

Exit codes: 0 every case passed, 1 some case failed or could not be scored,
2 the command or a file was wrong, 130 interrupted before every case ran.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError{fmt.Errorf("unknown --format %q (%s)", format, strings.Join(report.Formats, ", "))}
			}
			if from != "" {
				if _, err := trace.Lookup(from); err != nil {
					return usageError{err}
				}
			}
			if cmd.Flags().Changed("workers") && workers < 1 {
				return usageError{fmt.Errorf("--workers must be at least 1, got %d", workers)}
			}
			if err := tg.check(cmd, out); err != nil {
				return err
			}
			if judges.Workers < 1 {
				return usageError{fmt.Errorf("--judge-workers must be at least 1, got %d", judges.Workers)}
			}
			judges.Getenv = getenv(cmd.Context())
			opts := suite.Options{Config: config, Target: tg.target, Traces: traces, Judges: &judges, Dialects: dialects.All()}
			opts.Questions = questions
			if cmd.Flags().Changed("threshold") {
				if threshold < 0 || threshold > 1 {
					return usageError{fmt.Errorf("--threshold must be between 0 and 1, got %v", threshold)}
				}
				opts.Threshold = &threshold
			}
			suites, errs := suite.Load(args, opts)
			errs = append(errs, suite.CheckOpen(suites, traces)...)
			if len(errs) > 0 {
				return configErrors(cmd, errs)
			}
			if err := judges.Err(); err != nil {
				// Before any case runs: a judged suite without a judge
				// would only produce errors.
				return err
			}
			printWarnings(cmd, suites)
			stdout := cmd.OutOrStdout()
			if !isTerminal(stdout) {
				// A file or a pipe: a few large writes, flushed every
				// second and at the end.
				fw := newFlushWriter(stdout, time.Second)
				defer fw.Close()
				stdout = fw
			}
			w, err := report.New(format, stdout)
			if err != nil {
				return usageError{err}
			}
			if t, ok := w.(*report.Text); ok {
				t.Verbose = verbose
			}
			stderr := cmd.ErrOrStderr()
			var prog *report.Progress
			if !quiet {
				prog = progress(stderr, suites, tg.trials)
				if isTerminal(cmd.OutOrStdout()) {
					w = prog.Wrap(w) // the report shares the terminal with the bar
				} else {
					w = report.Multi{w, prog}
				}
			}
			warn := func(w trajeval.Warning) { prog.Clear(); fmt.Fprintln(stderr, "warning:", w) }
			ro := run.Options{
				Traces: traces, From: from, Workers: workers, Lenient: lenient, Warn: warn,
				Trials: tg.trials, DumpTraces: tg.dump, IncludeTrace: tg.includeTrace, Stop: stopOf(cmd.Context()),
			}
			emit := w.Case
			var file *outFile
			if out != "" {
				var resumed *done
				if tg.resume {
					if resumed, err = readDone(out); err != nil {
						return err
					}
					for _, x := range resumed.warnings {
						warn(x)
					}
					ro.Done, ro.Kept = resumed.rows, resumed.keep(w)
				}
				if file, err = newOut(out, resumed); err != nil {
					return err
				}
				emit = func(r trajeval.CaseResult) error {
					file.Case(r)
					return w.Case(r)
				}
			}
			sum, err := run.Run(cmd.Context(), suites, ro, emit)
			if errors.Is(err, run.ErrTrialsNeedTarget) {
				return usageError{err}
			}
			if file != nil && file.resume != nil && err == nil {
				file.resume.warnUnused(out, warn)
			}
			if cerr := judges.CacheErr(); sum.Judge != nil && cerr != nil && !judges.NoCache {
				fmt.Fprintln(stderr, "warning: judge answers are not all cached:", cerr)
			}
			rs := report.Summary{Cases: sum.Cases, Passed: sum.Passed, Failed: sum.Failed, Errors: sum.Errors, Judge: sum.Judge}
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
			if err != nil {
				return interrupted(err, out)
			}
			if !sum.OK() {
				return errCasesFailed
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&traces, "traces", "", "trace file (any format) holding the cases' trajectories, matched by id")
	f.StringVar(&out, "out", "", "also write results as JSON Lines to this file, one row per case")
	f.StringVar(&format, "format", "text", "report format on standard output: "+strings.Join(report.Formats, ", "))
	f.Float64Var(&threshold, "threshold", 0, "pass threshold for evaluators that set none, over the file's defaults")
	f.IntVar(&workers, "workers", 0, "score up to N cases at once (default: the suites' execution.workers, else one per CPU, or 1 with a target)")
	f.StringVar(&from, "from", "", "force the trace format instead of detecting it")
	f.StringVar(&config, "config", "", "ADK test_config.json for eval sets (default: the one beside each eval set)")
	f.StringVar(&questions, "questions", "", "BFCL question file for possible-answer files (default: the one beside them)")
	f.BoolVarP(&verbose, "verbose", "v", false, "explain passing evaluators too")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress on standard error (a bar on a terminal, else a line every 10s)")
	f.BoolVar(&lenient, "lenient", false, "score what comes before the damage of a cut-off or corrupt trace, marked partial, instead of an error")
	f.IntVar(&judges.Workers, "judge-workers", 4, "judge requests sent at once")
	f.StringVar(&judges.CacheDir, "cache-dir", "", "folder of the judge's cached answers (default: trajeval/judge under the user cache folder)")
	f.BoolVar(&judges.NoCache, "no-cache", false, "ask the judge again instead of using cached answers")
	tg.register(f)
	return c
}

// progress reports the run's progress on stderr: a bar redrawn in place
// on a terminal, a line every few seconds elsewhere (see report.Progress).
// With trials, a case that runs a target counts once per trial; the total
// counts every case so, an upper bound when some cases are recorded.
func progress(stderr io.Writer, suites []*suite.Suite, trials int) *report.Progress {
	total := 0
	for _, s := range suites {
		if s.Open() {
			total = 0 // as many cases as trajectories: not known up front
			break
		}
		total += len(s.Cases)
	}
	return &report.Progress{W: stderr, Total: total * max(trials, 1), Terminal: isTerminal(stderr)}
}

// isTerminal reports whether w is a terminal that understands redrawing a
// line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && os.Getenv("TERM") != "dumb" && term.IsTerminal(int(f.Fd()))
}

// printWarnings prints the suites' load warnings on standard error.
func printWarnings(cmd *cobra.Command, suites []*suite.Suite) {
	for _, s := range suites {
		for _, w := range s.Warnings {
			fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
		}
	}
}

// configErrors prints every configuration error and returns one error for
// the exit code.
func configErrors(cmd *cobra.Command, errs []error) error {
	suite.SortErrors(errs)
	w := cmd.ErrOrStderr()
	for _, e := range errs {
		fmt.Fprintln(w, e)
	}
	if len(errs) == 1 {
		return fmt.Errorf("1 configuration error")
	}
	return fmt.Errorf("%d configuration errors", len(errs))
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
