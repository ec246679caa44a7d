package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/suggest"
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
	root.SetIn(stdin)
	root.SetOut(stdout)
	// Warnings and errors quote traces, agents and judges: what they
	// hold reaches the terminal escaped (see package escape). Standard
	// output is escaped by each report, whose colours are its own.
	root.SetErr(escape.NewWriter(stderr))
	root.AddCommand(evalCmd(), validateCmd(), convertCmd(), reportCmd(), compareCmd(), versionCmd(), initCmd(), evaluatorsCmd(), formatsCmd(), schemaCmd())
	root.AddCommand(serveCmd())
	root.AddCommand(runsCmd(), showCmd(), viewCmd())
	root.AddCommand(gradeCmd())
	root.SetArgs(commandFirst(root, args))
	var cpuprofile, memprofile string
	root.PersistentFlags().StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	root.PersistentFlags().StringVar(&memprofile, "memprofile", "", "write an allocation profile (every 4 KiB allocated is sampled) to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if memprofile != "" {
			runtime.MemProfileRate = 4096
		}
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
		if memprofile != "" {
			writeAllocs(memprofile)
		}
	}()
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w%s\nrun '%s --help' for usage", err, flagHint(c, err), c.CommandPath())}
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

// commandFirst moves the command's name to the front of args when flags
// come before it, so that flags may stand anywhere on the line:
// trajeval --quiet eval suite.yaml is trajeval eval --quiet suite.yaml.
// The name is the first argument, before any "--", that names one of
// root's commands or their aliases.
func commandFirst(root *cobra.Command, args []string) []string {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") {
		return args
	}
	names := map[string]bool{"help": true}
	for _, c := range root.Commands() {
		names[c.Name()] = true
		for _, a := range c.Aliases {
			names[a] = true
		}
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if names[a] {
			return slices.Concat([]string{a}, args[:i], args[i+1:])
		}
	}
	return args
}

// flagHint is "did you mean --NAME?" for an unknown flag near one of c's
// flags, and "" otherwise.
func flagHint(c *cobra.Command, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	var flags []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f.Name)
		}
	})
	if best := suggest.Closest(name, flags); best != "" {
		return fmt.Sprintf(" (did you mean --%s?)", best)
	}
	return ""
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

// writeAllocs writes the allocation profile gathered since
// --memprofile set the sampling rate; a file that cannot be written is
// left out, as the profile is a developer's aid.
func writeAllocs(name string) {
	f, err := os.Create(name)
	if err != nil {
		return
	}
	defer f.Close()
	runtime.GC() // the profile counts what the last collection saw
	_ = pprof.Lookup("allocs").WriteTo(f, 0)
}
