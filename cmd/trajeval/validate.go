package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/suite"
)

func validateCmd() *cobra.Command {
	var config, questions string
	var basis []string
	c := &cobra.Command{
		Use:   "validate PATH...",
		Short: "Check suites for every configuration error, without running anything",
		Long: `Check suites without running them.

Every configuration error is printed as file:line:col: path: message, with a
suggestion where a close valid name exists. Every trace file a suite names
(trace: and traces:) must exist and read without error as eval reads it
(damage is reported at its file, line and column), and the program of
every target a case runs must be found. Exit code 0 when the suites are
valid, 2 otherwise.`,
		Args: needs(1, -1, "a suite file or folder", "trajeval validate SUITE.yaml"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := suite.RunOptions{Config: config, Basis: basis, Questions: questions, Judge: suite.JudgeOptions{Workers: 1, Getenv: getenv(cmd.Context())}}
			s, err := load(opts, args)
			if err == nil {
				err = s.CheckFiles()
			}
			if err != nil {
				return configErrors(cmd, err)
			}
			printWarnings(cmd, s.Warnings)
			if _, err := s.Plan(opts); errors.Is(err, judge.ErrNoJudge) {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", err, "(eval needs one)")
			}
			fmt.Fprintf(cmd.OutOrStdout(), "ok: %s, %s\n", plural.Count(suiteCount(s), "suite", "suites"), plural.Count(len(s.Cases), "case", "cases"))
			return nil
		},
	}
	c.Flags().StringVar(&config, "config", "", "ADK test_config.json for eval sets")
	c.Flags().StringSliceVar(&basis, "basis", nil, "τ²-bench tasks: score only these reward components, e.g. ACTION,COMMUNICATE")
	c.Flags().StringVar(&questions, "questions", "", "BFCL question file for possible-answer files")
	return c
}

// suiteCount is the number of suites of s: a suite has cases, or is one
// of s.Open.
func suiteCount(s *suite.Suite) int {
	files := map[string]bool{}
	for _, c := range s.Cases {
		files[c.File] = true
	}
	return len(files) + len(s.Open)
}
