package align_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval/internal/align"
)

// brute finds the best (hits, bonus) by trying every assignment.
func brute(r *align.Relation, valid func(assign []int) bool) (int, int) {
	ne, na := len(r.ItemClass), len(r.Steps)
	assign := make([]int, ne)
	bestH, bestB := 0, 0
	var rec func(i int)
	rec = func(i int) {
		if i == ne {
			if !valid(assign) {
				return
			}
			h, b := 0, 0
			for it, s := range assign {
				if s < 0 {
					continue
				}
				h++
				if r.Bonus != nil && r.Bonus(r.ItemClass[it], s) {
					b++
				}
			}
			if h > bestH || (h == bestH && b > bestB) {
				bestH, bestB = h, b
			}
			return
		}
		assign[i] = -1
		rec(i + 1)
		for s := range na {
			if matches(r, i, s) {
				assign[i] = s
				rec(i + 1)
			}
		}
		assign[i] = -1
	}
	rec(0)
	return bestH, bestB
}

func matches(r *align.Relation, i, j int) bool {
	for _, c := range r.Steps[j] {
		if c == r.ItemClass[i] {
			return true
		}
	}
	return false
}

func injective(assign []int) bool {
	seen := map[int]bool{}
	for _, s := range assign {
		if s >= 0 {
			if seen[s] {
				return false
			}
			seen[s] = true
		}
	}
	return true
}

func random(rng *rand.Rand) *align.Relation {
	ne, na := rng.IntN(6), rng.IntN(7)
	nc := 1 + rng.IntN(4)
	r := &align.Relation{ItemClass: make([]int32, ne), Steps: make([][]int32, na), Group: make([]int32, na)}
	for i := range r.ItemClass {
		r.ItemClass[i] = int32(rng.IntN(nc))
	}
	for j := range r.Steps {
		for c := range nc {
			if rng.IntN(3) == 0 {
				r.Steps[j] = append(r.Steps[j], int32(c))
			}
		}
	}
	g := int32(0)
	for j := 0; j < na; {
		k := 1 + rng.IntN(3)
		if rng.IntN(2) == 0 || k == 1 {
			j++
			continue
		}
		g++
		for ; k > 0 && j < na; k-- {
			r.Group[j] = g
			j++
		}
	}
	if rng.IntN(2) == 0 {
		bonus := map[[2]int]bool{}
		for c := range nc {
			for j := range na {
				bonus[[2]int{c, j}] = rng.IntN(2) == 0
			}
		}
		r.Bonus = func(c int32, j int) bool { return bonus[[2]int{int(c), j}] }
	}
	return r
}

func blockOf(r *align.Relation) []int {
	b := make([]int, len(r.Steps))
	cur := 0
	for j := range r.Steps {
		if j > 0 && (r.Group[j] == 0 || r.Group[j] != r.Group[j-1]) {
			cur++
		}
		b[j] = cur
	}
	return b
}

func check(t *testing.T, name string, r *align.Relation, a align.Alignment, valid func([]int) bool) {
	t.Helper()
	assign := make([]int, len(r.ItemClass))
	for i := range assign {
		assign[i] = -1
	}
	bonus := 0
	for _, p := range a.Pairs {
		if !matches(r, p.Item, p.Step) {
			t.Fatalf("%s: pair %v does not match", name, p)
		}
		if assign[p.Item] != -1 {
			t.Fatalf("%s: item %d used twice", name, p.Item)
		}
		assign[p.Item] = p.Step
		if r.Bonus != nil && r.Bonus(r.ItemClass[p.Item], p.Step) {
			bonus++
		}
	}
	if !valid(assign) {
		t.Fatalf("%s: alignment %v breaks the mode's rule", name, a.Pairs)
	}
	if bonus != a.Bonus {
		t.Fatalf("%s: bonus %d reported as %d", name, bonus, a.Bonus)
	}
	h, b := brute(r, valid)
	if len(a.Pairs) != h || a.Bonus != b {
		t.Fatalf("%s: got (hits %d, bonus %d), optimum is (%d, %d); relation %+v", name, len(a.Pairs), a.Bonus, h, b, r)
	}
}

// TestAlign_Optimal checks every alignment against exhaustive search on
// thousands of small random relations, parallel groups and bonuses
// included.
func TestAlign_Optimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		r := random(rng)
		blk := blockOf(r)
		inOrder := func(assign []int) bool {
			if !injective(assign) {
				return false
			}
			last := -1
			for _, s := range assign {
				if s < 0 {
					continue
				}
				if blk[s] < last {
					return false
				}
				last = blk[s]
			}
			return true
		}
		exact := func(assign []int) bool {
			if !injective(assign) {
				return false
			}
			for i, s := range assign {
				if s >= 0 && (i >= len(blk) || blk[s] != blk[i]) {
					return false
				}
			}
			return true
		}
		name := fmt.Sprint("case ", n)
		check(t, name+" in_order", r, align.InOrder(r), inOrder)
		check(t, name+" any_order", r, align.AnyOrder(r), injective)
		check(t, name+" exact", r, align.Exact(r), exact)
		r.Group = make([]int32, len(r.Steps))
		blk = blockOf(r)
		check(t, name+" in_order flat", r, align.InOrder(r), inOrder)
	}
}

// TestInOrder_LargeGroup exercises the interval path for a group larger
// than the subset dynamic program takes.
func TestInOrder_LargeGroup(t *testing.T) {
	const k = 20
	r := &align.Relation{}
	for i := range k {
		r.ItemClass = append(r.ItemClass, int32(k-1-i))
		r.Steps = append(r.Steps, []int32{int32(i)})
		r.Group = append(r.Group, 1)
	}
	if got := len(align.InOrder(r).Pairs); got != k {
		t.Fatalf("a reversed group of %d: matched %d, want all", k, got)
	}
	r.Group = make([]int32, k)
	if got := len(align.InOrder(r).Pairs); got != 1 {
		t.Fatalf("the same steps without a group: matched %d, want 1", got)
	}
}

// TestInOrder_Segments checks the LCS of a size whose traceback runs over
// several recomputed segments of columns against the plain dynamic
// program: the same length, a valid order-preserving matching.
func TestInOrder_Segments(t *testing.T) {
	const n = 9000 // (n+1)·⌈n/64⌉ words is over the 2^20 of one segment
	rng := rand.New(rand.NewPCG(3, 4))
	r := &align.Relation{ItemClass: make([]int32, n), Steps: make([][]int32, n)}
	for i := range n {
		r.ItemClass[i] = rng.Int32N(4)
		r.Steps[i] = []int32{rng.Int32N(4)}
	}
	prev, cur := make([]int32, n+1), make([]int32, n+1)
	for j := range n {
		for i := 1; i <= n; i++ {
			switch {
			case r.ItemClass[i-1] == r.Steps[j][0]:
				cur[i] = prev[i-1] + 1
			default:
				cur[i] = max(prev[i], cur[i-1])
			}
		}
		prev, cur = cur, prev
	}
	a := align.InOrder(r)
	if len(a.Pairs) != int(prev[n]) {
		t.Fatalf("%d pairs, want the LCS %d", len(a.Pairs), prev[n])
	}
	for k, p := range a.Pairs {
		if r.ItemClass[p.Item] != r.Steps[p.Step][0] || k > 0 && (p.Item <= a.Pairs[k-1].Item || p.Step <= a.Pairs[k-1].Step) {
			t.Fatalf("pair %d %+v: not a matching in order", k, p)
		}
	}
}
