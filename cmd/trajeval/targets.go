package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trajeval/trajeval/internal/run"
)

// targetFlags are eval's flags for running agents and resuming runs.
type targetFlags struct {
	target       string
	trials       int
	resume       bool
	dump         string
	includeTrace bool
	maxOutput    int64
}

func (t *targetFlags) register(f *pflag.FlagSet) {
	f.StringVar(&t.target, "target", "", "run the cases that have no recorded trace with this target (over the suites' execution.target)")
	f.IntVar(&t.trials, "trials", 1, "run each case that runs a target N times; rows carry the attempt")
	f.BoolVar(&t.resume, "resume", false, "keep the complete rows of --out and run only the cases missing from it")
	f.StringVar(&t.dump, "dump-traces", "", "write each trace a target produced to this folder, as SUITE/ID.json")
	f.BoolVar(&t.includeTrace, "include-trace", false, "put the trajectory each case was scored on into its result row")
	f.Int64Var(&t.maxOutput, "max-output", 0, "bytes a target's command may write to each of standard output, standard error and {OUTPUT_FILE}, over the targets' max_output (default: theirs, else 256 MiB)")
}

func (t *targetFlags) check(cmd *cobra.Command, out string) error {
	switch {
	case cmd.Flags().Changed("trials") && t.trials < 1:
		return usageError{fmt.Errorf("--trials must be at least 1, got %d", t.trials)}
	case cmd.Flags().Changed("max-output") && t.maxOutput < 1:
		return usageError{fmt.Errorf("--max-output must be at least 1 byte, got %d", t.maxOutput)}
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
