package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/trials"
)

// targetFlags are eval's flags for running agents and resuming runs.
type targetFlags struct {
	target       string
	trials       int
	resume       bool
	dump         string
	includeTrace bool
}

func (t *targetFlags) register(f *pflag.FlagSet) {
	f.StringVar(&t.target, "target", "", "run the cases that have no recorded trace with this target (over the suites' execution.target)")
	f.IntVar(&t.trials, "trials", 1, "run each case that runs a target N times; rows carry the attempt")
	f.BoolVar(&t.resume, "resume", false, "keep the complete rows of --out and run only the cases missing from it")
	f.StringVar(&t.dump, "dump-traces", "", "write each trace a target produced to this folder, as SUITE/ID.json")
	f.BoolVar(&t.includeTrace, "include-trace", false, "put the trajectory each case was scored on into its result row")
}

func (t *targetFlags) check(cmd *cobra.Command, out string) error {
	switch {
	case cmd.Flags().Changed("trials") && t.trials < 1:
		return usageError{fmt.Errorf("--trials must be at least 1, got %d", t.trials)}
	case t.resume && out == "":
		return usageError{errors.New("--resume needs --out FILE: it keeps the complete rows of that file and runs the rest")}
	}
	return nil
}

// errInterrupted says the run was stopped by Ctrl-C before every case ran.
var errInterrupted = errors.New("interrupted")

// interrupted turns a stopped run into errInterrupted, saying how to
// finish it.
func interrupted(err error, out string) error {
	if !errors.Is(err, run.ErrStopped) && !errors.Is(err, context.Canceled) {
		return err
	}
	hint := "run with --out FILE, then --resume, to keep what is done"
	if out != "" {
		hint = "run the same command with --resume to finish: the complete rows of " + out + " are kept"
	}
	return fmt.Errorf("%w before every case ran; %s", errInterrupted, hint)
}

// A trialsBlock collects the verdicts of a run of several trials and
// prints, before the report's closing line, each case's statistics.
type trialsBlock struct {
	k    int
	rows []trajeval.CaseResult
	w    io.Writer
}

type trialsWriter struct {
	report.Writer
	b *trialsBlock
}

func (b *trialsBlock) wrap(w report.Writer) report.Writer {
	if t, ok := w.(*report.Text); ok {
		b.w = t.W
	}
	return trialsWriter{w, b}
}

func (t trialsWriter) Case(r trajeval.CaseResult) error {
	if r.Attempt > 0 {
		t.b.rows = append(t.b.rows, trajeval.CaseResult{Suite: r.Suite, ID: r.ID, Status: r.Status, Score: r.Score})
	}
	return t.Writer.Case(r)
}

func (t trialsWriter) Close(s report.Summary) error {
	if t.b.w != nil && len(t.b.rows) > 0 {
		if _, err := io.WriteString(t.b.w, t.b.text()); err != nil {
			return err
		}
	}
	return t.Writer.Close(s)
}

// text is the block: per case, the passes, pass@k and pass^k for k the
// number of trials, the score's mean, spread and range, and whether it is
// flaky.
func (b *trialsBlock) text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nTrials (%d per case): passed, pass@%d, pass^%d, score mean ± sd [min, max]\n", b.k, b.k, b.k)
	for _, c := range trials.Group(b.rows) {
		lo, hi := c.Range()
		fmt.Fprintf(&sb, "  %s  %d/%d  pass@%d %s  pass^%d %s  score %.2f ± %.2f [%.2f, %.2f]", c.ID, c.Passed, c.Trials,
			b.k, estimate(c.PassAtK(b.k)), b.k, estimate(c.PassHatK(b.k)), c.Mean(), c.StdDev(), lo, hi)
		if c.Flaky() {
			sb.WriteString("  flaky")
		}
		if c.Suite != "" {
			fmt.Fprintf(&sb, "  (%s)", c.Suite)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// estimate prints a pass@k or pass^k, "-" when there is none (fewer
// trials than k, after a stop).
func estimate(p float64) string {
	if math.IsNaN(p) {
		return "-"
	}
	return fmt.Sprintf("%.2f", p)
}
