package align_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/align"
)

// TestScratch_Reuse checks that one Scratch, reused from relation to
// relation, gives what a fresh one gives: nothing of one relation leaks
// into the next, whatever their sizes (small random ones, with groups
// and bonuses, between larger ones of more items and classes).
func TestScratch_Reuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s align.Scratch
	algs := []struct {
		name          string
		fresh, reused func(*align.Relation) align.Alignment
	}{
		{"in_order", align.InOrder, s.InOrder},
		{"any_order", align.AnyOrder, s.AnyOrder},
		{"exact", align.Exact, s.Exact},
	}
	for n := range 3000 {
		r := random(rng)
		if n%100 == 0 {
			r = large(rng, 200+rng.IntN(200), 2+rng.IntN(30))
		}
		for _, a := range algs {
			want := a.fresh(r)
			want.Pairs = slices.Clone(want.Pairs)
			got := a.reused(r)
			if !slices.Equal(got.Pairs, want.Pairs) || got.Bonus != want.Bonus {
				t.Fatalf("relation %d, %s: reused scratch gives %+v, a fresh one %+v; relation %+v", n, a.name, got, want, r)
			}
		}
	}
}

// large is a relation of n items and steps over nc classes, without
// groups or bonuses, the steps mostly the items.
func large(rng *rand.Rand, n, nc int) *align.Relation {
	r := &align.Relation{ItemClass: make([]int32, n), Steps: make([][]int32, n)}
	for i := range n {
		c := int32(rng.IntN(nc))
		r.ItemClass[i] = c
		if rng.IntN(5) == 0 {
			c = int32(rng.IntN(nc + 3)) // sometimes a class no item has
		}
		r.Steps[i] = []int32{c}
	}
	return r
}

// TestScratch_Allocs checks that a Scratch, once grown, aligns a
// trajectory-sized relation without allocating.
func TestScratch_Allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := large(rand.New(rand.NewPCG(7, 8)), 20, 5)
	var s align.Scratch
	for _, a := range []struct {
		name  string
		align func(*align.Relation) align.Alignment
	}{{"in_order", s.InOrder}, {"any_order", s.AnyOrder}, {"exact", s.Exact}} {
		a.align(r)
		if n := testing.AllocsPerRun(100, func() { a.align(r) }); n != 0 {
			t.Errorf("%s: %v allocations a relation, want none", a.name, n)
		}
	}
}
