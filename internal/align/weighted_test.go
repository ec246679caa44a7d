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

// TestAnyOrderBest checks the matching of best score against every
// one-to-one matching, on small random relations with latency checks.
func TestAnyOrderBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for n := range 3000 {
		r := random(rng)
		limit, skip := map[int32]bool{}, map[int]bool{}
		for _, c := range r.ItemClass {
			limit[c] = rng.IntN(2) == 0
		}
		for j := range r.Steps {
			skip[j] = rng.IntN(3) == 0
		}
		chk := align.Checks{
			Limited: func(c int32) bool { return limit[c] },
			Skipped: func(_ int32, j int) bool { return skip[j] },
		}
		lat := 0
		for _, c := range r.ItemClass {
			if limit[c] {
				lat++
			}
		}
		n0, d0 := rng.IntN(2), len(r.ItemClass)+lat+1
		score := func(pairs []align.Pair) (num, den, hits int) {
			num, den = n0, d0
			for _, p := range pairs {
				c := r.ItemClass[p.Item]
				num++
				switch {
				case !limit[c]:
				case skip[p.Step]:
					den--
				case r.Bonus != nil && r.Bonus(c, p.Step):
					num++
				}
			}
			return num, den, len(pairs)
		}
		a := align.AnyOrderBest(r, chk, n0, d0)
		if !injective(pairsSteps(a.Pairs, len(r.ItemClass))) {
			t.Fatalf("case %d: pairs %v reuse a step", n, a.Pairs)
		}
		for _, p := range a.Pairs {
			if !matches(r, p.Item, p.Step) {
				t.Fatalf("case %d: item %d does not match step %d", n, p.Item, p.Step)
			}
		}
		gn, gd, gh := score(a.Pairs)
		bn, bd, bh := -1, 1, 0
		var rec func(i int, used map[int]bool, pairs []align.Pair)
		rec = func(i int, used map[int]bool, pairs []align.Pair) {
			if i == len(r.ItemClass) {
				num, den, h := score(pairs)
				if c := num*bd - bn*den; bn < 0 || c > 0 || c == 0 && h > bh {
					bn, bd, bh = num, den, h
				}
				return
			}
			rec(i+1, used, pairs)
			for j := range r.Steps {
				if !used[j] && matches(r, i, j) {
					used[j] = true
					rec(i+1, used, append(pairs, align.Pair{Item: i, Step: j}))
					used[j] = false
				}
			}
		}
		rec(0, map[int]bool{}, nil)
		if gn*bd != bn*gd || gh != bh {
			t.Fatalf("case %d: got %d/%d with %d hits (%v), best %d/%d with %d hits; steps %v classes %v", n, gn, gd, gh, a.Pairs, bn, bd, bh, r.Steps, r.ItemClass)
		}
	}
}

func pairsSteps(pairs []align.Pair, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for _, p := range pairs {
		out[p.Item] = p.Step
	}
	return out
}
