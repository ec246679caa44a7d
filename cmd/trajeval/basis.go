package main

import (
	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/tau2"
	"github.com/trajeval/trajeval/internal/trajeval"
)

// basisOption sets opts.Basis from --basis, whose names must be τ²'s
// reward components.
func basisOption(cmd *cobra.Command, opts *suite.Options, basis []string) error {
	if !cmd.Flags().Changed("basis") {
		return nil
	}
	if err := tau2.CheckBasis(basis); err != nil {
		return usageError{err}
	}
	opts.Basis = append([]string{}, basis...)
	return nil
}

// checkBasis returns an error when --basis was given and no suite is a τ²
// task file: a setting that changes nothing is a mistake.
func checkBasis(suites []*suite.Suite, opts suite.Options) []error {
	if opts.Basis == nil {
		return nil
	}
	for _, s := range suites {
		if s.Dialect == tau2.Dialect.Name {
			return nil
		}
	}
	return []error{&trajeval.SpecError{Msg: "--basis applies to τ²-bench task files, and no suite is one", Hint: "drop --basis, or name a tasks.json"}}
}
