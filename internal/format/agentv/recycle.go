package agentv

import (
	"encoding/json"
	"sync"

	"github.com/trajeval/trajeval"
)

// A recycler hands a record's flags and kept text on to a later record
// once the record's steps have come back from the run's StepPool: the
// pool gives a slice back to Make only after whoever held its trajectory
// gave it back with Put, and promised then that nothing reads its steps
// or what they point at. A run of thousands of records then reuses the
// memory of the records it has scored, rather than touching fresh memory
// for each (the flags and kept text are a third of what a record reads
// into).
//
// The rules:
//  1. hold notes the flags and kept text of the steps a record took
//     (only those read into steps, see stepRead), by the first step of
//     their slice; take returns them when the pool makes that slice
//     again, and forgets them.
//  2. It holds at most firstRecycled records, and two more for each it
//     has handed on, up to maxRecycled: the steps of a trajectory that is
//     never given back (one that several jobs score, one a row keeps)
//     stay alive while they are noted, so a run that gives nothing back
//     keeps no more than firstRecycled of them (some 300 KB), where one
//     that gives back soon has room for all it has in flight.
//  3. A nil *recycler holds nothing; so do the decoders of a reader given
//     no StepPool.
//
// The decoders of one Read share it: the pool hands a slice to whichever
// of them asks first. It is safe for concurrent use.
type recycler struct {
	mu    sync.Mutex
	held  map[*trajeval.Step]spare
	taken int // records handed on by take
}

// A spare is the memory a record's steps pointed at, for another record.
type spare struct {
	flags []stepFlags
	buf   []byte
	slab  []json.RawMessage
}

// firstRecycled and maxRecycled bound the records a recycler holds (rule
// 2): maxRecycled is more than a run has in flight between its readers
// and its rows, and in the pool (at most 201–275 held at once on 10,000
// and 100,000 traces, with and without the history). Held without
// bound but maxRecycled, a run that gave nothing back (two suites with no
// cases on 20,000 traces) peaked at 103 MB against 80.
const (
	firstRecycled = 64
	maxRecycled   = 1 << 10
)

// hold notes what the record whose steps are steps points at (rule 1).
func (r *recycler) hold(steps []trajeval.Step, s spare) {
	if r == nil || cap(steps) == 0 {
		return
	}
	r.mu.Lock()
	if len(r.held) < min(firstRecycled+2*r.taken, maxRecycled) {
		if r.held == nil {
			r.held = make(map[*trajeval.Step]spare)
		}
		r.held[&steps[:1][0]] = s
	}
	r.mu.Unlock()
}

// take returns what hold noted of steps, a slice the pool made again,
// and forgets it.
func (r *recycler) take(steps []trajeval.Step) (spare, bool) {
	if r == nil || cap(steps) == 0 {
		return spare{}, false
	}
	k := &steps[:1][0]
	r.mu.Lock()
	s, ok := r.held[k]
	if ok {
		delete(r.held, k)
		r.taken++
	}
	r.mu.Unlock()
	return s, ok
}
