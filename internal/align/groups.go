package align

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// A Pattern is an expectation with groups: an item, or a group of
// patterns. It stands for a set of plain item lists, its words:
//  1. an Item is the one-item list [Item];
//  2. a Sequence is its entries' words one after another;
//  3. an Unordered group is its entries' words one after another, the
//     entries taken whole in any order (a permutation of the entries,
//     not an interleaving of their items);
//  4. OneOf is the words of exactly one of its entries;
//  5. Optional is its entry's words or the empty list;
//  6. Repeat is its entry's words Min to Max times over (Max < 0:
//     unbounded), each time with its own choices.
type Pattern struct {
	Kind PatternKind
	Item int       // an Item: the item (an index into Relation.ItemClass)
	Sub  []Pattern // a group's entries; Optional and Repeat have one
	// Min and Max bound a Repeat; Max < 0 is unbounded.
	Min, Max int
}

// A PatternKind says what a Pattern is.
type PatternKind int

// The kinds of Pattern.
const (
	Item PatternKind = iota
	Sequence
	Unordered
	OneOf
	Optional
	Repeat
)

// The sizes a compiled pattern, and one alignment of it, may reach. An
// Unordered group of k entries compiles to 2^k hub states (one per set of
// entries already taken), with a copy of each entry between hubs, so both
// bound it. An alignment works through the steps' blocks (a parallel
// group of k steps is one block of 2^k layers, one per subset of its
// steps taken; any other step is a block of its own, k = 1), so that its
// memory and time are bounded before it starts:
//  1. MaxCells bounds the traceback, kept for the whole alignment: the
//     sum over the blocks of (2^k − 1) × states (4 bytes each);
//  2. MaxLayers bounds the layers of one block, kept while it is
//     aligned: 2^k × states (16 bytes each);
//  3. MaxWork bounds the work of one round of the alignment (12 to 60
//     instructions a unit measured, so under a second on one core): the
//     sum over the blocks of 2^k × states (each layer set and read),
//     (2^k − 1) × transitions (each subset's closure) and 2^(k−1) × the
//     item transitions its steps are tried against (each subset and step
//     not in it: those of the step's classes; in exact alignments all).
//
// Past any of them an alignment is refused with [ErrTooLarge], never
// approximated. A plain list of 100 calls fits against 100,000 steps, and
// a parallel group of 14 steps against an automaton of about 200 states;
// an any_order group of 12 calls (4,096 states) against 1,000 steps.
const (
	MaxUnordered = 12      // entries of one Unordered group
	MaxStates    = 1 << 16 // states of a compiled pattern
	MaxCells     = 1 << 24 // back pointers of one alignment (64 MiB)
	MaxLayers    = 1 << 22 // layers of one block (64 MiB)
	MaxWork      = 1 << 25 // states and transitions taken in one round
)

// ErrTooLarge is returned when a pattern or an alignment exceeds the
// sizes above.
var ErrTooLarge = errors.New("expectation too large")

// ErrPattern is returned for a pattern that is not well formed.
var ErrPattern = errors.New("invalid pattern")

// An Automaton is a compiled Pattern: a weighted nondeterministic finite
// automaton whose transitions are items or empty. It is only read once
// made, so goroutines may share it.
type Automaton struct {
	states        int
	start, accept int32
	edges         []autoEdge
	out           [][]int32 // edges by source state
	order         []int32   // states, forward edges first (reverse DFS postorder)
	pos           []int32   // pos[state]: its place in order
	leafEdges     []int32
	nullable      bool
}

type autoEdge struct {
	from, to int32
	item     int32 // -1: an empty transition
}

// Compile compiles p. It refuses, wrapping [ErrPattern], an empty group, an
// Optional or Repeat without exactly one entry, a Repeat with Min < 0,
// Max = 0 or Min > Max, and, wrapping [ErrTooLarge], an Unordered group of
// more than [MaxUnordered] entries or more than [MaxStates] states.
func Compile(p Pattern) (*Automaton, error) {
	b := &builder{}
	from := b.state()
	to := b.build(p, from)
	if b.err != nil {
		return nil, b.err
	}
	return newAutomaton(b.n, int32(from), int32(to), b.edges), nil
}

// newAutomaton indexes the edges of an automaton and orders its states.
func newAutomaton(states int, start, accept int32, edges []autoEdge) *Automaton {
	a := &Automaton{states: states, start: start, accept: accept, edges: edges}
	a.out = make([][]int32, a.states)
	for e, ed := range a.edges {
		a.out[ed.from] = append(a.out[ed.from], int32(e))
		if ed.item >= 0 {
			a.leafEdges = append(a.leafEdges, int32(e))
		}
	}
	// Reverse DFS postorder from the start: every edge but the loops'
	// back edges goes forward in it, so one pass of relaxation mostly
	// suffices.
	seen := make([]bool, a.states)
	post := make([]int32, 0, a.states)
	type frame struct{ s, next int32 }
	stack := []frame{{a.start, 0}}
	seen[a.start] = true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if int(f.next) < len(a.out[f.s]) {
			to := a.edges[a.out[f.s][f.next]].to
			f.next++
			if !seen[to] {
				seen[to] = true
				stack = append(stack, frame{to, 0})
			}
			continue
		}
		post = append(post, f.s)
		stack = stack[:len(stack)-1]
	}
	a.order = make([]int32, len(post))
	a.pos = make([]int32, a.states)
	for i := range a.pos {
		a.pos[i] = -1
	}
	for i, s := range post {
		a.order[len(post)-1-i] = s
		a.pos[s] = int32(len(post) - 1 - i)
	}
	a.nullable = a.reachesEmpty()
	return a
}

// States returns the number of states.
func (a *Automaton) States() int { return a.states }

// reachesEmpty reports whether the accept state is reachable from the
// start by empty transitions alone: the empty list is a word.
func (a *Automaton) reachesEmpty() bool {
	seen := make([]bool, a.states)
	stack := []int32{a.start}
	seen[a.start] = true
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == a.accept {
			return true
		}
		for _, e := range a.out[s] {
			if ed := a.edges[e]; ed.item < 0 && !seen[ed.to] {
				seen[ed.to] = true
				stack = append(stack, ed.to)
			}
		}
	}
	return false
}

type builder struct {
	n     int
	edges []autoEdge
	err   error
}

func (b *builder) state() int {
	b.n++
	if b.n > MaxStates && b.err == nil {
		b.err = fmt.Errorf("%w: more than %d states (an any_order group of many entries, or a repeat with a large max, inside another)", ErrTooLarge, MaxStates)
	}
	return b.n - 1
}

func (b *builder) edge(from, to, item int) {
	b.edges = append(b.edges, autoEdge{int32(from), int32(to), int32(item)})
}

func (b *builder) fail(format string, args ...any) int {
	if b.err == nil {
		b.err = fmt.Errorf("%w: "+format, append([]any{ErrPattern}, args...)...)
	}
	return b.state()
}

// build adds p after state from and returns its end state. No construct
// adds a transition into from, so from may be shared: loops return to a
// fresh state of their own.
func (b *builder) build(p Pattern, from int) int {
	if b.err != nil {
		return from
	}
	switch p.Kind {
	case Item:
		if p.Item < 0 {
			return b.fail("item %d", p.Item)
		}
		to := b.state()
		b.edge(from, to, p.Item)
		return to
	case Sequence:
		if len(p.Sub) == 0 {
			return b.fail("an empty group")
		}
		cur := from
		for _, s := range p.Sub {
			cur = b.build(s, cur)
		}
		return cur
	case OneOf:
		if len(p.Sub) == 0 {
			return b.fail("an empty one_of group")
		}
		to := b.state()
		for _, s := range p.Sub {
			in := b.state()
			b.edge(from, in, -1)
			b.edge(b.build(s, in), to, -1)
		}
		return to
	case Optional:
		if len(p.Sub) != 1 {
			return b.fail("optional takes one entry, got %d", len(p.Sub))
		}
		to := b.state()
		b.edge(b.build(p.Sub[0], from), to, -1)
		b.edge(from, to, -1)
		return to
	case Repeat:
		switch {
		case len(p.Sub) != 1:
			return b.fail("repeat takes one entry, got %d", len(p.Sub))
		case p.Min < 0:
			return b.fail("repeat min must be at least 0, got %d", p.Min)
		case p.Max == 0:
			return b.fail("repeat max must be at least 1")
		case p.Max > 0 && p.Min > p.Max:
			return b.fail("repeat min %d is above max %d", p.Min, p.Max)
		}
		cur := from
		for range p.Min {
			if cur = b.build(p.Sub[0], cur); b.err != nil {
				return cur
			}
		}
		if p.Max < 0 {
			head := b.state()
			b.edge(cur, head, -1)
			b.edge(b.build(p.Sub[0], head), head, -1)
			to := b.state()
			b.edge(head, to, -1)
			return to
		}
		for range p.Max - p.Min {
			to := b.state()
			b.edge(b.build(p.Sub[0], cur), to, -1)
			b.edge(cur, to, -1)
			if cur = to; b.err != nil {
				return cur
			}
		}
		return cur
	case Unordered:
		k := len(p.Sub)
		switch {
		case k == 0:
			return b.fail("an empty any_order group")
		case k > MaxUnordered:
			if b.err == nil {
				b.err = fmt.Errorf("%w: an any_order group of %d entries (at most %d)", ErrTooLarge, k, MaxUnordered)
			}
			return from
		}
		// hub[m]: the entries in m have been taken.
		hub := make([]int, 1<<k)
		hub[0] = from
		for m := 1; m < len(hub); m++ {
			hub[m] = b.state()
		}
		for m := range hub {
			for i, s := range p.Sub {
				if m&(1<<i) != 0 {
					continue
				}
				if b.err != nil {
					return from
				}
				if s.Kind == Item && s.Item >= 0 {
					b.edge(hub[m], hub[m|1<<i], s.Item)
					continue
				}
				b.edge(b.build(s, hub[m]), hub[m|1<<i], -1)
			}
		}
		return hub[len(hub)-1]
	}
	return b.fail("unknown kind %d", p.Kind)
}

// Checks add latency checks to the score of a pattern's alignment: a
// matched item of class c with a limit (Limited) passes its check when
// Relation.Bonus(c, step) says so, is skipped (out of the score) when
// Skipped(c, step), and fails otherwise; an item left unmatched fails it.
// A nil function means no limit and nothing skipped.
type Checks struct {
	Limited func(c int32) bool
	Skipped func(c int32, j int) bool
}

// A Goal is the score whose best word an alignment finds (the
// normalisations of package score). Let h be the hits of a word w against
// n steps:
//  1. Recall: (h + latency passes) / (|w| + latency checks − checks
//     skipped), the empty word scoring 1; position by position
//     (AlignExact) |w| is max(|w|, n);
//  2. Precision: h / n, so the most hits;
//  3. F1: 2h / (|w| + n);
//  4. Max: h / max(|w|, n).
//
// Binary (1 when the recall is 1) takes the Recall word. Only Recall
// counts latency checks, as the scores do. Among words of the best score
// the one with the most hits wins, then the shortest (for Recall, the
// smallest denominator).
type Goal int

// The goals.
const (
	Recall Goal = iota
	Precision
	F1
	Max
	// ratio is h / |w| in order: Max's score among words of n items or
	// more.
	ratio
)

// A Choice is the word of a pattern that aligned best, and its
// alignment.
type Choice struct {
	Items []int // the chosen word: items in order (an item may come again)
	Steps []int // Steps[k] is the step Items[k] matched, or -1
	// Num and Den are the goal's score Num/Den (for Recall: hits plus
	// latency passes over the word's length plus its latency checks, less
	// those skipped); Den 0 is a score of 1 (the empty word, or nothing
	// against no steps).
	Num, Den int
	Hits     int
	// Slots, for AlignExact, is the position of each item: the step it
	// was compared with, or its place after the last step.
	Slots []int
}

// Align returns the word of a and its order-preserving alignment with
// the steps of r that score best under g (see [Goal]); for Recall the
// score of a word w is that of a plain in-order list: (hits + latency
// passes) / (|w| + latency checks − checks skipped), the empty word
// scoring 1. Among words of the best score it takes the most hits, then
// the shortest. Steps of one parallel group are unordered among
// themselves, as in [InOrder].
//
// It maximises the ratio exactly, by Dinkelbach's method: for λ = p/q the
// best word under the additive weight q·(hits + passes) − p·(length +
// checks − skipped) is a maximum-weight path through the product of the
// automaton and the steps; λ then becomes that word's score, until no
// word does better than λ. Precision and F1 are found the same way, with
// their own weights. Max is h / n among the words of at most n items and
// h / |w| among the longer ones: when the word of most hits has at most n
// items, or the word of the best h / |w| at least n, that word is the
// best; else each side is searched in the product of the automaton with
// a counter of items up to n (n+1 times the states, so with many steps
// it can exceed the sizes below and return [ErrTooLarge]). Each round runs in O(Σ_b 2^k_b·(k_b·L + ρ·T))
// time over the steps' blocks b of k_b steps (k = 1 for a step outside a
// parallel group), L being the automaton's item transitions, T all its
// transitions and ρ the passes of relaxation within one step (1 plus the
// nesting of unbounded repeats that a step's closure goes round, in
// practice); a round stores Σ_b 2^k_b × states back pointers. Beyond
// [MaxCells], [MaxLayers] or [MaxWork], or with a parallel group of more
// than 14 steps, it returns an error wrapping [ErrTooLarge]. The rounds raise λ strictly
// and converge superlinearly: a handful in practice.
func (a *Automaton) Align(r *Relation, chk Checks, g Goal) (Choice, error) {
	if g == Max {
		return a.alignMax(r, chk)
	}
	return a.align(r, chk, false, g)
}

// AlignExact is [Automaton.Align] position by position, as [Exact] aligns
// a plain list: the k-th item of the word is compared with the k-th step
// only (inside a parallel group, the word's items at the group's positions
// with its steps in any permutation), and the score of a word w is
// (hits + latency passes) / (max(|w|, steps) + latency checks − checks
// skipped), so a missing, a wrong and an extra call each cost one
// position; the other goals count the hits at their positions, with
// Max's denominator max(|w|, steps). With no steps the empty word scores
// 1. Choice.Slots gives each item's position. Its cost is Align's, every
// block storing its layers.
func (a *Automaton) AlignExact(r *Relation, chk Checks, g Goal) (Choice, error) {
	return a.align(r, chk, true, g)
}

// alignMax is Align for Max (see Align).
func (a *Automaton) alignMax(r *Relation, chk Checks) (Choice, error) {
	n := len(r.Steps)
	most, err := a.align(r, chk, false, Precision)
	if err != nil || len(most.Items) <= n {
		return maxScore(most, n), err
	}
	best, err := a.align(r, chk, false, ratio)
	if err != nil || len(best.Items) >= n {
		return maxScore(best, n), err
	}
	// The word of most hits is longer than n, the best h/|w| shorter:
	// each side of n is searched apart.
	var found []Choice
	for _, atMost := range []bool{true, false} {
		b, err := a.byLength(n, atMost)
		if err != nil {
			return Choice{}, err
		}
		if b == nil {
			continue // no word on that side
		}
		g := Precision
		if !atMost {
			g = ratio
		}
		c, err := b.align(r, chk, false, g)
		if err != nil {
			return Choice{}, err
		}
		found = append(found, maxScore(c, n))
	}
	c := found[0]
	for _, o := range found[1:] {
		if d := int64(o.Num)*int64(max(c.Den, 1)) - int64(c.Num)*int64(max(o.Den, 1)); d > 0 || d == 0 && (o.Hits > c.Hits || o.Hits == c.Hits && len(o.Items) < len(c.Items)) {
			c = o
		}
	}
	return c, nil
}

// maxScore sets c's score to Max's: hits / max(|w|, n).
func maxScore(c Choice, n int) Choice {
	c.Num, c.Den = c.Hits, max(len(c.Items), n)
	return c
}

// byLength returns the product of a with a count of items: with atMost
// its words are a's words of at most n items; else those of at least n
// items (the count stops at n). It returns nil when there is no such
// word.
func (a *Automaton) byLength(n int, atMost bool) (*Automaton, error) {
	if (n+1)*a.states+1 > MaxStates {
		return nil, fmt.Errorf("%w: %d states against %d steps for score max (more than %d states)", ErrTooLarge, a.states, n, MaxStates)
	}
	id := func(s int32, l int) int32 { return s*int32(n+1) + int32(l) }
	var edges []autoEdge
	for _, e := range a.edges {
		for l := 0; l <= n; l++ {
			to := l
			if e.item >= 0 {
				to++
			}
			if to > n {
				if atMost {
					continue
				}
				to = n
			}
			edges = append(edges, autoEdge{id(e.from, l), id(e.to, to), e.item})
		}
	}
	accept := int32((n + 1) * a.states)
	for l := 0; l <= n; l++ {
		if atMost || l == n {
			edges = append(edges, autoEdge{id(a.accept, l), accept, -1})
		}
	}
	b := newAutomaton(int(accept)+1, id(a.start, 0), accept, edges)
	if b.pos[accept] < 0 {
		return nil, nil // the accept state is not reached
	}
	return b, nil
}

func (a *Automaton) align(r *Relation, chk Checks, exact bool, g Goal) (Choice, error) {
	blocks := r.blocks()
	// The item transitions of each class, in the automaton's order: a
	// step is tried only against those of its classes (but in exact
	// alignments, where every item transition takes a position).
	byClass := make(classEdges, len(a.leafEdges))
	for x, e := range a.leafEdges {
		byClass[x] = classEdge{r.ItemClass[a.edges[e].item], e}
	}
	slices.SortStableFunc(byClass, func(x, y classEdge) int { return cmp.Compare(x.class, y.class) })
	cells, work, hits := 0, 0, 0
	for _, bl := range blocks {
		k := bl[1] - bl[0]
		if k > maskLimit {
			return Choice{}, fmt.Errorf("%w: a parallel group of %d steps (at most %d with groups in expected)", ErrTooLarge, k, maskLimit)
		}
		n := 1 << k
		if n*a.states > MaxLayers {
			return Choice{}, fmt.Errorf("%w: %d states against a parallel group of %d steps (more than %d layers)", ErrTooLarge, a.states, k, MaxLayers)
		}
		tried := k * len(a.leafEdges)
		if !exact {
			tried = 0
			for j := bl[0]; j < bl[1]; j++ {
				for _, c := range r.Steps[j] {
					tried += len(byClass.of(c))
				}
			}
		}
		hits += tried
		cells += (n - 1) * a.states
		work += n*a.states + (n-1)*len(a.edges) + n/2*tried
		if cells > MaxCells || work > MaxWork {
			return Choice{}, fmt.Errorf("%w: %d states and %d transitions against %d steps (more than %d cells or %d units of work a round)", ErrTooLarge, a.states, len(a.edges), len(r.Steps), MaxCells, MaxWork)
		}
	}
	// The back pointers of every round share one slab, sized once.
	d := &dp{a: a, r: r, chk: chk, blocks: blocks, exact: exact, goal: g}
	if !exact {
		d.index(byClass, hits)
	}
	d.ptrs = make([]int32, 0, cells)
	d.choice = make([]uint16, 0, len(blocks)*a.states)
	p, q := int64(0), int64(1)
	if a.nullable && (g == Recall && !exact || len(r.Steps) == 0) {
		p = 1 // the empty word scores 1: nothing does better
	}
	for {
		c := d.round(p, q)
		if c.Den == 0 || q*int64(c.Num)-p*int64(c.Den) <= 0 {
			return c, nil
		}
		g := gcd(int64(c.Num), int64(c.Den))
		p, q = int64(c.Num)/g, int64(c.Den)/g
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// A val is a path's weight: primary, then secondary (hits·2^32 − the
// denominator). Unreachable is the least.
type val struct{ p, s int64 }

var unreachable = val{p: math.MinInt64}

func (v val) less(w val) bool { return v.p < w.p || v.p == w.p && v.s < w.s }
func (v val) add(w val) val   { return val{v.p + w.p, v.s + w.s} }

const hitWeight = 1 << 32

type dp struct {
	a      *Automaton
	r      *Relation
	chk    Checks
	blocks [][2]int
	exact  bool // position by position (AlignExact)
	goal   Goal
	p, q   int64
	skip   []val // weight of each edge taken without a step
	vals   []val // the layers of one block
	// Per block: where its back pointers of layers 1.. start in ptrs,
	// and its layer choices in choice (-1: no step of the block matches,
	// the states carry over).
	off    []int
	ptrs   []int32
	choice []uint16
	init   []int32 // back pointers of the start's closure
	tail   []int32 // exact: back pointers of the items after the last step
	// Not exact: the item transitions that step j matches are
	// hits[hitOff[j]:hitOff[j+1]], in the automaton's order.
	hitOff []int32
	hits   []hit
	// Exact: the weight of each item transition at each position of the
	// block being aligned (exactW[s·item transitions + x] for step lo+s
	// and transition a.leafEdges[x]), and, in a round, each item
	// transition's weight at a position whose step it does not match.
	exactW []val
	missW  []val
}

// weighBlock fills exactW for the block of k steps from step lo.
func (d *dp) weighBlock(lo, k int) {
	a, r := d.a, d.r
	L := len(a.leafEdges)
	d.exactW = slices.Grow(d.exactW[:0], k*L)[:k*L]
	for s := range k {
		j := lo + s
		ws := d.exactW[s*L : (s+1)*L]
		for x, e := range a.leafEdges {
			ws[x] = d.missW[x]
			if i := int(a.edges[e].item); r.matches(i, j) {
				ws[x] = d.matched(i, j)
			}
		}
	}
}

// A hit is an item transition a step matches: the cost of taking it with
// the step and, in a round, its weight.
type hit struct {
	edge int32
	cost cost
	w    val
}

// classEdges are the item transitions by the class of their item, then
// in the automaton's order.
type classEdges []classEdge

type classEdge struct{ class, edge int32 }

// of returns the item transitions of class c.
func (ce classEdges) of(c int32) []classEdge {
	i, _ := slices.BinarySearchFunc(ce, c, func(x classEdge, c int32) int { return cmp.Compare(x.class, c) })
	j := i
	for j < len(ce) && ce[j].class == c {
		j++
	}
	return ce[i:j]
}

// index fills the item transitions each step matches (see dp.hitOff):
// n of them in all, those of the step's classes in byClass.
func (d *dp) index(byClass classEdges, n int) {
	a, r := d.a, d.r
	d.hitOff = make([]int32, 0, len(r.Steps)+1)
	d.hits = make([]hit, 0, n)
	for j, classes := range r.Steps {
		d.hitOff = append(d.hitOff, int32(len(d.hits)))
		from := len(d.hits)
		for _, c := range classes {
			for _, ce := range byClass.of(c) {
				d.hits = append(d.hits, hit{edge: ce.edge, cost: d.matchedCost(int(a.edges[ce.edge].item), j)})
			}
		}
		if len(classes) > 1 { // the automaton's order breaks ties
			slices.SortFunc(d.hits[from:], func(x, y hit) int { return cmp.Compare(x.edge, y.edge) })
		}
	}
	d.hitOff = append(d.hitOff, int32(len(d.hits)))
}

// Back pointers: -1 none (layer 0: carried from the block before);
// 2e an edge e taken without a step; 2(e·16+s)+1 an edge e matched with
// the block's step s.
func ptrSkip(e int32) int32         { return 2 * e }
func ptrMatch(e int32, s int) int32 { return 2*(e*16+int32(s)) + 1 }

func (d *dp) limited(c int32) bool { return d.chk.Limited != nil && d.chk.Limited(c) }

// A cost is what one item of the word adds to the score's numerator
// and denominator, and to the length that breaks ties (the denominator,
// for Recall; the items, else).
type cost struct{ num, den, len int64 }

func (d *dp) weight(c cost, hit bool) val {
	s := -c.len
	if hit {
		s += hitWeight
	}
	return val{d.q*c.num - d.p*c.den, s}
}

// matched is the weight of item i matched with step j. In exact
// alignments the item's position counts once in the denominator whatever
// it holds, so only its latency check is weighed here.
func (d *dp) matched(i, j int) val { return d.weight(d.matchedCost(i, j), true) }

// matchedCost is what item i matched with step j adds (see matched).
func (d *dp) matchedCost(i, j int) cost {
	var c cost
	switch d.goal {
	case Recall:
		c = cost{num: 1, den: 1}
		if d.exact {
			c.den = 0
		}
		if cl := d.r.ItemClass[i]; d.limited(cl) {
			switch {
			case d.chk.Skipped != nil && d.chk.Skipped(cl, j):
			case d.r.bonus(i, j):
				c.num, c.den = c.num+1, c.den+1
			default:
				c.den++
			}
		}
		c.len = c.den
	case Precision:
		c = cost{num: 1, len: 1}
	case F1:
		c = cost{num: 2, den: 1, len: 1}
	case Max: // exact only
		c = cost{num: 1, len: 1}
	case ratio:
		c = cost{num: 1, den: 1, len: 1}
	}
	return c
}

// mismatched is the weight of item i at an exact position whose step it
// does not match: for Recall its latency check fails.
func (d *dp) mismatched(i int) val {
	c := cost{len: 1}
	switch d.goal {
	case Recall:
		c.den = d.unmatched(i).den - 1
		c.len = c.den
	case F1:
		c.den = 1
	}
	return d.weight(c, false)
}

// unmatched is the cost of item i taken without a step (in exact
// alignments, after the last step).
func (d *dp) unmatched(i int) cost {
	switch d.goal {
	case Recall:
		if d.limited(d.r.ItemClass[i]) {
			return cost{den: 2, len: 2}
		}
		return cost{den: 1, len: 1}
	case Precision:
		return cost{len: 1}
	case Max:
		return cost{den: 1, len: 1} // exact: a position after the steps
	}
	return cost{den: 1, len: 1}
}

// closure relaxes the transitions taken without a step within one layer
// until nothing improves (Bellman–Ford in the automaton's order: no cycle
// has positive weight, so it ends).
func (d *dp) closure(v []val, ptr []int32) { d.relax(v, ptr, true) }

// relax is closure; without items, only the empty transitions (an exact
// item always takes a position).
func (d *dp) relax(v []val, ptr []int32, items bool) {
	a := d.a
	for again := true; again; {
		again = false
		for _, u := range a.order {
			if v[u] == unreachable {
				continue
			}
			for _, e := range a.out[u] {
				if !items && a.edges[e].item >= 0 {
					continue
				}
				to := a.edges[e].to
				if c := v[u].add(d.skip[e]); v[to].less(c) {
					v[to], ptr[to] = c, ptrSkip(e)
					again = again || a.pos[to] <= a.pos[u]
				}
			}
		}
	}
}

func (d *dp) round(p, q int64) Choice {
	a := d.a
	d.p, d.q = p, q
	S := a.states
	d.skip = d.skip[:0]
	for _, ed := range a.edges {
		w := val{}
		if ed.item >= 0 {
			w = d.weight(d.unmatched(int(ed.item)), false)
		}
		d.skip = append(d.skip, w)
	}
	cur := make([]val, S)
	for i := range cur {
		cur[i] = unreachable
	}
	cur[a.start] = val{}
	d.init = fill(d.init, S, -1)
	d.relax(cur, d.init, !d.exact)
	for h := range d.hits {
		d.hits[h].w = d.weight(d.hits[h].cost, true)
	}
	if d.exact {
		d.missW = d.missW[:0]
		for _, e := range a.leafEdges {
			d.missW = append(d.missW, d.mismatched(int(a.edges[e].item)))
		}
	}
	d.off, d.ptrs, d.choice = d.off[:0], d.ptrs[:0], d.choice[:0]
	for _, bl := range d.blocks {
		lo, k := bl[0], bl[1]-bl[0]
		if !d.exact && d.hitOff[lo] == d.hitOff[bl[1]] {
			d.off = append(d.off, -1) // no step of the block matches
			continue
		}
		if d.exact {
			d.weighBlock(lo, k)
		}
		n := 1 << k
		d.vals = fillVal(d.vals, n*S)
		copy(d.vals[:S], cur)
		start := len(d.ptrs)
		d.off = append(d.off, start)
		d.ptrs = slices.Grow(d.ptrs, (n-1)*S)[:start+(n-1)*S]
		ptr := d.ptrs[start:]
		for i := range ptr {
			ptr[i] = -1
		}
		for m := range n {
			v := d.vals[m*S : (m+1)*S]
			if m > 0 {
				d.relax(v, ptr[(m-1)*S:m*S], !d.exact)
			}
			for s := range k {
				if m&(1<<s) != 0 {
					continue
				}
				j, nm := lo+s, m|1<<s
				nv, np := d.vals[nm*S:(nm+1)*S], ptr[(nm-1)*S:nm*S]
				if !d.exact {
					for _, h := range d.hits[d.hitOff[j]:d.hitOff[j+1]] {
						e := h.edge
						ed := a.edges[e]
						if v[ed.from] == unreachable {
							continue
						}
						if c := v[ed.from].add(h.w); nv[ed.to].less(c) {
							nv[ed.to], np[ed.to] = c, ptrMatch(e, s)
						}
					}
					continue
				}
				ws := d.exactW[s*len(a.leafEdges) : (s+1)*len(a.leafEdges)]
				for x, e := range a.leafEdges {
					ed := a.edges[e]
					if v[ed.from] == unreachable {
						continue
					}
					if c := v[ed.from].add(ws[x]); nv[ed.to].less(c) {
						nv[ed.to], np[ed.to] = c, ptrMatch(e, s)
					}
				}
			}
		}
		cs := len(d.choice)
		d.choice = slices.Grow(d.choice, S)[:cs+S]
		ch := d.choice[cs:]
		clear(ch)
		for st := range S {
			if d.exact && st != int(a.accept) {
				// Every position of the block holds an item of the
				// word, unless the word has ended (extra steps).
				cur[st], ch[st] = d.vals[(n-1)*S+st], uint16(n-1)
				continue
			}
			best := cur[st]
			for m := 1; m < n; m++ {
				if c := d.vals[m*S+st]; best.less(c) {
					best, ch[st] = c, uint16(m)
				}
			}
			cur[st] = best
		}
	}
	if d.exact {
		// The items after the last step: each a missing call.
		d.tail = fill(d.tail, S, -1)
		d.relax(cur, d.tail, true)
	}
	return d.trace()
}

// trace follows the back pointers from the accept state.
func (d *dp) trace() Choice {
	a := d.a
	S := a.states
	n := len(d.r.Steps)
	var items, steps, slots []int
	add := func(item, step, slot int) {
		items, steps, slots = append(items, item), append(steps, step), append(slots, slot)
	}
	st := a.accept
	for d.exact && d.tail[st] >= 0 {
		ed := a.edges[d.tail[st]/2]
		if ed.item >= 0 {
			add(int(ed.item), -1, -1) // numbered below
		}
		st = ed.from
	}
	for bi, ci := len(d.blocks)-1, len(d.choice); bi >= 0; bi-- {
		if d.off[bi] < 0 {
			continue
		}
		ptr := d.ptrs[d.off[bi]:]
		ci -= S
		m := int(d.choice[ci+int(st)])
		for m > 0 {
			pt := ptr[(m-1)*S+int(st)]
			if pt%2 == 0 {
				ed := a.edges[pt/2]
				if ed.item >= 0 {
					add(int(ed.item), -1, -1)
				}
				st = ed.from
				continue
			}
			e, s := (pt/2)/16, int((pt/2)%16)
			ed := a.edges[e]
			j := d.blocks[bi][0] + s
			if d.r.matches(int(ed.item), j) {
				add(int(ed.item), j, j)
			} else {
				add(int(ed.item), -1, j) // exact: a wrong call at position j
			}
			st, m = ed.from, m&^(1<<s)
		}
	}
	for d.init[st] >= 0 {
		ed := a.edges[d.init[st]/2]
		if ed.item >= 0 {
			add(int(ed.item), -1, -1)
		}
		st = ed.from
	}
	slices.Reverse(items)
	slices.Reverse(steps)
	slices.Reverse(slots)
	c := Choice{Items: items, Steps: steps}
	c.Den = len(items)
	if d.exact {
		c.Den = max(len(items), n)
		for k := range slots {
			if k >= n {
				slots[k] = k // the items after the last step
			}
		}
		c.Slots = slots
	}
	if d.goal != Recall {
		for _, j := range steps {
			if j >= 0 {
				c.Hits++
			}
		}
		switch d.goal {
		case Precision:
			c.Num, c.Den = c.Hits, n
		case F1:
			c.Num, c.Den = 2*c.Hits, len(items)+n
		case Max:
			c.Num, c.Den = c.Hits, max(len(items), n)
		case ratio:
			c.Num, c.Den = c.Hits, len(items)
		}
		return c
	}
	for k, i := range items {
		cl := d.r.ItemClass[i]
		lim := d.limited(cl)
		if lim {
			c.Den++
		}
		j := steps[k]
		if j < 0 {
			continue
		}
		c.Hits++
		c.Num++
		switch {
		case !lim:
		case d.chk.Skipped != nil && d.chk.Skipped(cl, j):
			c.Den--
		case d.r.bonus(i, j):
			c.Num++
		}
	}
	return c
}

func fill(s []int32, n int, v int32) []int32 {
	s = append(s[:0], make([]int32, n)...)
	for i := range s {
		s[i] = v
	}
	return s
}

func fillVal(s []val, n int) []val {
	if cap(s) < n {
		s = make([]val, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = unreachable
	}
	return s
}
