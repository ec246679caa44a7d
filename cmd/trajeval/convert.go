package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/trace"
)

func convertCmd() *cobra.Command {
	var from string
	var lenient, quiet bool
	c := &cobra.Command{
		Use:   "convert FILE...",
		Short: "Print each trace file's trajectories in the canonical form, one per line",
		Long: `Read trace files in any known format and print each trajectory in
trajeval's canonical form (docs/scoring.md), one JSON object per line.
FILE "-" reads standard input. The format is detected from the content;
--from forces one (docs/formats.md lists them). A file that holds no
trajectory is an error. Standard error says which format each file was
read as, when it was detected (-q: not).`,
		Args: needs(1, -1, "a trace file", "trajeval convert TRACE.json (- reads standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
			err := convert(cmd, args, trace.ReadOptions{Format: from, Lenient: lenient}, quiet, w)
			// What was converted before an error is still printed; a write
			// error is an error, never a silent short output.
			if ferr := w.Flush(); err == nil && ferr != nil {
				err = fmt.Errorf("writing the output: %w", ferr)
			}
			return err
		},
	}
	c.Flags().StringVar(&from, "from", "", "force the trace format: "+fmt.Sprint(trace.Formats()))
	c.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not say on standard error which format each file was detected as")
	c.Flags().BoolVar(&lenient, "lenient", false, `read what comes before the damage of a cut-off or corrupt trace, marked "partial": true, instead of failing`)
	return c
}

// convert writes the trajectories of each file to w, one JSON object per
// line, as they are read.
func convert(cmd *cobra.Command, args []string, ro trace.ReadOptions, quiet bool, w io.Writer) error {
	stderr := cmd.ErrOrStderr()
	ro.Warn = func(x trajeval.Warning) { fmt.Fprintln(stderr, "warning:", x) }
	for _, path := range args {
		name := path
		if path == "-" {
			name = "<stdin>"
		}
		if !quiet {
			ro.Detected = func(format string) { fmt.Fprintf(stderr, "read %s as %s (detected)\n", name, format) }
		}
		trajs := ro.EachFile(cmd.Context(), path)
		if path == "-" {
			ro.Name = name
			trajs = ro.Each(cmd.Context(), cmd.InOrStdin())
		}
		n := 0
		for t, err := range trajs {
			if err != nil {
				return err
			}
			n++
			// The trajectory's own encoder: what an Encoder would write,
			// without checking and compacting it again.
			line, err := t.MarshalJSON()
			if err != nil {
				return fmt.Errorf("writing the output: %w", err)
			}
			if _, err := w.Write(append(line, '\n')); err != nil {
				return fmt.Errorf("writing the output: %w", err)
			}
		}
		if n == 0 {
			return fmt.Errorf("%w: %s holds no trajectory", trajeval.ErrEmptyTrace, name)
		}
	}
	return nil
}
