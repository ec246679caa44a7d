package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/scaffold"
	"github.com/trajeval/trajeval/internal/trace"
)

func initCmd() *cobra.Command {
	var from []string
	var merge bool
	var holdout float64
	var seed uint64
	c := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a small working suite, or turn a recorded run into a regression suite",
		Long: `Write a small suite that passes into DIR (default: the current folder): a
suite (suite.yaml), the trace it scores (traces/forecast-by-sms.json) and a
README snippet (TRAJEVAL.md), then print the command that runs it.

With --from TRACE, write a suite whose cases expect what the trace did
instead: one case per trajectory (by id), each expecting its tool calls in
order (mode in_order) with their arguments as recorded (args_match: exact).
The trace, in any format trajeval reads, is copied under DIR/traces/ (or
named where it is, when it is inside DIR already). The suite is scored on
the trace before this command returns: it passes.

With --merge --from RUNS... (--from repeated, or a glob such as
'runs/*.jsonl'; files of any trace format, each with one or many
trajectories), write one expectation that accepts every given run: a
suite with no cases (mined.yaml) that scores any later run against what
the good runs had in common (docs/mining.md), and the runs it was mined
from beside it (mined.traces.jsonl). The suite is scored on every run
before it is written: each passes. --holdout F keeps a share F of the
runs out of the mining (chosen by --seed) and says how many of them pass.

A file that exists is never overwritten: nothing is written, and the error
names every file in the way.`,
		Args: needs(0, 1, "one folder at most", "trajeval init [DIR] [--from TRACE] [--merge --from RUNS...]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if merge {
				return initMerge(cmd, dir, from, holdout, seed)
			}
			switch {
			case cmd.Flags().Changed("holdout") || cmd.Flags().Changed("seed"):
				return usageError{fmt.Errorf("--holdout and --seed go with --merge: trajeval init DIR --merge --from RUNS... --holdout 0.2")}
			case len(from) > 1:
				return usageError{fmt.Errorf("--from is given %d times: one trace makes a regression suite, several make one expectation with --merge", len(from))}
			}
			if len(from) == 0 {
				if err := scaffold.Write(dir, scaffold.Starter()); err != nil {
					return err
				}
				var names []string
				for _, f := range scaffold.Starter() {
					names = append(names, filepath.Join(dir, filepath.FromSlash(f.Path)))
				}
				return printNext(cmd, names, filepath.Join(dir, scaffold.StarterSuite))
			}
			return initFrom(cmd, dir, from[0])
		},
	}
	c.Flags().StringArrayVar(&from, "from", nil, "write a suite that expects what this trace did (with --merge: repeatable, globs allowed)")
	c.Flags().BoolVar(&merge, "merge", false, "mine one expectation that accepts every run of --from")
	c.Flags().Float64Var(&holdout, "holdout", 0, "with --merge: the share of runs (0 to 1) held back and scored with the mined suite")
	c.Flags().Uint64Var(&seed, "seed", 1, "with --holdout: the seed that chooses the runs held back")
	return c
}

// initFrom writes the suite of a trace, checks that it passes on it, and
// removes what it wrote if it does not.
func initFrom(cmd *cobra.Command, dir, tracePath string) error {
	if tracePath == "-" {
		return usageError{fmt.Errorf("--from needs a trace file, not standard input: the suite names the file it scores")}
	}
	var trajs []*trajeval.Trajectory
	err := trace.Read(cmd.Context(), tracePath, trace.Options{Warn: func(w trajeval.Warning) {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}}, func(t *trajeval.Trajectory) error {
		trajs = append(trajs, t)
		return nil
	})
	if err != nil {
		return err
	}
	files, suitePath, notes, err := scaffold.FromTrace(tracePath, trajs, dir)
	if err != nil {
		return err
	}
	if err := scaffold.Write(dir, files); err != nil {
		return err
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Join(dir, filepath.FromSlash(f.Path)))
	}
	full := filepath.Join(dir, suitePath)
	if err := scaffold.Verify(cmd.Context(), full, trajs); err != nil {
		for _, n := range names {
			os.Remove(n)
		}
		return fmt.Errorf("the suite made from %s does not pass on it, so it was not kept (please report this as a bug): %w", tracePath, err)
	}
	for _, n := range notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	return printNext(cmd, names, full)
}

// printNext makes git ignore the run history, says what was written and
// the command that runs the suite.
func printNext(cmd *cobra.Command, written []string, suitePath string) error {
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "wrote %s\n", strings.Join(written, ", "))
	ignore, err := ignoreHistory(filepath.Dir(suitePath))
	if err != nil {
		return fmt.Errorf("the suite is written, but the run history could not be added to the ignore file: %w", err)
	}
	if ignore != "" {
		fmt.Fprintf(w, "added %s to %s, so that git ignores the run history eval keeps there\n", historyIgnore, ignore)
	}
	fmt.Fprintf(w, "\nrun it:\n  trajeval eval %s\n", shellQuote(suitePath))
	return nil
}

// shellQuote quotes a path for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+,@%=:", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
