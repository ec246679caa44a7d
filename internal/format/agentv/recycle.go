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
//  2. It holds at most maxRecycled records: the steps of a trajectory
//     that is never given back (one that several jobs score, one a row
//     keeps) would otherwise keep their memory noted for ever.
//  3. A nil *recycler holds nothing; so do the decoders of a reader given
//     no StepPool.
//
// The decoders of one Read share it: the pool hands a slice to whichever
// of them asks first. It is safe for concurrent use.
type recycler struct {
	mu   sync.Mutex
	held map[*trajeval.Step]spare
}

// A spare is the memory a record's steps pointed at, for another record.
type spare struct {
	flags []stepFlags
	buf   []byte
	slab  []json.RawMessage
}

// maxRecycled is the most records a recycler holds (rule 2): more than
// a run has in flight between its readers and its rows (some hundreds).
const maxRecycled = 1 << 12

// hold notes what the record whose steps are steps points at (rule 1).
func (r *recycler) hold(steps []trajeval.Step, s spare) {
	if r == nil || cap(steps) == 0 {
		return
	}
	r.mu.Lock()
	if len(r.held) < maxRecycled {
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
	}
	r.mu.Unlock()
	return s, ok
}
