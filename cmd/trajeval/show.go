package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/report"
)

// runRows returns the rows of the run ref as eval wrote them (--out):
// JSON Lines, with the trajectories when the run was asked for them.
func runRows(ctx context.Context, h *history.DB, ref string) (history.Run, []trajeval.CaseResult, []byte, error) {
	id, err := h.Resolve(ctx, ref)
	if err != nil {
		return history.Run{}, nil, nil, err
	}
	run, err := h.Run(ctx, id)
	if err != nil {
		return run, nil, nil, err
	}
	var o runOptions
	if err := json.Unmarshal(run.Options, &o); err != nil {
		return run, nil, nil, fmt.Errorf("run %d: options: %w", id, err)
	}
	rows, err := h.Rows(ctx, id, o.IncludeTrace)
	if err != nil {
		return run, nil, nil, err
	}
	var buf bytes.Buffer
	w := report.NewJSONL(&buf)
	for _, r := range rows {
		if err := w.Case(r); err != nil {
			return run, nil, nil, err
		}
	}
	return run, rows, buf.Bytes(), nil
}

func showCmd() *cobra.Command {
	var (
		db, format string
		verbose    bool
	)
	c := &cobra.Command{
		Use:   "show RUN [CASE]",
		Short: "Print the report of a recorded run, or of one of its cases",
		Long: `Print the report of a run that eval recorded, as eval printed it; with
CASE (an id, or SUITE/ID), that case's alone (every trial of it).

RUN is a run id (trajeval runs lists them), last (the newest run) or
last~N (the N-th before it). --format jsonl prints the rows eval --out
wrote. The database is --db, else $TRAJEVAL_DB, else the nearest
.trajeval/runs.db from the current folder up.`,
		Example: `  trajeval show last
  trajeval show 12 refund-policy -v
  trajeval show last~1 --format jsonl > before.jsonl`,
		Args: needs(1, 2, "a run (an id, last, or last~N) and at most one case id", "trajeval show last [CASE]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError{fmt.Errorf("unknown --format %q (%s)", format, strings.Join(report.Formats, ", "))}
			}
			h, err := openHistory(cmd, db)
			if err != nil {
				return err
			}
			defer h.Close()
			run, results, data, err := runRows(cmd.Context(), h, args[0])
			if err != nil {
				return err
			}
			name := fmt.Sprintf("run %d", run.ID)
			// The HTML page draws the trajectories of the rows as the
			// report command reads them from a results file.
			rows, warnings, err := report.ReadRows(bytes.NewReader(data), name)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			if len(args) == 2 {
				var picked []report.Row
				var pickedResults []trajeval.CaseResult
				for i, r := range rows {
					if r.ID == args[1] || r.Suite+"/"+r.ID == args[1] {
						picked = append(picked, r)
						pickedResults = append(pickedResults, results[i])
					}
				}
				if len(picked) == 0 {
					return fmt.Errorf("%w: %s has no case %q", history.ErrNoRun, name, args[1])
				}
				rows, results = picked, pickedResults
			}
			if note := keptNote(run, name); note != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "trajeval:", note)
			}
			switch run.Status {
			case history.StatusInterrupted:
				fmt.Fprintf(cmd.ErrOrStderr(), "trajeval: %s was interrupted: it recorded %d cases\n", name, run.Cases)
			case history.StatusRunning:
				fmt.Fprintf(cmd.ErrOrStderr(), "trajeval: %s is still running: it has recorded %d cases so far\n", name, run.Cases)
			}
			w, err := report.New(format, cmd.OutOrStdout())
			if err != nil {
				return usageError{err}
			}
			rs := summarize(results)
			switch w := w.(type) {
			case *report.Text:
				w.Verbose = verbose
			case *report.HTML:
				w.Title = fmt.Sprintf("trajeval %s", name)
				for _, r := range rows {
					if err := w.Row(r); err != nil {
						return err
					}
				}
				return w.Close(rs)
			}
			for _, r := range results {
				if err := w.Case(r); err != nil {
					return err
				}
			}
			return w.Close(rs)
		},
	}
	f := c.Flags()
	dbFlag(f, &db)
	f.StringVar(&format, "format", "text", "report format: "+strings.Join(report.Formats, ", "))
	f.BoolVarP(&verbose, "verbose", "v", false, "explain passing evaluators too")
	return c
}

// keptNote says, for a run recorded with --keep-failing N that had more
// than N cases that did not pass, that the cases past them keep no
// trajectory nor details; "" otherwise. A run of shards kept N a shard:
// which shard had more is not stored, so its note says at most N.
func keptNote(run history.Run, name string) string {
	var o runOptions
	if json.Unmarshal(run.Options, &o) != nil || o.KeepFailing == 0 || o.IncludeTrace {
		return ""
	}
	notPassed := run.Failed + run.Errors
	switch {
	case notPassed <= o.KeepFailing:
		return ""
	case run.Shards > 0:
		return fmt.Sprintf("%s kept the trajectories and evaluators' details of at most %d cases that did not pass in each shard (eval --keep-failing); a case past them shows its verdicts and scores only", name, o.KeepFailing)
	}
	return fmt.Sprintf("%s kept the trajectories and evaluators' details of its first %d cases that did not pass (eval --keep-failing); the %d after them show their verdicts and scores only", name, o.KeepFailing, notPassed-o.KeepFailing)
}

// summarize counts the verdicts and judge calls of rows, as eval does.
func summarize(rows []trajeval.CaseResult) report.Summary {
	var rs report.Summary
	for _, r := range rows {
		rs.Add(r)
		if r.Judge != nil {
			if rs.Judge == nil {
				rs.Judge = &trajeval.JudgeUsage{}
			}
			rs.Judge.Add(r.Judge)
		}
	}
	return rs
}
