package trajeval_test

import (
	"testing"

	"github.com/trajeval/trajeval"
)

// TestStepPool_Make: a slice made by the pool has room for what was asked
// (at most a quarter more), is zero throughout even when it was given
// back full, and is one given back when one of its class is there.
func TestStepPool_Make(t *testing.T) {
	tests := []struct {
		name        string
		put, n      int // put: the capacity asked of the slice given back first; 0 for none
		least, most int // the capacity Make returns
		reused      bool
		reason      string
	}{
		{"fresh", 0, 20, 20, 20, false, "nothing given back: made at its class, 20 being one"},
		{"small", 0, 3, 3, 3, false, "up to 8, each count is a class"},
		{"rounded", 0, 21, 21, 24, false, "21 is in the class of 24"},
		{"same class", 20, 20, 20, 20, true, "the slice given back is the one made"},
		{"same class, fewer", 24, 21, 24, 24, true, "21 and 24 share a class"},
		{"other class", 20, 21, 24, 24, false, "a slice of 20 does not hold 21"},
		{"too large", 0, 5000, 5000, 5000, false, "past maxPooledSteps: made as asked, never pooled"},
		{"too large given back", 5000, 5000, 5000, 5000, false, "a slice past maxPooledSteps is not kept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p trajeval.StepPool
			var back *trajeval.Step
			if tt.put > 0 {
				s := p.Make(tt.put)
				s = s[:cap(s)]
				for i := range s {
					s[i] = trajeval.Step{Index: i + 1, Name: "search", Args: map[string]any{"q": 1}}
				}
				back = &s[0]
				p.Put(s)
			}
			got := p.Make(tt.n)
			if len(got) != 0 || cap(got) < tt.least || cap(got) > tt.most {
				t.Fatalf("%s: Make(%d) has length %d and capacity %d, want 0 and %d to %d", tt.reason, tt.n, len(got), cap(got), tt.least, tt.most)
			}
			if reused := back != nil && &got[:1][0] == back; reused != tt.reused {
				t.Errorf("%s: reused %v, want %v", tt.reason, reused, tt.reused)
			}
			for i, s := range got[:cap(got)] {
				if s != (trajeval.Step{}) {
					t.Fatalf("%s: step %d of the capacity is %+v, not zero", tt.reason, i, s)
				}
			}
		})
	}
}

// TestStepPool_nil: a nil pool makes slices as make does and keeps
// nothing given back.
func TestStepPool_nil(t *testing.T) {
	var p *trajeval.StepPool
	if s := p.Make(21); len(s) != 0 || cap(s) != 21 {
		t.Errorf("Make(21) of a nil pool: length %d, capacity %d, want 0 and 21", len(s), cap(s))
	}
	p.Put(make([]trajeval.Step, 3)) // must not panic
}

// TestStepPool_bound: a pool keeps at most 32,768 steps (maxHeldSteps);
// slices given back past that are left to the collector.
func TestStepPool_bound(t *testing.T) {
	var p trajeval.StepPool
	const n, count = 4096, 20 // 80 Ki steps given back
	given := map[*trajeval.Step]bool{}
	for range count {
		s := make([]trajeval.Step, 0, n) // of the pool's class of 4,096
		given[&s[:1][0]] = true
		p.Put(s)
	}
	reused := 0
	for range count {
		if s := p.Make(n); given[&s[:1][0]] {
			reused++
		}
	}
	if reused != 8 {
		t.Errorf("%d of the %d slices given back were kept, want 8 (32,768 steps)", reused, count)
	}
}

// TestStepPool_TakeBack: a trajectory lent is taken back once, its steps
// into the pool; one not lent, or taken back already, is left as it is.
func TestStepPool_TakeBack(t *testing.T) {
	tests := []struct {
		name       string
		lend       bool
		takes      int // TakeBack calls
		back       int // of them that give back
		stepsAfter bool
		reason     string
	}{
		{"lent", true, 1, 1, false, "the last holder gives the steps back, and the trajectory holds none after"},
		{"lent, taken back twice", true, 2, 1, false, "a second TakeBack must not give the same slice back twice"},
		{"not lent", false, 1, 0, true, "a trajectory that others may hold (never lent) keeps its steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := new(trajeval.StepPool)
			tr := &trajeval.Trajectory{Steps: p.Make(20)[:20]}
			made := &tr.Steps[0]
			tr.Steps[0].Name = "search"
			if tt.lend && !p.Lend(tr) {
				t.Fatal("Lend refused the first trajectory")
			}
			back := 0
			for range tt.takes {
				if p.TakeBack(tr) {
					back++
				}
			}
			if back != tt.back {
				t.Errorf("%d TakeBack gave back, want %d (%s)", back, tt.back, tt.reason)
			}
			if (tr.Steps != nil) != tt.stepsAfter {
				t.Errorf("steps after: %v, want %v (%s)", tr.Steps != nil, tt.stepsAfter, tt.reason)
			}
			s := p.Make(20)
			if reused := &s[:1][0] == made; reused != (tt.back > 0) {
				t.Errorf("the next Make reused the slice: %v, want %v (%s)", reused, tt.back > 0, tt.reason)
			}
			if again := p.Make(20); &again[:1][0] == made {
				t.Errorf("the slice was handed out twice (%s)", tt.reason)
			}
			if tt.stepsAfter && tr.Steps[0].Name != "search" {
				t.Errorf("the steps of a trajectory not given back changed (%s)", tt.reason)
			}
		})
	}
}

// TestStepPool_Lend_bound: a pool lends at most some thousands of
// trajectories at once, so that a holder that never gives back keeps no
// more alive; one taken back makes room again.
func TestStepPool_Lend_bound(t *testing.T) {
	p := new(trajeval.StepPool)
	var lent []*trajeval.Trajectory
	for range 1 << 16 {
		tr := &trajeval.Trajectory{Steps: p.Make(1)}
		if !p.Lend(tr) {
			break
		}
		lent = append(lent, tr)
	}
	if len(lent) == 1<<16 || len(lent) < 1000 {
		t.Fatalf("lent %d trajectories, want a bound of some thousands", len(lent))
	}
	extra := &trajeval.Trajectory{}
	if p.Lend(extra) {
		t.Fatal("lent past the bound")
	}
	p.TakeBack(lent[0])
	if !p.Lend(extra) {
		t.Fatal("no room again after a trajectory was taken back")
	}
	var nilPool *trajeval.StepPool
	if nilPool.Lend(extra) || nilPool.TakeBack(extra) || p.Lend(nil) || p.TakeBack(nil) {
		t.Fatal("a nil pool or trajectory lends or gives back")
	}
}
