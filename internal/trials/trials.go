// Package trials summarises the repeated runs of a case: agents are not
// deterministic, so one run per case says little.
//
// For a case run n times of which c passed:
//  1. the pass rate is c/n;
//  2. pass@k is the chance that at least one of k trials drawn without
//     replacement from the n passes: 1 − C(n−c, k)/C(n, k), the unbiased
//     estimator of the HumanEval paper;
//  3. pass^k is the chance that all k drawn trials pass: C(c, k)/C(n, k),
//     τ-bench's measure of reliability;
//  4. a case is flaky when some trials pass and some do not (an error
//     counts as not passing);
//  5. the score's mean and its spread (the population standard deviation,
//     and the lowest and highest score) describe the scores of the trials.
//
// k larger than n has no estimate: PassAtK and PassHatK return NaN.
package trials

import (
	"math"

	"github.com/trajeval/trajeval"
)

// A Case is the trials of one case, keyed by suite and id.
type Case struct {
	Suite, ID string
	Trials    int // rows seen
	Passed    int
	Errors    int
	Scores    []float64 // in the order the rows came
}

// Group gathers rows by suite and case id, in the order each case first
// appears.
func Group(rows []trajeval.CaseResult) []*Case {
	type key struct{ suite, id string }
	index := map[key]*Case{}
	var out []*Case
	for _, r := range rows {
		k := key{r.Suite, r.ID}
		c := index[k]
		if c == nil {
			c = &Case{Suite: r.Suite, ID: r.ID}
			index[k] = c
			out = append(out, c)
		}
		c.Add(r)
	}
	return out
}

// Add counts one more trial of c.
func (c *Case) Add(r trajeval.CaseResult) {
	c.Trials++
	switch r.Status {
	case trajeval.StatusPass:
		c.Passed++
	case trajeval.StatusError:
		c.Errors++
	}
	c.Scores = append(c.Scores, r.Score)
}

// PassRate returns Passed/Trials, 0 with no trials.
func (c *Case) PassRate() float64 {
	if c.Trials == 0 {
		return 0
	}
	return float64(c.Passed) / float64(c.Trials)
}

// Flaky reports whether some trials passed and some did not.
func (c *Case) Flaky() bool { return c.Passed > 0 && c.Passed < c.Trials }

// PassAtK is pass@k for c (rule 2).
func (c *Case) PassAtK(k int) float64 { return PassAtK(c.Trials, c.Passed, k) }

// PassHatK is pass^k for c (rule 3).
func (c *Case) PassHatK(k int) float64 { return PassHatK(c.Trials, c.Passed, k) }

// Mean returns the mean score, 0 with no trials.
func (c *Case) Mean() float64 {
	if len(c.Scores) == 0 {
		return 0
	}
	var sum float64
	for _, s := range c.Scores {
		sum += s
	}
	return sum / float64(len(c.Scores))
}

// StdDev returns the population standard deviation of the scores.
func (c *Case) StdDev() float64 {
	if len(c.Scores) == 0 {
		return 0
	}
	m := c.Mean()
	var ss float64
	for _, s := range c.Scores {
		ss += (s - m) * (s - m)
	}
	return math.Sqrt(ss / float64(len(c.Scores)))
}

// Range returns the lowest and highest score.
func (c *Case) Range() (lo, hi float64) {
	if len(c.Scores) == 0 {
		return 0, 0
	}
	lo, hi = c.Scores[0], c.Scores[0]
	for _, s := range c.Scores[1:] {
		lo, hi = min(lo, s), max(hi, s)
	}
	return lo, hi
}

// PassAtK returns 1 − C(n−c, k)/C(n, k): the chance that at least one of k
// trials drawn from n, c of which passed, passes. NaN when k is not in
// 1..n or c is not in 0..n.
func PassAtK(n, c, k int) float64 {
	if !valid(n, c, k) {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	// C(n−c, k)/C(n, k) = Π_{i=0}^{k−1} (n−c−i)/(n−i), stable for any n.
	p := 1.0
	for i := 0; i < k; i++ {
		p *= float64(n-c-i) / float64(n-i)
	}
	return 1 - p
}

// PassHatK returns C(c, k)/C(n, k): the chance that all k trials drawn from
// n, c of which passed, pass. NaN when k is not in 1..n or c is not in
// 0..n.
func PassHatK(n, c, k int) float64 {
	if !valid(n, c, k) {
		return math.NaN()
	}
	if c < k {
		return 0
	}
	p := 1.0
	for i := 0; i < k; i++ {
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

func valid(n, c, k int) bool { return k >= 1 && k <= n && c >= 0 && c <= n }

// Wilson returns the Wilson score interval of a pass rate of passed out of
// n at the normal quantile z (1.96 for 95%): unlike the normal
// approximation it stays inside [0, 1] and is honest for small n and rates
// near 0 or 1. With n = 0 it is [0, 1].
func Wilson(passed, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(passed) / nf
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}
