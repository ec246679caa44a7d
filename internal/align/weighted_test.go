package align_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval/internal/align"
)

func total(w [][]float64, pairs []align.Pair) float64 {
	var s float64
	for _, p := range pairs {
		s += w[p.Item][p.Step]
	}
	return s
}

// bruteWeight is the heaviest matching by trying every assignment;
// ordered keeps only those whose pairs do not cross.
func bruteWeight(w [][]float64, ordered bool) float64 {
	m := len(w)
	k := 0
	if m > 0 {
		k = len(w[0])
	}
	used := make([]bool, k)
	best := 0.0
	var rec func(i, last int, s float64)
	rec = func(i, last int, s float64) {
		if i == m {
			best = max(best, s)
			return
		}
		rec(i+1, last, s)
		for j := range k {
			if used[j] || w[i][j] <= 0 || (ordered && j <= last) {
				continue
			}
			used[j] = true
			nl := last
			if ordered {
				nl = j
			}
			rec(i+1, nl, s+w[i][j])
			used[j] = false
		}
	}
	rec(0, -1, 0)
	return best
}

func TestMaxWeight(t *testing.T) {
	tests := []struct {
		name   string
		w      [][]float64
		want   float64
		reason string
	}{
		{"greedy trap", [][]float64{{0.5, 0.5}, {1, 0.5}}, 1.5, "item 0 must leave step 0 to item 1, though both weigh the same to it"},
		{"more items than steps", [][]float64{{1}, {0.25}}, 1, "one step serves one item"},
		{"more steps than items", [][]float64{{0.2, 0.9, 0.4}}, 0.9, "the heaviest step wins"},
		{"zero weights never pair", [][]float64{{0, 0}, {0, 0}}, 0, "a pair of weight 0 is no pair"},
		{"empty", nil, 0, "nothing to pair"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := align.MaxWeight(tt.w)
			if got := total(tt.w, p); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("total %v, want %v (pairs %v): %s", got, tt.want, p, tt.reason)
			}
			for _, x := range p {
				if tt.w[x.Item][x.Step] <= 0 {
					t.Errorf("pair %v weighs %v: %s", x, tt.w[x.Item][x.Step], tt.reason)
				}
			}
		})
	}
}

func TestOrderedMaxWeight(t *testing.T) {
	tests := []struct {
		name   string
		w      [][]float64
		want   float64
		reason string
	}{
		{"crossing is not allowed", [][]float64{{0, 1}, {1, 0}}, 1, "items 0 and 1 would cross"},
		{"a heavy late pair beats two light ones", [][]float64{{0.2, 0, 0}, {0, 0.2, 0}, {0, 0, 0}, {0.9, 0, 0}}, 0.9, "weights, not counts"},
		{"gaps allowed", [][]float64{{1, 0, 0}, {0, 0, 1}}, 2, "steps may sit between"},
		{"empty", [][]float64{{}}, 0, "no steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := align.OrderedMaxWeight(tt.w)
			if got := total(tt.w, p); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("total %v, want %v (pairs %v): %s", got, tt.want, p, tt.reason)
			}
			for i := 1; i < len(p); i++ {
				if p[i].Item <= p[i-1].Item || p[i].Step <= p[i-1].Step {
					t.Errorf("pairs %v cross: %s", p, tt.reason)
				}
			}
		})
	}
}

// TestWeighted_random checks both against brute force on small matrices
// whose weights are fractions, as argument scores are.
func TestWeighted_random(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for n := range 300 {
		m, k := 1+rng.IntN(5), 1+rng.IntN(5)
		w := make([][]float64, m)
		for i := range w {
			w[i] = make([]float64, k)
			for j := range w[i] {
				if rng.IntN(3) > 0 {
					w[i][j] = float64(rng.IntN(5)) / 4
				}
			}
		}
		if got, want := total(w, align.MaxWeight(w)), bruteWeight(w, false); math.Abs(got-want) > 1e-9 {
			t.Fatalf("case %d: MaxWeight %v, brute force %v for %v", n, got, want, w)
		}
		if got, want := total(w, align.OrderedMaxWeight(w)), bruteWeight(w, true); math.Abs(got-want) > 1e-9 {
			t.Fatalf("case %d: OrderedMaxWeight %v, brute force %v for %v", n, got, want, w)
		}
	}
}
