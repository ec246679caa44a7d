package pattern_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/eval/rules/pattern"
)

// TestPattern_Match_regexp checks the engine against Go's regexp on random
// patterns over the calls a, b and c: a pattern and its translation (each
// call a letter, . any letter, each quantifier on a non-capturing group so
// that stacked ones keep the pattern's meaning rather than regexp's lazy
// forms) must agree on every word. The seed is fixed, so a failure repeats.
func TestPattern_Match_regexp(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 5))
	const patterns, words = 3000, 12
	for range patterns {
		src, re := genAlt(r, 3)
		p, err := pattern.Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		want := regexp.MustCompile("^(?:" + re + ")$")
		for w := range words {
			seq := genWord(r, w%7)
			items := p.Items()
			got := p.Match(len(seq), func(item, i int) bool {
				return items[item].Any || items[item].Name == string(seq[i])
			}).Matched
			if exp := want.MatchString(seq); got != exp {
				t.Fatalf("pattern %q on %q: matched = %v, regexp %s says %v", src, strings.Join(strings.Split(seq, ""), " "), got, want, exp)
			}
		}
	}
}

// genWord returns n calls, one letter each.
func genWord(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte("abc"[r.IntN(3)])
	}
	return b.String()
}

// genAlt returns a random pattern and its regular expression: one to three
// alternatives.
func genAlt(r *rand.Rand, depth int) (src, re string) {
	var ss, rs []string
	for range 1 + r.IntN(3) {
		s, x := genSeq(r, depth)
		ss, rs = append(ss, s), append(rs, x)
	}
	return strings.Join(ss, " | "), strings.Join(rs, "|")
}

// genSeq is one to three quantified atoms one after another.
func genSeq(r *rand.Rand, depth int) (src, re string) {
	var ss, rs []string
	for range 1 + r.IntN(3) {
		s, x := genAtom(r, depth)
		for r.IntN(3) == 0 {
			q := genQuant(r)
			s, x = s+q, "(?:"+x+")"+q
		}
		ss, rs = append(ss, s), append(rs, x)
	}
	return strings.Join(ss, " "), strings.Join(rs, "")
}

// genAtom is a call, the wildcard, or a group.
func genAtom(r *rand.Rand, depth int) (src, re string) {
	switch n := r.IntN(6); {
	case n == 0 && depth > 0:
		s, x := genAlt(r, depth-1)
		return "(" + s + ")", "(?:" + x + ")"
	case n == 1:
		return ".", "[abc]"
	default:
		c := string("abc"[r.IntN(3)])
		return c, c
	}
}

func genQuant(r *rand.Rand) string {
	m := r.IntN(3)
	switch r.IntN(6) {
	case 0:
		return "*"
	case 1:
		return "+"
	case 2:
		return "?"
	case 3:
		return fmt.Sprintf("{%d}", m)
	case 4:
		return fmt.Sprintf("{%d,%d}", m, m+r.IntN(3))
	default:
		return fmt.Sprintf("{%d,}", m)
	}
}
