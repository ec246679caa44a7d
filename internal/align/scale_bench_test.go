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
