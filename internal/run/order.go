package run

import (
	"sync"

	"github.com/trajeval/trajeval"
)

// A job scores one case into r, all of whose fields it sets. It reports
// its warnings to warn, not to the run's, so that they can be handed on
// in order with its result. A result is written where it is handed on
// from, not returned: a CaseResult is some 250 bytes, and each return
// on its way from the evaluators to the row copied it.
type job func(warn func(trajeval.Warning), r *trajeval.CaseResult)

// An ordered runs up to n jobs at once and hands their warnings and
// results on in the order the jobs were submitted, so the output of a run
// is the same whatever n is. Submit and Warn are called from one goroutine
// (the one that reads the traces); the results are emitted from another.
// Jobs go to the workers in batches: scoring one case takes microseconds,
// about what handing it to another goroutine costs. The n workers live as
// long as the ordered: a goroutine a batch grew its stack from the
// smallest each time, copying it and walking its frames.
type ordered struct {
	out  func(*trajeval.CaseResult) error
	warn func(trajeval.Warning)
	n    int

	held  []trajeval.Warning // warnings met since the last submit
	batch *batch             // being filled
	queue chan *batch        // submitted, in order; its capacity bounds the batches in flight
	free  chan *batch        // emitted, for Submit to fill again (see newBatch)
	work  chan *batch        // submitted, for the workers
	done  chan struct{}      // closed when the emitter has emitted the last result
	mu    sync.Mutex
	err   error // the first error out returned
	// r is the result of the job run at once when n ≤ 1: out is handed
	// a pointer to it, which would make one of the job's own escape.
	r trajeval.CaseResult
}

// batchSize is how many jobs a worker takes at once.
const batchSize = 64

type batch struct {
	jobs    []job
	held    [][]trajeval.Warning // the run's warnings met before each job
	results []trajeval.CaseResult
	warns   [][]trajeval.Warning // each job's own warnings
	// warnTo[i] appends to warns[i]: made once for a batch and kept as it
	// is reused, not a closure made for every job.
	warnTo []func(trajeval.Warning)
	ready  chan struct{}
}

// run scores the batch's jobs, in order, into its results and warnings
// as emit left them, cleared, when they have room.
func (b *batch) run() {
	if n := len(b.jobs); cap(b.results) >= n {
		b.results, b.warns = b.results[:n], b.warns[:n]
	} else {
		b.results = make([]trajeval.CaseResult, n)
		b.warns = make([][]trajeval.Warning, n)
	}
	for i := len(b.warnTo); i < len(b.jobs); i++ {
		b.warnTo = append(b.warnTo, func(w trajeval.Warning) { b.warns[i] = append(b.warns[i], w) })
	}
	for i, j := range b.jobs {
		j(b.warnTo[i], &b.results[i])
	}
	close(b.ready)
}

// newOrdered returns an ordered with n workers. With n ≤ 1 every job runs
// when it is submitted, and its warnings and result are handed on at once.
func newOrdered(n int, warn func(trajeval.Warning), out func(*trajeval.CaseResult) error) *ordered {
	o := &ordered{out: out, warn: warn, n: n}
	if n > 1 {
		// One batch is being emitted (or awaited) while n−1 wait in the
		// queue: at most n are scored at once.
		o.queue = make(chan *batch, n-1)
		o.free = make(chan *batch, n+1)
		// At most n batches are submitted and not emitted: a send to
		// work never waits.
		o.work = make(chan *batch, n)
		o.done = make(chan struct{})
		for range n {
			go o.score()
		}
		go o.emit()
	}
	return o
}

// Warn reports a warning of the run itself (not of one job's), in order
// with the results around it.
func (o *ordered) Warn(w trajeval.Warning) {
	if o.n <= 1 {
		o.warn(w)
		return
	}
	o.held = append(o.held, w)
}

// Submit runs j, now or on a worker, and returns the first error emitting
// a result has met so far; after one, nothing more is emitted.
func (o *ordered) Submit(j job) error {
	if o.n <= 1 {
		j(o.warn, &o.r)
		return o.out(&o.r)
	}
	if err := o.failed(); err != nil {
		return err
	}
	if o.batch == nil {
		o.batch = o.newBatch()
	}
	o.batch.jobs = append(o.batch.jobs, j)
	o.batch.held = append(o.batch.held, o.held)
	o.held = nil
	if len(o.batch.jobs) == batchSize {
		o.flush()
	}
	return nil
}

// flush hands the batch being filled to a worker.
func (o *ordered) flush() {
	if b := o.batch; b != nil {
		o.batch = nil
		o.queue <- b
		o.work <- b
	}
}

// score runs the batches handed to the workers until Close.
func (o *ordered) score() {
	for b := range o.work {
		b.run()
	}
}

// Close waits for every submitted job, hands on the warnings met since the
// last one, and returns the first error emitting met.
func (o *ordered) Close() error {
	if o.n <= 1 {
		return nil
	}
	o.flush()
	close(o.queue)
	close(o.work)
	<-o.done
	if err := o.failed(); err != nil {
		return err
	}
	for _, w := range o.held {
		o.warn(w)
	}
	o.held = nil
	return nil
}

// newBatch returns an empty batch: one emitted already when there is
// one, so that a run reuses the memory of the few batches in flight (some
// 20 KB each) rather than touching fresh memory for every 64 jobs.
func (o *ordered) newBatch() *batch {
	select {
	case b := <-o.free:
		b.ready = make(chan struct{})
		return b
	default:
		return &batch{ready: make(chan struct{})}
	}
}

// recycle clears b, emitted, and keeps it for newBatch: emit hands on
// copies of its results, and nothing holds the batch after emit.
func (o *ordered) recycle(b *batch) {
	clear(b.jobs)
	clear(b.held)
	clear(b.results)
	clear(b.warns)
	b.jobs, b.held = b.jobs[:0], b.held[:0]
	select {
	case o.free <- b:
	default:
	}
}

func (o *ordered) emit() {
	defer close(o.done)
	for b := range o.queue {
		<-b.ready
		for i := range b.results {
			if o.failed() != nil {
				break // let the workers finish; emit nothing more
			}
			for _, w := range b.held[i] {
				o.warn(w)
			}
			for _, w := range b.warns[i] {
				o.warn(w)
			}
			if err := o.out(&b.results[i]); err != nil {
				o.mu.Lock()
				o.err = err
				o.mu.Unlock()
			}
		}
		o.recycle(b)
	}
}

func (o *ordered) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}
