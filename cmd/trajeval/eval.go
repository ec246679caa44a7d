package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/trace"
)

func evalCmd() *cobra.Command {
	var (
		traces, out, format, from, config string
		threshold                         float64
		workers                           int
		verbose, lenient                  bool
		tg                                targetFlags
	)
	c := &cobra.Command{
		Use:   "eval PATH...",
		Short: "Score recorded traces against the suites at PATH (files or folders)",
		Long: `Score recorded traces against suites.

PATH is a suite file or a folder searched for suite files: AgentV YAML,
ADK *.evalset.json / *.test.json (with test_config.json beside them or
--config), UiPath evaluation sets. Each case's trace comes from its trace:
key, else from --traces FILE (one trace per line, matched to cases by id).

An evaluator's pass threshold is the first that is set: its own threshold:
(or required: N); --threshold; the turn's, then the case's
execution.threshold; the suite's execution.threshold (or threshold:); the
type's default (1.0 for deterministic evaluators). So --threshold
overrides a file's defaults, never an evaluator's own.

--workers N scores up to N cases at once (default: the largest
execution.workers of the suites, else 1); the output is the same in the
same order whatever N is.

A case with no recorded trace (no trace:, no --traces) runs its suite's
target: --target NAME, else the suite's execution.target, defined under
targets: in the suite or in a targets.yaml beside it. --trials N runs each
such case N times. --out FILE gets each row as soon as its case is done;
after Ctrl-C or a crash, the same command with --resume runs only what is
missing. The first Ctrl-C lets the cases under way finish; a second stops
at once.

Exit codes: 0 every case passed, 1 some case failed or could not be scored,
2 the command or a file was wrong, 130 interrupted before every case ran.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError{fmt.Errorf("unknown --format %q (text, json, jsonl)", format)}
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
			opts := suite.Options{Config: config, Target: tg.target, Traces: traces}
			if cmd.Flags().Changed("threshold") {
				if threshold < 0 || threshold > 1 {
					return usageError{fmt.Errorf("--threshold must be between 0 and 1, got %v", threshold)}
				}
				opts.Threshold = &threshold
			}
			suites, errs := suite.Load(args, opts)
			if len(errs) > 0 {
				return configErrors(cmd, errs)
			}
			printWarnings(cmd, suites)
			w, err := report.New(format, cmd.OutOrStdout())
			if err != nil {
				return usageError{err}
			}
			if t, ok := w.(*report.Text); ok {
				t.Verbose = verbose
			}
			stderr := cmd.ErrOrStderr()
			warn := func(w trajeval.Warning) { fmt.Fprintln(stderr, "warning:", w) }
			ro := run.Options{
				Traces: traces, From: from, Workers: workers, Lenient: lenient, Warn: warn,
				Trials: tg.trials, DumpTraces: tg.dump, IncludeTrace: tg.includeTrace, Stop: stopOf(cmd.Context()),
			}
			if tg.trials > 1 && format == "text" {
				w = (&trialsBlock{k: tg.trials}).wrap(w)
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
			rs := report.Summary{Cases: sum.Cases, Passed: sum.Passed, Failed: sum.Failed, Errors: sum.Errors}
			if cerr := w.Close(rs); err == nil {
				err = cerr
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
	f.StringVar(&format, "format", "text", "report format on standard output: text, json or jsonl")
	f.Float64Var(&threshold, "threshold", 1, "pass threshold for evaluators that set none, over the file's defaults")
	f.IntVar(&workers, "workers", 0, "score up to N cases at once (default: the suites' execution.workers, else 1)")
	f.StringVar(&from, "from", "", "force the trace format instead of detecting it")
	f.StringVar(&config, "config", "", "ADK test_config.json for eval sets (default: the one beside each eval set)")
	f.BoolVarP(&verbose, "verbose", "v", false, "explain passing evaluators too")
	f.BoolVar(&lenient, "lenient", false, "score what comes before the damage of a cut-off or corrupt trace, marked partial, instead of an error")
	tg.register(f)
	return c
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
