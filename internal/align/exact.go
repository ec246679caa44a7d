package align

// Exact matches item i with step i. Inside a parallel group the items at
// the group's positions may match its steps in any permutation (an optimal
// assignment).
func Exact(r *Relation) Alignment { return new(Scratch).Exact(r) }

// Exact is [Exact] in the scratch's memory.
func (s *Scratch) Exact(r *Relation) Alignment {
	pairs := s.pairs[:0]
	ne := len(r.ItemClass)
	s.blocks = r.appendBlocks(s.blocks[:0])
	for _, b := range s.blocks {
		lo, hi := b[0], min(b[1], ne)
		if lo >= hi {
			break
		}
		if b[1]-b[0] == 1 {
			if r.matches(lo, lo) {
				pairs = append(pairs, Pair{lo, lo})
			}
			continue
		}
		items := make([]int, 0, hi-lo)
		for i := lo; i < hi; i++ {
			items = append(items, i)
		}
		pairs = append(pairs, r.assign(items, b[0], b[1])...)
	}
	s.pairs = pairs
	return r.finish(pairs)
}

// assign returns the best assignment of the given items to steps [lo, hi).
func (r *Relation) assign(items []int, lo, hi int) []Pair {
	n := max(len(items), hi-lo)
	if n == 0 {
		return nil
	}
	w := make([][]int64, n)
	for a := range n {
		w[a] = make([]int64, n)
		if a >= len(items) {
			continue
		}
		for b := range hi - lo {
			w[a][b] = r.weight(items[a], lo+b)
		}
	}
	var out []Pair
	for a, b := range hungarianMax(w) {
		if a < len(items) && b < hi-lo && w[a][b] > 0 {
			out = append(out, Pair{items[a], lo + b})
		}
	}
	return out
}
