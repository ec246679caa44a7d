package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/trajeval/trajeval"
)

// ErrShards is the error of a shard whose count of shards differs from
// the one its run was begun with.
var ErrShards = errors.New("the shards of one run disagree on their count")

// BeginShard records the start of shard (from 1 to run.Shards) of the
// run named run.Key, and returns its recorder. The rules:
//  1. the first shard to begin creates the run; the others join it, in
//     any order and at once (the database's unique key on run.Key decides
//     which creates it), and their run ID is the same;
//  2. a shard begun again (a retried CI job, eval --resume) replaces the
//     rows it recorded before: they are deleted, and the run's counts
//     lowered, before it records;
//  3. the run is running until every shard has ended, then done, or
//     interrupted when some shard was; a shard that ends interrupted
//     ends the run at once, as interrupted;
//  4. the host and process of a run are those of the shard that wrote
//     last, so that it reads as running while some shard writes.
//
// run.Shards must agree with the run's: else [ErrShards].
func (h *DB) BeginShard(ctx context.Context, run Run, shard int) (*Recorder, error) {
	if run.Key == "" || run.Shards < 1 || shard < 1 || shard > run.Shards {
		return nil, fmt.Errorf("history: shard %d of %d of run %q: a shard needs a key and 1 ≤ shard ≤ shards", shard, run.Shards, run.Key)
	}
	suites, _ := json.Marshal(nonNil(run.Suites))
	paths, _ := json.Marshal(nonNil(run.Paths))
	opts := run.Options
	if len(opts) == 0 {
		opts = json.RawMessage("{}")
	}
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, h.wrap(err)
	}
	defer tx.Rollback()
	now := time.Now().UnixMilli()
	if _, err := tx.ExecContext(ctx, h.d.bind(`INSERT INTO runs (suites, paths, git_commit, git_branch, started_at, status, options, host, pid, heartbeat_at, run_key, shards)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_key) DO NOTHING`),
		string(suites), string(paths), nullString(run.Commit), nullString(run.Branch), run.Start.UnixMilli(), StatusRunning, string(opts),
		nullString(hostname()), os.Getpid(), now, run.Key, run.Shards); err != nil {
		return nil, h.wrap(err)
	}
	var (
		id     int64
		shards sql.NullInt64
	)
	if err := tx.QueryRowContext(ctx, h.d.bind("SELECT id, shards FROM runs WHERE run_key = ?"), run.Key).Scan(&id, &shards); err != nil {
		return nil, h.wrap(err)
	}
	if int(shards.Int64) != run.Shards {
		return nil, fmt.Errorf("%w: run %d (%s) has %d shards, and this one says %d", ErrShards, id, run.Key, shards.Int64, run.Shards)
	}
	// Rule 2: what this shard recorded before goes.
	mine := h.d.ofRun("", 1) + " AND (seq - ?) % ? = 0"
	rows, err := tx.QueryContext(ctx, h.d.bind("SELECT status, COUNT(*) FROM cases WHERE "+mine+" GROUP BY status"), id, shard, run.Shards)
	if err != nil {
		return nil, h.wrap(err)
	}
	var counts [4]int // cases, passed, failed, errors
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			rows.Close()
			return nil, h.wrap(err)
		}
		counts[0] += n
		counts[statusColumn(trajeval.Status(status))] += n
	}
	if err := rows.Close(); err != nil {
		return nil, h.wrap(err)
	}
	// Its packs (from schema version 8), numbered as its chunks are.
	ofShard := "run_id = ? AND (id - ?) % ? = 0"
	packed, err := h.packsIn(ctx, tx, ofShard, id, shard, run.Shards)
	if err != nil {
		return nil, err
	}
	for _, c := range packed {
		counts[0]++
		counts[statusColumn(trajeval.Status(c.status))]++
	}
	if len(packed) > 0 {
		if _, err := tx.ExecContext(ctx, h.d.bind("DELETE FROM packs WHERE "+ofShard), id, shard, run.Shards); err != nil {
			return nil, h.wrap(err)
		}
	}
	if counts[0] > 0 {
		if _, err := tx.ExecContext(ctx, h.d.bind("DELETE FROM evaluators WHERE run_id = ? AND (case_seq - ?) % ? = 0"), id, shard, run.Shards); err != nil {
			return nil, h.wrap(err)
		}
		if _, err := tx.ExecContext(ctx, h.d.bind("DELETE FROM cases WHERE "+mine), id, shard, run.Shards); err != nil {
			return nil, h.wrap(err)
		}
		// Its chunks, written with its cases.
		if _, err := tx.ExecContext(ctx, h.d.bind("DELETE FROM chunks WHERE "+ofShard), id, shard, run.Shards); err != nil {
			return nil, h.wrap(err)
		}
	}
	if _, err := tx.ExecContext(ctx, h.d.bind(`UPDATE runs SET cases = cases - ?, passed = passed - ?, failed = failed - ?, errors = errors - ?,
		status = ?, ended_at = NULL, host = ?, pid = ?, heartbeat_at = ? WHERE id = ?`),
		counts[0], counts[1], counts[2], counts[3], StatusRunning, nullString(hostname()), os.Getpid(), now, id); err != nil {
		return nil, h.wrap(err)
	}
	if _, err := tx.ExecContext(ctx, h.d.bind(`INSERT INTO run_shards (run_id, shard, status) VALUES (?, ?, ?)
		ON CONFLICT (run_id, shard) DO UPDATE SET status = excluded.status, ended_at = NULL`), id, shard, StatusRunning); err != nil {
		return nil, h.wrap(err)
	}
	if err := tx.Commit(); err != nil {
		return nil, h.wrap(err)
	}
	return h.start(ctx, id, run, shard, run.Shards), nil
}

// statusColumn is the place of a case's status among a run's counts
// (cases, passed, failed, errors).
func statusColumn(s trajeval.Status) int {
	switch s {
	case trajeval.StatusPass:
		return 1
	case trajeval.StatusFail:
		return 2
	}
	return 3
}

// writer is what a write of a sharded run sets besides, and its
// arguments: its host and process are this shard's (rule 4 of
// BeginShard).
func (r *Recorder) writer() (string, []any) {
	if r.shards == 0 {
		return "", nil
	}
	return ", host = ?, pid = ?", []any{nullString(hostname()), os.Getpid()}
}

// endShard ends the recorder's shard with status, and the run when every
// shard has ended or this one was interrupted (rule 3 of BeginShard).
func (r *Recorder) endShard(end time.Time, status string) error {
	h := r.h
	tx, err := h.db.Begin()
	if err != nil {
		return h.wrap(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(h.d.bind("UPDATE run_shards SET status = ?, ended_at = ? WHERE run_id = ? AND shard = ?"), status, end.UnixMilli(), r.id, r.shard); err != nil {
		return h.wrap(err)
	}
	var ended, interrupted int
	if err := tx.QueryRow(h.d.bind(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = ? THEN 1 ELSE 0 END), 0)
		FROM run_shards WHERE run_id = ? AND ended_at IS NOT NULL`), StatusInterrupted, r.id).Scan(&ended, &interrupted); err != nil {
		return h.wrap(err)
	}
	runStatus := ""
	switch {
	case interrupted > 0:
		runStatus = StatusInterrupted
	case ended >= r.shards:
		runStatus = StatusDone
	}
	if runStatus != "" {
		if _, err := tx.Exec(h.d.bind("UPDATE runs SET status = ?, ended_at = ? WHERE id = ?"), runStatus, end.UnixMilli(), r.id); err != nil {
			return h.wrap(err)
		}
	}
	return h.wrap(tx.Commit())
}
