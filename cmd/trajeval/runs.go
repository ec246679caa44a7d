package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/jsonv"
)

func runsCmd() *cobra.Command {
	var (
		db, suite, since string
		asJSON           bool
	)
	c := &cobra.Command{
		Use:   "runs",
		Short: "List the runs that eval recorded",
		Long: `List the runs of the run history, oldest first: id, suites, git commit,
start, duration and the counts of passed, failed and errored cases. A run
whose end was never recorded shows as running while the trajeval that
records it is alive (on this host, its process exists; on another, it
wrote within the last minute), else as interrupted (killed), with the
cases it recorded.

eval records each run in .trajeval/runs.db at the project's root (the git
work tree's root, else the first suite's folder; or --db, $TRAJEVAL_DB); runs reads --db, else $TRAJEVAL_DB, else the nearest
.trajeval/runs.db from the current folder up. See docs/history.md.`,
		Example: `  trajeval runs --db examples
  trajeval runs --suite shop --since 2026-01-31 --json
  trajeval runs prune --keep 50
  trajeval runs prune --older-than 30d`,
		Args: noArgs("trajeval runs [--db PATH] [--suite NAME] [--since DATE]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var f history.Filter
			f.Suite = suite
			if since != "" {
				t, err := parseTime("--since", since)
				if err != nil {
					return usageError{err}
				}
				f.Since = t
			}
			h, err := openHistory(cmd, db)
			if err != nil {
				return err
			}
			defer h.Close()
			runs, err := h.Runs(cmd.Context(), f)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if runs == nil {
					runs = []history.Run{}
				}
				enc := json.NewEncoder(jsonv.NewWriter(out))
				enc.SetIndent("", "  ")
				return enc.Encode(runs)
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSUITE\tCOMMIT\tSTARTED\tDURATION\tPASSED\tFAILED\tERRORS\tSTATUS")
			for _, r := range runs {
				commit := r.Commit
				if len(commit) > 10 {
					commit = commit[:10]
				}
				suites := cmpOr(strings.Join(r.Suites, ""), "-")
				if len(r.Suites) > 1 {
					suites = fmt.Sprintf("%s +%d", r.Suites[0], len(r.Suites)-1)
				}
				// A suite's name and the commit are the history's text:
				// escaped, and kept in their column (a tab would move it).
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", r.ID, escape.Line(suites), escape.Line(cmpOr(commit, "-")),
					r.Start.Local().Format("2006-01-02 15:04:05"), duration(r), r.Passed, r.Failed, r.Errors, escape.Line(status(r)))
			}
			return tw.Flush()
		},
	}
	f := c.Flags()
	dbFlag(f, &db)
	f.StringVar(&suite, "suite", "", "only the runs of the suite of this name")
	f.StringVar(&since, "since", "", "only the runs started at or after DATE (2026-01-31, or RFC 3339)")
	f.BoolVar(&asJSON, "json", false, "print the runs as JSON")
	c.AddCommand(pruneCmd())
	return c
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// parseTime reads the value s of flag (--since, --before): a date
// (midnight, local time) or an RFC 3339 time.
func parseTime(flag, s string) (time.Time, error) {
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%s %q: give a date, 2026-01-31, or a time, 2026-01-31T12:00:00Z", flag, s)
}

func duration(r history.Run) string {
	if r.End.IsZero() {
		return "-"
	}
	return r.End.Sub(r.Start).Round(time.Millisecond).String()
}

// status is the run's status as read back: a run with no end is running
// while its process lives, else interrupted (see package history).
func status(r history.Run) string { return r.Status }

func pruneCmd() *cobra.Command {
	var (
		db, before, olderThan string
		keep                  int
	)
	c := &cobra.Command{
		Use:   "prune [--keep N] [--before DATE | --older-than AGE]",
		Short: "Delete the recorded runs but the newest",
		Long: `Delete recorded runs, with their cases: with --keep N, every run but the
N newest by start time; with --before DATE or --older-than AGE, every run
started before that time. Given both, the N newest runs are kept however
old they are.`,
		Example: `  trajeval runs prune --keep 50
  trajeval runs prune --older-than 30d
  trajeval runs prune --before 2026-01-31 --keep 10`,
		Args: noArgs("trajeval runs prune --keep 50"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := history.Pruning{Keep: -1}
			if cmd.Flags().Changed("keep") {
				if keep < 0 {
					return usageError{fmt.Errorf("--keep %d: give the number of the newest runs to keep, 0 or more", keep)}
				}
				p.Keep = keep
			}
			switch {
			case before != "" && olderThan != "":
				return usageError{errors.New("--before and --older-than both say which runs are old: give one")}
			case before != "":
				t, err := parseTime("--before", before)
				if err != nil {
					return usageError{err}
				}
				p.Before = t
			case olderThan != "":
				age, err := parseAge(olderThan)
				if err != nil {
					return usageError{err}
				}
				p.Before = time.Now().Add(-age)
			}
			if p.Keep < 0 && p.Before.IsZero() {
				return usageError{errors.New("prune needs --keep N (the number of the newest runs to keep), --before DATE or --older-than AGE (30d, 12h)")}
			}
			h, err := openHistory(cmd, db)
			if err != nil {
				return err
			}
			defer h.Close()
			n, err := h.Prune(cmd.Context(), p)
			if err != nil {
				return err
			}
			left, err := h.Runs(cmd.Context(), history.Filter{})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "deleted %d runs, kept %d\n", n, len(left))
			return nil
		},
	}
	f := c.Flags()
	dbFlag(f, &db)
	f.IntVar(&keep, "keep", 0, "keep the N newest runs, by start time")
	f.StringVar(&before, "before", "", "delete the runs started before DATE (2026-01-31, or RFC 3339)")
	f.StringVar(&olderThan, "older-than", "", "delete the runs started longer ago than AGE: days (30d), hours (12h) or minutes (90m)")
	return c
}

// parseAge reads --older-than: a number of days (30d), or a duration of
// Go (12h, 90m).
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	} else if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d, nil
	}
	return 0, fmt.Errorf("--older-than %q: give an age, in days (30d), hours (12h) or minutes (90m)", s)
}
