package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/trace"
)

func formatsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "formats",
		Short: "List the trace formats trajeval reads",
		Long: `List every trace format, one line each: the name --from takes and what it
reads, in the order formats are tried when a file's format is detected
from its content (docs/formats.md).`,
		Args: noArgs("trajeval formats"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			if asJSON {
				type format struct {
					Name        string   `json:"name"`
					Aliases     []string `json:"aliases"`
					Description string   `json:"description"`
				}
				out := []format{}
				for _, n := range trace.Names() {
					out = append(out, format{Name: n, Aliases: []string{}, Description: trace.About(n)})
				}
				return writeJSON(w, out)
			}
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, n := range trace.Names() {
				fmt.Fprintf(tw, "%s\t%s\n", n, trace.About(n))
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	return c
}
