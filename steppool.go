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
//  6. A trajectory whose steps the pool made may be lent (Lend) by the
//     one that holds it alone to whoever will hold it last; TakeBack
//     then gives its steps back, once: a trajectory not lent, or taken
//     back already, is left as it is. So a trajectory that several hold
//     (never lent) is never given back, and the last holder need not
//     know where the trajectory came from. At most maxLent are lent at
//     once: Lend refuses more, so that a holder that never gives back
//     keeps no more than that alive.
//
// It is safe for concurrent use.
type StepPool struct {
	mu    sync.Mutex
	free  [stepClasses][][]Step
	steps int // held in free
	// lent are the trajectories lent and not taken back (rule 6).
	lent map[*Trajectory]struct{}
}

// maxLent is the most trajectories lent at once: more than a run has in
// flight between its readers and the history's encoders (some hundreds).
const maxLent = 1 << 12

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

// Lend lends t, whose steps p made and whose caller alone holds it, to
// its last holder, who calls TakeBack once done with it (rule 6). It
// reports whether t was lent: false for a nil p or t, and when maxLent
// are lent already.
func (p *StepPool) Lend(t *Trajectory) bool {
	if p == nil || t == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.lent) >= maxLent {
		return false
	}
	if p.lent == nil {
		p.lent = make(map[*Trajectory]struct{})
	}
	p.lent[t] = struct{}{}
	return true
}

// TakeBack gives the steps of t back when p lent t and has not taken it
// back yet, sets t.Steps to nil, and reports whether it did: the caller
// promises that nothing reads t's steps afterwards. For any other t it
// does nothing and reports false.
func (p *StepPool) TakeBack(t *Trajectory) bool {
	if p == nil || t == nil {
		return false
	}
	p.mu.Lock()
	if _, ok := p.lent[t]; !ok {
		p.mu.Unlock()
		return false
	}
	delete(p.lent, t)
	p.mu.Unlock()
	s := t.Steps
	t.Steps = nil
	p.Put(s)
	return true
}
