package check

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/grounding"
)

// GroundingSettings are the settings of [Grounding]. The zero value
// checks every string of 3 characters or more and every number,
// case-sensitively, in every call.
type GroundingSettings struct {
	// MinLength is the shortest string checked, in characters; 0 means 3.
	MinLength int
	// IgnoreCase finds strings ignoring case (Unicode case folding).
	IgnoreCase bool
	// SkipNumbers leaves numbers unchecked.
	SkipNumbers bool
	// Only, when not empty, are the only places checked, and Ignore places
	// not checked: paths whose first segment is the tool (or * for any)
	// and the rest the argument's path, such as "search.query", "*.id" or
	// "book.passengers[*].name". A path covers what is below it.
	Only, Ignore []string
	// Input is the user's input as the case gives it, a source of every
	// call beside the trajectory's own user messages.
	Input string
}

// Grounding checks that the agent invented no argument value: each
// string (of MinLength characters or more) and number in the arguments
// of every call must occur in a source the call could have seen:
//  1. the Input, and the trajectory's user messages up to the call's
//     turn;
//  2. the results (and error messages) of the calls issued before it,
//     except those of its own parallel group, which ran at the same
//     time. Earlier calls' arguments are not sources.
//
// Strings are found as substrings after Unicode NFC normalisation and
// white-space collapsing; numbers by value (42 = 42.0, and the text "42"
// or "1,200" for 1200). The score is the grounded values over the
// checked ones, 1 when nothing is checked; each ungrounded value is a
// failed check naming its step, tool, path and where it was looked for.
// A negative MinLength and a path that does not parse are setting
// errors.
func Grounding(s GroundingSettings) trajeval.Evaluator {
	ev, err := grounding.New(grounding.Options{
		MinLength: s.MinLength, CaseInsensitive: s.IgnoreCase, SkipNumbers: s.SkipNumbers,
		Only: s.Only, Ignore: s.Ignore, Input: s.Input,
	})
	return build("grounding", ev, wrap(err))
}
