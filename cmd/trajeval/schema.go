package main

import (
	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/suite"
)

func schemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of suite files, for editors",
		Long: `Print the JSON Schema (draft 2020-12) of AgentV YAML suites: the suite's keys,
execution, cases, turns, targets, judge, and each evaluator type's settings.
It is built from the definitions the loader uses, and is the file

  ` + suite.SchemaURL + `

To get completion and checks in VS Code (with the YAML extension) and other
editors that use yaml-language-server, start a suite with

  # yaml-language-server: $schema=` + suite.SchemaURL + `

The schema checks shapes; 'trajeval validate' checks everything.`,
		Args: noArgs("trajeval schema > trajeval-suite.schema.json"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := suite.Schema()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(data)
			return err
		},
	}
}
