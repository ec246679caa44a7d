package main

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

func evalCmd() *cobra.Command {
	var (
		traces, out, format, from, config string
		threshold                         float64
		verbose                           bool
		judges                            judge.Runtime
	)
	c := &cobra.Command{
		Use:   "eval PATH...",
		Short: "Score recorded traces against the suites at PATH (files or folders)",
		Long: `Score recorded traces against suites.

PATH is a suite file or a folder searched for suite files: AgentV YAML,
ADK *.evalset.json / *.test.json (with test_config.json beside them or
--config), UiPath evaluation sets. Each case's trace comes from its trace:
key, else from --traces FILE (one trace per line, matched to cases by id).

Judged evaluators (llm_judge and the judged evaluators of the dialects)
ask an OpenAI-compatible endpoint: OPENAI_API_KEY, OPENAI_BASE_URL and
TRAJEVAL_JUDGE_MODEL (or TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL),
or a judge: block in the suite. Answers are cached: a rerun of an
unchanged suite asks nothing.

Exit codes: 0 every case passed, 1 some case failed or could not be scored,
2 the command or a file was wrong.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError{fmt.Errorf("unknown --format %q (text, json, jsonl)", format)}
			}
			if judges.Workers < 1 {
				return usageError{fmt.Errorf("--judge-workers must be at least 1, got %d", judges.Workers)}
			}
			judges.Getenv = getenv(cmd.Context())
			opts := suite.Options{Config: config, Judges: &judges}
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
			if err := judges.Err(); err != nil {
				// Before any case runs: a judged suite without a judge
				// would only produce errors.
				return err
			}
			printWarnings(cmd, suites)
			w, err := report.New(format, cmd.OutOrStdout())
			if err != nil {
				return usageError{err}
			}
			if t, ok := w.(*report.Text); ok {
				t.Verbose = verbose
			}
			writers := report.Multi{w}
			if out != "" {
				f, err := os.Create(out)
				if err != nil {
					return err
				}
				defer f.Close()
				writers = append(writers, report.NewJSONL(f))
			}
			stderr := cmd.ErrOrStderr()
			sum, err := run.Run(cmd.Context(), suites, run.Options{
				Traces: traces, From: from,
				Warn: func(w trajeval.Warning) { fmt.Fprintln(stderr, "warning:", w) },
			}, writers.Case)
			if cerr := judges.CacheErr(); sum.Judge != nil && cerr != nil && !judges.NoCache {
				fmt.Fprintln(stderr, "warning: judge answers are not all cached:", cerr)
			}
			if cerr := writers.Close(report.Summary{Cases: sum.Cases, Passed: sum.Passed, Failed: sum.Failed, Errors: sum.Errors, Judge: sum.Judge}); err == nil {
				err = cerr
			}
			if err != nil {
				return err
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
	f.Float64Var(&threshold, "threshold", 1, "default pass threshold for evaluators that set none")
	f.StringVar(&from, "from", "", "force the trace format instead of detecting it")
	f.StringVar(&config, "config", "", "ADK test_config.json for eval sets (default: the one beside each eval set)")
	f.BoolVarP(&verbose, "verbose", "v", false, "explain passing evaluators too")
	f.IntVar(&judges.Workers, "judge-workers", 4, "judge requests sent at once")
	f.StringVar(&judges.CacheDir, "cache-dir", "", "folder of the judge's cached answers (default: trajeval/judge under the user cache folder)")
	f.BoolVar(&judges.NoCache, "no-cache", false, "ask the judge again instead of using cached answers")
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
