package align_test

import (
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval/internal/align"
)

// BenchmarkInOrder_100kx100k aligns 100,000 expected calls with 100,000 steps
// over 20 tools, the steps being the calls with a tenth replaced: the
// bit-parallel LCS and its traceback at the largest size trajeval promises
// to handle in a second.
func BenchmarkInOrder_100kx100k(b *testing.B) {
	const n = 100_000
	rng := rand.New(rand.NewPCG(7, n))
	r := &align.Relation{ItemClass: make([]int32, n), Steps: make([][]int32, n)}
	classes := make([][]int32, 20)
	for c := range classes {
		classes[c] = []int32{int32(c)}
	}
	for i := range n {
		c := rng.Int32N(20)
		r.ItemClass[i] = c
		if rng.IntN(10) == 0 {
			c = rng.Int32N(20)
		}
		r.Steps[i] = classes[c]
	}
	b.ReportAllocs()
	for b.Loop() {
		if a := align.InOrder(r); len(a.Pairs) < n*8/10 {
			b.Fatalf("%d pairs: the steps are mostly the calls", len(a.Pairs))
		}
	}
}

// BenchmarkAnyOrder_100kx100k matches the same 100,000 calls and steps in any
// order: the flow runs on classes of calls and kinds of steps, so its
// graph has a few dozen nodes however long the lists are.
func BenchmarkAnyOrder_100kx100k(b *testing.B) {
	const n = 100_000
	rng := rand.New(rand.NewPCG(7, n))
	r := &align.Relation{ItemClass: make([]int32, n), Steps: make([][]int32, n)}
	classes := make([][]int32, 20)
	for c := range classes {
		classes[c] = []int32{int32(c)}
	}
	for i := range n {
		r.ItemClass[i] = rng.Int32N(20)
		r.Steps[i] = classes[rng.Int32N(20)]
	}
	b.ReportAllocs()
	for b.Loop() {
		if a := align.AnyOrder(r); len(a.Pairs) < n*9/10 {
			b.Fatalf("%d pairs: most calls have a step of their tool", len(a.Pairs))
		}
	}
}

// BenchmarkAutomaton_1000 aligns a pattern of 20 calls and groups (an
// any_order group of 4, a one_of of a call and a sequence, an optional
// call, an unbounded repeat) with 1,000 steps over 20 tools, in parallel
// groups of 3 one time in ten.
func BenchmarkAutomaton_1000(b *testing.B) {
	const n = 1000
	rng := rand.New(rand.NewPCG(9, n))
	item := func(i int) align.Pattern { return align.Pattern{Kind: align.Item, Item: i} }
	p := align.Pattern{Kind: align.Sequence}
	for i := range 10 {
		p.Sub = append(p.Sub, item(i))
	}
	p.Sub = append(p.Sub,
		align.Pattern{Kind: align.Unordered, Sub: []align.Pattern{item(10), item(11), item(12), item(13)}},
		align.Pattern{Kind: align.OneOf, Sub: []align.Pattern{item(14), {Kind: align.Sequence, Sub: []align.Pattern{item(15), item(16)}}}},
		align.Pattern{Kind: align.Optional, Sub: []align.Pattern{item(17)}},
		align.Pattern{Kind: align.Repeat, Sub: []align.Pattern{item(18)}, Min: 1, Max: -1},
		item(19))
	r := &align.Relation{ItemClass: make([]int32, 20), Steps: make([][]int32, n), Group: make([]int32, n)}
	for i := range r.ItemClass {
		r.ItemClass[i] = int32(i)
	}
	classes := make([][]int32, 20)
	for c := range classes {
		classes[c] = []int32{int32(c)}
	}
	g := int32(0)
	for j := range n {
		r.Steps[j] = classes[rng.IntN(20)]
		if j%30 == 0 {
			g++
		}
		if j%30 < 3 {
			r.Group[j] = g
		}
	}
	a, err := align.Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := a.Align(r, align.Checks{}, align.Recall)
		if err != nil || c.Hits < 19 {
			b.Fatalf("%v: %d hits; 1,000 random steps hold the 20 calls in order", err, c.Hits)
		}
	}
	b.ReportMetric(float64(a.States()), "states")
}
