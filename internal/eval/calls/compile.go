package calls

import (
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/trajeval"
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

// Matches reports whether item it matches step s.
func (it *Item) Matches(s *trajeval.Step) bool {
	return it.Tool == s.Name && (it.Match == nil || it.Match(s))
}
