package align_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trajeval/trajeval/internal/align"
)

// TestScratch_InOrder checks the one-word LCS (at most 64 items) against
// the LCS of any number of words on random plain relations: the same
// pairs, not only as many, since ties choose which steps a row names.
// InOrderSteps, given the steps that match some item and their items'
// bits, takes them too.
func TestScratch_InOrder(t *testing.T) {
	tests := []struct {
		name           string
		items, steps   int
		classes, match int // a step matches each class with chance 1/match
		reason         string
	}{
		{"small", 6, 8, 3, 3, "short lists, many ties"},
		{"bench", 3, 20, 5, 4, "the bench's shape: a few calls in twenty steps"},
		{"full word", 64, 80, 4, 2, "64 items fill the word: the mask of all items is all ones"},
		{"one class", 40, 50, 1, 2, "every item interchangeable"},
		{"sparse", 30, 100, 8, 6, "most steps match nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.items), uint64(tt.steps)))
			var fast, ref align.Scratch
			for n := range 3000 {
				r := randomPlain(rng, 1+rng.IntN(tt.items), rng.IntN(tt.steps+1), tt.classes, tt.match)
				got := fast.InOrder(r)
				want := ref.InOrderWords(r)
				if !slices.Equal(got.Pairs, want.Pairs) {
					t.Fatalf("case %d (%s): pairs %v, want %v\nitems %v\nsteps %v", n, tt.reason, got.Pairs, want.Pairs, r.ItemClass, r.Steps)
				}
				at, match := itemBits(r)
				if got := fast.InOrderSteps(len(r.ItemClass), at, match); !slices.Equal(got.Pairs, want.Pairs) {
					t.Fatalf("case %d (%s): InOrderSteps pairs %v, want %v\nitems %v\nsteps %v", n, tt.reason, got.Pairs, want.Pairs, r.ItemClass, r.Steps)
				}
			}
		})
	}
}

// itemBits lists the steps of r that match some item, with the bits of
// the items each matches.
func itemBits(r *align.Relation) (at []int32, match []uint64) {
	for j, cls := range r.Steps {
		var m uint64
		for i, c := range r.ItemClass {
			if slices.Contains(cls, c) {
				m |= 1 << i
			}
		}
		if m != 0 {
			at, match = append(at, int32(j)), append(match, m)
		}
	}
	return at, match
}

// randomPlain is a relation without bonus or groups; a step may also
// match a class no item has.
func randomPlain(rng *rand.Rand, ne, na, nc, match int) *align.Relation {
	r := &align.Relation{ItemClass: make([]int32, ne), Steps: make([][]int32, na)}
	for i := range r.ItemClass {
		r.ItemClass[i] = int32(rng.IntN(nc))
	}
	for j := range r.Steps {
		for c := range nc + 1 {
			if rng.IntN(match) == 0 {
				r.Steps[j] = append(r.Steps[j], int32(c))
			}
		}
	}
	return r
}

// TestScratch_AnyOrder checks AnyOrder, whose relations with one item
// class a step and no bonus skip the flow, against the flow on random
// relations: the same pairs.
func TestScratch_AnyOrder(t *testing.T) {
	tests := []struct {
		name           string
		items, steps   int
		classes, match int
		bonus          bool
		reason         string
	}{
		{"one class a step", 8, 12, 4, 6, false, "mostly single signatures: the shortcut"},
		{"bench", 3, 20, 6, 5, false, "a few calls in twenty steps"},
		{"crowded", 10, 10, 2, 2, false, "steps often match two classes: the flow"},
		{"more items", 20, 6, 3, 4, false, "items outnumber the steps of their class"},
		{"bonus", 6, 10, 3, 5, true, "bonuses always take the flow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.items), uint64(tt.classes)))
			var fast, ref align.Scratch
			for n := range 3000 {
				r := randomPlain(rng, 1+rng.IntN(tt.items), rng.IntN(tt.steps+1), tt.classes, tt.match)
				if tt.bonus {
					r.Bonus = func(c int32, j int) bool { return (int(c)+j)%3 == 0 }
				}
				got, want := fast.AnyOrder(r), ref.AnyOrderFlow(r)
				if !slices.Equal(got.Pairs, want.Pairs) || got.Bonus != want.Bonus {
					t.Fatalf("case %d (%s): %+v, want %+v\nitems %v\nsteps %v", n, tt.reason, got, want, r.ItemClass, r.Steps)
				}
			}
		})
	}
}
