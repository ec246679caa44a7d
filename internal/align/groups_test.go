package align_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/align"
)

// randomPattern makes a small pattern whose items are numbered in
// document order from *next.
func randomPattern(rng *rand.Rand, depth int, next *int) align.Pattern {
	if depth == 0 || rng.IntN(3) == 0 {
		*next++
		return align.Pattern{Kind: align.Item, Item: *next - 1}
	}
	kind := []align.PatternKind{align.Sequence, align.Unordered, align.OneOf, align.Optional, align.Repeat}[rng.IntN(5)]
	p := align.Pattern{Kind: kind}
	n := 1
	if kind != align.Optional && kind != align.Repeat {
		n = 1 + rng.IntN(3)
	}
	for range n {
		p.Sub = append(p.Sub, randomPattern(rng, depth-1, next))
	}
	if kind == align.Repeat {
		p.Min = rng.IntN(2)
		p.Max = []int{-1, 1, 2}[rng.IntN(3)]
		if rng.IntN(3) == 0 {
			p.Max = -1
		}
	}
	return p
}

// words lists the words of p, with an unbounded repeat taken at most
// extra times beyond its minimum (more copies than steps only add
// unmatched items, which never score better).
func words(p align.Pattern, extra int) [][]int {
	concat := func(a, b [][]int) [][]int {
		var out [][]int
		for _, x := range a {
			for _, y := range b {
				out = append(out, append(slices.Clone(x), y...))
				if len(out) > 20000 {
					return out // more than the test takes: it skips the case
				}
			}
		}
		return out
	}
	switch p.Kind {
	case align.Item:
		return [][]int{{p.Item}}
	case align.Sequence:
		out := [][]int{{}}
		for _, s := range p.Sub {
			out = concat(out, words(s, extra))
		}
		return out
	case align.Unordered:
		var out [][]int
		var perm func(used int, acc [][]int)
		perm = func(used int, acc [][]int) {
			if used == 1<<len(p.Sub)-1 {
				out = append(out, acc...)
				return
			}
			for i, s := range p.Sub {
				if used&(1<<i) == 0 {
					perm(used|1<<i, concat(acc, words(s, extra)))
				}
			}
		}
		perm(0, [][]int{{}})
		return out
	case align.OneOf:
		var out [][]int
		for _, s := range p.Sub {
			out = append(out, words(s, extra)...)
		}
		return out
	case align.Optional:
		return append(words(p.Sub[0], extra), []int{})
	case align.Repeat:
		hi := p.Max
		if hi < 0 {
			hi = p.Min + extra
		}
		var out [][]int
		cur := [][]int{{}}
		for n := 0; n <= hi; n++ {
			if n >= p.Min {
				out = append(out, cur...)
			}
			cur = concat(cur, words(p.Sub[0], extra))
			if len(cur) > 5000 {
				// Too many to list: return more than the test takes,
				// so that it skips the case rather than miss a word.
				return append(out, cur...)
			}
		}
		return out
	}
	return nil
}

type groupCase struct {
	r     *align.Relation
	chk   align.Checks
	limit map[int32]bool
	skip  map[[2]int]bool
}

// score of one word and one assignment of its items to steps.
func (g *groupCase) score(w, steps []int) (num, den, hits int) {
	for k, i := range w {
		c := g.r.ItemClass[i]
		den++
		if g.limit[c] {
			den++
		}
		j := steps[k]
		if j < 0 {
			continue
		}
		hits++
		num++
		switch {
		case !g.limit[c]:
		case g.skip[[2]int{int(c), j}]:
			den--
		case g.r.Bonus != nil && g.r.Bonus(c, j):
			num++
		}
	}
	return num, den, hits
}

// better compares (ratio, hits, −den), the empty word's ratio being 1.
func better(n1, d1, h1, n2, d2, h2 int) int {
	if d1 == 0 {
		n1, d1 = 1, 1
	}
	if d2 == 0 {
		n2, d2 = 1, 1
	}
	if c := n1*d2 - n2*d1; c != 0 {
		return c
	}
	if h1 != h2 {
		return h1 - h2
	}
	return 0
}

// bruteExact finds the best positional assignment of word w: item k
// against a step of position k's block, one item per step.
func (g *groupCase) bruteExact(w []int, blk []int) (num, den, hits int) {
	na := len(g.r.Steps)
	steps := make([]int, len(w))
	best := [3]int{-1, 1, -1}
	var rec func(k int, used uint)
	rec = func(k int, used uint) {
		if k == len(w) {
			n, d, h := g.score(w, steps)
			d += max(len(w), na) - len(w)
			if best[0] < 0 || better(n, d, h, best[0], best[1], best[2]) > 0 {
				best = [3]int{n, d, h}
			}
			return
		}
		steps[k] = -1
		rec(k+1, used)
		for j := range na {
			if k < na && used&(1<<j) == 0 && blk[j] == blk[k] && matches(g.r, w[k], j) {
				steps[k] = j
				rec(k+1, used|1<<j)
			}
		}
		steps[k] = -1
	}
	rec(0, 0)
	return best[0], best[1], best[2]
}

// bruteWord finds the best in-order assignment of word w.
func (g *groupCase) bruteWord(w []int, blk []int) (num, den, hits int) {
	na := len(g.r.Steps)
	steps := make([]int, len(w))
	best := [3]int{-1, 1, -1}
	var rec func(k, last int, used uint)
	rec = func(k, last int, used uint) {
		if k == len(w) {
			n, d, h := g.score(w, steps)
			if best[0] < 0 || better(n, d, h, best[0], best[1], best[2]) > 0 || better(n, d, h, best[0], best[1], best[2]) == 0 && d < best[1] {
				best = [3]int{n, d, h}
			}
			return
		}
		steps[k] = -1
		rec(k+1, last, used)
		for j := range na {
			if used&(1<<j) == 0 && blk[j] >= last && matches(g.r, w[k], j) {
				steps[k] = j
				rec(k+1, blk[j], used|1<<j)
			}
		}
		steps[k] = -1
	}
	rec(0, 0, 0)
	return best[0], best[1], best[2]
}

func randomGroupCase(rng *rand.Rand) (align.Pattern, *groupCase) {
	next := 0
	p := randomPattern(rng, 3, &next)
	r := random(rng)
	nc := int32(1)
	for _, s := range r.Steps {
		for _, c := range s {
			nc = max(nc, c+1)
		}
	}
	r.ItemClass = make([]int32, next)
	for i := range r.ItemClass {
		r.ItemClass[i] = rng.Int32N(nc + 1)
	}
	g := &groupCase{r: r, limit: map[int32]bool{}, skip: map[[2]int]bool{}}
	if r.Bonus != nil {
		for c := range nc + 1 {
			g.limit[c] = rng.IntN(2) == 0
			for j := range r.Steps {
				g.skip[[2]int{int(c), j}] = rng.IntN(4) == 0
			}
		}
		g.chk = align.Checks{
			Limited: func(c int32) bool { return g.limit[c] },
			Skipped: func(c int32, j int) bool { return g.skip[[2]int{int(c), j}] },
		}
	}
	return p, g
}

// TestAutomaton_Optimal checks the alignment of patterns with groups
// against exhaustive search over every word and every in-order
// assignment, on thousands of small random cases, parallel groups and
// latency checks (passes and skips) included.
func TestAutomaton_Optimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 3000; {
		p, g := randomGroupCase(rng)
		ws := words(p, len(g.r.Steps))
		if len(ws) > 300 || slices.ContainsFunc(ws, func(w []int) bool { return len(w) > 7 }) {
			continue // too many for the exhaustive search
		}
		n++
		name := fmt.Sprintf("case %d: pattern %s", n, show(p))
		a, err := align.Compile(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c, err := a.Align(g.r, g.chk, align.Recall)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		blk := blockOf(g.r)
		// The choice is a word of the pattern, matched in order.
		if !slices.ContainsFunc(ws, func(w []int) bool { return slices.Equal(w, c.Items) }) {
			t.Fatalf("%s: chose %v, not a word of the pattern", name, c.Items)
		}
		last, used := 0, map[int]bool{}
		for k, j := range c.Steps {
			if j < 0 {
				continue
			}
			if !matches(g.r, c.Items[k], j) || used[j] || blk[j] < last {
				t.Fatalf("%s: item %d at step %d breaks the in-order rule (%v → %v)", name, c.Items[k], j, c.Items, c.Steps)
			}
			used[j], last = true, blk[j]
		}
		num, den, hits := g.score(c.Items, c.Steps)
		if num != c.Num || den != c.Den || hits != c.Hits {
			t.Fatalf("%s: reports %d/%d hits %d, its alignment gives %d/%d hits %d", name, c.Num, c.Den, c.Hits, num, den, hits)
		}
		bn, bd, bh := -1, 1, 0
		for _, w := range ws {
			n, d, h := g.bruteWord(w, blk)
			if bn < 0 || better(n, d, h, bn, bd, bh) > 0 {
				bn, bd, bh = n, d, h
			}
		}
		if better(num, den, hits, bn, bd, bh) != 0 {
			t.Fatalf("%s: got %d/%d with %d hits (%v → %v), optimum %d/%d with %d hits; steps %v groups %v classes %v",
				name, num, den, hits, c.Items, c.Steps, bn, bd, bh, g.r.Steps, g.r.Group, g.r.ItemClass)
		}

		// Position by position.
		c, err = a.AlignExact(g.r, g.chk, align.Recall)
		if err != nil {
			t.Fatalf("%s exact: %v", name, err)
		}
		if !slices.ContainsFunc(ws, func(w []int) bool { return slices.Equal(w, c.Items) }) {
			t.Fatalf("%s exact: chose %v, not a word of the pattern", name, c.Items)
		}
		na := len(g.r.Steps)
		used, slot := map[int]bool{}, map[int]bool{}
		for k, j := range c.Steps {
			sl := c.Slots[k]
			if slot[sl] || (k < na) != (sl < na) || sl < na && blk[sl] != blk[k] || sl >= na && sl != k {
				t.Fatalf("%s exact: item %d in slot %d: not its position (%v)", name, k, sl, c.Slots)
			}
			slot[sl] = true
			if j >= 0 && (j != sl || !matches(g.r, c.Items[k], j) || used[j]) {
				t.Fatalf("%s exact: item %d at step %d in slot %d breaks the exact rule", name, k, j, sl)
			}
			used[j] = true
		}
		num, den, hits = g.score(c.Items, c.Steps)
		den += max(len(c.Items), na) - len(c.Items)
		if num != c.Num || den != c.Den || hits != c.Hits {
			t.Fatalf("%s exact: reports %d/%d hits %d, its alignment gives %d/%d hits %d", name, c.Num, c.Den, c.Hits, num, den, hits)
		}
		bn, bd, bh = -1, 1, 0
		for _, w := range ws {
			n, d, h := g.bruteExact(w, blk)
			if bn < 0 || better(n, d, h, bn, bd, bh) > 0 {
				bn, bd, bh = n, d, h
			}
		}
		if na > 0 && bd == 0 {
			bd = na // the empty word against steps: 0 of them
		}
		if better(num, den, hits, bn, bd, bh) != 0 {
			t.Fatalf("%s exact: got %d/%d with %d hits (%v → %v), optimum %d/%d with %d hits; steps %v groups %v classes %v",
				name, num, den, hits, c.Items, c.Steps, bn, bd, bh, g.r.Steps, g.r.Group, g.r.ItemClass)
		}
	}
}

func show(p align.Pattern) string {
	var sub []string
	for _, s := range p.Sub {
		sub = append(sub, show(s))
	}
	in := strings.Join(sub, " ")
	switch p.Kind {
	case align.Item:
		return fmt.Sprint(p.Item)
	case align.Sequence:
		return "(" + in + ")"
	case align.Unordered:
		return "{" + in + "}"
	case align.OneOf:
		return "(" + strings.Join(sub, "|") + ")"
	case align.Optional:
		return in + "?"
	}
	return fmt.Sprintf("%s{%d,%d}", in, p.Min, p.Max)
}

// TestAutomaton_Plain checks that a pattern without choices aligns as
// InOrder does: the same number of hits.
func TestAutomaton_Plain(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for n := range 500 {
		r := random(rng)
		r.Bonus = nil
		p := align.Pattern{Kind: align.Sequence}
		for i := range r.ItemClass {
			p.Sub = append(p.Sub, align.Pattern{Kind: align.Item, Item: i})
		}
		if len(p.Sub) == 0 {
			continue
		}
		a, err := align.Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := a.Align(r, align.Checks{}, align.Recall)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(align.InOrder(r).Pairs); c.Hits != want || c.Den != len(r.ItemClass) {
			t.Fatalf("case %d: %d hits of %d, InOrder finds %d of %d", n, c.Hits, c.Den, want, len(r.ItemClass))
		}
	}
}

func TestCompile_Errors(t *testing.T) {
	item := align.Pattern{Kind: align.Item}
	big := align.Pattern{Kind: align.Unordered}
	for range align.MaxUnordered + 1 {
		big.Sub = append(big.Sub, item)
	}
	tests := []struct {
		name   string
		p      align.Pattern
		target error
		reason string
	}{
		{"empty sequence", align.Pattern{Kind: align.Sequence}, align.ErrPattern, "a group with nothing in it expects nothing: a mistake"},
		{"empty one_of", align.Pattern{Kind: align.OneOf}, align.ErrPattern, "no alternative would match nothing at all"},
		{"empty any_order", align.Pattern{Kind: align.Unordered}, align.ErrPattern, "a group with nothing in it"},
		{"optional of two", align.Pattern{Kind: align.Optional, Sub: []align.Pattern{item, item}}, align.ErrPattern, "optional wraps one entry"},
		{"min above max", align.Pattern{Kind: align.Repeat, Sub: []align.Pattern{item}, Min: 3, Max: 2}, align.ErrPattern, "no count satisfies both"},
		{"negative min", align.Pattern{Kind: align.Repeat, Sub: []align.Pattern{item}, Min: -1, Max: 2}, align.ErrPattern, "a count is never negative"},
		{"max zero", align.Pattern{Kind: align.Repeat, Sub: []align.Pattern{item}, Min: 0, Max: 0}, align.ErrPattern, "repeating zero times expects nothing"},
		{"big any_order", big, align.ErrTooLarge, "2^13 hubs: beyond the bound"},
		{"many states", align.Pattern{Kind: align.Repeat, Sub: []align.Pattern{{Kind: align.Unordered, Sub: big.Sub[:10]}}, Min: 100, Max: 100}, align.ErrTooLarge, "100 copies of a 1024-hub group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := align.Compile(tt.p)
			if !errors.Is(err, tt.target) {
				t.Fatalf("Compile: %v, want %v (%s)", err, tt.target, tt.reason)
			}
		})
	}
}

// TestAutomaton_LargeParallelGroup refuses a parallel group beyond the
// subset dynamic program rather than align it wrongly.
func TestAutomaton_LargeParallelGroup(t *testing.T) {
	r := &align.Relation{ItemClass: []int32{0}}
	for range 15 {
		r.Steps = append(r.Steps, []int32{0})
		r.Group = append(r.Group, 1)
	}
	a, err := align.Compile(align.Pattern{Kind: align.Optional, Sub: []align.Pattern{{Kind: align.Item}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Align(r, align.Checks{}, align.Recall); !errors.Is(err, align.ErrTooLarge) {
		t.Fatalf("a parallel group of 15 steps: %v, want ErrTooLarge", err)
	}
}

// assignments calls visit with every assignment of word w's items to
// steps (-1: none), in order (blocks not going back) or, when exact,
// item k against a step of position k's block; one item per step.
func (g *groupCase) assignments(w []int, blk []int, exact bool, visit func(steps []int)) {
	na := len(g.r.Steps)
	steps := make([]int, len(w))
	var rec func(k, last int, used uint)
	rec = func(k, last int, used uint) {
		if k == len(w) {
			visit(steps)
			return
		}
		steps[k] = -1
		rec(k+1, last, used)
		for j := range na {
			ok := used&(1<<j) == 0 && matches(g.r, w[k], j)
			if exact {
				ok = ok && k < na && blk[j] == blk[k]
			} else {
				ok = ok && blk[j] >= last
			}
			if ok {
				steps[k] = j
				rec(k+1, blk[j], used|1<<j)
			}
		}
		steps[k] = -1
	}
	rec(0, 0, 0)
}

// goalScore is the score of word w under goal, with the length that
// breaks ties (the denominator for Recall, the items else).
func (g *groupCase) goalScore(goal align.Goal, w, steps []int, exact bool) (num, den, hits, length int) {
	na := len(g.r.Steps)
	num, den, hits = g.score(w, steps)
	if exact {
		den += max(len(w), na) - len(w)
	}
	switch goal {
	case align.Recall:
		return num, den, hits, den
	case align.Precision:
		return hits, na, hits, len(w)
	case align.F1:
		return 2 * hits, len(w) + na, hits, len(w)
	}
	return hits, max(len(w), na), hits, len(w)
}

// TestAutomaton_Goals checks, for every goal and both alignments, the
// word chosen against exhaustive search over every word and assignment:
// the best score, then the most hits, then the shortest (for Recall, the
// smallest denominator).
func TestAutomaton_Goals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	goals := map[align.Goal]string{align.Recall: "recall", align.Precision: "precision", align.F1: "f1", align.Max: "max"}
	for n := 0; n < 1500; {
		p, g := randomGroupCase(rng)
		ws := words(p, len(g.r.Steps)+2)
		if len(ws) > 200 || slices.ContainsFunc(ws, func(w []int) bool { return len(w) > 7 }) {
			continue
		}
		n++
		a, err := align.Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		blk := blockOf(g.r)
		for goal, gname := range goals {
			for _, exact := range []bool{false, true} {
				name := fmt.Sprintf("case %d %s exact=%v: pattern %s steps %v groups %v classes %v", n, gname, exact, show(p), g.r.Steps, g.r.Group, g.r.ItemClass)
				var c align.Choice
				if exact {
					c, err = a.AlignExact(g.r, g.chk, goal)
				} else {
					c, err = a.Align(g.r, g.chk, goal)
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !slices.ContainsFunc(ws, func(w []int) bool { return slices.Equal(w, c.Items) }) {
					t.Fatalf("%s: chose %v, not a word of the pattern", name, c.Items)
				}
				num, den, hits, length := g.goalScore(goal, c.Items, c.Steps, exact)
				if num != c.Num || den != c.Den || hits != c.Hits {
					t.Fatalf("%s: reports %d/%d hits %d, its alignment gives %d/%d hits %d", name, c.Num, c.Den, c.Hits, num, den, hits)
				}
				bn, bd, bh, bl := -1, 1, 0, 0
				for _, w := range ws {
					g.assignments(w, blk, exact, func(steps []int) {
						n, d, h, l := g.goalScore(goal, w, steps, exact)
						if b := better(n, d, h, bn, bd, bh); bn < 0 || b > 0 || b == 0 && l < bl {
							bn, bd, bh, bl = n, d, h, l
						}
					})
				}
				if b := better(num, den, hits, bn, bd, bh); b != 0 || length != bl {
					t.Fatalf("%s: got %d/%d with %d hits, length %d (%v → %v); optimum %d/%d with %d hits, length %d",
						name, num, den, hits, length, c.Items, c.Steps, bn, bd, bh, bl)
				}
			}
		}
	}
}

// TestAutomaton_Align_bounds checks the sizes an alignment may reach
// (MaxCells, MaxLayers, MaxWork): what the doc says fits is aligned, and
// what is past them is refused before any work, however small the input
// that asks for it.
func TestAutomaton_Align_bounds(t *testing.T) {
	item := func(i int) align.Pattern { return align.Pattern{Kind: align.Item, Item: i} }
	list := align.Pattern{Kind: align.Sequence}
	for i := range 100 {
		list.Sub = append(list.Sub, item(i%40))
	}
	pairs := func(k int) align.Pattern { // an any_order group of k sequences of 2 calls
		p := align.Pattern{Kind: align.Unordered}
		for i := range k {
			p.Sub = append(p.Sub, align.Pattern{Kind: align.Sequence, Sub: []align.Pattern{item(i), item(i + 20)}})
		}
		return p
	}
	any12 := align.Pattern{Kind: align.Unordered}
	for i := range 12 {
		any12.Sub = append(any12.Sub, item(i))
	}
	tests := []struct {
		name     string
		p        align.Pattern
		steps    int
		parallel int // the first steps in one parallel group
		tooLarge bool
		slow     bool // skipped under the race detector
		reason   string
	}{
		{"list of 100 calls, 100,000 steps", list, 100000, 0, false, true, "the documented plain-list size: 10.1 M cells, 30 M units a round"},
		{"any_order of 5 pairs, 14 parallel steps", pairs(5), 14, 14, false, false, "192 states × 2^14 layers: 3.1 M, under MaxLayers"},
		{"any_order of 6 pairs, 14 parallel steps", pairs(6), 14, 14, true, false, "448 states × 2^14 layers: 7.3 M (117 MB of layers)"},
		{"any_order of 7 pairs, 14 parallel steps", pairs(7), 14, 14, true, false, "the size of an expectation FuzzMine mined: 16 M layers took 650 MB and seconds"},
		{"any_order of 12, 1,000 steps", any12, 1000, 0, false, false, "4,096 states, 24,576 transitions: 33.4 M units a round, just under MaxWork"},
		{"any_order of 12, 1,200 steps", any12, 1200, 0, true, false, "40 M units a round: past MaxWork though under MaxCells (4.9 M)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.slow && raceEnabled {
				t.Skip("a second without the race detector; minutes with it")
			}
			a, err := align.Compile(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			r := &align.Relation{ItemClass: make([]int32, 40), Steps: make([][]int32, tt.steps), Group: make([]int32, tt.steps)}
			for i := range r.ItemClass {
				r.ItemClass[i] = int32(i)
			}
			for j := range tt.steps {
				r.Steps[j] = []int32{int32(j % 40)}
				if j < tt.parallel {
					r.Group[j] = 1
				}
			}
			c, err := a.Align(r, align.Checks{}, align.Recall)
			if got := errors.Is(err, align.ErrTooLarge); got != tt.tooLarge {
				t.Fatalf("Align: %v, want too large %v (%s)", err, tt.tooLarge, tt.reason)
			}
			if err == nil && c.Hits == 0 {
				t.Fatalf("no hits: the steps hold the expected calls (%s)", tt.reason)
			}
		})
	}
}
