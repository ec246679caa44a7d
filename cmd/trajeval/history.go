package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/compare"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/report"
)

// defaultDB is where eval records runs, under the first suite's folder,
// and where runs, show and compare look for them, from the current folder
// up.
var defaultDB = filepath.Join(".trajeval", "runs.db")

// historyFlags are eval's flags for the run history.
type historyFlags struct {
	db   string
	noDB bool
}

func (h *historyFlags) register(f *pflag.FlagSet) {
	f.StringVar(&h.db, "db", "", "record the run in this database: a SQLite file, a folder (its .trajeval/runs.db) or a postgres:// URL (default: $TRAJEVAL_DB, else .trajeval/runs.db beside the first suite)")
	f.BoolVar(&h.noDB, "no-db", false, "do not record the run in the run history")
}

// dbFlag adds --db to a command that reads the history.
func dbFlag(f *pflag.FlagSet, db *string) {
	f.StringVar(db, "db", "", "the run history: a SQLite file, a folder (its .trajeval/runs.db) or a postgres:// URL (default: $TRAJEVAL_DB, else the nearest .trajeval/runs.db from the current folder up)")
}

// dsnOf turns --db (or TRAJEVAL_DB) into a DSN: a folder stands for its
// .trajeval/runs.db.
func dsnOf(db string) string {
	if history.IsPostgres(db) {
		return db
	}
	if st, err := os.Stat(db); err == nil && st.IsDir() {
		return filepath.Join(db, defaultDB)
	}
	return db
}

// evalDSN is where eval records its run; "" when it records none.
func (h *historyFlags) evalDSN(getenv func(string) string, paths []string) (string, error) {
	if h.noDB {
		if h.db != "" {
			return "", usageError{errors.New("--db and --no-db contradict each other: give one")}
		}
		return "", nil
	}
	db := h.db
	if db == "" {
		db = getenv("TRAJEVAL_DB")
		if db == "off" {
			return "", nil
		}
	}
	if db != "" {
		return dsnOf(db), nil
	}
	dir := paths[0]
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	return filepath.Join(dir, defaultDB), nil
}

// openHistory opens the history that runs, show and compare read.
func openHistory(cmd *cobra.Command, db string) (*history.DB, error) {
	ctx := cmd.Context()
	if db == "" {
		db = getenv(ctx)("TRAJEVAL_DB")
	}
	if db == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		for dir := wd; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, defaultDB)); err == nil {
				db = filepath.Join(dir, defaultDB)
				break
			}
			if filepath.Dir(dir) == dir {
				return nil, fmt.Errorf("%w: no %s in %s or a folder above it (eval records runs beside the first suite: give --db FOLDER, a database file or a postgres:// URL)", history.ErrNoHistory, defaultDB, wd)
			}
		}
	}
	return history.Open(ctx, dsnOf(db), history.Options{})
}

// A recording records an eval run; a nil one records nothing.
type recording struct {
	db           *history.DB
	rec          *history.Recorder
	includeTrace bool // the user asked for trajectories in the rows
	stderr       func(msg string)
}

// runOptions are the options a run records.
type runOptions struct {
	Traces       string   `json:"traces,omitempty"`
	From         string   `json:"from,omitempty"`
	Lenient      bool     `json:"lenient,omitempty"`
	Target       string   `json:"target,omitempty"`
	Trials       int      `json:"trials,omitempty"`
	Filter       []string `json:"filter,omitempty"`
	Workers      int      `json:"workers,omitempty"`
	Threshold    float64  `json:"threshold,omitempty"`
	Config       string   `json:"config,omitempty"`
	IncludeTrace bool     `json:"include_trace,omitempty"`
	DumpTraces   string   `json:"dump_traces,omitempty"`
}

// begin starts recording the run of s at paths with opts, and makes opts
// keep the trajectories to store. A database that is damaged or too new
// is an error; one that cannot be reached is said on standard error, and
// the run goes on unrecorded.
func (h *historyFlags) begin(cmd *cobra.Command, paths []string, s *trajeval.Suite, opts *trajeval.RunOptions) (*recording, error) {
	ctx := cmd.Context()
	dsn, err := h.evalDSN(getenv(ctx), paths)
	if dsn == "" || err != nil {
		return nil, err
	}
	stderr := func(msg string) { fmt.Fprintln(cmd.ErrOrStderr(), "trajeval: history:", msg) }
	failed := func(err error) (*recording, error) {
		if errors.Is(err, history.ErrCorrupt) || errors.Is(err, history.ErrNewerSchema) {
			return nil, err
		}
		stderr(fmt.Sprintf("the run is not recorded: %v", err))
		return nil, nil
	}
	db, err := history.Open(ctx, dsn, history.Options{Create: true})
	if err != nil {
		return failed(err)
	}
	run := history.Run{Start: time.Now(), Paths: paths}
	for _, c := range s.Cases {
		if !slices.Contains(run.Suites, c.Suite) {
			run.Suites = append(run.Suites, c.Suite)
		}
	}
	for _, name := range s.Open {
		if !slices.Contains(run.Suites, name) {
			run.Suites = append(run.Suites, name)
		}
	}
	run.Commit, run.Branch = gitHead(ctx, paths[0])
	run.Options, _ = json.Marshal(runOptions{Traces: opts.Traces, From: opts.Format, Lenient: opts.Lenient,
		Target: opts.Target, Trials: opts.Trials, Filter: opts.Filter, Workers: opts.Workers, Threshold: opts.Threshold,
		Config: opts.Config, IncludeTrace: opts.IncludeTrace, DumpTraces: opts.DumpTraces})
	rec, err := db.Begin(ctx, run)
	if err != nil {
		db.Close()
		return failed(err)
	}
	r := &recording{db: db, rec: rec, includeTrace: opts.IncludeTrace, stderr: stderr}
	opts.IncludeTrace = true
	return r, nil
}

// record records c, and returns it as the report gets it: without its
// trajectory unless the user asked for it.
func (r *recording) record(c trajeval.CaseResult) trajeval.CaseResult {
	if r == nil {
		return c
	}
	r.rec.Record(c)
	if !r.includeTrace {
		c.Trajectory = nil
	}
	return c
}

// end records the run's end; runErr is the error that ended the loop.
func (r *recording) end(runErr error) {
	if r == nil {
		return
	}
	if err := r.rec.End(time.Now(), runErr != nil); err != nil {
		r.stderr(fmt.Sprintf("run %d is not wholly recorded: %v", r.rec.ID(), err))
	}
	r.db.Close()
}

// gitHead returns the commit and branch of the git work tree holding
// path; "" for what is not known (no git, not a work tree, a detached
// head's branch).
func gitHead(ctx context.Context, path string) (commit, branch string) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", ""
	}
	dir := path
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "HEAD", "--abbrev-ref", "HEAD").Output()
	if err != nil {
		return "", ""
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 {
		return "", ""
	}
	commit, branch = lines[0], lines[1]
	if branch == "HEAD" {
		branch = ""
	}
	return commit, branch
}

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
whose end was never recorded (killed, or still running) shows as
interrupted, with the cases it recorded.

eval records each run in .trajeval/runs.db beside its first suite (or
--db, $TRAJEVAL_DB); runs reads --db, else $TRAJEVAL_DB, else the nearest
.trajeval/runs.db from the current folder up. See docs/history.md.`,
		Example: `  trajeval runs --db examples
  trajeval runs --suite shop --since 2026-01-31 --json
  trajeval runs prune --keep 50`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var f history.Filter
			f.Suite = suite
			if since != "" {
				t, err := parseSince(since)
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
				enc := json.NewEncoder(out)
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
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", r.ID, suites, cmpOr(commit, "-"),
					r.Start.Local().Format("2006-01-02 15:04:05"), duration(r), r.Passed, r.Failed, r.Errors, status(r))
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

// parseSince reads --since: a date (midnight, local time) or an RFC 3339
// time.
func parseSince(s string) (time.Time, error) {
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: give a date, 2026-01-31, or a time, 2026-01-31T12:00:00Z", s)
}

func duration(r history.Run) string {
	if r.End.IsZero() {
		return "-"
	}
	return r.End.Sub(r.Start).Round(time.Millisecond).String()
}

func status(r history.Run) string {
	if r.End.IsZero() {
		return history.StatusInterrupted
	}
	return r.Status
}

func pruneCmd() *cobra.Command {
	var (
		db   string
		keep int
	)
	c := &cobra.Command{
		Use:   "prune --keep N",
		Short: "Delete every recorded run but the N newest",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("keep") || keep < 0 {
				return usageError{errors.New("prune needs --keep N, N the number of the newest runs to keep (0 or more)")}
			}
			h, err := openHistory(cmd, db)
			if err != nil {
				return err
			}
			defer h.Close()
			n, err := h.Prune(cmd.Context(), keep)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "deleted %d runs, kept the %d newest\n", n, keep)
			return nil
		},
	}
	dbFlag(c.Flags(), &db)
	c.Flags().IntVar(&keep, "keep", 0, "how many of the newest runs to keep")
	return c
}

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
		Args: cobra.RangeArgs(1, 2),
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
			if run.End.IsZero() || run.Status == history.StatusInterrupted {
				fmt.Fprintf(cmd.ErrOrStderr(), "trajeval: %s was interrupted: it recorded %d cases\n", name, run.Cases)
			}
			w, err := report.New(format, cmd.OutOrStdout())
			if err != nil {
				return usageError{err}
			}
			var rs report.Summary
			for _, r := range rows {
				rs.Add(r.CaseResult)
				if r.Judge != nil {
					if rs.Judge == nil {
						rs.Judge = &trajeval.JudgeUsage{}
					}
					rs.Judge.Add(r.Judge)
				}
			}
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

// comparedFiles reads compare's arguments: results files, or runs of the
// history (an id, last, last~N) when no file has that name.
type comparedFiles struct {
	db string
	h  *history.DB
}

func (c *comparedFiles) read(cmd *cobra.Command, arg string) (*compare.File, error) {
	if _, err := os.Stat(arg); err == nil || !history.IsRef(arg) {
		return compare.ReadFile(arg)
	}
	if c.h == nil {
		h, err := openHistory(cmd, c.db)
		if err != nil {
			return nil, err
		}
		c.h = h
	}
	run, _, data, err := runRows(cmd.Context(), c.h, arg)
	if err != nil {
		return nil, err
	}
	return compare.Parse(fmt.Sprintf("run %d", run.ID), data)
}

func (c *comparedFiles) close() {
	if c.h != nil {
		c.h.Close()
	}
}
