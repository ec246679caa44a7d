package calls

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/jsonv"
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
	return it.Tool == t.Steps()[j].Name && it.accepts(nil, t, j)
}

// accepts reports whether item it accepts step j of the trail, a step
// with its name; p, when not nil, reads arguments kept as text (see
// [argmatch.Matcher.MatchWith]).
func (it *Item) accepts(p *jsonv.Parser, t *argmatch.Trail, j int) bool {
	if it.Args != nil && !it.Args.MatchWith(p, t, j) {
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
