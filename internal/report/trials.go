package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trials"
)

// trialSet gathers the rows of a run by case as they arrive, to summarise
// the cases that ran several times (rows with an Attempt); rows without
// one are left out.
type trialSet struct {
	index    map[[2]string]*trials.Case
	cases    []*trials.Case
	attempts bool // some row carries an Attempt
}

func (t *trialSet) add(r trajeval.CaseResult) {
	if r.Attempt == 0 {
		return // a case run once has no trials to summarise
	}
	t.attempts = true
	if t.index == nil {
		t.index = map[[2]string]*trials.Case{}
	}
	k := [2]string{r.Suite, r.ID}
	c := t.index[k]
	if c == nil {
		c = &trials.Case{Suite: r.Suite, ID: r.ID}
		t.index[k] = c
		t.cases = append(t.cases, c)
	}
	c.Add(r)
}

// maxTrials is the largest number of trials of one case.
func (t *trialSet) maxTrials() int {
	n := 0
	for _, c := range t.cases {
		n = max(n, c.Trials)
	}
	return n
}

// trialKs are the k shown for pass@k and pass^k when cases ran up to n
// times: every k from 1 to n when n is at most 5, else 1, 2, 5, 10, 20, 50
// … below n, and n itself, so that a table stays readable.
func trialKs(n int) []int {
	if n <= 5 {
		ks := make([]int, n)
		for i := range ks {
			ks[i] = i + 1
		}
		return ks
	}
	var ks []int
	for base := 1; base < n; base *= 10 {
		for _, m := range []int{1, 2, 5} {
			if k := base * m; k < n {
				ks = append(ks, k)
			}
		}
	}
	return append(ks, n)
}

// trialTotals counts cases that passed every trial, none, and some (flaky).
func (t *trialSet) totals() (all, none, flaky int) {
	for _, c := range t.cases {
		switch {
		case c.Passed == c.Trials:
			all++
		case c.Passed == 0:
			none++
		default:
			flaky++
		}
	}
	return all, none, flaky
}

// prob renders a probability with two decimals, or "–" when k exceeds the
// trials and there is no estimate.
func prob(p float64) string {
	if math.IsNaN(p) {
		return "–"
	}
	return score(p)
}

// spread renders the mean score ± its standard deviation, with the range
// when the trials' scores differ.
func spread(c *trials.Case) string {
	lo, hi := c.Range()
	s := fmt.Sprintf("%s ± %s", score(c.Mean()), score(c.StdDev()))
	if lo != hi {
		s += fmt.Sprintf(" [%s, %s]", score(lo), score(hi))
	}
	return s
}

// passKs renders pass@k or pass^k for each k, e.g. "0.60 0.90 1.00".
func passKs(f func(int) float64, ks []int) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = prob(f(k))
	}
	return strings.Join(parts, " ")
}

func caseName(suite, id string) string {
	if suite == "" {
		return id
	}
	return suite + " / " + id
}
