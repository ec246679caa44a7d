package history_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// oldShape writes rows into run id as a trajeval of schema version 4
// wrote them: a row of evaluators per evaluator result, every detail kept,
// the trajectory as gzip of its canonical JSON.
func oldShape(t *testing.T, dsn string, id int64, rows []trajeval.CaseResult) {
	t.Helper()
	raw := rawDB(t, dsn)
	j := func(v any, present bool) any {
		if !present {
			return nil
		}
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	for i, c := range rows {
		var traj []byte
		if c.Trajectory != nil {
			data, err := trajeval.AppendJSON(nil, c.Trajectory)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(data)
			zw.Close()
			traj = b.Bytes()
		}
		var started any
		if !c.StartedAt.IsZero() {
			started = c.StartedAt.UnixMilli()
		}
		partial := 0
		if c.Partial {
			partial = 1
		}
		if _, err := raw.Exec(`INSERT INTO cases (run_id, seq, suite, case_id, attempt, status, score, error, partial, warnings, judge, trace, started_at, duration_ms, trajectory)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
			id, i+1, c.Suite, c.ID, c.Attempt, string(c.Status), c.Score, null(c.Error), partial, j(c.Warnings, len(c.Warnings) > 0),
			j(c.Judge, c.Judge != nil), null(c.Trace), started, c.DurationMS, traj); err != nil {
			t.Fatal(err)
		}
		for k, e := range c.Evaluators {
			required := 0
			if e.Required {
				required = 1
			}
			if _, err := raw.Exec(`INSERT INTO evaluators (run_id, case_seq, seq, name, type, status, score, threshold, weight, required, error, turn, details, members, judge)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
				id, i+1, k+1, e.Name, e.Type, string(e.Status), e.Score, e.Threshold, e.Weight, required, null(e.Error), e.Turn,
				j(e.Details, e.Details != nil), j(e.Members, len(e.Members) > 0), j(e.Judge, e.Judge != nil)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := raw.Exec("UPDATE runs SET cases = $1, ended_at = started_at + 1000, status = 'done' WHERE id = $2", len(rows), id); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_migrateVersion4: the runs of a database of schema version 4,
// whose cases have rows of evaluators and gzip trajectories, read back
// after the migration to version 5 exactly as the same results recorded in
// the new shape (one row per case, evaluators packed, S2): rows as show,
// report and compare read them, and the viewer's aggregates.
func TestOpen_migrateVersion4(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		// PostgreSQL's versions 5 and 6 add columns and a table: dropping
		// them makes version 4. SQLite's 7 rebuilds cases: the file is made
		// so.
		oldFile(t, dsn, 4, "DELETE FROM schema_version WHERE version > 4", "DROP TABLE packs", "DROP TABLE chunks",
			"ALTER TABLE cases DROP COLUMN evals", "ALTER TABLE cases DROP COLUMN details")
		oldShape(t, dsn, 1, results())
		h, id := migrated(t, dsn)
		old, err := h.Rows(t.Context(), 1, true)
		if err != nil {
			t.Fatal(err)
		}
		now, err := h.Rows(t.Context(), id, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, old), jsonl(t, results()); g != w {
			t.Errorf("the version 4 run reads back otherwise than recorded\ngot:\n%s\nwant:\n%s", g, w)
		}
		if g, w := jsonl(t, now), jsonl(t, old); g != w {
			t.Errorf("the version 5 run reads back otherwise than the version 4 run\ngot:\n%s\nwant:\n%s", g, w)
		}
		s, err := h.Scores(t.Context(), []int64{1, id}, "shop", "")
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(s.Case[0], s.Evaluators[0]) != fmt.Sprint(s.Case[1], s.Evaluators[1]) || strings.Join(s.Names, " ") != "calls both x" {
			t.Errorf("the aggregates of the two shapes differ: %+v", s)
		}
		// Of one case: the rows of evaluators of the others are left out.
		for _, c := range results() {
			s, err := h.Scores(t.Context(), []int64{1, id}, "shop", c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(s.Case[0], s.Evaluators[0]) != fmt.Sprint(s.Case[1], s.Evaluators[1]) || s.Case[0].N+len(s.Evaluators[0]) == 0 && c.Status != trajeval.StatusError {
				t.Errorf("case %s: the aggregates of the two shapes differ, or are empty: %+v", c.ID, s)
			}
		}
	})
}

// passing is a passing case whose evaluators take every value a packed
// row must keep exactly.
func passing(i int) trajeval.CaseResult {
	return trajeval.CaseResult{ID: fmt.Sprintf("case-%03d", i), Suite: "shop", Status: trajeval.StatusPass, Score: 0.1 + 0.2,
		DurationMS: 1.5, Trace: "traces.jsonl", Evaluators: []trajeval.Result{
			{Name: "ordre d'appel ✓", Type: "tool_trajectory", Score: 1.0 / 3, Status: trajeval.StatusPass, Threshold: 0.3, Weight: 2.5, Required: true,
				Details: &trajeval.Details{Mode: "in_order", Hits: 1}},
			{Name: "", Type: "contains", Score: math.Copysign(0, -1), Status: trajeval.StatusPass, Threshold: 0, Weight: 0},
			{Name: "per turn", Type: "llm_judge", Score: 1e-300, Status: trajeval.StatusError, Threshold: 1, Weight: 1e300, Turn: 7,
				Error: "the judge said \"no\"\n", Judge: &trajeval.JudgeUsage{Calls: 3, InputTokens: 12, CostUSD: ptr(0.125)}},
			{Name: "both", Type: "composite", Score: 0.75, Status: trajeval.StatusPass, Threshold: 0.5, Weight: 1,
				Members: []trajeval.Result{{Name: "m", Type: "args", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 1}}},
		}}
}

// TestRecorder_Record_passingRow: a passing case recorded by default is
// one row of cases, no row of evaluators, and reads back with every
// score, status, name, threshold, weight, turn, error, member and judge
// as it was, its evaluators' details left out.
func TestRecorder_Record_passingRow(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		want := []trajeval.CaseResult{passing(1), passing(2)}
		id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.Now()}, want)
		got, err := h.Rows(t.Context(), id, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			want[i].Evaluators[0].Details = nil
		}
		if g, w := jsonl(t, got), jsonl(t, want); g != w {
			t.Errorf("a passing row reads back otherwise\ngot:\n%s\nwant:\n%s", g, w)
		}
		if len(got) == 2 && !math.Signbit(got[0].Evaluators[1].Score) {
			t.Errorf("the score -0 reads back as %v", got[0].Evaluators[1].Score)
		}
		var n int
		if err := rawDB(t, dsn).QueryRow("SELECT COUNT(*) FROM evaluators").Scan(&n); err != nil || n != 0 {
			t.Errorf("%d rows of evaluators (%v): a passing case should be its row of cases alone", n, err)
		}
		s, err := h.Scores(t.Context(), []int64{id}, "shop", "")
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(s.Names, s.Case[0].N, s.Evaluators[0]); g != fmt.Sprint([]string{"ordre d'appel ✓", "", "both"}, 2,
			map[string]history.Mean{"ordre d'appel ✓": {Sum: 2.0 / 3, N: 2}, "": {Sum: 0, N: 2}, "both": {Sum: 1.5, N: 2}}) {
			t.Errorf("aggregates of packed rows: %s", g)
		}
	})
}

// TestRecorder_killed: a run whose process is killed (SIGKILL, no End)
// keeps every case it had written, and reads back as interrupted.
func TestRecorder_killed(t *testing.T) {
	if dsn := os.Getenv("HISTORY_TEST_KILLED"); dsn != "" {
		// The child: record the cases, then wait to be killed.
		h, err := history.Open(t.Context(), dsn, history.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"shop"}, Start: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 300 {
			rec.Record(passing(i))
		}
		time.Sleep(time.Minute)
		return
	}
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		cmd := exec.Command(os.Args[0], "-test.run=^TestRecorder_killed$")
		cmd.Env = append(os.Environ(), "HISTORY_TEST_KILLED="+dsn)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		defer cmd.Process.Kill()
		var runs []history.Run
		for range 3000 {
			var err error
			if runs, err = h.Runs(t.Context(), history.Filter{}); err != nil {
				t.Fatal(err)
			}
			if len(runs) == 1 && runs[0].Cases == 300 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if len(runs) != 1 || runs[0].Cases != 300 {
			t.Fatalf("the child recorded %+v, want one run of 300 cases", runs)
		}
		cmd.Process.Kill()
		cmd.Wait()
		run, err := h.Run(t.Context(), runs[0].ID)
		if err != nil || run.Status != history.StatusInterrupted || run.Cases != 300 {
			t.Errorf("the killed run reads %+v, %v: want interrupted, with its 300 cases", run, err)
		}
		got, err := h.Rows(t.Context(), run.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]trajeval.CaseResult, 300)
		for i := range want {
			want[i] = passing(i)
			want[i].Evaluators[0].Details = nil
		}
		if g, w := jsonl(t, got), jsonl(t, want); g != w {
			t.Errorf("the killed run's rows differ from what it recorded")
		}
	})
}

// TestRecorder_Record_notFinite: a score that is not a finite number
// cannot be stored (nor could it before schema version 5, where it broke
// a NOT NULL column): End reports it, and the run's rows written before it
// read back, rather than a row that no longer reads.
func TestRecorder_Record_notFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		t.Run(fmt.Sprint(f), func(t *testing.T) {
			h := open(t, filepath.Join(t.TempDir(), "runs.db"))
			rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"shop"}, Start: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			bad := passing(2)
			bad.Evaluators[1].Weight = f
			rec.Record(passing(1))
			rec.Record(bad)
			if err := rec.End(time.Now(), false); err == nil || !strings.Contains(err.Error(), "cannot be stored") {
				t.Errorf("End gives %v, want the number refused", err)
			}
			if _, err := h.Rows(t.Context(), rec.ID(), false); err != nil {
				t.Errorf("the run does not read back: %v", err)
			}
		})
	}
}

// TestUnpack_versions: evaluators packed with their numbers as text
// (version 1, before schema version 8) read back as those packed with
// their numbers' bits (version 2, today's): the same results, to the
// last bit; a number cut short or not a number is refused.
func TestUnpack_versions(t *testing.T) {
	str := func(b []byte, s string) []byte { return append(append(b, byte(len(s))), s...) }
	v1 := func(nums ...string) []byte {
		b := str([]byte{1, 1}, "ordre ✓")
		b = str(str(b, "contains"), "pass")
		for _, n := range nums {
			b = str(b, n)
		}
		b = str(str(str(b, ""), ""), "")
		return append(b, 1, 14) // required, turn 7
	}
	want := []trajeval.Result{{Name: "ordre ✓", Type: "contains", Status: trajeval.StatusPass, Score: 1.0 / 3, Threshold: math.Copysign(0, -1), Weight: 1e300, Required: true, Turn: 7}}
	v2, err := history.AppendPacked(nil, want)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		packed []byte
		ok     bool
		reason string
	}{
		{"version 1", v1("0.3333333333333333", "-0", "1e+300"), true, "numbers as their shortest text"},
		{"version 2", v2, true, "numbers as their bits"},
		{"version 1, not a number", v1("0.3333333333333333", "-0", "NaN"), false, "NaN is never stored"},
		{"version 2, cut short", v2[:len(v2)-20], false, "the numbers end past the column"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := history.Unpack(tt.packed)
			if (err == nil) != tt.ok {
				t.Fatalf("error %v, want ok %v (%s)", err, tt.ok, tt.reason)
			}
			if !tt.ok {
				return
			}
			if len(got) != 1 || math.Float64bits(got[0].Threshold) != math.Float64bits(want[0].Threshold) || jsonlEvals(t, got) != jsonlEvals(t, want) {
				t.Errorf("read back %+v, want %+v (%s)", got, want, tt.reason)
			}
		})
	}
}
