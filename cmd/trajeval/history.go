package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/compare"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/suite"
)

// defaultDB is where eval records runs, under the first suite's folder,
// and where runs, show and compare look for them, from the current folder
// up.
var defaultDB = filepath.Join(".trajeval", "runs.db")

// historyFlags are eval's flags for the run history.
type historyFlags struct {
	db          string
	noDB        bool
	runID       string
	keepFailing keepFailing
}

// defaultKeepFailing is how many cases that did not pass keep their
// trajectories and details in the history of a run, unless --keep-failing
// says otherwise.
const defaultKeepFailing = 1000

// keepFailing is --keep-failing: a count of cases, at least 1, or 0 for
// all of them.
type keepFailing int

func (k *keepFailing) String() string {
	if *k == 0 {
		return "all"
	}
	return strconv.Itoa(int(*k))
}

func (k *keepFailing) Set(s string) error {
	if s == "all" {
		*k = 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("want a number of cases, at least 1, or all")
	}
	*k = keepFailing(n)
	return nil
}

func (k *keepFailing) Type() string { return "N|all" }

func (h *historyFlags) register(f *pflag.FlagSet) {
	f.StringVar(&h.db, "db", "", "record the run in this database: a SQLite file, a folder (its .trajeval/runs.db) or a postgres:// URL (default: $TRAJEVAL_DB, else .trajeval/runs.db at the project's root: the git work tree's root, else the first suite's folder)")
	f.BoolVar(&h.noDB, "no-db", false, "do not record the run in the run history")
	f.StringVar(&h.runID, "run-id", "", "with --shard, the id that makes the shards one run in the history (default: the CI service's run id)")
	h.keepFailing = defaultKeepFailing
	f.Var(&h.keepFailing, "keep-failing", "keep in the history the trajectories and evaluators' details of the first N cases that did not pass (all: every one; --include-trace keeps every case's)")
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
	return filepath.Join(projectRoot(paths[0]), defaultDB), nil
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
				return nil, noHistoryError(wd)
			}
		}
	}
	return history.Open(ctx, dsnOf(db), history.Options{})
}

// noHistoryError says that no history was found from wd up, naming any
// found below it.
func noHistoryError(wd string) error {
	msg := fmt.Sprintf("no %s in %s or a folder above it (eval records runs at the project's root: the git work tree's root, else the suite's folder)", defaultDB, wd)
	if below := historiesBelow(wd); len(below) > 0 {
		rel, err := filepath.Rel(wd, filepath.Dir(filepath.Dir(below[0])))
		if err != nil {
			rel = below[0]
		}
		return fmt.Errorf("%w: %s; there is one in %s: give --db %s", history.ErrNoHistory, msg, rel, shellQuote(rel))
	}
	return fmt.Errorf("%w: %s; give --db FOLDER, a database file or a postgres:// URL", history.ErrNoHistory, msg)
}

// A recording records an eval run; a nil one records nothing.
type recording struct {
	db           *history.DB
	rec          *history.Recorder
	includeTrace bool // the user asked for trajectories in the rows
	keepFailing  int  // --keep-failing, 0 for all
	stderr       func(msg string)
}

// unkeptNote says that run id kept the trajectories and details of only
// its first kept cases that did not pass, and not of the unkept after
// them.
func unkeptNote(id int64, kept, unkept int) string {
	return fmt.Sprintf("run %d keeps the trajectories and evaluators' details of its first %d cases that did not pass, not of the %d after them (eval --keep-failing all keeps every one)",
		id, kept, unkept)
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
	Questions    string   `json:"questions,omitempty"`
	Basis        []string `json:"basis,omitempty"`
	IncludeTrace bool     `json:"include_trace,omitempty"`
	DumpTraces   string   `json:"dump_traces,omitempty"`
	// KeepFailing is --keep-failing: 0 for every case (all, and the runs
	// recorded before the flag).
	KeepFailing int `json:"keep_failing,omitempty"`
}

// begin starts recording the run of s at paths with opts, with what start
// began before the suite loaded (see [historyFlags.startHistory]), and makes opts
// keep the trajectories to store. A database that is damaged or too new
// is an error; one that cannot be reached is said on standard error, and
// the run goes on unrecorded.
func (h *historyFlags) begin(cmd *cobra.Command, paths []string, s *suite.Suite, opts *suite.RunOptions, start *histStart) (*recording, error) {
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
	run.Commit, run.Branch = start.head()
	run.Options, _ = json.Marshal(runOptions{Traces: opts.Traces, From: opts.Format, Lenient: opts.Lenient,
		Target: opts.Target, Trials: opts.Trials, Filter: opts.Filter, Workers: opts.Workers, Threshold: opts.Threshold,
		Config: opts.Config, Questions: opts.Questions, Basis: opts.Basis, IncludeTrace: opts.IncludeTrace, DumpTraces: opts.DumpTraces,
		KeepFailing: int(h.keepFailing)})
	run.KeepPassing = opts.IncludeTrace
	run.KeepFailing = int(h.keepFailing)
	var rec *history.Recorder
	if opts.Shard == (suite.Shard{}) {
		rec, err = db.Begin(ctx, run)
	} else if run.Key = runID(h.runID, getenv(ctx)); run.Key != "" {
		run.Shards = opts.Shard.Count
		rec, err = db.BeginShard(ctx, run, opts.Shard.Index)
	} else {
		stderr(fmt.Sprintf("shard %s is recorded as a run of its own: give --run-id ID, the same on every shard, to record the shards as one run", opts.Shard))
		rec, err = db.Begin(ctx, run)
	}
	if err != nil {
		db.Close()
		return failed(err)
	}
	r := &recording{db: db, rec: rec, includeTrace: opts.IncludeTrace, keepFailing: run.KeepFailing, stderr: stderr}
	if !opts.IncludeTrace && lendSteps {
		// The recorder is the last to hold a row's trajectory (record
		// takes it out of the report's row): it gives the steps back
		// once it has encoded them. It keeps no passing case's
		// (run.KeepPassing is off): the job that scores one gives its
		// steps back at once, and so does the job that scores a
		// failing case once the recorder keeps no more of them
		// (--keep-failing).
		steps := new(trajeval.StepPool)
		opts.Steps = steps
		opts.DropPassing = true
		opts.KeepsFailing = rec.KeepsFailing
		rec.ReturnStepsTo(steps)
	}
	opts.IncludeTrace = true
	return r, nil
}

// lendSteps lets a recorded run lend its rows' trajectories to the
// recorder, which gives their steps back (see begin). Tests turn it off
// to compare the two.
var lendSteps = true

// reported returns c as the report gets it: without its trajectory
// unless the user asked for it (the history takes it).
func (r *recording) reported(c trajeval.CaseResult) trajeval.CaseResult {
	if r != nil && !r.includeTrace {
		c.Trajectory = nil
	}
	return c
}

// record records c, once reported. c's trajectory may be given back (see
// begin) from the moment the recorder has it, and so may its details (see
// returnDetails): neither is read here.
func (r *recording) record(c trajeval.CaseResult) {
	if r != nil {
		r.rec.Record(c)
	}
}

// returnDetails makes the recorder give the details of each row it records
// to the details of the cases scored next once it holds them no more
// (history.Recorder.ReturnDetailsTo): for a report that keeps nothing of
// a row once written, rows that are recorded once reported.
func (r *recording) returnDetails() {
	if r != nil {
		r.rec.ReturnDetailsTo(trajectory.Recycle)
	}
}

// end records the run's end; runErr is the error that ended the loop.
func (r *recording) end(runErr error) {
	if r == nil {
		return
	}
	if err := r.rec.End(time.Now(), runErr != nil); err != nil {
		r.stderr(fmt.Sprintf("run %d is not wholly recorded: %v", r.rec.ID(), err))
	} else if n := r.rec.Unkept(); n > 0 {
		r.stderr(unkeptNote(r.rec.ID(), r.keepFailing, n))
	}
	r.db.Close()
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
