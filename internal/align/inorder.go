package align

import (
	"math"
	"math/bits"
)

// maskLimit is the largest parallel group handled by the subset dynamic
// program (2^k states); larger groups use optimal assignments over
// intervals instead.
const maskLimit = 14

// InOrder returns the largest order-preserving matching of the items into
// the steps, ties broken by the most bonuses and then by the earliest
// steps.
//
// Without bonuses and parallel groups it is a bit-parallel longest common
// subsequence: O(|steps|·⌈|items|/64⌉) time, and for the traceback about
// √|steps|·⌈|items|/64⌉ words of memory (at most 8 MiB more, whatever the
// size); 100,000 × 100,000 takes about a second. Otherwise a dynamic program over the steps' blocks
// runs in O(|items|·|steps|) time for single steps, O(|items|·2^k·k) for a
// group of k ≤ 14 steps, and with O(|items|·|blocks|) memory.
func InOrder(r *Relation) Alignment { return new(Scratch).InOrder(r) }

// InOrder is [InOrder] in the scratch's memory.
func (s *Scratch) InOrder(r *Relation) Alignment {
	ne, na := len(r.ItemClass), len(r.Steps)
	if ne == 0 || na == 0 {
		return Alignment{}
	}
	if r.Bonus == nil && !r.grouped() {
		if ne <= 64 {
			return r.finish(r.lcsWord(s))
		}
		return r.finish(r.lcsBits(s))
	}
	s.blocks = r.appendBlocks(s.blocks[:0])
	return r.finish(r.lcsBlocks(s.blocks))
}

// lcsBits is the bit-parallel LCS of Allison–Dix and Hyyrö, which needs
// only, for each step, the set of items it matches.
//
// Column j is the bit vector V after step j−1 (column 0 is all ones): bit i
// is 1 when item i does not raise the LCS of that prefix, so that the LCS
// of items [0,i) and steps [0,j) is i minus the ones of column j below i.
// The traceback needs every column, which for 100,000 × 100,000 would be
// over a gigabyte: the forward pass keeps one column in k (checkpoints),
// and the traceback recomputes the k columns of one segment at a time,
// with each column's ones counted word by word so that each LCS value
// costs O(1). Time O(|steps|·⌈|items|/64⌉) (twice over when there are
// several segments), memory O((|steps|/k + k)·⌈|items|/64⌉) words.
func (r *Relation) lcsBits(s *Scratch) []Pair {
	ne, na := len(r.ItemClass), len(r.Steps)
	words := (ne + 63) / 64
	// One bit vector per class: the items of that class.
	nc := int32(0)
	for _, c := range r.ItemClass {
		nc = max(nc, c+1)
	}
	// Segments of k steps: one when all columns fit in 8 MiB.
	k := na
	if (na+1)*words > 1<<20 {
		k = min(na, max(int(math.Ceil(math.Sqrt(float64(na)))), (1<<20)/words))
	}
	nseg := (na + k - 1) / k
	// Every vector below is a part of one array: the class bits, m, the
	// checkpoints, two columns, the segment's columns.
	mem := s.uint64s((int(nc) + 1 + nseg + 2 + k + 1) * words)
	take := func(n int) []uint64 {
		p := mem[:n:n]
		mem = mem[n:]
		return p
	}
	classBits := take(int(nc) * words)
	clear(classBits)
	for i, c := range r.ItemClass {
		classBits[int(c)*words+i/64] |= 1 << (i % 64)
	}
	m := take(words)
	// advance sets cur to the column after step j, from prev before it.
	advance := func(j int, prev, cur []uint64) {
		cls := r.Steps[j]
		var match []uint64
		switch len(cls) {
		case 0:
			copy(cur, prev)
			return
		case 1:
			if cls[0] >= nc {
				copy(cur, prev)
				return
			}
			match = classBits[int(cls[0])*words : int(cls[0]+1)*words]
		default:
			clear(m)
			for _, c := range cls {
				if c < nc {
					for w, b := range classBits[int(c)*words : int(c+1)*words] {
						m[w] |= b
					}
				}
			}
			match = m
		}
		var carry uint64
		for w := range words {
			u := prev[w] & match[w]
			sum, c := bits.Add64(prev[w], u, carry)
			carry = c
			cur[w] = sum | (prev[w] &^ match[w])
		}
	}
	// checkpoints holds column s·k for each segment s.
	checkpoints := take(nseg * words)
	for w := range words {
		checkpoints[w] = ^uint64(0)
	}
	if nseg > 1 {
		col, next := take(words), take(words)
		copy(col, checkpoints[:words])
		for j := range (nseg - 1) * k {
			advance(j, col, next)
			col, next = next, col
			if (j+1)%k == 0 {
				copy(checkpoints[(j+1)/k*words:], col)
			}
		}
	}
	// seg holds columns s·k to s·k+k of the current segment s; ones[c][w]
	// counts the ones of column s·k+c in its words [0,w).
	seg := take((k + 1) * words)
	ones := s.int32s((k + 1) * (words + 1))
	cur := -1
	load := func(s int) {
		cur = s
		copy(seg[:words], checkpoints[s*words:(s+1)*words])
		n := min(k, na-s*k)
		for c := range n {
			advance(s*k+c, seg[c*words:(c+1)*words], seg[(c+1)*words:(c+2)*words])
		}
		for c := 0; c <= n; c++ {
			col, cnt := seg[c*words:(c+1)*words], ones[c*(words+1):(c+1)*(words+1)]
			cnt[0] = 0
			for w, b := range col {
				cnt[w+1] = cnt[w] + int32(bits.OnesCount64(b))
			}
		}
	}
	// L(i, j): the LCS of items [0,i) and steps [0,j), for j in the
	// current segment.
	lcs := func(i, j int) int {
		c := j - cur*k
		n := int(ones[c*(words+1)+i/64])
		if rem := i % 64; rem != 0 {
			n += bits.OnesCount64(seg[c*words+i/64] & (1<<rem - 1))
		}
		return i - n
	}
	pairs := s.pairs[:0]
	for i, j := ne, na; i > 0 && j > 0; {
		if s := (j - 1) / k; s != cur {
			load(s)
		}
		here := lcs(i, j)
		switch {
		case here == 0:
			i = 0
		case lcs(i, j-1) == here:
			j--
		case r.matches(i-1, j-1) && lcs(i-1, j-1) == here-1:
			pairs = append(pairs, Pair{i - 1, j - 1})
			i, j = i-1, j-1
		default:
			i--
		}
	}
	reverse(pairs)
	s.pairs = pairs
	return pairs
}

// lcsWord is lcsBits for at most 64 items, whose columns are one word
// each: the steps that match some item, with their match bits, go to
// lcsSteps. It takes the same pairs as lcsBits.
func (r *Relation) lcsWord(s *Scratch) []Pair {
	nc := int32(0)
	for _, c := range r.ItemClass {
		nc = max(nc, c+1)
	}
	classBits := s.uint64s(int(nc))
	clear(classBits)
	for i, c := range r.ItemClass {
		classBits[c] |= 1 << i
	}
	at, match := s.at[:0], s.match[:0]
	for j, cls := range r.Steps {
		var m uint64
		for _, c := range cls {
			if c < nc {
				m |= classBits[c]
			}
		}
		if m != 0 {
			at, match = append(at, int32(j)), append(match, m)
		}
	}
	s.at, s.match = at, match
	if pairs, ok := s.leftmost(len(r.ItemClass), at, match); ok {
		return pairs
	}
	return s.lcsSteps(len(r.ItemClass), at, match)
}

// InOrderSteps is [InOrder] for a relation of at most 64 items, without
// bonuses or parallel groups, given by the steps that match some item:
// step at[k] matches the items whose bits match[k] sets (bit i: item i),
// at ascending and every match[k] not 0. The steps that match no item
// need not be listed, since they change nothing: a caller that finds
// each step's items itself skips building a Relation. It gives the pairs
// InOrder gives for the same relation.
func (s *Scratch) InOrderSteps(items int, at []int32, match []uint64) Alignment {
	if items == 0 || items > 64 || len(at) != len(match) {
		return Alignment{}
	}
	if pairs, ok := s.leftmost(items, at, match); ok {
		return Alignment{Pairs: pairs}
	}
	pairs := s.lcsSteps(items, at, match)
	sortPairs(pairs)
	return Alignment{Pairs: pairs}
}

// leftmost takes each item, in order, at the first listed step after the
// last one taken that matches it, and reports whether every item was
// taken: the trajectories of a passing case, most of a run's. Those are
// the pairs of lcsSteps' traceback then. When every item is matched, the
// traceback passes over step j as long as the steps before it still hold
// items [0,i) in order, so it pairs item i-1 with the last step of the
// shortest such prefix: the step the first-fit pass takes for it, which
// ends the shortest prefix holding items [0,i) (an exchange argument).
// The pairs come by item, sorted.
func (s *Scratch) leftmost(items int, at []int32, match []uint64) ([]Pair, bool) {
	if len(at) < items {
		return nil, false
	}
	pairs := s.pairs[:0]
	i := 0
	for k, m := range match {
		if m>>i&1 == 0 {
			continue
		}
		pairs = append(pairs, Pair{i, int(at[k])})
		if i++; i == items {
			s.pairs = pairs
			return pairs, true
		}
	}
	s.pairs = pairs
	return nil, false
}

// lcsSteps is the bit-parallel LCS of lcsBits for at most ne ≤ 64 items,
// over the steps that match some item only (at, match: see
// [Scratch.InOrderSteps]). Column k is the bit vector after the first k
// listed steps: a step that matches nothing leaves the vector as it was,
// so a column of every step is one of these. Every column is kept, so the
// traceback reads them without recomputing a segment or counting ones
// word by word.
func (s *Scratch) lcsSteps(ne int, at []int32, match []uint64) []Pair {
	n := len(at)
	cols := s.uint64s(n + 1)
	v := ^uint64(0)
	cols[0] = v
	for k, m := range match[:n] {
		v = (v + v&m) | v&^m
		cols[k+1] = v
	}
	// L(i, j), the LCS of items [0,i) and steps [0,j), is i less the ones
	// of column j under mask, the bits of items [0,i) (1<<64 is 0 in Go,
	// so the mask of 64 items is all ones); column j is cols[k] for the k
	// listed steps before step j. The traceback of lcsBits, keeping
	// L(i, j) in here as it goes, with j just after listed step k-1: the
	// steps between listed ones match nothing, and lcsBits passes them.
	pairs := s.pairs[:0]
	i, k := ne, n
	mask := uint64(1)<<i - 1
	here := i - bits.OnesCount64(cols[k]&mask)
	for here > 0 && k > 0 {
		m := match[k-1]
		// A step that matches none of items [0,i) leaves their bits of
		// the column as they were (the sum carries upwards only), so
		// L(i, j-1) = L(i, j).
		if m&mask == 0 {
			k--
			continue
		}
		switch {
		case i-bits.OnesCount64(cols[k-1]&mask) == here:
			k--
		case m>>(i-1)&1 != 0 && i-1-bits.OnesCount64(cols[k-1]&(mask>>1)) == here-1:
			pairs = append(pairs, Pair{i - 1, int(at[k-1])})
			i, k, mask, here = i-1, k-1, mask>>1, here-1
		default:
			i, mask = i-1, mask>>1
			here = i - bits.OnesCount64(cols[k]&mask)
		}
	}
	reverse(pairs)
	s.pairs = pairs
	return pairs
}

func reverse(p []Pair) {
	for a, b := 0, len(p)-1; a < b; a, b = a+1, b-1 {
		p[a], p[b] = p[b], p[a]
	}
}

// lcsBlocks is the weighted dynamic program over blocks. f[i] is the best
// weight of a matching of items [0,i) into the blocks seen so far;
// entries[b][i] is where the chain of items that block b took begins (its
// items lie in [entry, i)), or -1 when block b took none.
func (r *Relation) lcsBlocks(blocks [][2]int) []Pair {
	ne := len(r.ItemClass)
	fOld := make([]int64, ne+1)
	fNew := make([]int64, ne+1)
	entries := make([][]int32, len(blocks))
	for bi, b := range blocks {
		entry := make([]int32, ne+1)
		if b[1]-b[0] <= maskLimit {
			r.blockMask(b, fOld, fNew, entry)
		} else {
			r.blockIntervals(b, fOld, fNew, entry)
		}
		entries[bi] = entry
		fOld, fNew = fNew, fOld
	}
	var pairs []Pair
	i := ne
	for bi := len(blocks) - 1; bi >= 0 && i > 0; bi-- {
		e := int(entries[bi][i])
		if e < 0 {
			continue
		}
		items := make([]int, 0, i-e)
		for it := e; it < i; it++ {
			items = append(items, it)
		}
		pairs = append(pairs, r.assign(items, blocks[bi][0], blocks[bi][1])...)
		i = e
	}
	return pairs
}

// blockMask runs the subset dynamic program for one block of k ≤ 14 steps:
// g[mask] is the best weight of a chain whose items took exactly the steps
// in mask, and ge[mask] where that chain began.
func (r *Relation) blockMask(b [2]int, fOld, fNew []int64, entry []int32) {
	ne, k := len(r.ItemClass), b[1]-b[0]
	size := 1 << k
	g := make([]int64, size)
	ge := make([]int32, size)
	for m := range g {
		g[m] = -1
	}
	ws := make([]int64, k)
	best, bestEntry := int64(-1), int32(-1)
	fNew[0], entry[0] = fOld[0], -1
	for i := 1; i <= ne; i++ {
		g[0], ge[0] = fOld[i-1], int32(i-1)
		any := false
		for s := range k {
			ws[s] = r.weight(i-1, b[0]+s)
			any = any || ws[s] > 0
		}
		if any {
			for m := size - 1; m >= 0; m-- {
				if g[m] < 0 {
					continue
				}
				for s := range k {
					if m&(1<<s) != 0 || ws[s] == 0 {
						continue
					}
					nm := m | 1<<s
					if c := g[m] + ws[s]; c > g[nm] {
						g[nm], ge[nm] = c, ge[m]
						if c > best {
							best, bestEntry = c, ge[m]
						}
					}
				}
			}
		}
		fNew[i], entry[i] = fOld[i], -1
		if best > fOld[i] {
			fNew[i], entry[i] = best, bestEntry
		}
	}
}

// blockIntervals handles a block too large for blockMask: the items a
// block takes form a run [e, i) of the items, and only the items that
// match some step of the block matter, so it tries each such start with an
// optimal assignment.
func (r *Relation) blockIntervals(b [2]int, fOld, fNew []int64, entry []int32) {
	ne := len(r.ItemClass)
	var rel []int
	for i := range ne {
		for j := b[0]; j < b[1]; j++ {
			if r.matches(i, j) {
				rel = append(rel, i)
				break
			}
		}
	}
	best, bestEntry := int64(-1), int32(-1)
	fNew[0], entry[0] = fOld[0], -1
	next := 0
	for i := 1; i <= ne; i++ {
		if next < len(rel) && rel[next] == i-1 {
			next++
			for s := range next {
				items := rel[s:next]
				var w int64
				for _, p := range r.assign(items, b[0], b[1]) {
					w += r.weight(p.Item, p.Step)
				}
				if c := fOld[rel[s]] + w; c > best {
					best, bestEntry = c, int32(rel[s])
				}
			}
		}
		fNew[i], entry[i] = fOld[i], -1
		if best > fOld[i] {
			fNew[i], entry[i] = best, bestEntry
		}
	}
}
