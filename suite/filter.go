package suite

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/trajeval/trajeval/internal/suggest"
)

// A filter is RunOptions.Filter compiled: its patterns, and which of them
// picked something in this run.
type filter struct {
	pats []pattern
}

type pattern struct {
	text    string
	re      *regexp.Regexp // nil for a glob
	matched bool
	// near are the ids nearest to text among those seen, nearest first:
	// the hint when the pattern matches nothing.
	near []nearID
}

type nearID struct {
	id string
	d  int
}

// nearMax is how many ids a pattern that matches nothing suggests.
const nearMax = 5

// compileFilter compiles patterns (see RunOptions.Filter); nil for none.
func compileFilter(patterns []string) (*filter, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	f := &filter{}
	for _, p := range patterns {
		pat := pattern{text: p}
		switch {
		case p == "":
			return nil, errors.New(`filter "": an empty pattern picks nothing; give a glob such as refund-* or a regular expression such as /^refund-[0-9]+$/`)
		case len(p) >= 2 && p[0] == '/' && p[len(p)-1] == '/':
			re, err := regexp.Compile(p[1 : len(p)-1])
			if err != nil {
				return nil, fmt.Errorf("filter %q: %w", p, err)
			}
			pat.re = re
		default:
			if _, err := path.Match(p, ""); err != nil {
				return nil, fmt.Errorf("filter %q: %w (a glob: * ? [a-z], \\ escapes; write /RE/ for a regular expression)", p, err)
			}
		}
		f.pats = append(f.pats, pat)
	}
	return f, nil
}

// match reports whether some pattern picks case id of suite suiteName,
// and notes which patterns did. Every pattern is tried, so that each one
// that matches is known to.
func (f *filter) match(suiteName, id string) bool {
	if f == nil {
		return true
	}
	picked := false
	for i := range f.pats {
		p := &f.pats[i]
		if p.matches(id) || p.matches(suiteName+"/"+id) {
			p.matched, picked = true, true
		}
	}
	return picked
}

// note remembers id as a near miss of every pattern that has matched
// nothing yet, keeping the nearMax nearest.
func (f *filter) note(suiteName, id string) {
	if f == nil {
		return
	}
	for i := range f.pats {
		p := &f.pats[i]
		if p.matched {
			continue
		}
		cand := id
		if strings.Contains(p.text, "/") {
			cand = suiteName + "/" + id
		}
		if slices.ContainsFunc(p.near, func(n nearID) bool { return n.id == cand }) {
			continue
		}
		n := nearID{cand, suggest.Distance(p.text, cand)}
		at, _ := slices.BinarySearchFunc(p.near, n, func(a, b nearID) int { return cmp.Compare(a.d, b.d) })
		for at < len(p.near) && p.near[at].d == n.d {
			at++ // equally near: the first seen stays first
		}
		if at < nearMax {
			p.near = slices.Insert(p.near, at, n)
			if len(p.near) > nearMax {
				p.near = p.near[:nearMax]
			}
		}
	}
}

func (p *pattern) matches(s string) bool {
	if p.re != nil {
		return p.re.MatchString(s)
	}
	ok, _ := path.Match(p.text, s)
	return ok
}

// unmatched returns an error for every pattern that matched nothing, nil
// when each picked something. what names what was searched.
func (f *filter) unmatched(what string) error {
	if f == nil {
		return nil
	}
	var errs []error
	for _, p := range f.pats {
		if p.matched {
			continue
		}
		var ids []string
		for _, n := range p.near {
			ids = append(ids, n.id)
		}
		hint := "there is none to pick"
		if len(ids) > 0 {
			hint = "nearest: " + strings.Join(ids, ", ")
		}
		errs = append(errs, fmt.Errorf("filter %q matches no %s (%s)", p.text, what, hint))
	}
	return errors.Join(errs...)
}
