package history

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trajeval/trajeval"
)

// A Run is one eval run: a row of the runs table.
type Run struct {
	ID     int64    `json:"id"`
	Suites []string `json:"suites"` // the suites' names
	Paths  []string `json:"paths"`  // the paths eval was given
	// Commit and Branch are the git commit and branch of the first suite's
	// folder; "" when not known.
	Commit string    `json:"commit,omitempty"`
	Branch string    `json:"branch,omitempty"`
	Start  time.Time `json:"started_at"`
	// End is zero while the run goes on, and for a run that was killed.
	End time.Time `json:"ended_at,omitzero"`
	// Status is "done", "interrupted" (stopped before every case ran, or
	// killed: End is zero) or "running" (no end yet, and the run is under
	// way: rule 8 of the package). The database holds "running" for a killed run
	// too: a run read back is given its status as shown.
	Status string `json:"status"`
	// Host and PID are the host and process that recorded the run, and
	// Heartbeat when it last wrote; empty for runs recorded before schema
	// version 2.
	Host      string    `json:"host,omitempty"`
	PID       int       `json:"pid,omitempty"`
	Heartbeat time.Time `json:"heartbeat_at,omitzero"`
	// Options are the run's options, as JSON.
	Options json.RawMessage `json:"options"`
	// Key names a run that several processes record, a shard each (eval
	// --shard K/N --run-id KEY): the shards begun with one Key are one
	// run. Shards is their count. "" and 0 for a run of one process.
	Key    string `json:"key,omitempty"`
	Shards int    `json:"shards,omitempty"`
	// KeepPassing keeps the trajectories and the evaluators' details of
	// the cases that passed, as of the others. It is how Begin is to
	// record, and is not stored: by default a passing case keeps its
	// verdict, score, evaluators' verdicts and scores, and no more (rule
	// 9 of the package).
	KeepPassing bool `json:"-"`
	// KeepFailing, above 0, is the most cases that did not pass (failed
	// or errored) whose trajectories and evaluators' details are kept,
	// the first recorded; the others keep what a passing case keeps
	// (rule 9 of the package). 0 keeps every one, and so does
	// KeepPassing. Like KeepPassing it is how Begin is to record, and is
	// not stored; [Recorder.Unkept] says how many kept less.
	KeepFailing int `json:"-"`
	Cases       int `json:"cases"`
	Passed      int `json:"passed"`
	Failed      int `json:"failed"`
	Errors      int `json:"errors"`
}

// Run statuses.
const (
	StatusRunning     = "running"
	StatusDone        = "done"
	StatusInterrupted = "interrupted"
)

// MaxPending is how many results may wait to be written before
// [Recorder.Record] waits for the database: a batch's worth (maxBatch).
// Each holds its row (about 200 bytes) until written, and a kept one its
// trajectory (5.5 kB for 20 calls) until encoded. A transaction's commit
// may checkpoint the database's log, with its syncs: with 256, Record
// waited for a commit a dozen times on 100,000 traces, and the run's
// scoring with it; with 1,024, once or twice.
const MaxPending = 1024

// maxBatch is the most results one transaction holds, and batchEvery how
// long the first result of a batch waits for others before the batch is
// written. Each transaction costs the pages it rewrites (the last page of
// each B-tree, the run's row), a chunk of each kind begun again and a pack
// of its own: one a few hundred results wrote half as many bytes again to
// the database's log as the results themselves.
const (
	maxBatch   = 1024
	batchEvery = 100 * time.Millisecond
)

// A Recorder writes the results of one run. Its methods are called from
// one goroutine.
//
// Results go through three stages: encoders (one per CPU) turn each into
// its row, putting the JSON of its trajectory and details into the
// chunks being filled; a writer gathers the rows, in order, into batches;
// and a committer compresses each batch's rows into a pack and inserts
// it, with its chunks, in a transaction. Results are handed to the
// encoders and the writer in groups of groupSize, not one by one: each
// hand-over may wake a goroutine, and scoring a case costs about as much.
type Recorder struct {
	h           *DB
	id          int64
	jobs        chan *group   // to the encoders
	ch          chan *group   // to the writer, in order
	done        chan struct{} // closed when the writer returns
	free        chan *group   // groups the writer is done with, for Record
	err         error         // the first write error; read after done is closed
	seq         int
	keepPassing bool
	// keepFailing is Run.KeepFailing; keptFailing counts the cases that
	// did not pass and kept their trajectories and details, unkept those
	// past keepFailing. Record's alone (End reads unkept).
	keepFailing, keptFailing, unkept int
	// full is set once keptFailing reaches keepFailing (KeepsFailing).
	full atomic.Bool
	// steps takes back each trajectory the recorder lets go of (see
	// ReturnStepsTo); nil for none.
	steps *trajeval.StepPool
	// details takes back each result's details (see ReturnDetailsTo);
	// nil for none.
	details func(*trajeval.Details)
	// freeCases are the results' lists of groups the encoders are done
	// with, for Record: a group waits for the writer with its rows alone,
	// and MaxPending results take as many lists as groups wait to be
	// encoded (a few), not to be written.
	freeCases chan []queued
	// gmu guards the group being filled and its hand-over: Record hands
	// a full one over, and the writer takes one that has waited
	// batchEvery/2 (a slow run's), so that no result waits for the next.
	gmu   sync.Mutex
	group *group
	// shard and shards are the part of a keyed run this recorder writes
	// (1-based) and their count; 0 for a run of one process. The shard's
	// results take the places shard, shard+shards, shard+2·shards, … so
	// that shards never take the same place.
	shard, shards int
	// mu guards the chunks being filled, which the encoders fill (in
	// the order they finish: a chunk's values need not be in the cases'
	// order) and the writer takes with each batch.
	mu            sync.Mutex
	chunks        int // the chunks begun
	packs         int // the packs begun; the writer's alone
	trajs, detail chunker
	// aside checkpoints the WAL beside the committer (nil: PostgreSQL).
	aside *aside
	// packed is the committer's buffer to compress a batch's pack into,
	// batch after batch: the database has copied a pack once its insert
	// returns.
	packed []byte
}

// A pending result is one handed to the recorder and not yet written:
// where its row is in its group's rows, once encoded, and its place among
// a run's counts. It holds no pointer: a group's results are written and
// cleared without the collector's write barriers.
type pending struct {
	start, end int // its row, as a pack holds it (casepack.go): rows[start:end]
	col        int // statusColumn of its status
}

// A queued result is one of a group for the encoders to encode: its
// place in the run (seq) and whether it keeps its trajectory and details,
// both known only in the order of Record.
type queued struct {
	c    trajeval.CaseResult
	seq  int
	keep bool
}

// groupSize is how many results Record hands over at once.
const groupSize = 64

// groupRows is the room a group's rows are made with: a row that keeps
// nothing else is about 160 bytes (three evaluators), and rows grown by
// append's steps from nothing left about twice their size behind, in
// each of the groups that MaxPending results fill.
const groupRows = groupSize * 256

// A group is results handed over together, in order.
//
// Record copies each result into the group (its CaseResult, 240 bytes
// with pointers), with its place and keep decision, and the
// encoders encode them: Record runs on the run's ordered path, one result
// at a time, and a row encoded there (about 2,000 instructions for one
// that keeps its row alone) held up the results behind it, while the
// encoders run beside the scoring.
type group struct {
	ps    []pending
	cases []queued      // its results, ps[i]'s cases[i]; nil once encoded
	begun time.Time     // when its first result came
	ready chan struct{} // closed when every result is encoded
	// rows holds the rows of ps one after another: one buffer a group,
	// not an allocation a result.
	rows []byte
	// err is the first result that could not be encoded, errAt its place
	// in ps: the writer stops there.
	err   error
	errAt int
}

// encode encodes g's results, the kept ones with their trajectories and
// details, and lets go of what the writer does not need.
func (g *group) encode(r *Recorder) {
	// One scratch buffer for the group, not one taken from the pool and
	// given back for each result (about 90 instructions a case).
	buf := getScratch()
	defer putScratch(buf)
	for i := range g.cases {
		q := &g.cases[i]
		g.encodeAt(r, i, &q.c, q.seq, q.keep, buf)
		// The writer needs no more of it: its trajectory and details go
		// now, not when the batch is written.
		r.giveDetails(&q.c)
		t := q.c.Trajectory
		q.c = trajeval.CaseResult{}
		r.steps.TakeBack(t)
	}
	select {
	case r.freeCases <- g.cases[:0]:
	default:
	}
	g.cases = nil
	close(g.ready)
}

// encodeAt encodes c, the i-th result of g, into g's rows (see
// Recorder.encode), or notes its error.
func (g *group) encodeAt(r *Recorder, i int, c *trajeval.CaseResult, seq int, keep bool, buf *[]byte) {
	start := len(g.rows)
	rows, err := r.encode(g.rows, c, seq, keep, buf)
	if err != nil {
		if g.err == nil || i < g.errAt {
			g.err, g.errAt = fmt.Errorf("case %s: %w", c.ID, err), i
		}
		return
	}
	g.rows = rows
	g.ps[i].start, g.ps[i].end = start, len(rows)
}

// Begin records the start of run (its ID, End, Status, counts, Host, PID
// and Heartbeat are ignored: the host and process are this one's) and
// returns its recorder. ctx bounds every write of the run.
func (h *DB) Begin(ctx context.Context, run Run) (*Recorder, error) {
	suites, _ := json.Marshal(nonNil(run.Suites))
	paths, _ := json.Marshal(nonNil(run.Paths))
	opts := run.Options
	if len(opts) == 0 {
		opts = json.RawMessage("{}")
	}
	var id int64
	err := h.db.QueryRowContext(ctx, h.d.bind(`INSERT INTO runs (suites, paths, git_commit, git_branch, started_at, status, options, host, pid, heartbeat_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		string(suites), string(paths), nullString(run.Commit), nullString(run.Branch), run.Start.UnixMilli(), StatusRunning, string(opts),
		nullString(hostname()), os.Getpid(), time.Now().UnixMilli()).Scan(&id)
	if err != nil {
		return nil, h.wrap(err)
	}
	return h.start(ctx, id, run, 0, 0), nil
}

// Holding returns about how many bytes of heap the recorders under way in
// this process hold beyond what their callers hold: the results waiting
// to be written (their trajectories), the groups, chunks, packs and
// batches being filled and written. It is bounded, whatever the run's
// size, and gone when [Recorder.End] returns. A program that paces its
// collector by the heap it finds live can leave it out, as it would any
// fixed cost: counted as the caller's, the history's buffers would raise
// the heap's goal by the collector's pace times their size.
func Holding() uint64 { return uint64(holding.Load()) }

// holding is what Holding returns: recorderHolds for each recorder begun
// and not ended.
var holding atomic.Int64

// recorderHolds is about what a recorder holds while it records beyond
// its caller's results:
//  1. the groups of MaxPending results (and the one being filled): each
//     its rows (groupRows) and their places (24 bytes a result);
//  2. the lists the results are copied into for the encoders (a result
//     256 bytes), given back once encoded and kept for Record;
//  3. the kept trajectories of a group being encoded (about 5.5 kB
//     each, 20 calls);
//  4. two chunkers' buffers (their values and their compressed copy,
//     maxChunk each), the chunks of a batch waiting for its
//     transaction, and two packs of about 200 kB.
//
// Measured with MaxPending 1,024 (a throwaway test recording 100,000
// results of manyResults' shape, two thirds failing, the first 1,000
// failing kept, the live heap after a collection every 1,000 results):
// 1.64 MB more than before Begin on average, 2.47 MB at most; eval on
// 100,000 × 20 steps (GODEBUG=gctrace=1) 8 to 9 MB live with the
// history, 6 to 7 MB without. A run that keeps every case holds more
// (8.2 MB on average in the same test): the trajectories of the groups
// waiting for the encoders.
const recorderHolds = (MaxPending/groupSize+1)*(groupRows+groupSize*24) + (MaxPending/groupSize+1)*groupSize*256 +
	groupSize*5632 + 4*(64<<10) + 160<<10 + 2*(200<<10)

// start returns the recorder of run id, shard of shards, with its encoders
// and writer running.
func (h *DB) start(ctx context.Context, id int64, run Run, shard, shards int) *Recorder {
	holding.Add(recorderHolds) // until the writer returns
	// The group being filled and those handed over: MaxPending results.
	groups := MaxPending/groupSize - 1
	r := &Recorder{h: h, id: id, keepPassing: run.KeepPassing, keepFailing: run.KeepFailing, shard: shard, shards: shards,
		jobs: make(chan *group, groups), ch: make(chan *group, groups), done: make(chan struct{}),
		free: make(chan *group, groups+1), freeCases: make(chan []queued, groups+1)}
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for g := range r.jobs {
				g.encode(r)
			}
		}()
	}
	r.trajs = chunker{next: r.nextChunk, run: id}
	r.detail = chunker{next: r.nextChunk, run: id}
	r.aside = h.newAside()
	go r.write(context.WithoutCancel(ctx))
	return r
}

// nextChunk returns the id of the recorder's next chunk: from 1, or
// interleaved with the other shards' (see chunk.go). r.mu is held.
func (r *Recorder) nextChunk() int64 { return r.next(&r.chunks) }

// next counts one more of the recorder's chunks or packs, and returns its
// id: from 1, or interleaved with the other shards'.
func (r *Recorder) next(count *int) int64 {
	*count++
	if r.shards > 0 {
		return int64((*count-1)*r.shards + r.shard)
	}
	return int64(*count)
}

// ID is the run's id.
func (r *Recorder) ID() int64 { return r.id }

// ReturnStepsTo makes r give each trajectory it lets go of to p.TakeBack: a
// passing case's that it does not keep, when handed over; a kept one,
// once encoded; those of results it could not hand over, when the writer
// stopped. p takes back only the trajectories it lent (see
// trajeval.StepPool.Lend): the caller lends one only when nothing but
// the result handed to Record holds it. It is called before the first
// Record.
func (r *Recorder) ReturnStepsTo(p *trajeval.StepPool) { r.steps = p }

// Record hands c over to be written; it waits only when [MaxPending]
// results wait already. c must not change afterwards. With
// ReturnDetailsTo, c's evaluators' details are given back once the
// recorder holds them no more: once encoded, after Record returns.
func (r *Recorder) Record(c trajeval.CaseResult) {
	r.seq++
	keep := r.keep(c.Status)
	if !keep {
		// Not kept: let it go now, not once encoded.
		r.steps.TakeBack(c.Trajectory)
		c.Trajectory = nil
	}
	seq := r.seq
	if r.shards > 0 {
		seq = (r.seq-1)*r.shards + r.shard
	}
	r.gmu.Lock()
	defer r.gmu.Unlock()
	g := r.group
	if g == nil {
		g = r.newGroup()
		r.group = g
	}
	i := len(g.ps)
	g.ps = append(g.ps, pending{col: statusColumn(c.Status)})
	// Copied into its place once: the encoders encode it.
	g.cases = append(g.cases, queued{seq: seq, keep: keep})
	g.cases[i].c = c
	if len(g.ps) == groupSize {
		r.handOver()
	}
}

// ReturnDetailsTo makes r give the details of each result's evaluators
// to f once it holds them no more (see Record), for a caller that holds
// no result once handed to Record: f may write over them at once. It is
// called before the first Record.
func (r *Recorder) ReturnDetailsTo(f func(*trajeval.Details)) { r.details = f }

// giveDetails gives c's evaluators' details to the ReturnDetailsTo
// function, if any.
func (r *Recorder) giveDetails(c *trajeval.CaseResult) {
	if r.details == nil {
		return
	}
	for i := range c.Evaluators {
		r.details(c.Evaluators[i].Details)
	}
}

// keep reports whether the next case recorded, of status s, keeps its
// trajectory and details (Run.KeepPassing, Run.KeepFailing), and counts it.
func (r *Recorder) keep(s trajeval.Status) bool {
	switch {
	case r.keepPassing:
		return true
	case s == trajeval.StatusPass:
		return false
	case r.keepFailing > 0 && r.keptFailing == r.keepFailing:
		r.unkept++
		return false
	}
	r.keptFailing++
	if r.keptFailing == r.keepFailing {
		r.full.Store(true)
	}
	return true
}

// Unkept returns how many cases that did not pass kept no trajectory nor
// details, past Run.KeepFailing. It is read once [Recorder.End] has
// returned, or from the goroutine that calls Record.
func (r *Recorder) Unkept() int { return r.unkept }

// newGroup returns an empty group, one the writer is done with when there
// is one: a group's results and rows are written into memory the caches
// hold, not into fresh memory each time (a group's rows are about 10 kB;
// the copies of its 64 results, 16 kB, are given back once encoded).
func (r *Recorder) newGroup() *group {
	var g *group
	select {
	case g = <-r.free:
	default:
		g = &group{ps: make([]pending, 0, groupSize), rows: make([]byte, 0, groupRows)}
	}
	select {
	case g.cases = <-r.freeCases:
	default:
		g.cases = make([]queued, 0, groupSize)
	}
	g.begun = time.Now()
	g.ready = make(chan struct{})
	return g
}

// recycle gives g, written into its batch, back for Record to fill again.
func (r *Recorder) recycle(g *group) {
	g.ps, g.rows, g.ready, g.err = g.ps[:0], g.rows[:0], nil, nil
	if cap(g.rows) > maxKept {
		g.rows = nil
	}
	select {
	case r.free <- g:
	default:
	}
}

// handOver hands the group being filled to the writer and the encoders.
// r.gmu is held: groups go to the writer in the order they were filled.
func (r *Recorder) handOver() {
	g := r.group
	if g == nil {
		return
	}
	r.group = nil
	select {
	case r.ch <- g:
	case <-r.done: // the writer stopped on an error: End reports it
		r.letGo(g)
		return
	}
	// The writer waits for g.ready before it reads g: g is not written,
	// nor filled again, before the encoders are done with it.
	r.jobs <- g // as many places as ch has: never waits long
}

// letGo gives back the trajectories and details of g's results, which
// are not to be encoded: the writer stopped before g reached an encoder.
func (r *Recorder) letGo(g *group) {
	for i := range g.cases {
		c := &g.cases[i].c
		r.giveDetails(c)
		r.steps.TakeBack(c.Trajectory)
		*c = trajeval.CaseResult{}
	}
	g.cases = nil
}

// takeStale returns, when the group being filled has waited at least
// wait, the groups handed to the writer and not yet taken, and that
// group, in order; nil when Record holds r.gmu (it is handing a group
// over: the writer must take what it sends) or the group is young. Called
// by the writer.
func (r *Recorder) takeStale(wait time.Duration) []*group {
	if !r.gmu.TryLock() {
		return nil
	}
	defer r.gmu.Unlock()
	g := r.group
	if g == nil || time.Since(g.begun) < wait {
		return nil
	}
	r.group = nil
	// Record sends under r.gmu: what it handed over is in ch already.
	gs := make([]*group, 0, len(r.ch)+1)
	for range len(r.ch) {
		gs = append(gs, <-r.ch)
	}
	return append(gs, g)
}

// End writes what is pending, then the run's end (at end, with status
// interrupted when the run stopped before every case ran), and returns
// the first error met writing the run.
func (r *Recorder) End(end time.Time, interrupted bool) error {
	r.gmu.Lock()
	r.handOver()
	close(r.jobs)
	close(r.ch)
	r.gmu.Unlock()
	<-r.done
	if r.err != nil {
		return r.err
	}
	status := StatusDone
	if interrupted {
		status = StatusInterrupted
	}
	if r.shards > 0 {
		return r.endShard(end, status)
	}
	_, err := r.h.db.Exec(r.h.d.bind("UPDATE runs SET ended_at = ?, status = ? WHERE id = ?"), end.UnixMilli(), status, r.id)
	return r.h.wrap(err)
}

// write writes the results handed over, in batches, each in a
// transaction (rule 4 of the package): a batch is written when it holds
// maxBatch results, or batchEvery after its first result came. What
// waits for the transaction is the batch's rows and the chunks its
// values went into, compressed (the encoders filled them); and a batch
// is filled while the one before is written, by a goroutine of its own,
// so that results do not wait in the queue for a transaction to end.
// Each batch beats the run's heartbeat; so does a tick of HeartbeatEvery
// with no batch, so a run with slow cases reads as running from another
// host.
func (r *Recorder) write(ctx context.Context) {
	batches := make(chan *batch)  // to the committer, in order
	failed := make(chan struct{}) // closed when a batch could not be written
	committed := make(chan struct{})
	// spare holds the pack of a batch written, for the next to fill: two
	// buffers of a pack's size (about 200 kB) in turn, not one grown
	// afresh for each batch.
	spare := make(chan []byte, 1)
	go func() {
		defer close(committed)
		for b := range batches {
			if err := r.writeBatch(ctx, b); err != nil {
				r.err = err
				close(failed)
				for range batches {
				}
				return
			}
			if !b.last {
				r.aside.wrote(b.size()) // the last is the close's to copy
			}
			if cap(b.pack) <= maxKept {
				select {
				case spare <- b.pack[:0]:
				default:
				}
			}
		}
	}()
	var err error // of the writer's own: a result that could not be encoded
	defer close(r.done)
	defer holding.Add(-recorderHolds)
	defer func() {
		close(batches)
		<-committed
		r.aside.stop()
		r.err = cmp.Or(r.err, err) // the committer's came first
	}()
	newBatch := func() *batch {
		b := new(batch)
		select {
		case b.pack = <-spare:
		default:
		}
		b.pack = append(b.pack, make([]byte, packRoom)...)
		return b
	}
	b := newBatch()
	send := func() bool {
		// Every chunk begun holds values of this batch's cases or of
		// later ones (encoded since): all go with this batch.
		r.mu.Lock()
		b.chunks = append(r.trajs.take(), r.detail.take()...)
		r.mu.Unlock()
		if b.n > 0 {
			b.id = r.next(&r.packs)
		}
		select {
		case batches <- b:
			b = newBatch()
			return true
		case <-failed:
			for range r.ch {
				// Let Record and the encoders finish: nothing more is written.
			}
			return false
		}
	}
	due := time.NewTimer(batchEvery)
	due.Stop()
	// take adds g's results to b, sending b when full; false when the
	// writer is to stop. A group the writer took itself (stale) is
	// encoded here, and its batch is due batchEvery after its first
	// result came.
	take := func(g *group, stale bool) bool {
		if stale {
			g.encode(r)
		} else if g.ready != nil {
			<-g.ready
		}
		reserve(b, g)
		for i := 0; i < len(g.ps); {
			first := b.n == 0
			var n int
			if n, err = r.add(b, g, i); err != nil {
				for range r.ch {
					// Let Record and the encoders finish: nothing more is written.
				}
				return false
			}
			i += n
			switch {
			case b.n >= maxBatch:
				due.Stop()
				if !send() {
					return false
				}
			case first && stale:
				due.Reset(max(0, batchEvery-time.Since(g.begun)))
			case first:
				due.Reset(batchEvery)
			}
		}
		r.recycle(g)
		return true
	}
	tick := time.NewTicker(heartbeatEvery)
	defer tick.Stop()
	// A group not full after batchEvery/2 is a slow run's: the writer
	// takes it, so that its results are written batchEvery after the
	// first came, as one by one.
	stale := time.NewTicker(batchEvery / 4)
	defer stale.Stop()
	for {
		select {
		case g, ok := <-r.ch:
			if !ok {
				if b.n > 0 {
					b.last = true
					send()
				}
				return
			}
			if !take(g, false) {
				return
			}
		case <-due.C:
			if !send() {
				return
			}
		case <-stale.C:
			gs := r.takeStale(batchEvery / 2)
			for i, g := range gs {
				if !take(g, i == len(gs)-1) {
					// The stale group, last, reached no encoder.
					if i < len(gs)-1 {
						r.letGo(gs[len(gs)-1])
					}
					return
				}
			}
		case <-tick.C:
			if b.n == 0 && !send() {
				return
			}
		}
	}
}

// compress returns the canonical JSON of t compressed alone (see
// squeeze), as schema version 5 stored it; nil for a nil t.
func compress(t *trajeval.Trajectory) ([]byte, error) {
	if t == nil {
		return nil, nil
	}
	data, err := trajeval.AppendJSON(nil, t)
	if err != nil {
		return nil, err
	}
	return squeeze(data), nil
}

// jsonTrajectories stores every trajectory as its canonical JSON, as
// before schema version 9 (see trajcode.go): for the tests, which make
// histories of older versions.
var jsonTrajectories = false

// maxKept is the largest buffer kept for the next value: one huge
// trajectory must not hold its memory for the run.
const maxKept = 1 << 20

// chunkColumns are the columns of chunks, in the order written.
var chunkColumns = []string{"run_id", "id", "data"}

// encode appends c's row, of seq, to rows, as r's pack holds it
// (casepack.go): its evaluators' results packed (see pack.go) and, when
// keep, their details and its trajectory, each in its compact encoding
// (or JSON), put into r's chunks, the row referring to them (rule 9 of
// the package). Each is written into the scratch buffer buf and copied
// into the chunk at once: it does not wait for the writer. On an error
// rows is returned as it was.
func (r *Recorder) encode(rows []byte, c *trajeval.CaseResult, seq int, keep bool, buf *[]byte) ([]byte, error) {
	var jerr error
	j := func(v any, present bool) string {
		if !present {
			return ""
		}
		data, err := json.Marshal(v)
		if err != nil {
			jerr = cmp.Or(jerr, err)
			return ""
		}
		return string(data)
	}
	if r.id > maxRunID || seq > maxSeq {
		return rows, fmt.Errorf("%w: run %d, case %d", ErrTooMany, r.id, seq)
	}
	if c.Attempt < 0 {
		return rows, fmt.Errorf("attempt %d", c.Attempt)
	}
	evals, err := appendPacked((*buf)[:0], c.Evaluators)
	if err != nil {
		return rows, err
	}
	*buf = evals
	s := stored{seq: seq, suite: c.Suite, id: c.ID, status: string(c.Status), errText: c.Error,
		warnings: j(c.Warnings, len(c.Warnings) > 0), judge: j(c.Judge, c.Judge != nil), trace: c.Trace,
		attempt: c.Attempt, partial: c.Partial, hasStart: !c.StartedAt.IsZero(), hasEvals: true,
		score: c.Score, duration: c.DurationMS, evals: evals}
	if jerr != nil {
		return rows, jerr
	}
	if s.hasStart {
		s.started = c.StartedAt.UnixMilli()
	}
	rest := (*buf)[len(evals):]
	// The references into the chunks, copied into the row: no allocation
	// of their own.
	var refs [2 * maxRef]byte
	if c.Trajectory != nil {
		data, ok := rest[:0], false
		if !jsonTrajectories {
			data, ok = appendTrajectory(data, c.Trajectory)
		}
		if !ok {
			if data, err = trajeval.AppendJSON(data, c.Trajectory); err != nil {
				return rows, fmt.Errorf("trajectory: %w", err)
			}
		}
		r.mu.Lock()
		s.traj = r.trajs.add(refs[:0:maxRef], data)
		r.mu.Unlock()
		rest = data
	}
	if keep {
		data, some, err := appendDetailsOf(rest[:0], c.Evaluators)
		if err != nil {
			return rows, err
		}
		if some {
			r.mu.Lock()
			s.details = r.detail.add(refs[maxRef:maxRef], data)
			r.mu.Unlock()
		}
		rest = data
	}
	if cap(rest) > cap(*buf)-len(evals) {
		// Grown: keep the larger buffer, for the next value.
		*buf = rest[:0]
	}
	return appendStored(rows, &s), nil
}

// The largest run id and seq a case takes: SQLite keyed the rows of
// cases by the run's id times 2^32 plus its seq, in 63 bits
// (dialect.ofRun), and a pack keeps to the same bounds.
const (
	maxRunID = 1<<31 - 1
	maxSeq   = 1<<32 - 1
)

// A batch is the results the writer has taken and not yet written: their
// rows one after another as a pack holds them, after packRoom bytes left
// for the pack's header (n of them; the pack's id given when the batch is
// sent), their counts (cases, passed, failed, errors), and the rows of the
// chunks their trajectories and details filled.
type batch struct {
	pack   []byte
	n      int
	id     int64
	counts [4]int
	chunks [][]any
	last   bool // the run's last: End's
}

// packRoom is the room a batch leaves before its rows for the pack's
// header: its version and its count of at most maxBatch cases.
const packRoom = 1 + 2

// reserve gives b, when g's results are its first, room for maxBatch
// rows of the mean size of g's (an eighth more, at most maxKept), unless
// a pack used again has it already: grown by append's steps from
// nothing, a pack of about 170 kB was copied into fresh memory some
// twenty times: 1.3 MB of garbage a run on the peer set, where --no-db
// allocates about 35 MB after loading and the third collection comes at
// 38 MB.
func reserve(b *batch, g *group) {
	if b.n > 0 || len(g.ps) == 0 {
		return
	}
	want := min(packRoom+maxBatch*(len(g.rows)/len(g.ps))*9/8, maxKept)
	if cap(b.pack) < want {
		b.pack = slices.Grow(b.pack, want-len(b.pack))
	}
}

// add takes the results of g from the i-th on, encoded, into b, and
// returns how many it took:
//  1. as many as b has room for, up to the first that could not be
//     encoded (g.errAt), whose error it returns when it is the i-th;
//  2. their rows in one copy: g's rows lie one after another, in the
//     order of its results (encodeAt appends each in turn), the row of a
//     result that could not be encoded taking no bytes.
func (r *Recorder) add(b *batch, g *group, i int) (int, error) {
	end := min(len(g.ps), i+max(1, maxBatch-b.n))
	if g.err != nil && g.errAt >= i {
		if g.errAt == i {
			return 0, fmt.Errorf("run %d: %w", r.id, g.err)
		}
		end = min(end, g.errAt)
	}
	ps := g.ps[i:end]
	b.pack = append(b.pack, g.rows[ps[0].start:ps[len(ps)-1].end]...)
	b.n += len(ps)
	b.counts[0] += len(ps)
	for k := range ps {
		b.counts[ps[k].col]++
	}
	return len(ps), nil
}

// writeBatch writes b in one transaction, with the chunks its rows refer
// to and the run's counts; a batch of no rows and no chunks beats the
// run's heartbeat alone. (A batch of a tick may have no rows and chunks
// that the encoders began since the last batch, for results the writer
// has not taken yet: they are written, for those rows will refer to them.)
func (r *Recorder) writeBatch(ctx context.Context, b *batch) error {
	set, args := r.writer()
	if b.n == 0 && len(b.chunks) == 0 {
		// A heartbeat that cannot be written is not the run's failure:
		// the run reads as interrupted from another host sooner, and a
		// write of results reports a lasting fault.
		r.h.db.ExecContext(ctx, r.h.d.bind("UPDATE runs SET heartbeat_at = ?"+set+" WHERE id = ?"), slices.Concat([]any{time.Now().UnixMilli()}, args, []any{r.id})...)
		return nil
	}
	// The statements are prepared before the transaction takes the
	// connection: prepared on the pool while it held it, they opened a
	// second SQLite connection (its pragmas and a parse of the schema,
	// about 3% of a small run) and were prepared again on the first.
	if err := r.h.prepare(ctx, "chunks", chunkColumns, len(b.chunks)); err != nil {
		return err
	}
	if b.n > 0 {
		if err := r.h.prepare(ctx, "packs", chunkColumns, 1); err != nil {
			return err
		}
	}
	tx, err := r.h.db.BeginTx(ctx, nil)
	if err != nil {
		return r.h.wrap(err)
	}
	defer tx.Rollback()
	if err := r.h.insert(ctx, tx, "chunks", chunkColumns, b.chunks); err != nil {
		return err
	}
	if b.n > 0 {
		// The header goes into the room left before the rows: the rows
		// are not copied to follow it.
		h := packHeader(b.n)
		if len(h) > packRoom {
			return fmt.Errorf("run %d: a pack of %d cases", r.id, b.n)
		}
		start := packRoom - len(h)
		copy(b.pack[start:], h)
		data := squeezeInto(r.packed, b.pack[start:])
		err := r.h.insert(ctx, tx, "packs", chunkColumns, [][]any{{r.id, b.id, data}})
		r.packed = data[:0]
		if cap(data) > maxKept {
			r.packed = nil // one huge pack must not hold its memory for the run
		}
		if err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, r.h.d.bind("UPDATE runs SET cases = cases + ?, passed = passed + ?, failed = failed + ?, errors = errors + ?, heartbeat_at = ?"+set+" WHERE id = ?"),
		slices.Concat([]any{b.counts[0], b.counts[1], b.counts[2], b.counts[3], time.Now().UnixMilli()}, args, []any{r.id})...)
	if err != nil {
		return r.h.wrap(err)
	}
	return r.h.wrap(tx.Commit())
}

// insertChunks are the numbers of rows of the INSERT statements insert
// prepares: rows go in chunks of the largest that fits.
var insertChunks = []int{128, 16, 1}

// insert inserts rows into table, many per statement (few round trips to
// PostgreSQL), through statements prepared once per database (no parsing
// of long statements for each batch).
func (h *DB) insert(ctx context.Context, tx *sql.Tx, table string, cols []string, rows [][]any) error {
	for _, n := range insertChunks {
		if len(rows) < n {
			continue
		}
		stmt, err := h.prepared(ctx, table, cols, n)
		if err != nil {
			return err
		}
		txStmt := tx.StmtContext(ctx, stmt)
		args := make([]any, 0, n*len(cols))
		for len(rows) >= n {
			args = args[:0]
			for _, row := range rows[:n] {
				args = append(args, row...)
			}
			if _, err := txStmt.ExecContext(ctx, args...); err != nil {
				txStmt.Close()
				return h.wrap(fmt.Errorf("writing %s: %w", table, err))
			}
			rows = rows[n:]
		}
		txStmt.Close()
	}
	return nil
}

// prepare prepares the statements that insert rows rows into table (see
// insert), those not prepared before.
func (h *DB) prepare(ctx context.Context, table string, cols []string, rows int) error {
	for _, n := range insertChunks {
		if rows < n {
			continue
		}
		if _, err := h.prepared(ctx, table, cols, n); err != nil {
			return err
		}
		rows %= n
	}
	return nil
}

// prepared returns the statement inserting n rows into table.
func (h *DB) prepared(ctx context.Context, table string, cols []string, n int) (*sql.Stmt, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := fmt.Sprint(table, "/", n)
	if st, ok := h.stmts[key]; ok {
		return st, nil
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
	st, err := h.db.PrepareContext(ctx, h.d.bind(q))
	if err != nil {
		return nil, h.wrap(fmt.Errorf("writing %s: %w", table, err))
	}
	if h.stmts == nil {
		h.stmts = map[string]*sql.Stmt{}
	}
	h.stmts[key] = st
	return st, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func bool01(b bool) int {
	if b {
		return 1
	}
	return 0
}
