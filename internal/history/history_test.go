package history_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/history/historytest"
	"github.com/trajeval/trajeval/internal/report"
)

// pg is the PostgreSQL server of the tests, started by the first test
// that needs it (fuzzing needs none), and stopped by TestMain; nil when it
// could not start, with pgErr saying why.
var (
	pgOnce sync.Once
	pg     *historytest.Server
	pgErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pg != nil {
		pg.Stop()
	}
	os.Exit(code)
}

// postgres returns the server, skipping t when PostgreSQL is not installed
// and CI is not set; under CI=true, a missing PostgreSQL fails t.
func postgres(t *testing.T) *historytest.Server {
	pgOnce.Do(func() { pg, pgErr = historytest.Start() })
	switch {
	case pgErr == nil:
		return pg
	case errors.Is(pgErr, historytest.ErrNoPostgres) && os.Getenv("CI") == "":
		t.Skipf("PostgreSQL tests skipped: %v (they fail instead under CI=true)", pgErr)
	default:
		t.Fatalf("PostgreSQL: %v", pgErr)
	}
	return nil
}

// A backend makes empty databases of one kind.
type backend struct {
	name  string
	newDB func(t *testing.T) string
}

// backends are SQLite and PostgreSQL: every test runs on both.
func backends(t *testing.T) []backend {
	return []backend{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), ".trajeval", "runs.db") }},
		{"postgres", func(t *testing.T) string {
			dsn, err := postgres(t).NewDB(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return dsn
		}},
	}
}

// each runs f on a fresh database of each backend.
func each(t *testing.T, f func(t *testing.T, dsn string)) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) { f(t, b.newDB(t)) })
	}
}

func open(t *testing.T, dsn string) *history.DB {
	t.Helper()
	h, err := history.Open(t.Context(), dsn, history.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func ptr[T any](v T) *T { return &v }

// results are case results with every field set somewhere.
func results() []trajeval.CaseResult {
	start := time.Date(2026, 1, 31, 12, 0, 0, 123e6, time.UTC)
	traj := &trajeval.Trajectory{ID: "t1", Steps: []trajeval.Step{
		{Index: 1, Name: "search", Args: map[string]any{"q": json.Number("1.50"), "tags": []any{"a", "<b>"}}, Result: "found",
			Error: ptr(false), DurationMS: ptr(12.5), StartTime: start},
		{Index: 2, Name: "book", Error: ptr(true), ErrorMessage: "no seats", ParallelGroup: 1},
	}, Metrics: trajeval.Metrics{CostUSD: ptr(0.25), Tokens: trajeval.Tokens{Input: ptr(int64(10))}}}
	return []trajeval.CaseResult{
		{ID: "a", Suite: "shop", Status: trajeval.StatusPass, Score: 1, StartedAt: start, DurationMS: 3.25, Trace: "traces.jsonl",
			Trajectory: traj, Evaluators: []trajeval.Result{
				{Name: "calls", Type: "tool_trajectory", Score: 1, Status: trajeval.StatusPass, Threshold: 1, Weight: 1, Required: true,
					Details: &trajeval.Details{Mode: "in_order", Hits: 1, Expected: 1, Actual: 2,
						Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}},
						Extra:   []trajeval.Extra{{Step: 2, Tool: "book"}},
						Notes:   map[string]any{"lcs": 1.0, "order": []any{"search"}}}},
				{Name: "both", Type: "composite", Score: 0.5, Status: trajeval.StatusPass, Threshold: 0.5, Weight: 2, Turn: 2,
					Members: []trajeval.Result{{Name: "m", Type: "contains", Score: 0, Status: trajeval.StatusFail, Threshold: 1, Weight: 1}},
					Judge:   &trajeval.JudgeUsage{Calls: 1, InputTokens: 5, CostUSD: ptr(0.01)}},
			}},
		{ID: "b", Suite: "shop", Status: trajeval.StatusFail, Score: 0.3333333333333333, Attempt: 2, Partial: true,
			Warnings: []string{"the trace was damaged"}, Judge: &trajeval.JudgeUsage{Calls: 2, Cached: 1},
			Evaluators: []trajeval.Result{{Name: "x", Type: "args", Score: 1.0 / 3, Status: trajeval.StatusFail, Threshold: 0.9, Weight: 1,
				Details: &trajeval.Details{Missing: []trajeval.Missing{{Item: 1, Tool: "pay", Near: []trajeval.NearMiss{
					{Step: 2, Tool: "pay", Diffs: []trajeval.ArgDiff{{Path: "args.amount", Want: "10", Got: "12"}}}}}}}}}},
		{ID: "c", Status: trajeval.StatusError, Error: "no trace for case c", Evaluators: []trajeval.Result{}},
	}
}

// jsonl returns rows as eval --out writes them.
func jsonl(t *testing.T, rows []trajeval.CaseResult) string {
	t.Helper()
	var b bytes.Buffer
	w := report.NewJSONL(&b)
	for _, r := range rows {
		if err := w.Case(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func record(t *testing.T, h *history.DB, run history.Run, rows []trajeval.CaseResult) int64 {
	t.Helper()
	return recorded(t, h, run, rows).ID()
}

// recorded records rows as run, as record does, and returns the ended
// recorder.
func recorded(t *testing.T, h *history.DB, run history.Run, rows []trajeval.CaseResult) *history.Recorder {
	t.Helper()
	rec, err := h.Begin(t.Context(), run)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		rec.Record(r)
	}
	if err := rec.End(run.Start.Add(time.Second), false); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestRecorder_Record(t *testing.T) {
	tests := []struct {
		name         string
		keepPassing  bool
		trajectories bool
		why          string
	}{
		{"with trajectories", true, true, "the stored trajectory comes back as the canonical JSON eval --include-trace writes"},
		{"without trajectories", true, false, "a run without --include-trace reads back without them"},
		{"passing cases lean", false, true, "by default a passing case keeps its verdicts and scores, not its trajectory nor its evaluators' details; the others keep everything"},
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		start := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
		ids := map[bool]int64{}
		for _, keep := range []bool{true, false} {
			ids[keep] = record(t, h, history.Run{Suites: []string{"shop"}, Paths: []string{"suite.yaml"}, Commit: "abc", Branch: "main",
				Start: start, Options: json.RawMessage(`{"workers":2}`), KeepPassing: keep}, results())
		}
		id := ids[true]
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := h.Rows(t.Context(), ids[tt.keepPassing], tt.trajectories)
				if err != nil {
					t.Fatal(err)
				}
				want := results()
				for i := range want {
					if !tt.trajectories || (!tt.keepPassing && want[i].Status == trajeval.StatusPass) {
						want[i].Trajectory = nil
					}
					if !tt.keepPassing && want[i].Status == trajeval.StatusPass {
						for j := range want[i].Evaluators {
							want[i].Evaluators[j].Details = nil
						}
					}
				}
				if g, w := jsonl(t, got), jsonl(t, want); g != w {
					t.Errorf("%s: rows read back differ\ngot:\n%s\nwant:\n%s", tt.why, g, w)
				}
			})
		}
		run, err := h.Run(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if run.Cases != 3 || run.Passed != 1 || run.Failed != 1 || run.Errors != 1 || run.Status != history.StatusDone ||
			run.Commit != "abc" || run.Branch != "main" || !run.Start.Equal(start) || run.End.Sub(run.Start) != time.Second ||
			string(run.Options) != `{"workers":2}` || strings.Join(run.Suites, ",") != "shop" {
			t.Errorf("the run row is not what was recorded: %+v", run)
		}
	})
}

// TestRecorder_Record_shapes records 400 results of one batch, cycling
// through the shapes of rows: a plain pass, a plain failure, a trial, a
// partial trace, an error, warnings, a judge, a trace's name, all of
// them. Rows whose columns are at their defaults are written with
// statements of their own (those columns as literals), many rows a
// statement: each row reads back as recorded, in order.
func TestRecorder_Record_shapes(t *testing.T) {
	base := results()
	shapes := []struct {
		name string
		set  func(c *trajeval.CaseResult)
	}{
		{"plain pass", func(c *trajeval.CaseResult) { c.Status, c.Score, c.Trajectory = trajeval.StatusPass, 1, nil }},
		{"plain failure", func(c *trajeval.CaseResult) {}},
		{"a trial", func(c *trajeval.CaseResult) { c.Attempt = 3 }},
		{"partial", func(c *trajeval.CaseResult) { c.Partial = true }},
		{"an error", func(c *trajeval.CaseResult) { c.Status, c.Error = trajeval.StatusError, "boom" }},
		{"warnings", func(c *trajeval.CaseResult) { c.Warnings = []string{"w"} }},
		{"a judge", func(c *trajeval.CaseResult) { c.Judge = &trajeval.JudgeUsage{Calls: 1} }},
		{"a trace", func(c *trajeval.CaseResult) { c.Trace = "t.jsonl" }},
		{"everything", func(c *trajeval.CaseResult) {
			c.Attempt, c.Partial, c.Error, c.Warnings, c.Trace = 1, true, "e", []string{"w"}, "t.jsonl"
			c.Judge = &trajeval.JudgeUsage{Calls: 2}
		}},
	}
	var rows []trajeval.CaseResult
	for i := range 400 {
		c := base[1]
		c.ID, c.Attempt, c.Partial, c.Warnings, c.Judge = fmt.Sprintf("case-%03d", i), 0, false, nil, nil
		c.Trajectory = base[0].Trajectory
		shapes[i*7%len(shapes)].set(&c)
		rows = append(rows, c)
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.Now(), KeepPassing: true}, rows)
		got, err := h.Rows(t.Context(), id, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(rows) {
			t.Fatalf("%d rows read back, %d recorded", len(got), len(rows))
		}
		for i := range rows {
			if g, w := jsonl(t, got[i:i+1]), jsonl(t, rows[i:i+1]); g != w {
				t.Fatalf("row %d (%s) differs\ngot:  %s\nwant: %s", i, shapes[i*7%len(shapes)].name, g, w)
			}
		}
	})
}

// TestRecorder_End checks that End writes every result handed over,
// however many wait: Record hands them on in groups, and a run that stops
// (ctx cancelled, Ctrl-C) ends at once with a group partly filled.
func TestRecorder_End(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		reason string
	}{
		{"one", 1, "a lone result is in a group partly filled"},
		{"a group", 64, "a full group is handed over by Record"},
		{"a group and one", 65, "the last result is in a group of its own"},
		{"several groups", 300, "full groups wait in the queue, in order, before the last one"},
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rec, err := h.Begin(t.Context(), history.Run{Start: time.Now(), Suites: []string{"shop"}})
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for i := range tt.n {
					c := results()[i%3]
					c.ID = fmt.Sprintf("case-%03d", i)
					want = append(want, c.ID)
					rec.Record(c)
				}
				if err := rec.End(time.Now(), true); err != nil {
					t.Fatal(err)
				}
				run, err := h.Run(t.Context(), rec.ID())
				if err != nil || run.Cases != tt.n || run.Status != history.StatusInterrupted {
					t.Fatalf("%s: the run reads %+v, %v; want %d cases, interrupted", tt.reason, run, err, tt.n)
				}
				rows, err := h.Rows(t.Context(), rec.ID(), false)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range rows {
					got = append(got, r.ID)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: rows %v, want %v", tt.reason, got, want)
				}
			})
		}
	})
}

// TestRecorder_unended checks that the results of a run that never ends
// (a killed eval) are committed as they come, without End.
func TestRecorder_unended(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		rec, err := h.Begin(t.Context(), history.Run{Start: time.Now(), Suites: []string{"shop"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results() {
			rec.Record(r)
		}
		other := open(t, dsn) // another process's view
		var run history.Run
		for range 500 {
			if run, err = other.Run(t.Context(), rec.ID()); err != nil {
				t.Fatal(err)
			}
			if run.Cases == 3 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if run.Cases != 3 || !run.End.IsZero() || run.Status != history.StatusRunning {
			t.Fatalf("a run that has not ended should show its 3 cases, no end and status running, got %+v", run)
		}
		rows, err := other.Rows(t.Context(), rec.ID(), true)
		if err != nil || len(rows) != 3 {
			t.Fatalf("rows of the unended run: %d, %v", len(rows), err)
		}
		if err := rec.End(time.Now(), true); err != nil {
			t.Fatal(err)
		}
		if run, _ := other.Run(t.Context(), rec.ID()); run.Status != history.StatusInterrupted || run.End.IsZero() {
			t.Errorf("a run ended as interrupted should say so, got %+v", run)
		}
	})
}

// TestRecorder_concurrent checks that runs writing to one database at once,
// each through its own connection, all keep every case.
func TestRecorder_concurrent(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		const runs, cases = 4, 300
		open(t, dsn) // created and migrated first, as the first eval would
		var wg sync.WaitGroup
		ids := make([]int64, runs)
		errs := make([]error, runs)
		for i := range runs {
			wg.Go(func() {
				h, err := history.Open(context.Background(), dsn, history.Options{Create: true})
				if err != nil {
					errs[i] = err
					return
				}
				defer h.Close()
				rec, err := h.Begin(context.Background(), history.Run{Start: time.Now(), Suites: []string{fmt.Sprint("s", i)}})
				if err != nil {
					errs[i] = err
					return
				}
				for n := range cases {
					r := results()[n%3]
					r.ID = fmt.Sprint(r.ID, n)
					rec.Record(r)
				}
				ids[i], errs[i] = rec.ID(), rec.End(time.Now(), false)
			})
		}
		wg.Wait()
		h := open(t, dsn)
		for i := range runs {
			if errs[i] != nil {
				t.Fatalf("run %d: %v", i, errs[i])
			}
			rows, err := h.Rows(t.Context(), ids[i], false)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != cases || rows[0].ID != "a0" || rows[cases-1].ID != fmt.Sprint(results()[(cases-1)%3].ID, cases-1) {
				t.Errorf("run %d: %d rows, want %d in order", ids[i], len(rows), cases)
			}
		}
	})
}

// TestOpen_concurrent checks that runs opening a new database at once
// migrate it once.
func TestOpen_concurrent(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				h, err := history.Open(context.Background(), dsn, history.Options{Create: true})
				if err == nil {
					h.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		v, err := open(t, dsn).SchemaVersion(t.Context())
		if err != nil || v != history.Version() {
			t.Errorf("schema version %d (%v), want %d", v, err, history.Version())
		}
	})
}

func TestOpen_newerSchema(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		h.Close()
		raw := rawDB(t, dsn)
		if _, err := raw.Exec(fmt.Sprintf("INSERT INTO schema_version (version, applied_at) VALUES (%d, 0)", history.Version()+98)); err != nil {
			t.Fatal(err)
		}
		_, err := history.Open(t.Context(), dsn, history.Options{Create: true})
		var se *history.SchemaError
		if !errors.Is(err, history.ErrNewerSchema) || !errors.As(err, &se) {
			t.Fatalf("a database of a newer schema should be refused with ErrNewerSchema, got %v", err)
		}
		if msg := err.Error(); !strings.Contains(msg, fmt.Sprint("version ", history.Version()+98)) || !strings.Contains(msg, fmt.Sprint("up to ", history.Version())) {
			t.Errorf("the error should name both versions: %s", msg)
		}
	})
}

// TestOpen_newSchema: a new SQLite history is made from its newest schema
// at once (migrations/sqlite.sql), not by running every migration, and
// is what the migrations make: the same tables, columns, keys and
// indexes, the same versions recorded.
func TestOpen_newSchema(t *testing.T) {
	dir := t.TempDir()
	made, migrated := filepath.Join(dir, "made.db"), filepath.Join(dir, "migrated.db")
	open(t, made).Close()
	history.SetNewSchema(t, false)
	open(t, migrated).Close()
	want := sqliteSchema(t, migrated)
	if got := sqliteSchema(t, made); got != want {
		t.Errorf("a new file's schema differs from the migrations'\ngot:\n%s\nwant:\n%s", got, want)
	}
	// The new file's runs was made as the newest schema writes it (the
	// migrations' ADD COLUMN appends to the text of version 1's).
	var text string
	if err := rawDB(t, made).QueryRow("SELECT sql FROM sqlite_master WHERE name = 'runs'").Scan(&text); err != nil || !strings.Contains(text, "record it (version 2)") {
		t.Errorf("runs of a new file is not the newest schema's: %q, %v", text, err)
	}
}

// sqliteSchema describes the schema of a SQLite file, one line a fact: its
// objects, each table's columns (generated ones too), foreign keys and
// indexes with their columns, and the versions recorded.
func sqliteSchema(t *testing.T, dsn string) string {
	t.Helper()
	raw := rawDB(t, dsn)
	lines := func(q string) []string {
		rows, err := raw.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s: %q", q, vals))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(out)
		return out
	}
	var all []string
	for _, l := range lines("SELECT type, name, tbl_name FROM sqlite_master") {
		all = append(all, l)
	}
	var tables, indexes []string
	rows, err := raw.Query("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var typ, name string
		if err := rows.Scan(&typ, &name); err != nil {
			t.Fatal(err)
		}
		if typ == "table" {
			tables = append(tables, name)
		} else {
			indexes = append(indexes, name)
		}
	}
	rows.Close()
	for _, tb := range tables {
		for _, p := range []string{"table_xinfo", "foreign_key_list", "index_list"} {
			all = append(all, lines(fmt.Sprintf("PRAGMA %s(%q)", p, tb))...)
		}
	}
	for _, ix := range indexes {
		all = append(all, lines(fmt.Sprintf("PRAGMA index_xinfo(%q)", ix))...)
	}
	all = append(all, lines("SELECT version FROM schema_version")...)
	return strings.Join(all, "\n")
}

func rawDB(t *testing.T, dsn string) *sql.DB {
	driver := "sqlite"
	if history.IsPostgres(dsn) {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpen_sqliteFiles(t *testing.T) {
	dir := t.TempDir()
	damaged := filepath.Join(dir, "damaged.db")
	if err := os.WriteFile(damaged, bytes.Repeat([]byte("not a database\n"), 500), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   string
		create bool
		want   error
		why    string
	}{
		{"damaged", damaged, true, history.ErrCorrupt, "a file that is not a database is a clear error, never overwritten"},
		{"missing, to read", filepath.Join(dir, "none.db"), false, history.ErrNoHistory, "reading a history that does not exist creates nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := history.Open(t.Context(), tt.path, history.Options{Create: tt.create})
			if !errors.Is(err, tt.want) {
				t.Fatalf("%s: got %v, want %v", tt.why, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.path) {
				t.Errorf("the error should name the file: %v", err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("opening a missing history to read created it")
	}
}

func TestDB_Resolve(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		start := time.Now()
		var ids []int64
		for i := range 3 {
			ids = append(ids, record(t, h, history.Run{Start: start.Add(time.Duration(i) * time.Hour)}, results()[:1]))
		}
		tests := []struct {
			ref  string
			want int64
			err  error
			why  string
		}{
			{"last", ids[2], nil, "the newest run"},
			{"last~1", ids[1], nil, "the one before it"},
			{"last~2", ids[0], nil, "two before"},
			{fmt.Sprint(ids[1]), ids[1], nil, "an id"},
			{fmt.Sprint("#", ids[0]), ids[0], nil, "an id written #N"},
			{"last~3", 0, history.ErrNoRun, "before the first run"},
			{"99999", 0, history.ErrNoRun, "an id that is no run"},
		}
		for _, tt := range tests {
			got, err := h.Resolve(t.Context(), tt.ref)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("Resolve(%q) = %d, %v; want %d, %v (%s)", tt.ref, got, err, tt.want, tt.err, tt.why)
			}
		}
	})
}

func TestDB_Runs(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		day := time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)
		record(t, h, history.Run{Start: day, Suites: []string{"shop"}}, results())
		record(t, h, history.Run{Start: day.Add(48 * time.Hour), Suites: []string{"shop", "bank"}}, results()[:1])
		record(t, h, history.Run{Start: day.Add(72 * time.Hour), Suites: []string{"bank"}}, results()[:2])
		record(t, h, history.Run{Start: day.Add(96 * time.Hour), Suites: []string{`say "shop"`}}, nil)
		tests := []struct {
			name  string
			f     history.Filter
			want  string // the runs' case counts
			count int    // how many runs the filter picks, Last aside
		}{
			{"all", history.Filter{}, "3 1 2 0", 4},
			{"by suite", history.Filter{Suite: "shop"}, "3 1", 2},
			{"since", history.Filter{Since: day.Add(24 * time.Hour)}, "1 2 0", 3},
			{"both", history.Filter{Suite: "bank", Since: day.Add(60 * time.Hour)}, "2", 1},
			{"none", history.Filter{Suite: "other"}, "", 0},
			{"a name with quotes", history.Filter{Suite: `say "shop"`}, "0", 1},
			{"the newest", history.Filter{Last: 2}, "2 0", 4},
			{"the newest of a suite", history.Filter{Suite: "shop", Last: 1}, "1", 2},
			{"more than there are", history.Filter{Suite: "bank", Last: 5}, "1 2", 2},
		}
		for _, tt := range tests {
			runs, err := h.Runs(t.Context(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, fmt.Sprint(r.Cases))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("%s: runs with %q cases, want %q", tt.name, g, tt.want)
			}
			if n, err := h.Count(t.Context(), tt.f); err != nil || n != tt.count {
				t.Errorf("%s: Count = %d, %v; want %d", tt.name, n, err, tt.count)
			}
		}
		if s, err := h.Suites(t.Context()); err != nil || strings.Join(s, "|") != `shop|bank|say "shop"` {
			t.Errorf("Suites = %q, %v; want shop, bank, say \"shop\" in order of first appearance", s, err)
		}
	})
}

func TestDB_Prune(t *testing.T) {
	day := time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)
	// Runs 1 to 5 start at these hours of the day: by start, newest
	// first, 1, 5, 4, 3 (4 and 3 start together: the higher id is the
	// newer), 2.
	starts := []int{3, 0, 1, 1, 2}
	tests := []struct {
		name string
		p    history.Pruning
		kept string // the ids of the runs kept
	}{
		{"keep counts by start, not by id", history.Pruning{Keep: 2}, "1 5"},
		{"of two runs started together, the higher id is the newer", history.Pruning{Keep: 3}, "1 4 5"},
		{"keep 0 deletes every run", history.Pruning{Keep: 0}, ""},
		{"keeping more runs than there are deletes none", history.Pruning{Keep: 10}, "1 2 3 4 5"},
		{"before deletes the runs started before it", history.Pruning{Keep: -1, Before: day.Add(90 * time.Minute)}, "1 5"},
		{"a run started at before is kept", history.Pruning{Keep: -1, Before: day.Add(time.Hour)}, "1 3 4 5"},
		{"keep keeps the newest runs, however old", history.Pruning{Keep: 4, Before: day.Add(2 * time.Hour)}, "1 3 4 5"},
		{"before keeps the newer runs beyond keep", history.Pruning{Keep: 1, Before: day.Add(90 * time.Minute)}, "1 5"},
		{"neither deletes none", history.Pruning{Keep: -1}, "1 2 3 4 5"},
	}
	each(t, func(t *testing.T, dsn string) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				h := open(t, dsn)
				if _, err := h.Prune(t.Context(), history.Pruning{Keep: 0}); err != nil {
					t.Fatal(err)
				}
				var ids []int64
				for _, hour := range starts {
					ids = append(ids, record(t, h, history.Run{Start: day.Add(time.Duration(hour) * time.Hour)}, results()))
				}
				n, err := h.Prune(t.Context(), tt.p)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := h.Runs(t.Context(), history.Filter{})
				if err != nil {
					t.Fatal(err)
				}
				var kept []string
				for _, r := range runs {
					kept = append(kept, fmt.Sprint(slices.Index(ids, r.ID)+1))
				}
				if g := strings.Join(kept, " "); g != tt.kept {
					t.Errorf("kept runs %q, want %q", g, tt.kept)
				}
				if n != len(ids)-len(runs) {
					t.Errorf("Prune says it deleted %d runs, and %d are gone", n, len(ids)-len(runs))
				}
				for i, id := range ids {
					rows, err := h.Rows(t.Context(), id, true)
					if err != nil {
						t.Fatal(err)
					}
					want := 0
					if slices.ContainsFunc(runs, func(r history.Run) bool { return r.ID == id }) {
						want = len(results())
					}
					if len(rows) != want {
						t.Errorf("run %d has %d cases, want %d", i+1, len(rows), want)
					}
				}
			})
		}
	})
}

// TestOpen_locked checks that a write waits for another process's write
// to a SQLite file, then fails with ErrLocked, saying so.
func TestOpen_locked(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	open(t, dsn)
	conn, err := rawDB(t, dsn).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	h, err := history.Open(t.Context(), dsn, history.Options{BusyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err) // reading the schema version needs no lock
	}
	defer h.Close()
	_, err = h.Begin(t.Context(), history.Run{Start: time.Now()})
	if !errors.Is(err, history.ErrLocked) || !strings.Contains(err.Error(), "another trajeval kept it busy for over 100ms") {
		t.Fatalf("a write to a database another process holds should fail with ErrLocked, saying why; got %v", err)
	}
	if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Begin(t.Context(), history.Run{Start: time.Now()}); err != nil {
		t.Errorf("once the other write ended, the run should be recorded: %v", err)
	}
}

// FuzzDB_Resolve checks that a reference has the form of one (IsRef) iff
// resolving it finds the run or says there is no such run; anything else
// is refused as not a reference.
func FuzzDB_Resolve(f *testing.F) {
	for _, s := range []string{"1", "#1", "2", "last", "last~0", "last~1", "last~", "~1", "lastt", "#", "-1", "1.0",
		"99999999999999999999999", "last~99999999999999999999", " 1", "LAST", ""} {
		f.Add(s)
	}
	dir, err := os.MkdirTemp("", "fuzz-resolve")
	if err != nil {
		f.Fatal(err)
	}
	defer os.RemoveAll(dir)
	h, err := history.Open(context.Background(), filepath.Join(dir, "runs.db"), history.Options{Create: true})
	if err != nil {
		f.Fatal(err)
	}
	defer h.Close()
	rec, err := h.Begin(context.Background(), history.Run{Start: time.Now()})
	if err != nil || rec.End(time.Now(), false) != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		id, err := h.Resolve(context.Background(), ref)
		switch {
		case err == nil:
			if !history.IsRef(ref) || id != rec.ID() {
				t.Errorf("Resolve(%q) = %d: a reference must have the form of one, and name the one run", ref, id)
			}
		case errors.Is(err, history.ErrNoRun):
			if !history.IsRef(ref) {
				t.Errorf("Resolve(%q): %v, for a string that is not a reference", ref, err)
			}
		default:
			if history.IsRef(ref) {
				t.Errorf("Resolve(%q): %v, for a reference", ref, err)
			}
		}
	})
}
