// Package suggest finds the valid name closest to a misspelt one.
package suggest

import (
	"strings"
	"sync"
	"unicode"
)

var canonCache sync.Map // string → string: keys repeat across thousands of cases

// Canon returns the canonical spelling of a name: snake_case, lower case,
// so getWeather, get-weather and get_weather are one name.
func Canon(name string) string {
	if c, ok := canonCache.Load(name); ok {
		return c.(string)
	}
	c := canon(name)
	canonCache.Store(name, c)
	return c
}

func canon(key string) string {
	var b strings.Builder
	rs := []rune(key)
	for i, r := range rs {
		switch {
		case r == '-' || r == ' ':
			b.WriteByte('_')
		case unicode.IsUpper(r):
			if i > 0 && rs[i-1] != '_' && rs[i-1] != '-' && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Closest returns the candidate nearest to s, or "" when none is near
// enough to be a likely typo. Case, '-' and '_' differences count as
// nearly nothing, so getWeather is close to get_weather.
func Closest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := Distance(s, c)
		if d <= limit(s, c) && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// Near returns every candidate within typo distance of s, nearest first.
func Near(s string, candidates []string) []string {
	return near(s, candidates, Distance)
}

// A Memo remembers the distances its Near measured, for the names that
// come back: a run's trajectories name a few tools over and over. The
// zero value is ready to use; it holds at most memoPairs distances, of
// names of at most memoName bytes (longer ones are measured each time),
// and forgets them all when full. A Memo is not safe for use by several
// goroutines at once.
type Memo struct {
	d map[[2]string]int
}

// memoPairs bounds the distances a Memo holds, and memoName the names it
// keeps: together, the memory it keeps alive.
const (
	memoPairs = 1024
	memoName  = 64
)

// Near is [Near], with the distances m remembers.
func (m *Memo) Near(s string, candidates []string) []string {
	return near(s, candidates, m.distance)
}

// distance is Distance(a, b), remembered.
func (m *Memo) distance(a, b string) int {
	if len(a) > memoName || len(b) > memoName {
		return Distance(a, b)
	}
	k := [2]string{a, b}
	if d, ok := m.d[k]; ok {
		return d
	}
	if m.d == nil || len(m.d) >= memoPairs {
		m.d = make(map[[2]string]int)
	}
	d := Distance(a, b)
	m.d[k] = d
	return d
}

// near is Near, with the distance dist.
func near(s string, candidates []string, dist func(a, b string) int) []string {
	var out []string
	var ds []int
	for _, c := range candidates {
		if d := dist(s, c); d <= limit(s, c) && c != s {
			i := len(out)
			for i > 0 && ds[i-1] > d {
				i--
			}
			out = append(out[:i], append([]string{c}, out[i:]...)...)
			ds = append(ds[:i], append([]int{d}, ds[i:]...)...)
		}
	}
	return out
}

func limit(a, b string) int {
	n := max(len(a), len(b))
	switch {
	case n <= 3:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// Distance is the edit distance between a and b after folding case and
// dropping '-', '_' and spaces, plus one if the folding changed anything
// (so an exact match is always closest).
func Distance(a, b string) int {
	fa, fb := fold(a), fold(b)
	d := levenshtein(fa, fb)
	if a != b {
		d++
	}
	return d
}

var folder = strings.NewReplacer("_", "", "-", "", " ", "")

func fold(s string) string { return folder.Replace(strings.ToLower(s)) }

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
