package align

import "math"

// hungarianMax returns, for a square weight matrix, the column assigned to
// each row so that the total weight is maximal (Kuhn–Munkres with
// potentials, O(n³)).
func hungarianMax(w [][]int64) []int {
	n := len(w)
	return kuhnMunkres(n, n, func(r, c int) int64 { return w[r][c] }, math.MaxInt64/4)
}

// kuhnMunkres returns, for rows ≤ cols, the column assigned to each row so
// that the total weight at(row, col) is maximal: Kuhn–Munkres with
// potentials, minimising the negated weights, O(rows²·cols). inf must
// exceed any sum of weights the search can meet.
func kuhnMunkres[W int64 | float64](rows, cols int, at func(r, c int) W, inf W) []int {
	// Rows and columns are 1-based inside.
	u := make([]W, rows+1)
	v := make([]W, cols+1)
	p := make([]int, cols+1) // p[col] = row
	way := make([]int, cols+1)
	minv := make([]W, cols+1)
	used := make([]bool, cols+1)
	for i := 1; i <= rows; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				cur := -at(i0-1, j-1) - u[i0] - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	rowCol := make([]int, rows)
	for j := 1; j <= cols; j++ {
		if p[j] > 0 {
			rowCol[p[j]-1] = j - 1
		}
	}
	return rowCol
}
