package calls

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
)

// Compile turns expected calls into items: each call's arguments under its
// own args_match, else def, with opt's string rules, and its latency limit.
func Compile(expected []trajeval.ExpectedCall, def trajeval.ArgsMatch, opt argmatch.Options) ([]Item, error) {
	items := make([]Item, len(expected))
	for i, c := range expected {
		mode := c.ArgsMatch
		if mode.IsZero() {
			mode = def
		}
		m, err := argmatch.New(c.Args, mode, opt)
		if err != nil {
			return nil, err
		}
		items[i] = Args(c.Tool, m)
		items[i].MaxDurationMS = c.MaxDurationMS
	}
	return items, nil
}

// Matches reports whether item it matches step j of the trail.
func (it *Item) Matches(t *argmatch.Trail, j int) bool {
	if it.Tool != t.Steps()[j].Name || it.Args != nil && !it.Args.MatchAt(t, j) {
		return false
	}
	return it.Match == nil || it.Match(&t.Steps()[j])
}

// diff explains why step j of the trail did not match: the differences of
// Args, then those of Diff; nil when the item gives none.
func (it *Item) diff(t *argmatch.Trail, j int) []trajeval.ArgDiff {
	var diffs []trajeval.ArgDiff
	if it.Args != nil {
		diffs = it.Args.DiffAt(t, j)
	}
	if it.Diff != nil {
		diffs = append(diffs, it.Diff(&t.Steps()[j])...)
	}
	return diffs
}
