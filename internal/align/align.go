// Package align finds the best correspondence between expected items and
// actual steps, for a match relation given in compressed form.
//
// Three alignments are offered, all optimal, none greedy:
//  1. [InOrder]: the largest order-preserving matching (a longest common
//     subsequence under the match relation). Steps of one parallel group
//     are unordered among themselves: any permutation of a group may be
//     used.
//  2. [AnyOrder]: the largest one-to-one matching (maximum bipartite
//     matching, solved as a flow on the compressed graph).
//  3. [Exact]: item i against step i, position by position; inside a
//     parallel group the items at the group's positions may be matched in
//     any permutation.
//
// Each maximises the number of matched pairs first and then, among
// matchings of that size, the number of pairs with a bonus (a latency
// check that passes). Ties prefer the earliest steps. (A caller that
// needs the alignment of best score, skipped latency checks included,
// compiles the list as a Sequence pattern, below, or, in any order, calls
// [AnyOrderBest].)
//
// Each of the three has a method of the same name on [Scratch], which
// gives the same alignment in memory kept from one relation to the next:
// scoring many trajectories then allocates nothing for their alignments.
//
// A fourth alignment takes expectations with groups: a [Pattern] (items
// in sequences, any-order groups, one-of alternatives, optional entries,
// repeats, nested) stands for a set of plain item lists, its words.
// [Compile] turns it into an automaton, and [Automaton.Align] finds the
// word and its order-preserving alignment (parallel groups unordered, as
// in InOrder) with the best in-order score, the score a plain list would
// get: (hits + latency passes) / (items + latency checks − skipped
// checks), or the best score of another kind (a [Goal]: precision, F1,
// max). The score is a ratio over words of different lengths, so it
// is maximised exactly by Dinkelbach's method: each round is a
// maximum-weight path through the product of the automaton and the
// steps (a weighted longest common subsequence against a regular
// language), with an any-order group of k entries compiled to 2^k hub
// states, one per set of entries taken. [Automaton.AlignExact] does the
// same position by position, as [Exact]. [Automaton.Align] gives the
// costs; with 1,000 steps and a pattern of 20 calls in four groups (39
// states) it takes about 4 ms, in three rounds; 100,000 steps, 0.4 s and
// 37 MB.
package align

// A Relation says which expected items match which actual steps.
//
// Items are grouped into classes of interchangeable items (same tool, same
// argument rule, same latency limit): ItemClass[i] is item i's class, and
// Steps[j] lists, in ascending order, the classes step j matches.
type Relation struct {
	ItemClass []int32
	Steps     [][]int32
	// Bonus reports whether step j earns the bonus when matched by an item
	// of class c. Nil: no bonus anywhere.
	Bonus func(c int32, j int) bool
	// Group is the parallel group of each step (0: none); a group's steps
	// are expected to be consecutive, and each maximal run of one group is
	// treated as unordered.
	Group []int32
}

// An Alignment is a set of (item, step) pairs, each item and step used at
// most once, sorted by item.
type Alignment struct {
	Pairs []Pair
	Bonus int // pairs with a bonus
}

// A Pair matches expected item Item with actual step Step (0-based).
type Pair struct{ Item, Step int }

func (r *Relation) matches(i, j int) bool {
	c := r.ItemClass[i]
	for _, x := range r.Steps[j] {
		if x == c {
			return true
		}
		if x > c {
			return false
		}
	}
	return false
}

func (r *Relation) bonus(i, j int) bool {
	return r.Bonus != nil && r.Bonus(r.ItemClass[i], j)
}

// weight of matching item i with step j, or 0 when they do not match:
// a match is worth more than every bonus together.
func (r *Relation) weight(i, j int) int64 {
	if !r.matches(i, j) {
		return 0
	}
	w := int64(len(r.ItemClass)) + 1
	if r.bonus(i, j) {
		w++
	}
	return w
}

// blocks splits the steps into runs: a maximal run of one parallel group,
// or a single step.
func (r *Relation) blocks() [][2]int { return r.appendBlocks(nil) }

// appendBlocks appends the blocks of the steps to out.
func (r *Relation) appendBlocks(out [][2]int) [][2]int {
	n := len(r.Steps)
	for j := 0; j < n; {
		k := j + 1
		if g := r.group(j); g != 0 {
			for k < n && r.group(k) == g {
				k++
			}
		}
		out = append(out, [2]int{j, k})
		j = k
	}
	return out
}

// grouped reports whether two consecutive steps share a parallel group:
// whether some block holds more than one step.
func (r *Relation) grouped() bool {
	for j := 1; j < len(r.Group) && j < len(r.Steps); j++ {
		if g := r.Group[j]; g != 0 && g == r.Group[j-1] {
			return true
		}
	}
	return false
}

func (r *Relation) group(j int) int32 {
	if j < len(r.Group) {
		return r.Group[j]
	}
	return 0
}

func (r *Relation) finish(pairs []Pair) Alignment {
	sortPairs(pairs)
	a := Alignment{Pairs: pairs}
	for _, p := range pairs {
		if r.bonus(p.Item, p.Step) {
			a.Bonus++
		}
	}
	return a
}

func sortPairs(p []Pair) {
	// insertion sort is enough: pairs come nearly sorted
	for i := 1; i < len(p); i++ {
		for k := i; k > 0 && p[k].Item < p[k-1].Item; k-- {
			p[k], p[k-1] = p[k-1], p[k]
		}
	}
}
