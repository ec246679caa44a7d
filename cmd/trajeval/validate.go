package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

func validateCmd() *cobra.Command {
	var config, questions string
	c := &cobra.Command{
		Use:   "validate PATH...",
		Short: "Check suites for every configuration error, without running anything",
		Long: `Check suites without running them.

Every configuration error is printed as file:line:col: path: message, with a
suggestion where a close valid name exists. Every trace file a suite names
(trace: and traces:) must exist and be readable, and the program of every
target a case runs must be found. Exit code 0 when the
suites are valid, 2 otherwise.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			judges := &judge.Runtime{Workers: 1, Getenv: getenv(cmd.Context())}
			suites, errs := suite.Load(args, suite.Options{Config: config, Judges: judges, Dialects: dialects.All(), Questions: questions})
			errs = append(errs, suite.CheckTraces(suites)...)
			errs = append(errs, suite.CheckTargets(suites, "")...)
			if len(errs) > 0 {
				return configErrors(cmd, errs)
			}
			printWarnings(cmd, suites)
			if err := judges.Err(); err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", err, "(eval needs one)")
			}
			n := 0
			for _, s := range suites {
				n += len(s.Cases)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "ok: %d suites, %d cases\n", len(suites), n)
			return nil
		},
	}
	c.Flags().StringVar(&config, "config", "", "ADK test_config.json for eval sets")
	c.Flags().StringVar(&questions, "questions", "", "BFCL question file for possible-answer files")
	return c
}
