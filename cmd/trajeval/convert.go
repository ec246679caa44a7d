package main

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

func convertCmd() *cobra.Command {
	var from string
	var lenient bool
	c := &cobra.Command{
		Use:   "convert FILE...",
		Short: "Print each trace file's trajectories in the canonical form, one per line",
		Long: `Read trace files in any known format and print the canonical trajectory
of SEMANTICS.md §1, one JSON object per line. FILE "-" reads standard input.
The format is detected from the content; --from forces one.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
			defer w.Flush()
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			stderr := cmd.ErrOrStderr()
			warn := func(x trajeval.Warning) { fmt.Fprintln(stderr, "warning:", x) }
			topts := trace.Options{From: from, Lenient: lenient, Warn: warn}
			for _, path := range args {
				var err error
				if path == "-" {
					err = trace.ReadFrom(cmd.Context(), "<stdin>", cmd.InOrStdin(), topts, func(t *trajeval.Trajectory) error { return enc.Encode(t) })
				} else {
					err = trace.Read(cmd.Context(), path, topts, func(t *trajeval.Trajectory) error { return enc.Encode(t) })
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
	c.Flags().StringVar(&from, "from", "", "force the trace format: "+fmt.Sprint(trace.Names()))
	c.Flags().BoolVar(&lenient, "lenient", false, `read what comes before the damage of a cut-off or corrupt trace, marked "partial": true, instead of failing`)
	return c
}
