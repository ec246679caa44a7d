// Package history keeps the history of eval runs in a database: an
// embedded SQLite file, or a PostgreSQL server.
//
// Its rules:
//  1. A database is named by a DSN (see [Open]): a postgres:// or
//     postgresql:// URL is a PostgreSQL server, anything else the path of
//     a SQLite file.
//  2. Both have the same tables: schema_version, runs, packs, chunks,
//     run_shards, and cases and evaluators for what was recorded before. Opening a database brings it to the newest schema
//     version, one migration at a time, each in a transaction (a new
//     SQLite file is a copy of migrations/sqlite.db, the image of an empty
//     database at the newest version, linked into place so that runs
//     making it at once share one whole file (image.go); else it is made
//     at the newest at once from migrations/sqlite.sql, which is what the
//     migrations make); a database
//     of a newer version than this program knows is refused
//     ([ErrNewerSchema]), naming both versions.
//  3. A run is a row of runs ([DB.Begin]); the case results written in
//     one batch (each trial of a case run several times a result) a row
//     of packs ([Recorder.Record], casepack.go): each result's row holds
//     its evaluators' results packed, and references to their details
//     (a compact encoding of their fields, detailcode.go; JSON before
//     schema version 10, or when the encoding does not carry them) and
//     to the trajectory it was scored on (a compact encoding of its
//     fields, trajcode.go, the arguments and results a reader kept as
//     JSON text stored as that text from schema version 12; JSON before
//     schema version 9),
//     compressed (S2) together with those of the other cases of its
//     batch, a row of chunks each (chunk.go). Cases recorded before schema version 8 are
//     a row of cases each; before version 6 they hold both compressed on
//     their row; before version 5 they have a row of evaluators per
//     evaluator result and a gzip trajectory. Every shape reads back
//     alike.
//     The shards of a run recorded by several processes are one run
//     ([DB.BeginShard]).
//  4. Results are written by a goroutine of their own, in transactions
//     of at most 1,024 results each: a batch is written when it is full,
//     or 100 ms after its first result came (one result at a time when
//     cases are slower than that). A run that is killed keeps every
//     committed case; it loses only the batch being written, the one
//     being filled and the results waiting for the writer (at most
//     [MaxPending]), typically the last tenth of a second of a run.
//  5. A run's counts (cases, passed, failed, errors) are updated in the
//     same transaction as its cases: they always agree with them. Its end
//     is set by [Recorder.End]; a run whose end is null was killed, or is
//     still running (rule 8).
//  6. [DB.Rows] gives a run's results back as the rows eval wrote: the
//     same values, in the same order, so that reports and comparisons of
//     a recorded run equal those of its results file; but for what rule
//     9 leaves out.
//  7. Several runs may write to one database at once: SQLite waits up to
//     [Options].BusyTimeout for another writer ([ErrLocked] after that), and
//     PostgreSQL serialises migrations with an advisory lock.
//  8. A run records the host and process that write it, and a heartbeat:
//     the time of its last write of results, or of a tick every
//     [HeartbeatEvery] when none was written. A run with no end reads
//     back as running when it is live, else as interrupted (killed). It
//     is live when, recorded on this host, its process still exists; when
//     recorded on another host (or by a trajeval older than schema
//     version 2, which recorded neither), when its heartbeat is less than
//     [HeartbeatLive] old.
//  9. A case that passed keeps its verdict, score, warnings and its
//     evaluators' results, but not its trajectory nor its evaluators'
//     details (the matched and extra steps, the notes), unless the run is
//     begun with [Run].KeepPassing: a passing case is most of a healthy
//     run, and those two are nine tenths of its bytes and most of the
//     time it takes to record it. It takes about 30 bytes of the
//     database. A case that did not pass keeps everything, to explain it,
//     up to [Run].KeepFailing such cases a run (a shard's own, for a run
//     of shards); past them, a case that did not pass keeps what a passing
//     one keeps.
package history

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Sentinel errors, for errors.Is.
var (
	// ErrNewerSchema is a database written by a newer trajeval: its schema
	// version is above the newest this program knows.
	ErrNewerSchema = errors.New("database schema is newer than this trajeval")
	// ErrCorrupt is a SQLite file that is damaged or not a database.
	ErrCorrupt = errors.New("damaged database")
	// ErrLocked is a SQLite database that another process kept locked for
	// longer than BusyTimeout.
	ErrLocked = errors.New("database is locked")
	// ErrNoHistory is a SQLite file that does not exist, opened to read.
	ErrNoHistory = errors.New("no run history")
	// ErrNoRun is a run or case that the database does not hold.
	ErrNoRun = errors.New("no such run")
	// ErrTooMany is a run past the history's bounds: more than 2^31-1 runs,
	// or 2^32-1 cases in one.
	ErrTooMany = errors.New("run history full: too many runs or cases")
)

// Options steer [Open].
type Options struct {
	// Create creates a SQLite file that does not exist, with its folder;
	// without it, such a file is [ErrNoHistory].
	Create bool
	// BusyTimeout is how long a SQLite write waits for another process's
	// write to end before failing with [ErrLocked]; 0 is 15 seconds.
	BusyTimeout time.Duration
}

// A SchemaError is a database whose schema version this program cannot
// use.
type SchemaError struct {
	Where      string // the database, as [DB.Where] names it
	Have, Know int    // its version, and the newest this program knows
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s: the database has schema version %d, and this trajeval knows versions up to %d: upgrade trajeval, or use another database (--db)", e.Where, e.Have, e.Know)
}

func (e *SchemaError) Unwrap() error { return ErrNewerSchema }

// migrations holds the migrations and the schema; the image of a new
// file is embedded apart (image.go).
//
//go:embed migrations/sqlite migrations/postgres migrations/sqlite.sql
var migrations embed.FS

// A dialect is what differs between the two databases.
type dialect struct {
	name       string // "sqlite" or "postgres"
	driver     string
	migrations string // folder of migrations
	find       string // the function that finds a text in another: instr(haystack, needle), strpos(...)
	schema     string // the newest schema, for a new database ("": the migrations make it)
}

var (
	sqliteDialect   = dialect{"sqlite", "sqlite", "migrations/sqlite", "instr", "migrations/sqlite.sql"}
	postgresDialect = dialect{"postgres", "pgx", "migrations/postgres", "strpos", ""}
)

// walPages is how many pages of the WAL a commit leaves before it copies
// them into the file: 1 MiB. On 100,000 traces a new history's WAL took
// 1,765 pages (3.6 MB) for a file of 489 (2 MB): with SQLite's 1,000 no
// checkpoint came before the close, which copied the whole file and
// synced it while the run's end waited (about 47 ms from the WAL's sync
// to the exit under load, against 12 ms with 128 pages). With 128 the
// 10,000 cases of the peer set (a WAL of about 150 pages) were copied
// by one of their last commits, then again by the close: five syncs at
// the run's end (the WAL's, the file's, the WAL's header begun again,
// the close's two) where the close alone takes two; 256 leaves such a
// run to the close, and halves the checkpoints of a large one, whose WAL
// is copied beside the writer as well (see aside), leaving the close
// less than this.
const walPages = 256

// newSchema makes a new database of a dialect that has one from its
// newest schema at once rather than by its migrations; off in the tests
// that check the two alike.
var newSchema = true

// contains is the SQL condition that text has sub in it, case-sensitive.
func (d dialect) contains(text, sub string) string {
	return d.find + "(" + text + ", " + sub + ") > 0"
}

// ofRun is the SQL condition that a row of cases, its columns named
// after prefix (as "c."), is one of the run whose id is parameter n of the
// statement (from 1). SQLite keys cases by pos, the run's id times 2^32
// plus the case's seq (migration 007): a run's rows are a range of it,
// read from the table itself, the parameter named by its number (a later
// ? of the statement takes the next one). PostgreSQL's primary key is
// (run_id, seq).
func (d dialect) ofRun(prefix string, n int) string {
	if d.name != "sqlite" {
		return prefix + "run_id = ?"
	}
	p := "?" + strconv.Itoa(n)
	return prefix + "pos BETWEEN " + p + " * 4294967296 AND " + p + " * 4294967296 + 4294967295"
}

// bySeq is the order of a run's rows of cases by seq: SQLite's pos,
// which its table is in.
func (d dialect) bySeq() string {
	if d.name == "sqlite" {
		return "pos"
	}
	return "seq"
}

// ofRuns is ofRun for any of the runs of parameters 1 to n.
func (d dialect) ofRuns(prefix string, n int) string {
	if d.name != "sqlite" {
		return prefix + "run_id IN (" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
	}
	or := make([]string, n)
	for i := range or {
		or[i] = d.ofRun(prefix, i+1)
	}
	return "(" + strings.Join(or, " OR ") + ")"
}

// bind rewrites the ? placeholders of q as $1, $2, ... for PostgreSQL.
// The queries of this package have no ? in their text otherwise.
func (d dialect) bind(q string) string {
	if d.name != "postgres" {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// A DB is an open run history.
type DB struct {
	db    *sql.DB
	d     dialect
	where string
	busy  time.Duration
	src   string // a SQLite file's DSN, for a connection of its own ("": PostgreSQL)

	mu    sync.Mutex
	stmts map[string]*sql.Stmt // prepared INSERT statements, by table and rows
}

// IsPostgres reports whether dsn names a PostgreSQL server.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the run history dsn, migrating it to the newest schema: a
// postgres:// or postgresql:// URL, else the path of a SQLite file.
func Open(ctx context.Context, dsn string, o Options) (*DB, error) {
	h := &DB{where: Redact(dsn), busy: cmp.Or(o.BusyTimeout, 15*time.Second)}
	src := dsn
	if IsPostgres(dsn) {
		h.d = postgresDialect
	} else {
		h.d = sqliteDialect
		if _, err := os.Stat(dsn); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			if !o.Create {
				return nil, fmt.Errorf("%w: %s does not exist", ErrNoHistory, dsn)
			}
			if err := os.MkdirAll(filepath.Dir(dsn), 0o755); err != nil {
				return nil, err
			}
			if newSchema && useImage {
				if err := writeImage(dsn); err != nil {
					return nil, err
				}
			}
		}
		q := url.Values{}
		q.Set("_busy_timeout", strconv.Itoa(int(h.busy/time.Millisecond)))
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "NORMAL")
		q.Set("_txlock", "immediate")
		q.Set("_foreign_keys", "1")
		// A page cache of 64 KiB (16 pages), not SQLite's 2 MiB: a run
		// appends to the ends of a few B-trees, and each page of the cache
		// is memory touched for the first time (on 100,000 traces the
		// default cache cost about 1,500 page faults more, and on 10,000
		// cases a cache of 256 KiB about 100 more than this one; reads of
		// a run, which the system's cache serves, took as long either way).
		q.Set("_pragma", "cache_size(-64)")
		// The WAL is copied into the file (a passive checkpoint, by the
		// commit that takes it past the bound) every walPages pages, not
		// SQLite's 1,000: what the close must still copy and sync, which
		// the end of a run waits for, is then at most that much, and a
		// run whose WAL stays under it is copied once, by the close.
		q.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(walPages)+")")
		src = "file:" + (&url.URL{Path: dsn}).EscapedPath() + "?" + q.Encode()
		h.src = src
	}
	db, err := sql.Open(h.d.driver, src)
	if err != nil {
		return nil, h.wrap(err)
	}
	h.db = db
	if err := h.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return h, nil
}

// Redact returns dsn without the password of a URL, to be shown.
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://..."
	}
	return u.Redacted()
}

// Where names the database, without a password.
func (h *DB) Where() string { return h.where }

// Close closes the database.
func (h *DB) Close() error {
	h.mu.Lock()
	for _, s := range h.stmts {
		s.Close()
	}
	h.mu.Unlock()
	return h.db.Close()
}

// wrap turns a driver's error into one that says what happened and
// where: a damaged file, a lock held too long.
func (h *DB) wrap(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return fmt.Errorf("%s: %w (%v): move it away, or pass --db another file or --no-db", h.where, ErrCorrupt, err)
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return fmt.Errorf("%s: %w: another trajeval kept it busy for over %v (%v)", h.where, ErrLocked, h.busy, err)
		}
	}
	return fmt.Errorf("%s: %w", h.where, err)
}

// Version is the newest schema version this program knows.
func Version() int {
	n, _ := migrationFiles(sqliteDialect)
	return len(n)
}

// migrationFiles lists the migrations of d, the n-th (from 1) being the
// n-th in the list.
func migrationFiles(d dialect) ([]string, error) {
	entries, err := migrations.ReadDir(d.migrations)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	for i, n := range names {
		if v, _, _ := strings.Cut(n, "_"); v != fmt.Sprintf("%03d", i+1) {
			return nil, fmt.Errorf("migration %s is out of sequence", n)
		}
	}
	return names, nil
}

// migrate brings the database to the newest version, in one transaction
// that holds the database (SQLite: an immediate transaction; PostgreSQL:
// an advisory lock), so that runs starting together migrate it once.
func (h *DB) migrate(ctx context.Context) error {
	names, err := migrationFiles(h.d)
	if err != nil {
		return err
	}
	// Most opens find the newest version: a read, which waits for no
	// writer. A missing table is a new database, migrated below.
	var cur sql.NullInt64
	if err := h.db.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_version").Scan(&cur); err == nil {
		switch v := int(cur.Int64); {
		case v > len(names):
			return &SchemaError{Where: h.where, Have: v, Know: len(names)}
		case v == len(names):
			return nil
		}
	} else if errors.Is(h.wrap(err), ErrCorrupt) {
		return h.wrap(err)
	}
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return h.wrap(err)
	}
	defer tx.Rollback()
	if h.d.name == "postgres" {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(7476318)"); err != nil {
			return h.wrap(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at BIGINT NOT NULL)"); err != nil {
		return h.wrap(err)
	}
	var have sql.NullInt64
	if err := tx.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_version").Scan(&have); err != nil {
		return h.wrap(err)
	}
	v := int(have.Int64)
	if v > len(names) {
		return &SchemaError{Where: h.where, Have: v, Know: len(names)}
	}
	if v == len(names) {
		return nil // nothing to write: the transaction rolls back
	}
	if v == 0 && h.d.schema != "" && newSchema {
		// A new database: its newest schema at once, each version
		// recorded as if migrated.
		if err := h.execFile(ctx, tx, h.d.schema); err != nil {
			return err
		}
		for i := range names {
			if _, err := tx.ExecContext(ctx, h.d.bind("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"), i+1, time.Now().UnixMilli()); err != nil {
				return h.wrap(err)
			}
		}
		return h.wrap(tx.Commit())
	}
	for i := v; i < len(names); i++ {
		if err := h.execFile(ctx, tx, h.d.migrations+"/"+names[i]); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, h.d.bind("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"), i+1, time.Now().UnixMilli()); err != nil {
			return h.wrap(err)
		}
	}
	return h.wrap(tx.Commit())
}

// execFile runs the statements of an embedded SQL file in tx.
func (h *DB) execFile(ctx context.Context, tx *sql.Tx, name string) error {
	data, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	for stmt := range strings.SplitSeq(string(data), ";\n") {
		if strings.TrimSpace(stripComments(stmt)) == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return h.wrap(fmt.Errorf("migration %s: %w", path.Base(name), err))
		}
	}
	return nil
}

func stripComments(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if code, _, _ := strings.Cut(line, "--"); strings.TrimSpace(code) != "" {
			b.WriteString(code)
		}
	}
	return b.String()
}

// SchemaVersion returns the database's schema version.
func (h *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := h.db.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_version").Scan(&v)
	return int(v.Int64), h.wrap(err)
}
