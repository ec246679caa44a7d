package history

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trajeval/trajeval"
)

const runColumns = "id, suites, paths, git_commit, git_branch, started_at, ended_at, status, options, cases, passed, failed, errors, host, pid, heartbeat_at, run_key, shards"

// scanRun reads a run, giving a run with no end its status as shown:
// running while it is live (rule 8 of the package), else interrupted.
func scanRun(s interface{ Scan(...any) error }, now time.Time, host string) (Run, error) {
	var (
		r                    Run
		suites, paths, opts  string
		commit, branch, from sql.NullString
		key                  sql.NullString
		start                int64
		end, pid, beat       sql.NullInt64
		shards               sql.NullInt64
	)
	if err := s.Scan(&r.ID, &suites, &paths, &commit, &branch, &start, &end, &r.Status, &opts, &r.Cases, &r.Passed, &r.Failed, &r.Errors, &from, &pid, &beat, &key, &shards); err != nil {
		return r, err
	}
	r.Key, r.Shards = key.String, int(shards.Int64)
	r.Host, r.PID = from.String, int(pid.Int64)
	if beat.Valid {
		r.Heartbeat = time.UnixMilli(beat.Int64).UTC()
	}
	if !end.Valid && r.Status == StatusRunning && !r.live(now, host) {
		r.Status = StatusInterrupted
	}
	if err := json.Unmarshal([]byte(suites), &r.Suites); err != nil {
		return r, fmt.Errorf("run %d: suites: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(paths), &r.Paths); err != nil {
		return r, fmt.Errorf("run %d: paths: %w", r.ID, err)
	}
	r.Commit, r.Branch = commit.String, branch.String
	r.Start = time.UnixMilli(start).UTC()
	if end.Valid {
		r.End = time.UnixMilli(end.Int64).UTC()
	}
	r.Options = json.RawMessage(opts)
	return r, nil
}

// A Filter picks runs for [DB.Runs].
type Filter struct {
	Suite string    // runs with a suite of this name; "" any
	Since time.Time // runs started at or after it; zero any
	Last  int       // the newest Last (by id) of the runs picked; 0 every one
}

// where returns the SQL condition of f, and its arguments. The suite is
// looked for in the JSON of the suites' names: a name with a quote may
// match the runs of another name too, which Runs drops.
func (f Filter) where(d dialect) (string, []any) {
	var conds []string
	var args []any
	if f.Suite != "" {
		name, _ := json.Marshal(f.Suite)
		conds = append(conds, d.contains("suites", "?"))
		args = append(args, string(name))
	}
	if !f.Since.IsZero() {
		conds = append(conds, "started_at >= ?")
		args = append(args, f.Since.UnixMilli())
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Runs returns the runs f picks, oldest first.
func (h *DB) Runs(ctx context.Context, f Filter) ([]Run, error) {
	where, args := f.where(h.d)
	q := "SELECT " + runColumns + " FROM runs" + where + " ORDER BY id"
	if f.Last > 0 {
		q = "SELECT * FROM (SELECT " + runColumns + " FROM runs" + where + " ORDER BY id DESC LIMIT ?) r ORDER BY id"
		args = append(args, f.Last)
	}
	now, host := time.Now(), hostname()
	rows, err := h.db.QueryContext(ctx, h.d.bind(q), args...)
	if err != nil {
		return nil, h.wrap(err)
	}
	defer rows.Close()
	var runs []Run
	for rows.Next() {
		r, err := scanRun(rows, now, host)
		if err != nil {
			return nil, h.wrap(err)
		}
		if f.Suite == "" || slices.Contains(r.Suites, f.Suite) {
			runs = append(runs, r)
		}
	}
	return runs, h.wrap(rows.Err())
}

// Count returns how many runs f picks, Last aside.
func (h *DB) Count(ctx context.Context, f Filter) (int, error) {
	where, args := f.where(h.d)
	var n int
	err := h.db.QueryRowContext(ctx, h.d.bind("SELECT COUNT(*) FROM runs"+where), args...).Scan(&n)
	return n, h.wrap(err)
}

// Suites returns the names of the suites of every run, in order of first
// appearance.
func (h *DB) Suites(ctx context.Context) ([]string, error) {
	rows, err := h.db.QueryContext(ctx, "SELECT suites FROM runs GROUP BY suites ORDER BY MIN(id)")
	if err != nil {
		return nil, h.wrap(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var data string
		var names []string
		if err := rows.Scan(&data); err != nil {
			return nil, h.wrap(err)
		}
		if err := json.Unmarshal([]byte(data), &names); err != nil {
			return nil, fmt.Errorf("%s: suites %s: %w", h.where, data, err)
		}
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out, h.wrap(rows.Err())
}

// Run returns the run id.
func (h *DB) Run(ctx context.Context, id int64) (Run, error) {
	r, err := scanRun(h.db.QueryRowContext(ctx, h.d.bind("SELECT "+runColumns+" FROM runs WHERE id = ?"), id), time.Now(), hostname())
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("%w %d in %s", ErrNoRun, id, h.where)
	}
	return r, h.wrap(err)
}

var refPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:#?([0-9]+)|last(?:~([0-9]+))?)$`) })

// IsRef reports whether s has the form of a run reference: N, #N, last,
// or last~N.
func IsRef(s string) bool { return refPattern().MatchString(s) }

// Resolve returns the id of the run ref names:
//  1. N (or #N) is run N;
//  2. last is the newest run, last~N the N-th run before it.
func (h *DB) Resolve(ctx context.Context, ref string) (int64, error) {
	m := refPattern().FindStringSubmatch(ref)
	if m == nil {
		return 0, fmt.Errorf("%q is not a run: give its id (trajeval runs lists them), last, or last~N", ref)
	}
	if m[1] != "" {
		id, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w %s in %s", ErrNoRun, ref, h.where) // beyond any id
		}
		if _, err := h.Run(ctx, id); err != nil {
			return 0, err
		}
		return id, nil
	}
	back := 0
	if m[2] != "" {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, fmt.Errorf("%w %s in %s", ErrNoRun, ref, h.where) // beyond any run
		}
		back = n
	}
	var id int64
	err := h.db.QueryRowContext(ctx, h.d.bind("SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?"), back).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		var n int
		if err := h.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM runs").Scan(&n); err != nil {
			return 0, h.wrap(err)
		}
		return 0, fmt.Errorf("%w %s in %s: it holds %d runs", ErrNoRun, ref, h.where, n)
	}
	return id, h.wrap(err)
}

// Rows returns the results of run id in the order they were recorded, as
// eval wrote them (rule 6 of the package); each with its trajectory when
// trajectories is set. The rows of a sharded run come shard after shard in
// turn, each with its Shard.
func (h *DB) Rows(ctx context.Context, id int64, trajectories bool) ([]trajeval.CaseResult, error) {
	return h.rows(ctx, id, reading{trajectories: trajectories, evaluators: true, details: true})
}

// storedCases returns the cases of run id as the database holds them, in
// the order of their seq: the rows of cases of those recorded before
// schema version 8, and the rows in its packs. Their trajectories are
// read when trajectories is set.
func (h *DB) storedCases(ctx context.Context, id int64, trajectories bool) ([]stored, error) {
	traj := "NULL"
	if trajectories {
		traj = "trajectory"
	}
	rows, err := h.db.QueryContext(ctx, h.d.bind(`SELECT seq, suite, case_id, attempt, status, score, error, partial, warnings, judge, trace, started_at, duration_ms, `+traj+`, evals, details
		FROM cases WHERE `+h.d.ofRun("", 1)+` ORDER BY `+h.d.bySeq()), id)
	if err != nil {
		return nil, h.wrap(err)
	}
	var out []stored
	for rows.Next() {
		var (
			s                                   stored
			partial                             int
			errText, warnings, judge, traceName sql.NullString
			started                             sql.NullInt64
		)
		if err := rows.Scan(&s.seq, &s.suite, &s.id, &s.attempt, &s.status, &s.score, &errText, &partial, &warnings, &judge, &traceName, &started, &s.duration, &s.traj, &s.evals, &s.details); err != nil {
			rows.Close()
			return nil, h.wrap(err)
		}
		s.errText, s.warnings, s.judge, s.trace = errText.String, warnings.String, judge.String, traceName.String
		s.partial, s.hasStart, s.started, s.hasEvals = partial != 0, started.Valid, started.Int64, s.evals != nil
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, h.wrap(err)
	}
	packed, err := h.packs(ctx, "run_id = ?", id)
	if err != nil {
		return nil, err
	}
	if len(packed) > 0 {
		out = append(out, packed...)
		// The packs of a run's shards interleave; a run migrated while
		// under way holds rows of both kinds.
		slices.SortStableFunc(out, func(a, b stored) int { return cmp.Compare(a.seq, b.seq) })
	}
	if !trajectories {
		for i := range out {
			out[i].traj = nil
		}
	}
	return out, nil
}

// packs returns the cases of the packs the condition where picks (on
// their columns run_id and id), in the order of the packs' ids.
func (h *DB) packs(ctx context.Context, where string, args ...any) ([]stored, error) {
	return h.packsIn(ctx, h.db, where, args...)
}

// packsIn is packs, read by q (the database, or a transaction).
func (h *DB) packsIn(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, where string, args ...any) ([]stored, error) {
	rows, err := q.QueryContext(ctx, h.d.bind("SELECT run_id, id, data FROM packs WHERE "+where+" ORDER BY run_id, id"), args...)
	if err != nil {
		return nil, h.wrap(err)
	}
	defer rows.Close()
	var out []stored
	for rows.Next() {
		var (
			run, id int64
			blob    []byte
		)
		if err := rows.Scan(&run, &id, &blob); err != nil {
			return nil, h.wrap(err)
		}
		data, err := unsqueeze(blob)
		if err == nil {
			var cases []stored
			cases, err = unpackCases(data)
			out = append(out, cases...)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: run %d: pack %d: %w", h.where, run, id, err)
		}
	}
	return out, h.wrap(rows.Err())
}

// What rows reads of each case besides its row: its trajectory, its
// evaluators' results, and their details (with them); and, when only is
// not nil, of the cases it keeps alone (by suite and id), the others
// left out.
type reading struct {
	trajectories, evaluators, details bool
	only                              func(suite, id string) bool
}

// rows is Rows, reading of each case what r says.
func (h *DB) rows(ctx context.Context, id int64, r reading) ([]trajeval.CaseResult, error) {
	var shards sql.NullInt64
	if err := h.db.QueryRowContext(ctx, h.d.bind("SELECT shards FROM runs WHERE id = ?"), id).Scan(&shards); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, h.wrap(err)
	}
	stored, err := h.storedCases(ctx, id, r.trajectories)
	if err != nil {
		return nil, err
	}
	out := make([]trajeval.CaseResult, 0, len(stored))
	seqs := make([]int, 0, len(stored))
	chunks := resolver{run: id}
	var skipped map[int]bool // the seqs only left out
	for _, s := range stored {
		if r.only != nil && !r.only(s.suite, s.id) {
			if skipped == nil {
				skipped = map[int]bool{}
			}
			skipped[s.seq] = true
			continue
		}
		c := trajeval.CaseResult{Suite: s.suite, ID: s.id, Attempt: s.attempt, Status: trajeval.Status(s.status), Score: s.score,
			Error: s.errText, Trace: s.trace, Partial: s.partial, DurationMS: s.duration}
		seq := s.seq
		if n := int(shards.Int64); n > 0 {
			c.Shard = strconv.Itoa((seq-1)%n+1) + "/" + strconv.Itoa(n)
		}
		if s.hasStart {
			c.StartedAt = time.UnixMilli(s.started).UTC()
		}
		if err := unmarshalText(s.warnings, &c.Warnings); err != nil {
			return nil, fmt.Errorf("run %d: case %s: warnings: %w", id, c.ID, err)
		}
		if err := unmarshalText(s.judge, &c.Judge); err != nil {
			return nil, fmt.Errorf("run %d: case %s: judge: %w", id, c.ID, err)
		}
		i := len(out)
		blob := s.traj
		switch {
		case isRef(blob):
			err = chunks.want(blob, func(data []byte) error {
				t, err := decodeTrajectory(data)
				if err != nil {
					return fmt.Errorf("%s: run %d: case %s: trajectory: %w", h.where, id, out[i].ID, err)
				}
				out[i].Trajectory = t
				return nil
			})
		case blob != nil:
			c.Trajectory, err = decompress(blob)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: run %d: case %s: trajectory: %w", h.where, id, c.ID, err)
		}
		c.Evaluators = []trajeval.Result{}
		if s.hasEvals && r.evaluators {
			evals, err := unpack(s.evals)
			switch {
			case err != nil || !r.details:
			case isRef(s.details):
				err = chunks.want(s.details, func(data []byte) error {
					if err := setDetails(data, evals); err != nil {
						return fmt.Errorf("%s: run %d: case %s: %w", h.where, id, out[i].ID, err)
					}
					return nil
				})
			case s.details != nil:
				err = unpackDetails(s.details, evals)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: run %d: case %s: %w", h.where, id, c.ID, err)
			}
			c.Evaluators = evals
		}
		out = append(out, c)
		seqs = append(seqs, seq)
	}
	if err := chunks.resolve(ctx, h); err != nil {
		return nil, err
	}
	at := make(map[int]int, len(seqs)) // seq -> index in out
	for i, s := range seqs {
		at[s] = i
	}
	if !r.evaluators {
		return out, nil
	}
	ev, err := h.db.QueryContext(ctx, h.d.bind(`SELECT case_seq, name, type, status, score, threshold, weight, required, error, turn, details, members, judge
		FROM evaluators WHERE run_id = ? ORDER BY case_seq, seq`), id)
	if err != nil {
		return nil, h.wrap(err)
	}
	defer ev.Close()
	for ev.Next() {
		var (
			e                              trajeval.Result
			seq, required                  int
			status                         string
			errText, details, members, jdg sql.NullString
		)
		if err := ev.Scan(&seq, &e.Name, &e.Type, &status, &e.Score, &e.Threshold, &e.Weight, &required, &errText, &e.Turn, &details, &members, &jdg); err != nil {
			return nil, h.wrap(err)
		}
		e.Status = trajeval.Status(status)
		e.Required, e.Error = required != 0, errText.String
		for _, f := range []struct {
			s sql.NullString
			v any
		}{{details, &e.Details}, {members, &e.Members}, {jdg, &e.Judge}} {
			if err := unmarshalNull(f.s, f.v); err != nil {
				return nil, fmt.Errorf("run %d: evaluator %s: %w", id, e.Name, err)
			}
		}
		i, ok := at[seq]
		if !ok && skipped[seq] {
			continue
		}
		if !ok {
			return nil, fmt.Errorf("run %d: evaluator %s of case %d, which the run does not hold", id, e.Name, seq)
		}
		out[i].Evaluators = append(out[i].Evaluators, e)
	}
	return out, h.wrap(ev.Err())
}

// unmarshalText reads the JSON s into v; "" is absent, and leaves v.
func unmarshalText(s string, v any) error {
	if s == "" {
		return nil
	}
	return json.Unmarshal([]byte(s), v)
}

func unmarshalNull(s sql.NullString, v any) error {
	if !s.Valid {
		return nil
	}
	return json.Unmarshal([]byte(s.String), v)
}

// decompress reads a stored trajectory.
func decompress(blob []byte) (*trajeval.Trajectory, error) {
	data, err := unsqueeze(blob)
	if err != nil {
		return nil, err
	}
	return decodeTrajectory(data)
}

// decodeTrajectory reads a stored trajectory: its canonical JSON, or its
// encoding (trajcode.go), which goes through its canonical JSON too, so
// that what is read back is what the JSON gave.
func decodeTrajectory(data []byte) (*trajeval.Trajectory, error) {
	if len(data) > 0 && (data[0] == trajMark || data[0] == trajMarkV9) {
		t, err := readTrajectory(data)
		if err != nil {
			return nil, err
		}
		if data, err = trajeval.AppendJSON(nil, t); err != nil {
			return nil, fmt.Errorf("%w: %v", errTrajectory, err)
		}
	}
	t := new(trajeval.Trajectory)
	if err := json.Unmarshal(data, t); err != nil {
		return nil, err
	}
	return t, nil
}

// A Pruning says which runs [DB.Prune] deletes.
type Pruning struct {
	// Keep is how many of the newest runs, by start (ties by id), are
	// kept; below 0, any number.
	Keep int
	// Before, when not zero, keeps the runs started at or after it.
	Before time.Time
}

// Prune deletes the runs p picks, with their cases, and returns how many
// it deleted:
//  1. with Keep alone, every run but the Keep newest by start (the
//     newest id first when two started at the same millisecond);
//  2. with Before alone, every run started before it;
//  3. with both, every run started before Before that is not one of the
//     Keep newest: Keep runs are kept however old they are;
//  4. with neither (Keep below 0, Before zero), none.
func (h *DB) Prune(ctx context.Context, p Pruning) (int, error) {
	if p.Keep < 0 && p.Before.IsZero() {
		return 0, nil
	}
	q := "SELECT id FROM runs"
	var args []any
	if !p.Before.IsZero() {
		q += " WHERE started_at < ?"
		args = append(args, p.Before.UnixMilli())
	}
	q += " ORDER BY started_at DESC, id DESC"
	if p.Keep > 0 {
		// The newest runs are kept whatever Before says: skip the Keep
		// newest of all, those before Before among them.
		q = "SELECT id FROM runs WHERE id NOT IN (SELECT id FROM runs ORDER BY started_at DESC, id DESC LIMIT ?)"
		args = append([]any{p.Keep}, args...)
		if !p.Before.IsZero() {
			q += " AND started_at < ?"
		}
	}
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, h.wrap(err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, h.d.bind(q), args...)
	if err != nil {
		return 0, h.wrap(err)
	}
	var ids []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, h.wrap(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, h.wrap(err)
	}
	// In chunks: a statement takes a bounded number of arguments.
	for chunk := range slices.Chunk(ids, 500) {
		in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ") + ")"
		for _, q := range []string{"DELETE FROM evaluators WHERE run_id IN " + in, "DELETE FROM chunks WHERE run_id IN " + in, "DELETE FROM packs WHERE run_id IN " + in, "DELETE FROM cases WHERE " + h.d.ofRuns("", len(chunk)), "DELETE FROM runs WHERE id IN " + in} {
			if _, err := tx.ExecContext(ctx, h.d.bind(q), chunk...); err != nil {
				return 0, h.wrap(err)
			}
		}
	}
	return len(ids), h.wrap(tx.Commit())
}
