package trajeval

import (
	"math/bits"
	"sync"
)

// A StepPool recycles the step slices of trajectories nothing holds any
// more, so that a long run of traces reuses the memory of the steps it
// has scored instead of touching fresh memory for each trajectory. A
// reader takes its trajectories' steps from the pool its Input names
// (see Input.Steps); whoever knows a trajectory is done with gives its
// steps back.
//
// The rules:
//  1. Make(n) returns a slice of length 0 whose capacity, at least n, is
//     zero throughout, as make would give it.
//  2. Put(s) gives s back: the caller promises that nothing reads or
//     writes s, or any Step of it, afterwards. Put clears what s holds,
//     so that the strings and values of a trajectory that is done with
//     are not kept alive by the pool.
//  3. Capacities are rounded up to a class (four a power of two, at most
//     a quarter more than asked) so that a slice given back fits the next
//     trajectory of about its size; a slice of more than maxPooledSteps
//     steps, or whose capacity is not a class's, is never pooled.
//  4. The pool holds at most maxHeldSteps steps (some 6 MB); what is
//     given back beyond that is left to the collector.
//  5. A nil *StepPool pools nothing: Make is make, Put does nothing.
//
// It is safe for concurrent use.
type StepPool struct {
	mu    sync.Mutex
	free  [stepClasses][][]Step
	steps int // held in free
}

// maxPooledSteps is the most steps a pooled slice holds: a larger
// trajectory is rare, and its slice is left to the collector.
const maxPooledSteps = 4096

// maxHeldSteps is the most steps a pool holds: more than the
// trajectories in flight between a reader and the rows (a few hundred of
// some twenty steps, 184 bytes each).
const maxHeldSteps = 1 << 15

// stepClasses is the number of capacity classes up to maxPooledSteps:
// stepClass(maxPooledSteps) is the last.
const stepClasses = 45

// stepClass returns the class of a slice of n steps (n ≥ 1) and its
// capacity: n itself up to 8, then the least of m·2^e (m from 5 to 8)
// that is at least n.
func stepClass(n int) (class, size int) {
	if n <= 8 {
		return n, n
	}
	e := bits.Len(uint(n-1)) - 3 // n−1 is at least 8: e ≥ 1
	m := (n-1)>>e + 1            // 5 to 8
	return 8 + (e-1)*4 + m - 4, m << e
}

// Make returns a zero slice of steps of length 0 and capacity at least n.
func (p *StepPool) Make(n int) []Step {
	if p == nil || n <= 0 || n > maxPooledSteps {
		return make([]Step, 0, n)
	}
	class, size := stepClass(n)
	p.mu.Lock()
	if free := p.free[class]; len(free) > 0 {
		s := free[len(free)-1]
		free[len(free)-1] = nil
		p.free[class] = free[:len(free)-1]
		p.steps -= size
		p.mu.Unlock()
		return s
	}
	p.mu.Unlock()
	return make([]Step, 0, size)
}

// Put gives s back to the pool: nothing may use s or its steps afterwards.
func (p *StepPool) Put(s []Step) {
	if p == nil || cap(s) == 0 || cap(s) > maxPooledSteps {
		return
	}
	class, size := stepClass(cap(s))
	if size != cap(s) {
		return // not one of the pool's
	}
	s = s[:size]
	clear(s)
	p.mu.Lock()
	if p.steps+size <= maxHeldSteps {
		p.free[class] = append(p.free[class], s[:0])
		p.steps += size
	}
	p.mu.Unlock()
}
