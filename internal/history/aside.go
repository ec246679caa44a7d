package history

import (
	"database/sql"
	"sync/atomic"
)

// asideFrom and asideBytes are how much a run's commits write (their
// rows before compression, and their chunks) before the first checkpoint
// run beside the writer, and between two: about 270 pages of the WAL,
// then about 64 (100,000 traces of 20 steps write 27 MB, a WAL of about
// 1,800 pages). The 10,000 cases of the peer set write 1.8 MB, a WAL of
// about 150 pages: the close alone copies it, as before.
var (
	asideFrom  = 4 << 20
	asideBytes = 1 << 20
)

// asideDrain, set only by tests, makes stop run a checkpoint asked for
// and not begun rather than leave it to the close, so that what the
// close copies does not depend on how the goroutines were scheduled.
var asideDrain bool

// An aside copies the WAL of a SQLite history into its file beside a
// run's writer, so that what the close must still copy and sync, which
// the end of a run waits for, is the last batch's pages and those
// written since the last copy, not up to walPages of them:
//  1. the committer counts what each commit wrote but the run's last
//     (wrote), and once that passes asideFrom, then each time it passes
//     asideBytes more, asks for a checkpoint without waiting for it;
//  2. the checkpoint is SQLite's passive one (PRAGMA
//     wal_checkpoint(PASSIVE)), on a connection of its own, opened with
//     its goroutine at the first: it copies what no reader still needs
//     and takes no lock the writer waits for, so commits go on while it
//     runs; a run that writes less than asideFrom has neither;
//  3. stop, once the last batch is committed, waits for the checkpoint
//     under way, leaves one asked for and not begun to the close, and
//     closes the connection (not the file's last: the recorder's stays
//     open, so this close copies nothing).
//
// What a crash leaves is SQLite's to keep whole, as with the writer's
// own checkpoints (walPages, still the bound should the aside lag). A
// checkpoint that fails is left to the next or to the close: it loses
// nothing, for the WAL still holds what it did not copy.
type aside struct {
	src  string        // the file's DSN, as Open made it
	kick chan struct{} // a checkpoint asked for; closed by stop
	done chan struct{} // closed when the checkpoints are over
	// stopped is set by stop: a checkpoint asked for and not begun is
	// left to the close, which copies the WAL anyway.
	stopped atomic.Bool
	// The committer's: bytes committed since the last checkpoint asked
	// for, and whether one was (the goroutine runs).
	n       int
	running bool
}

// newAside returns the aside of h's runs; nil for PostgreSQL.
func (h *DB) newAside() *aside {
	if h.src == "" {
		return nil
	}
	return &aside{src: h.src}
}

// wrote counts n bytes committed, and asks for a checkpoint once they
// pass the bound. Called by the committer.
func (a *aside) wrote(n int) {
	if a == nil {
		return
	}
	a.n += n
	if a.n < asideBytes || !a.running && a.n < asideFrom {
		return
	}
	a.n = 0
	if !a.running {
		a.running = true
		a.kick, a.done = make(chan struct{}, 1), make(chan struct{})
		go a.run()
	}
	select {
	case a.kick <- struct{}{}:
	default: // one is asked for and not begun: it copies these too
	}
}

// run checkpoints once for each kick, until stop.
func (a *aside) run() {
	defer close(a.done)
	db, err := sql.Open(sqliteDialect.driver, a.src)
	if err != nil {
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for range a.kick {
		if a.stopped.Load() && !asideDrain {
			return // the close copies what is left
		}
		db.Exec("PRAGMA wal_checkpoint(PASSIVE)")
	}
}

// stop ends the checkpoints and waits for the one under way. Called
// once the committer is done.
func (a *aside) stop() {
	if a == nil || !a.running {
		return
	}
	a.stopped.Store(true)
	close(a.kick)
	<-a.done
}

// size is about what committing b wrote, for the aside: its rows before
// compression, and its chunks.
func (b *batch) size() int {
	n := len(b.pack)
	for _, c := range b.chunks {
		if d, ok := c[len(c)-1].([]byte); ok {
			n += len(d)
		}
	}
	return n
}
