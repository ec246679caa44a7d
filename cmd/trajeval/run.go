package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/escape"
)

// Run runs the command line args (without the program name) with the
// process's standard streams.
func Run(ctx context.Context, args []string) error {
	return execute(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

func execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	root := &cobra.Command{
		Use:   "trajeval",
		Short: "Score what AI agents do: tool calls, order, arguments, timing",
		Long: `trajeval scores recorded agent traces against expected tool calls.

It reads AgentV, ADK and UiPath suites and traces in every common format
(OpenTelemetry, OpenAI, Anthropic, LangChain, ADK, agent CLIs, MCP), and
scores them with one engine of optimal matchers.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.Version = currentVersion() // --version, as the version command prints it
	root.SetVersionTemplate("trajeval {{.Version}}\n")
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	// Warnings and errors quote traces, agents and judges: what they
	// hold reaches the terminal escaped (see package escape). Standard
	// output is escaped by each report, whose colours are its own.
	root.SetErr(escape.NewWriter(stderr))
	root.AddCommand(evalCmd(), validateCmd(), convertCmd(), reportCmd(), compareCmd(), versionCmd(), initCmd(), evaluatorsCmd(), formatsCmd(), schemaCmd())
	root.AddCommand(serveCmd())
	root.AddCommand(runsCmd(), showCmd(), viewCmd())
	var cpuprofile string
	root.PersistentFlags().StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuprofile == "" {
			return nil
		}
		f, err := os.Create(cpuprofile)
		if err != nil {
			return err
		}
		return pprof.StartCPUProfile(f)
	}
	defer func() {
		if cpuprofile != "" {
			pprof.StopCPUProfile()
		}
	}()
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath())}
	})
	err := root.ExecuteContext(ctx)
	if err != nil && !errors.Is(err, errCasesFailed) && !errors.Is(err, errRegressed) {
		var ue usageError
		if !errors.As(err, &ue) && isCobraUsage(err) {
			return usageError{err}
		}
	}
	return err
}

// A usageError is a mistake in the command line.
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "requires at least", "accepts "} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
