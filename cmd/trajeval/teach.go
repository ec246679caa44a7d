package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/plural"
)

// agentvSpelling returns the error for eval's arguments spelled as
// AgentV's command line (agentv eval run FILE): trajeval has no run
// subcommand, so "run" would be read as a suite path. A file or folder
// named run is a suite path, and no mistake.
func agentvSpelling(args []string) error {
	if len(args) < 2 || args[0] != "run" {
		return nil
	}
	if _, err := os.Stat("run"); err == nil {
		return nil
	}
	return usageError{fmt.Errorf("trajeval has no `eval run`; did you mean: trajeval eval %s", strings.Join(args[1:], " "))}
}

// noArgs refuses arguments to a command that takes none, showing its use.
func noArgs(usage string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return usageError{fmt.Errorf("%s takes no arguments, got %s (%s): %s", cmd.Name(), plural.Count(len(args), "argument", "arguments"), strings.Join(args, " "), usage)}
	}
}

// needs checks a command's arguments, from min to max of them (max < 0:
// no limit), and says what they are when the count is wrong, instead of
// cobra's "requires at least 1 arg(s)": "compare needs two results files,
// got 1: trajeval compare OLD.jsonl NEW.jsonl".
func needs(min, max int, what, usage string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= min && (max < 0 || len(args) <= max) {
			return nil
		}
		got := ""
		if len(args) > 0 {
			got = fmt.Sprintf(", got %d", len(args))
		}
		return usageError{fmt.Errorf("%s needs %s%s: %s", cmd.Name(), what, got, usage)}
	}
}
