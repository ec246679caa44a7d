package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/compare"
)

// errRegressed says the comparison worked and some case regressed.
var errRegressed = errors.New("some cases regressed")

func compareCmd() *cobra.Command {
	var (
		format                string
		tolerance, confidence float64
		files                 comparedFiles
	)
	c := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Compare two results files (eval --out) and fail on a regression",
		Long: `Compare the results of two runs, as trajeval eval --out writes them.

OLD and NEW are results files, or runs of the run history (when no file
has that name): a run id, last (the newest run) or last~N (the N-th
before it), read from --db, else $TRAJEVAL_DB, else the nearest
.trajeval/runs.db from the current folder up (docs/history.md). Two runs
compare as their results files would.

Cases are matched by suite and id. For each case that differs it shows the
score change and each evaluator that changed; it lists the cases that newly
fail, those that newly pass, and those in one file only.

A case run once in each file regresses when it passed and now fails, when
it could be scored and now cannot (status error), or when its score dropped
by more than --tolerance. A case run several times (eval --trials) is
judged on its pass rate instead: it regresses when the --confidence
interval of the change of its pass rate lies wholly below -tolerance, so
that one unlucky run is not a regression. Cases in one file only are
listed, not regressions.

A results file that is cut off or broken, empty, not trajeval results, or
that holds a case twice is an error naming the line, and so are two files
without a case in common: nothing is compared in part.

Exit codes: 0 no case regressed, 1 some case regressed, 2 the command or a
file was wrong.`,
		Args: needs(2, 2, "two results files", "trajeval compare OLD.jsonl NEW.jsonl"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(compare.Formats, format) {
				return usageError{fmt.Errorf("unknown --format %q (text, markdown, json)", format)}
			}
			if tolerance < 0 || tolerance > 1 {
				return usageError{fmt.Errorf("--tolerance must be between 0 and 1, got %v", tolerance)}
			}
			if !(confidence > 0 && confidence < 1) {
				return usageError{fmt.Errorf("--confidence must be between 0 and 1, e.g. 0.95, got %v", confidence)}
			}
			defer files.close()
			old, err := files.read(cmd, args[0])
			if err != nil {
				return err
			}
			new, err := files.read(cmd, args[1])
			if err != nil {
				return err
			}
			rep, err := compare.Compare(old, new, compare.Options{Tolerance: tolerance, Confidence: confidence})
			if err != nil {
				return err
			}
			if err := compare.Write(cmd.OutOrStdout(), rep, format); err != nil {
				return err
			}
			if rep.Regressed() {
				return errRegressed
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&format, "format", "text", "report format: text, markdown or json")
	f.Float64Var(&tolerance, "tolerance", 0, "score (or pass rate) drop allowed before a case regresses")
	f.Float64Var(&confidence, "confidence", 0.95, "confidence level of the pass rate intervals of repeated runs")
	dbFlag(f, &files.db)
	return c
}
