package align

import "math"

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
