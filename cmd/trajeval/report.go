package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/lockfile"
	"github.com/trajeval/trajeval/internal/report"
)

func reportCmd() *cobra.Command {
	var out, format, title string
	var view viewFlags
	c := &cobra.Command{
		Use:   "report RESULTS.jsonl...",
		Short: "Turn results files into an HTML page, a JUnit report or a CI summary",
		Long: `Turn the results of eval (--out FILE, or --format jsonl) into a report.

The default is one self-contained HTML page (no network; open it from
disk): the totals, filters by status, evaluator and text, and for each case
the expected calls and the actual steps side by side, with what matched,
what is missing (and the arguments that differ), what is extra, and which
steps were slow or failed. Rows written with eval --include-trace carry the
whole trajectory and show every step; other rows show the steps the results
name. When a case ran several times (eval --trials N), the page shows each
case's pass rate, pass@k, pass^k and whether it is flaky.

--format junit, markdown, text, json or jsonl writes the same results in
that format instead, e.g. a JUnit report and a CI job summary from one run.
--failed-only leaves out the cases that passed (text, markdown, json,
jsonl); --color colours the text report as eval does.

Exit codes: 0 the report was written (whatever the cases' verdicts), 2 the
command or a results file was wrong.`,
		Example: `  trajeval eval suite.yaml --out results.jsonl
  trajeval report results.jsonl -o report.html
  trajeval report results.jsonl --format junit -o junit.xml
  trajeval report results.jsonl --format markdown >> "$GITHUB_STEP_SUMMARY"`,
		Args: needs(1, -1, "a results file", "trajeval report RESULTS.jsonl (trajeval eval --out RESULTS.jsonl writes one)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError{fmt.Errorf("unknown --format %q (%s)", format, strings.Join(report.Formats, ", "))}
			}
			var files [][]report.Row
			for _, name := range args {
				rs, err := readResults(cmd, name)
				if err != nil {
					return err
				}
				files = append(files, rs)
			}
			rows, warnings := mergeShards(files)
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			var dst io.Writer = cmd.OutOrStdout()
			var file *os.File
			var lock *lockfile.Lock
			var buf *bufio.Writer
			if out != "" {
				// Locked, then emptied: a file another run writes is
				// refused before it is changed.
				f, l, err := openLocked(out, os.O_WRONLY|os.O_CREATE)
				if err != nil {
					return fmt.Errorf("-o: %w", err)
				}
				if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
					if err := f.Truncate(0); err != nil {
						return fmt.Errorf("-o %s: %w", out, errors.Join(err, l.Release(), f.Close()))
					}
				}
				file, lock, buf = f, l, bufio.NewWriterSize(f, 1<<16)
				dst = buf
			}
			err := writeReport(dst, format, title, rows, func(w report.Writer) (report.Writer, error) {
				return view.apply(cmd, format, w, dst)
			})
			if buf != nil {
				err = errors.Join(err, buf.Flush(), lock.Release(), file.Close())
			}
			if err != nil && out != "" {
				return fmt.Errorf("-o %s: %w", out, err)
			}
			return err
		},
	}
	f := c.Flags()
	f.StringVarP(&out, "out", "o", "", "write the report to this file instead of standard output")
	f.StringVar(&format, "format", "html", "report format: "+strings.Join(report.Formats, ", "))
	f.StringVar(&title, "title", "", `the HTML page's title (default "trajeval report")`)
	view.register(f)
	return c
}

// readResults reads one results file, printing its warnings.
func readResults(cmd *cobra.Command, name string) ([]report.Row, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, warnings, err := report.ReadRows(f, name)
	for _, w := range warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	return rows, err
}

func writeReport(dst io.Writer, format, title string, rows []report.Row, setup func(report.Writer) (report.Writer, error)) error {
	w, err := report.New(format, dst)
	if err != nil {
		return usageError{err}
	}
	if w, err = setup(w); err != nil {
		return err
	}
	if h, ok := w.(*report.HTML); ok {
		h.Title = title
		for _, r := range rows {
			if err := h.Row(r); err != nil {
				return err
			}
		}
	} else {
		for _, r := range rows {
			if err := w.Case(r.CaseResult); err != nil {
				return err
			}
		}
	}
	return w.Close(report.Summarize(rows))
}
