package history_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// v5Shape writes rows into run id as a trajeval of schema version 5 wrote
// them: one row a case, its evaluators packed, its trajectory and details
// each compressed alone on the row.
func v5Shape(t *testing.T, dsn string, id int64, rows []trajeval.CaseResult) {
	t.Helper()
	raw := rawDB(t, dsn)
	for i, c := range rows {
		traj, err := history.Compress(c.Trajectory)
		if err != nil {
			t.Fatal(err)
		}
		evals, err := history.AppendPacked(nil, c.Evaluators)
		if err != nil {
			t.Fatal(err)
		}
		details, err := history.PackDetails(c.Evaluators)
		if err != nil {
			t.Fatal(err)
		}
		started, warnings, judge, errText, trace, partial := rowValues(c)
		if _, err := raw.Exec(`INSERT INTO cases (run_id, seq, suite, case_id, attempt, status, score, error, partial, warnings, judge, trace, started_at, duration_ms, trajectory, evals, details)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
			id, i+1, c.Suite, c.ID, c.Attempt, string(c.Status), c.Score, errText, partial, warnings, judge, trace, started, c.DurationMS, traj, evals, details); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec("UPDATE runs SET cases = $1, ended_at = started_at + 1000, status = 'done' WHERE id = $2", len(rows), id); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_migrateVersion5: the runs of a database of schema version 5,
// whose cases hold their trajectory and details compressed on their row,
// read back after the migration to today's version exactly as the same results
// recorded into chunks.
func TestOpen_migrateVersion5(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		// PostgreSQL's versions 6 and 7 add chunks alone: dropping it
		// makes version 5. SQLite's 7 rebuilds cases: the file is made
		// so.
		raw := oldFile(t, dsn, 5, "DELETE FROM schema_version WHERE version > 5", "DROP TABLE packs", "DROP TABLE chunks")
		v5Shape(t, dsn, 1, results())
		h, id := migrated(t, dsn)
		readsBack(t, h, 1, id)
		var chunks int
		if err := raw.QueryRow("SELECT COUNT(*) FROM chunks WHERE run_id = $1", id).Scan(&chunks); err != nil || chunks != 2 {
			t.Errorf("the new run has %d chunks (%v), want 2: its trajectories and its details", chunks, err)
		}
	})
}

// failing returns n failing cases, each with its own trajectory and
// details.
func failing(n int) []trajeval.CaseResult {
	base := results()[0]
	out := make([]trajeval.CaseResult, n)
	for i := range out {
		c := base
		c.ID, c.Status, c.Score = fmt.Sprintf("case-%04d", i), trajeval.StatusFail, 0.5
		tr := *base.Trajectory
		tr.ID = c.ID
		tr.Steps = append([]trajeval.Step(nil), tr.Steps...)
		tr.Steps[0].Result = strings.Repeat("r", i) // some values larger than a small chunk
		c.Trajectory = &tr
		c.Evaluators = append([]trajeval.Result(nil), base.Evaluators...)
		d := *c.Evaluators[0].Details
		d.Hits = i
		c.Evaluators[0].Details = &d
		c.Evaluators[0].Status = trajeval.StatusFail
		out[i] = c
	}
	return out
}

// TestRecorder_Record_chunks: the trajectories and details of many
// failing cases, gathered into chunks (small ones here, and values larger
// than a chunk), read back as recorded, for a whole run and with
// trajectories left out; pruning a run deletes its chunks.
func TestRecorder_Record_chunks(t *testing.T) {
	history.SetMaxChunk(t, 2000)
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		want := failing(300)
		id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.Now()}, want)
		got, err := h.Rows(t.Context(), id, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, got), jsonl(t, want); g != w {
			t.Errorf("the cases read back otherwise than recorded\ngot:\n%.2000s\nwant:\n%.2000s", g, w)
		}
		for i := range got {
			if got[i].Trajectory == nil || got[i].Trajectory.ID != want[i].ID || got[i].Trajectory.Steps[0].Result != want[i].Trajectory.Steps[0].Result {
				t.Fatalf("case %d has the trajectory %+v", i, got[i].Trajectory)
			}
		}
		bare, err := h.Rows(t.Context(), id, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			want[i].Trajectory = nil
		}
		if g, w := jsonl(t, bare), jsonl(t, want); g != w || bare[0].Trajectory != nil {
			t.Errorf("without trajectories, the cases read back otherwise")
		}
		raw := rawDB(t, dsn)
		var chunks int
		if err := raw.QueryRow("SELECT COUNT(*) FROM chunks WHERE run_id = $1", id).Scan(&chunks); err != nil || chunks < 10 {
			t.Errorf("%d chunks (%v): chunks of 2,000 bytes should be many", chunks, err)
		}
		if _, err := h.Prune(t.Context(), history.Pruning{Keep: 0}); err != nil {
			t.Fatal(err)
		}
		if err := raw.QueryRow("SELECT COUNT(*) FROM chunks").Scan(&chunks); err != nil || chunks != 0 {
			t.Errorf("%d chunks (%v) after every run was pruned, want none", chunks, err)
		}
	})
}

// TestDB_BeginShard_chunks: a shard begun again deletes its chunks with
// its cases, and leaves the other shards' alone.
func TestDB_BeginShard_chunks(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		run := history.Run{Key: "ci-1", Shards: 2, Suites: []string{"shop"}, Start: time.Now()}
		shard := func(k int, cases []trajeval.CaseResult) int64 {
			rec, err := h.BeginShard(t.Context(), run, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				rec.Record(c)
			}
			if err := rec.End(time.Now(), false); err != nil {
				t.Fatal(err)
			}
			return rec.ID()
		}
		all := failing(4)
		id := shard(1, all[:2])
		shard(2, all[2:])
		shard(1, all[:2]) // again: its first chunks go
		got, err := h.Rows(t.Context(), id, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 4 {
			t.Fatalf("%d cases, want 4", len(got))
		}
		var chunks int
		if err := rawDB(t, dsn).QueryRow("SELECT COUNT(*) FROM chunks WHERE run_id = $1", id).Scan(&chunks); err != nil || chunks != 4 {
			t.Errorf("%d chunks (%v), want 4: two a shard, the first shard's first two deleted", chunks, err)
		}
	})
}

// TestDB_Rows_damagedChunk: a chunk that is missing or damaged, or a
// reference beyond its chunk, is an error naming the chunk, never a
// panic nor a case without its trajectory.
func TestDB_Rows_damagedChunk(t *testing.T) {
	tests := []struct {
		name, damage string
		args         []any
		reason       string
	}{
		{"missing", "DELETE FROM chunks WHERE id = 1", nil, "the trajectories' chunk is gone"},
		{"damaged", "UPDATE chunks SET data = $1 WHERE id = 2", []any{[]byte("S\xff\xff")}, "the details' chunk does not decompress"},
		{"beyond", "", []any{history.AppendRef(nil, 1, 1<<20, 10), nil}, "the reference points past the end of its chunk"},
		{"cut short", "", []any{nil, []byte("C\x01")}, "a reference cut short"},
		{"pack damaged", "UPDATE packs SET data = $1", []any{[]byte("S\xff\xff")}, "the pack of cases does not decompress"},
		{"pack cut short", "cut", nil, "the pack of cases ends within its last case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn := t.TempDir() + "/runs.db"
			h := open(t, dsn)
			id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.Now()}, failing(3))
			raw := rawDB(t, dsn)
			if tt.damage == "" || tt.damage == "cut" {
				// The references are in the run's pack: write it again,
				// damaged.
				var blob []byte
				if err := raw.QueryRow("SELECT data FROM packs").Scan(&blob); err != nil {
					t.Fatal(err)
				}
				cut := 0
				if tt.damage == "cut" {
					cut = 5
				}
				damaged, err := history.RewritePack(blob, cut, func(traj, details []byte) ([]byte, []byte) {
					if tt.args != nil && tt.args[0] != nil {
						traj = tt.args[0].([]byte)
					}
					if tt.args != nil && tt.args[1] != nil {
						details = tt.args[1].([]byte)
					}
					return traj, details
				})
				if err != nil {
					t.Fatal(err)
				}
				tt.damage, tt.args = "UPDATE packs SET data = $1", []any{damaged}
			}
			if _, err := raw.Exec(tt.damage, tt.args...); err != nil {
				t.Fatal(err)
			}
			_, err := h.Rows(t.Context(), id, true)
			if err == nil || !strings.Contains(err.Error(), "damaged") {
				t.Errorf("error %v, want one saying the history is damaged: %s", err, tt.reason)
			}
		})
	}
}

// FuzzParseRef: a reference into a chunk, however damaged, reads back or
// is refused, never a panic; one read back writes again to the same
// bytes.
func FuzzParseRef(f *testing.F) {
	f.Add(history.AppendRef(nil, 1, 0, 5512))
	f.Add(history.AppendRef(nil, 12345, 4<<20, 0))
	f.Add([]byte("C\x80"))
	f.Add([]byte("S\x05\x10hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		chunk, off, size, ok := history.ParseRef(b)
		if !ok {
			return
		}
		if again := history.AppendRef(nil, chunk, off, size); string(again) != string(b) {
			if back, o, s, ok := history.ParseRef(again); !ok || back != chunk || o != off || s != size {
				t.Fatalf("%q reads as %d %d %d, which writes as %q and reads back otherwise", b, chunk, off, size, again)
			}
		}
	})
}

// TestOpen_migrateVersion5File: a SQLite file made by the migrations of
// versions 1 to 5 as released (cases a table with a rowid), holding a run
// of version 4 (rows of evaluators) and one of version 5, migrates to the
// newest version: both runs read back as recorded, the rows of evaluators
// included, and a new run records beside them. (A migration that rebuilds
// cases must set those rows aside: dropping the old table deletes them by
// their foreign key.)
func TestOpen_migrateVersion5File(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	raw := sqliteAt(t, dsn, 5)
	for range 2 {
		if _, err := raw.Exec(`INSERT INTO runs (suites, paths, started_at, status, options) VALUES ('["shop"]', '[]', 0, 'running', '{}')`); err != nil {
			t.Fatal(err)
		}
	}
	oldShape(t, dsn, 1, results())
	v5Shape(t, dsn, 2, results())
	raw.Close()

	h := open(t, dsn)
	if v, err := h.SchemaVersion(t.Context()); err != nil || v != history.Version() {
		t.Fatalf("schema version %d, %v; want %d", v, err, history.Version())
	}
	id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true}, results())
	for _, run := range []int64{1, 2, id} {
		got, err := h.Rows(t.Context(), run, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, got), jsonl(t, results()); g != w {
			t.Errorf("run %d reads back otherwise than recorded\ngot:\n%s\nwant:\n%s", run, g, w)
		}
	}
}

// TestRecorder_Record_heartbeats: a heartbeat between batches, while the
// encoders fill chunks for results the writer has not taken yet (they
// wait while the batch before is written), writes those chunks rather
// than drop them: every case reads back, none refers to a chunk that is
// missing.
func TestRecorder_Record_heartbeats(t *testing.T) {
	history.SetMaxChunk(t, 2<<10)
	history.SetHeartbeatEvery(t, 20*time.Microsecond)
	h := open(t, filepath.Join(t.TempDir(), "runs.db"))
	// Batches of 1,024: from the third on, each waits for the one before
	// to be written, and the results after it are encoded meanwhile.
	want := make([]trajeval.CaseResult, 10000)
	for i := range want {
		want[i] = failing(1)[0]
		want[i].ID = fmt.Sprintf("case-%05d", i)
	}
	id := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0)}, want)
	got, err := h.Rows(t.Context(), id, true)
	if err != nil {
		t.Fatalf("reading the run back: %v", err)
	}
	if g, w := jsonl(t, got), jsonl(t, want); g != w {
		t.Errorf("the run reads back otherwise than recorded")
	}
}

// TestOpen_migrateVersion6: a SQLite file of schema version 6, whose
// cases are keyed by (run_id, seq), migrates to cases keyed by pos, and
// its runs read back as recorded.
func TestOpen_migrateVersion6(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	oldFile(t, dsn, 6)
	v5Shape(t, dsn, 1, results())
	h, id := migrated(t, dsn)
	readsBack(t, h, 1, id)
}

// TestOpen_migrateVersion7: a SQLite file of schema version 7 (a row of
// cases each, keyed by pos, their trajectories and details in chunks)
// migrates to today's, and its run reads back as recorded beside one
// recorded after, in packs.
func TestOpen_migrateVersion7(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	raw := oldFile(t, dsn, 7)
	for i, c := range results() {
		seq := int64(i + 1)
		var refs [2][]byte
		for k, value := range [2]func() ([]byte, error){
			func() ([]byte, error) { return history.Compress(c.Trajectory) },
			func() ([]byte, error) { return history.PackDetails(c.Evaluators) },
		} {
			blob, err := value()
			if err != nil {
				t.Fatal(err)
			}
			if blob == nil {
				continue
			}
			data, err := history.Unsqueeze(blob)
			if err != nil {
				t.Fatal(err)
			}
			// A chunk of one value: the value compressed alone.
			chunk := 2*seq - 1 + int64(k)
			if _, err := raw.Exec("INSERT INTO chunks (run_id, id, data) VALUES (1, $1, $2)", chunk, blob); err != nil {
				t.Fatal(err)
			}
			refs[k] = history.AppendRef(nil, chunk, 0, len(data))
		}
		evals, err := history.AppendPacked(nil, c.Evaluators)
		if err != nil {
			t.Fatal(err)
		}
		started, warnings, judge, errText, trace, partial := rowValues(c)
		if _, err := raw.Exec(`INSERT INTO cases (pos, suite, case_id, attempt, status, score, error, partial, warnings, judge, trace, started_at, duration_ms, trajectory, evals, details)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			1<<32|seq, c.Suite, c.ID, c.Attempt, string(c.Status), c.Score, errText, partial, warnings, judge, trace, started, c.DurationMS, refs[0], evals, refs[1]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec("UPDATE runs SET cases = $1, ended_at = started_at + 1000, status = 'done' WHERE id = 1", len(results())); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	h, id := migrated(t, dsn)
	readsBack(t, h, 1, id)
	var packs int
	if err := rawDB(t, dsn).QueryRow("SELECT COUNT(*) FROM packs WHERE run_id = $1", id).Scan(&packs); err != nil || packs != 1 {
		t.Errorf("the run recorded after is in %d packs (%v), want one", packs, err)
	}
}

// TestOpen_migrateVersion8: a SQLite file of schema version 8 (cases in
// packs, trajectories in chunks as their canonical JSON) migrates to
// today's, and its run reads back as recorded beside one recorded after,
// whose trajectories are in the compact encoding.
func TestOpen_migrateVersion8(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	oldFile(t, dsn, 8).Close()
	// Version 9 changes no table: a file of version 8 is one whose
	// trajectories are JSON, and whose schema_version says 8.
	h := open(t, dsn)
	history.SetJSONTrajectories(t, true)
	old := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true}, results())
	h.Close()
	raw := rawDB(t, dsn)
	if _, err := raw.Exec("DELETE FROM schema_version WHERE version > 8"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	history.SetJSONTrajectories(t, false)
	h, id := migrated(t, dsn)
	readsBack(t, h, old, id)
	for run, mark := range map[int64]byte{old: '{', id: 'U'} {
		if got := firstTrajectoryByte(t, dsn, run); got != mark {
			t.Errorf("run %d's trajectory begins with %q, want %q", run, got, mark)
		}
	}
}

// firstTrajectoryByte returns the first byte of the trajectories of run
// in its chunks (those of details begin with '[' or 'D'); 0 if none.
func firstTrajectoryByte(t *testing.T, dsn string, run int64) byte {
	t.Helper()
	for _, data := range runChunks(t, dsn, run) {
		if len(data) > 0 && data[0] != '[' && data[0] != 'D' {
			return data[0]
		}
	}
	return 0
}

// runChunks returns the chunks of run, decompressed.
func runChunks(t *testing.T, dsn string, run int64) [][]byte {
	t.Helper()
	rows, err := rawDB(t, dsn).Query("SELECT data FROM chunks WHERE run_id = $1", run)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var chunks [][]byte
	for rows.Next() {
		var blob []byte
		if err := rows.Scan(&blob); err != nil {
			t.Fatal(err)
		}
		data, err := history.Unsqueeze(blob)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, data)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return chunks
}

// oldFile makes dsn a history of schema version v holding one run (id 1)
// with no cases, and opens it raw: a SQLite file by the migrations of
// versions 1 to v, a PostgreSQL database by today's migrations and then
// the downgrade statements, which must undo those past v.
func oldFile(t *testing.T, dsn string, v int, downgrade ...string) *sql.DB {
	t.Helper()
	var raw *sql.DB
	if history.IsPostgres(dsn) {
		open(t, dsn).Close()
		raw = rawDB(t, dsn)
	} else {
		raw, downgrade = sqliteAt(t, dsn, v), nil
	}
	for _, q := range append(downgrade,
		`INSERT INTO runs (suites, paths, started_at, status, options) VALUES ('["shop"]', '[]', 0, 'running', '{}')`,
	) {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return raw
}

// migrated opens dsn, which must migrate to today's schema version, and
// records results() in a new run: its id.
func migrated(t *testing.T, dsn string) (*history.DB, int64) {
	t.Helper()
	h := open(t, dsn)
	if v, err := h.SchemaVersion(t.Context()); err != nil || v != history.Version() {
		t.Fatalf("schema version %d, %v; want %d", v, err, history.Version())
	}
	return h, record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true}, results())
}

// readsBack checks that each of runs reads back as results().
func readsBack(t *testing.T, h *history.DB, runs ...int64) {
	t.Helper()
	for _, run := range runs {
		got, err := h.Rows(t.Context(), run, true)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonl(t, got), jsonl(t, results()); g != w {
			t.Errorf("run %d reads back otherwise than recorded\ngot:\n%s\nwant:\n%s", run, g, w)
		}
	}
}

// sqliteAt makes the SQLite file dsn of schema version v, by the
// migrations of versions 1 to v, and opens it raw.
func sqliteAt(t *testing.T, dsn string, v int) *sql.DB {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dsn), 0o755); err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, dsn)
	names, err := filepath.Glob("migrations/sqlite/[0-9][0-9][0-9]_*.sql")
	if err != nil || len(names) < v {
		t.Fatalf("the migrations of versions 1 to %d: %v, %v", v, names, err)
	}
	for i, name := range names[:v] {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(data)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := raw.Exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at BIGINT NOT NULL); INSERT INTO schema_version VALUES ($1, 0)", i+1); err != nil {
			t.Fatal(err)
		}
	}
	return raw
}

// TestOpen_casesKey: SQLite writes a row of cases into two B-trees, the
// table keyed by pos (the run's id times 2^32 plus the case's seq) and
// cases_by_id, not three: (run_id, seq) has no index of its own.
func TestOpen_casesKey(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "runs.db")
	open(t, dsn).Close()
	rows, err := rawDB(t, dsn).Query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cases' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if g := strings.Join(names, ", "); g != "cases_by_id" {
		t.Errorf("the indexes of cases are %q, want cases_by_id alone", g)
	}
}

// TestRecorder_Record_lastRunID: the runs whose ids are at the bounds of
// SQLite's key of cases. Each case is the reason given.
func TestRecorder_Record_lastRunID(t *testing.T) {
	tests := []struct {
		id      int64 // the run's id
		wantErr error
		why     string
	}{
		{1<<31 - 1, nil, "the last run id whose rows pos holds: its rows, and no other run's, read back"},
		{1 << 31, history.ErrTooMany, "a run id past the bound is an error, not rows written under another run's key"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.id), func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "runs.db")
			h := open(t, dsn)
			before := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0)}, failing(3))
			if _, err := rawDB(t, dsn).Exec(`INSERT INTO runs (id, suites, paths, started_at, status, options) VALUES ($1, '["shop"]', '[]', 0, 'done', '{}')`, tt.id-1); err != nil {
				t.Fatal(err)
			}
			rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0), KeepPassing: true})
			if err != nil {
				t.Fatal(err)
			}
			if rec.ID() != tt.id {
				t.Fatalf("run %d, want %d", rec.ID(), tt.id)
			}
			for _, r := range results() {
				rec.Record(r)
			}
			err = rec.End(time.UnixMilli(1000), false)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("End: %v, want %v (%s)", err, tt.wantErr, tt.why)
			}
			if tt.wantErr != nil {
				return
			}
			for run, want := range map[int64][]trajeval.CaseResult{tt.id: results(), before: failing(3), tt.id - 1: nil} {
				got, err := h.Rows(t.Context(), run, true)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := jsonl(t, got), jsonl(t, want); g != w {
					t.Errorf("run %d reads back otherwise than recorded (%s)\ngot:\n%s\nwant:\n%s", run, tt.why, g, w)
				}
			}
		})
	}
}

// TestDB_Prune_manyRuns: pruning more runs than one statement names (500)
// deletes the cases of each, a range of pos for each run on SQLite, and
// keeps those of the runs kept.
func TestDB_Prune_manyRuns(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		h := open(t, dsn)
		first := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(0)}, failing(2))
		raw := rawDB(t, dsn)
		for i := range 600 {
			if _, err := raw.Exec(`INSERT INTO runs (suites, paths, started_at, status, options) VALUES ('["shop"]', '[]', $1, 'done', '{}')`, i+1); err != nil {
				t.Fatal(err)
			}
		}
		last := record(t, h, history.Run{Suites: []string{"shop"}, Start: time.UnixMilli(10000)}, failing(3))
		n, err := h.Prune(t.Context(), history.Pruning{Keep: 1})
		if err != nil {
			t.Fatal(err)
		}
		if n != 601 {
			t.Errorf("pruned %d runs, want 601", n)
		}
		var packs int
		if err := raw.QueryRow("SELECT COUNT(*) FROM packs").Scan(&packs); err != nil || packs != 1 {
			t.Errorf("%d packs of cases left (%v), want the kept run's one", packs, err)
		}
		if got, err := h.Rows(t.Context(), first, false); err != nil || len(got) != 0 {
			t.Errorf("run %d reads %d rows (%v) after it was pruned, want none", first, len(got), err)
		}
		got, err := h.Rows(t.Context(), last, false)
		if err != nil || len(got) != 3 {
			t.Errorf("the kept run reads %d rows (%v), want 3", len(got), err)
		}
	})
}

// rowValues returns the values an old row of cases holds for c's start,
// warnings, judge usage, error, trace file and partial flag, as the
// recorder of its version wrote them (NULL for none).
func rowValues(c trajeval.CaseResult) (started, warnings, judge, errText, trace any, partial int) {
	if !c.StartedAt.IsZero() {
		started = c.StartedAt.UnixMilli()
	}
	if len(c.Warnings) > 0 {
		warnings = `["` + strings.Join(c.Warnings, `","`) + `"]`
	}
	if c.Judge != nil {
		judge = fmt.Sprintf(`{"calls":%d,"cached":%d}`, c.Judge.Calls, c.Judge.Cached)
	}
	if c.Error != "" {
		errText = c.Error
	}
	if c.Trace != "" {
		trace = c.Trace
	}
	if c.Partial {
		partial = 1
	}
	return started, warnings, judge, errText, trace, partial
}
