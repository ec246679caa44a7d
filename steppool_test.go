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
