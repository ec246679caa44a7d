package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/trace"
	"github.com/trajeval/trajeval/internal/trajeval"
)

func convertCmd() *cobra.Command {
	var from string
	var lenient bool
	c := &cobra.Command{
		Use:   "convert FILE...",
		Short: "Print each trace file's trajectories in the canonical form, one per line",
		Long: `Read trace files in any known format and print each trajectory in
trajeval's canonical form (docs/scoring.md), one JSON object per line.
FILE "-" reads standard input. The format is detected from the content;
--from forces one (docs/formats.md lists them). A file that holds no
trajectory is an error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
			err := convert(cmd, args, trace.Options{From: from, Lenient: lenient}, w)
			// What was converted before an error is still printed; a write
			// error is an error, never a silent short output.
			if ferr := w.Flush(); err == nil && ferr != nil {
				err = fmt.Errorf("writing the output: %w", ferr)
			}
			return err
		},
	}
	c.Flags().StringVar(&from, "from", "", "force the trace format: "+fmt.Sprint(trace.Names()))
	c.Flags().BoolVar(&lenient, "lenient", false, `read what comes before the damage of a cut-off or corrupt trace, marked "partial": true, instead of failing`)
	return c
}

// convert writes the trajectories of each file to w, one JSON object per
// line.
func convert(cmd *cobra.Command, args []string, topts trace.Options, w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	stderr := cmd.ErrOrStderr()
	topts.Warn = func(x trajeval.Warning) { fmt.Fprintln(stderr, "warning:", x) }
	for _, path := range args {
		n := 0
		yield := func(t *trajeval.Trajectory) error {
			n++
			if err := enc.Encode(t); err != nil {
				return fmt.Errorf("writing the output: %w", err)
			}
			return nil
		}
		var err error
		name := path
		if path == "-" {
			name = "<stdin>"
			err = trace.ReadFrom(cmd.Context(), name, cmd.InOrStdin(), topts, yield)
		} else {
			err = trace.Read(cmd.Context(), path, topts, yield)
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: %s holds no trajectory", trajeval.ErrEmptyTrace, name)
		}
	}
	return nil
}
