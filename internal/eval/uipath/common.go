package uipath

import (
	"fmt"

	"github.com/trajeval/trajeval"
)

// An OptionError is a setting a constructor refuses: Index is the 0-based
// index of the expected item it concerns, or -1 for the list as a whole.
type OptionError struct {
	Index int
	Msg   string
	Hint  string
	Err   error // the underlying error, if any
}

func (e *OptionError) Error() string {
	s := e.Msg
	if e.Index >= 0 {
		s = fmt.Sprintf("item %d: %s", e.Index+1, s)
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *OptionError) Unwrap() error { return e.Err }

func newDetails(mode string) *trajeval.Details { return &trajeval.Details{Mode: mode} }

func modeName(strict bool, loose string) string {
	if strict {
		return "strict"
	}
	return loose
}
