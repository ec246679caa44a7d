package align

import (
	"math"
	"strconv"
)

// MaxWeight returns the one-to-one matching of items to steps with the
// largest total weight, where w[i][j] is the weight of pairing item i
// with step j (every row as long as the number of steps). A pair of
// weight 0 or less is never made, so an item with no positive weight
// stays unmatched. It is Kuhn–Munkres on the rectangular matrix (weights
// below 0 read as 0), O(n²·m) for n = min(items, steps) and m the other:
// optimal, never a greedy best first, which loses weight when an early
// item takes the step a later one needed. Pairs are sorted by item.
func MaxWeight(w [][]float64) []Pair {
	m := len(w)
	if m == 0 || len(w[0]) == 0 {
		return nil
	}
	k := len(w[0])
	// The rows are the smaller side.
	at := func(r, c int) float64 { return max(w[r][c], 0) }
	rows, cols := m, k
	if m > k {
		at = func(r, c int) float64 { return max(w[c][r], 0) }
		rows, cols = k, m
	}
	var out []Pair
	for r, c := range kuhnMunkres(rows, cols, at, math.Inf(1)) {
		i, j := r, c
		if m > k {
			i, j = c, r
		}
		if w[i][j] > 0 {
			out = append(out, Pair{Item: i, Step: j})
		}
	}
	sortPairs(out)
	return out
}

// OrderedMaxWeight returns the order-preserving matching of items to
// steps (no two pairs cross) with the largest total weight, w as for
// [MaxWeight]; a pair of weight 0 or less is never made. It is the
// weighted longest common subsequence, O(items × steps). Among matchings
// of equal weight it prefers the earliest steps. Pairs are sorted by item.
func OrderedMaxWeight(w [][]float64) []Pair {
	m := len(w)
	if m == 0 || len(w[0]) == 0 {
		return nil
	}
	k := len(w[0])
	// best[i][j]: the largest weight of items i.. against steps j..
	best := make([][]float64, m+1)
	for i := range best {
		best[i] = make([]float64, k+1)
	}
	for i := m - 1; i >= 0; i-- {
		for j := k - 1; j >= 0; j-- {
			b := max(best[i+1][j], best[i][j+1])
			if w[i][j] > 0 {
				b = max(b, best[i+1][j+1]+w[i][j])
			}
			best[i][j] = b
		}
	}
	var out []Pair
	for i, j := 0, 0; i < m && j < k; {
		switch {
		case w[i][j] > 0 && best[i][j] == best[i+1][j+1]+w[i][j]:
			out = append(out, Pair{Item: i, Step: j})
			i, j = i+1, j+1
		case best[i][j] == best[i+1][j]:
			i++
		default:
			j++
		}
	}
	return out
}

// AnyOrderBest returns the one-to-one matching of items to steps with the
// best score (n0 + hits + latency passes) / (d0 − checks skipped), where
// n0 and d0 (d0 > 0, at least every skip) are the caller's constant parts
// and chk says which items have a latency check and which steps skip it
// (see [Checks]; Relation.Bonus says which pass). Among matchings of the
// best score it takes the most hits. Unlike [AnyOrder], which takes the
// most bonuses among the largest matchings, it may prefer a step that
// skips a check to one that fails it: a skipped check leaves the score,
// a failed one lowers it. It is Dinkelbach's method over maximum-weight
// matchings ([MaxWeight]), each round O(n²·m) for n items and m the
// steps kept: of the steps that match the same classes with the same
// passes and skips, the first n (200 items against 100,000 steps of a
// few kinds: about 0.35 s).
func AnyOrderBest(r *Relation, chk Checks, n0, d0 int) Alignment {
	// Steps that match the same classes with the same passes and skips
	// are interchangeable: of each kind, the first |items| are all a
	// matching can use.
	var cols []int
	seen := map[string]int{}
	var key []byte
	for j, cs := range r.Steps {
		if len(cs) == 0 {
			continue
		}
		key = key[:0]
		for _, c := range cs {
			key = strconv.AppendInt(key, int64(c), 10)
			key = append(key, '0'+byte(boolInt(chk.Skipped != nil && chk.Skipped(c, j))), '0'+byte(boolInt(r.Bonus != nil && r.Bonus(c, j))), ',')
		}
		if seen[string(key)] < len(r.ItemClass) {
			seen[string(key)]++
			cols = append(cols, j)
		}
	}
	if len(r.ItemClass) == 0 || len(cols) == 0 {
		return Alignment{}
	}
	// gain is what pairing item i with step j adds to the numerator and
	// takes from the denominator.
	gain := func(i, j int) (num, skip int64) {
		c := r.ItemClass[i]
		switch {
		case chk.Limited == nil || !chk.Limited(c):
			return 1, 0
		case chk.Skipped != nil && chk.Skipped(c, j):
			return 1, 1
		case r.bonus(i, j):
			return 2, 0
		}
		return 1, 0
	}
	k := float64(len(r.ItemClass) + 1) // one hit weighs less than any score gain
	p, q := int64(0), int64(1)
	w := make([][]float64, len(r.ItemClass))
	for i := range w {
		w[i] = make([]float64, len(cols))
	}
	for {
		for i := range w {
			clear(w[i])
			for x, j := range cols {
				if r.matches(i, j) {
					num, skip := gain(i, j)
					w[i][x] = float64(q*num+p*skip)*k + 1
				}
			}
		}
		pairs := MaxWeight(w)
		a := Alignment{}
		num, den := int64(n0), int64(d0)
		for _, pr := range pairs {
			j := cols[pr.Step]
			g, skip := gain(pr.Item, j)
			num, den = num+g, den-skip
			if g == 2 {
				a.Bonus++
			}
			a.Pairs = append(a.Pairs, Pair{Item: pr.Item, Step: j})
		}
		if den <= 0 || q*num-p*den <= 0 {
			return a
		}
		g := gcd(num, den)
		p, q = num/g, den/g
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
