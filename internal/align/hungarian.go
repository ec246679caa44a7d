package align

import "math"

// hungarianMax returns, for a square weight matrix, the column assigned to
// each row so that the total weight is maximal (Kuhn–Munkres with
// potentials, O(n³)).
func hungarianMax(w [][]int64) []int {
	n := len(w)
	const inf = math.MaxInt64 / 4
	// Minimise the negated weights; rows and columns are 1-based inside.
	u := make([]int64, n+1)
	v := make([]int64, n+1)
	p := make([]int, n+1) // p[col] = row
	way := make([]int, n+1)
	minv := make([]int64, n+1)
	used := make([]bool, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for {
			used[j0] = true
			i0, delta, j1 := p[j0], int64(inf), 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				cur := -w[i0-1][j-1] - u[i0] - v[j]
				if cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= n; j++ {
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
	rowCol := make([]int, n)
	for j := 1; j <= n; j++ {
		if p[j] > 0 {
			rowCol[p[j]-1] = j - 1
		}
	}
	return rowCol
}
