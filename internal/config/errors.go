package config

import (
	"errors"
	"sort"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/errlist"
	"github.com/trajeval/trajeval/internal/plural"
)

// Join returns the errors found in the items of the list n as one error:
//  1. nil for none, the error itself for one, else an errors.Join of
//     each, in the order of their places (see [SortErrors]); a joined
//     error among them is taken apart, so every error keeps its place;
//  2. past [errlist.Max], one error in place of the rest says how many were
//     left out, at the place of the first of them (at n when it has
//     none).
//
// [errlist.Split] takes the result apart again.
func (n *Node) Join(errs []error) error {
	var flat []error
	for _, err := range errs {
		flat = append(flat, errlist.Split(err)...)
	}
	switch len(flat) {
	case 0:
		return nil
	case 1:
		return flat[0]
	}
	SortErrors(flat)
	if more := len(flat) - errlist.Max; more > 0 {
		e := n.Errorf("and %d more %s in this list, not shown", more, plural.Noun(more, "error", "errors"))
		var at *trajeval.SpecError
		if errors.As(flat[errlist.Max], &at) && at.Line > 0 {
			e.File, e.Line, e.Col, e.Path = at.File, at.Line, at.Col, at.Path
			e.Msg = "and " + plural.Count(more, "more error", "more errors") + " from here on in this list, not shown"
		}
		flat = append(flat[:errlist.Max:errlist.Max], &MoreErrors{SpecError: e.With("fix the errors above and run again to see the rest"), N: more})
	}
	return errors.Join(flat...)
}

// MoreErrors stands for the errors of a list that [Node.Join] left out,
// so that a count of errors can still count them.
type MoreErrors struct {
	*trajeval.SpecError
	N int // how many were left out
}

func (e *MoreErrors) Unwrap() error { return e.SpecError }

// SortErrors orders errors by file, line and column, for stable output;
// an error with no place ([*trajeval.SpecError] underneath) comes first.
func SortErrors(errs []error) {
	pos := func(e error) (string, int, int) {
		var se *trajeval.SpecError
		if errors.As(e, &se) {
			return se.File, se.Line, se.Col
		}
		return "", 0, 0
	}
	sort.SliceStable(errs, func(i, j int) bool {
		fi, li, ci := pos(errs[i])
		fj, lj, cj := pos(errs[j])
		if fi != fj {
			return fi < fj
		}
		if li != lj {
			return li < lj
		}
		return ci < cj
	})
}
