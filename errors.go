package trajeval

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors, for errors.Is.
var (
	ErrNoTrace       = errors.New("no trace for case")
	ErrEmptyTrace    = errors.New("empty trace")
	ErrUnknownFormat = errors.New("unknown trace format")
	ErrConfig        = errors.New("configuration error")
	// ErrCorruptTrace is a trace that is not valid in its format: cut off,
	// or broken by a syntax error.
	ErrCorruptTrace = errors.New("corrupt trace")
)

// A SpecError is a mistake in a suite or configuration file, located for
// the person who must fix it.
type SpecError struct {
	File      string
	Line, Col int
	Path      string // e.g. evalcases[2].execution.evaluators[0].mode
	Msg       string
	Hint      string // a close valid name or what to do, if any
}

func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString(position(e.File, e.Line, e.Col))
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		fmt.Fprintf(&b, " (%s)", e.Hint)
	}
	return b.String()
}

// With sets the hint and returns e.
func (e *SpecError) With(format string, args ...any) *SpecError {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// Unwrap makes every SpecError match [ErrConfig].
func (e *SpecError) Unwrap() error { return ErrConfig }

// A TraceError is a trace that could not be read.
type TraceError struct {
	File      string
	Line, Col int
	Msg       string
	Hint      string
	Err       error
}

func (e *TraceError) Error() string {
	s := position(e.File, e.Line, e.Col) + e.Msg
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *TraceError) Unwrap() error { return e.Err }

// A Warning is a problem in a trace that did not stop it from being read:
// a result whose call never appears, a call id used twice, arguments that
// are not valid JSON. Each is reported once, with its place.
type Warning struct {
	File      string
	Line, Col int    // 0 when unknown
	Place     string // e.g. "span 5b8efff798038103"
	Msg       string
}

func (w Warning) String() string {
	s := position(w.File, w.Line, w.Col)
	if w.Place != "" {
		s += w.Place + ": "
	}
	return s + w.Msg
}

func position(file string, line, col int) string {
	switch {
	case file == "":
		return ""
	case line == 0:
		return file + ": "
	case col == 0:
		return fmt.Sprintf("%s:%d: ", file, line)
	}
	return fmt.Sprintf("%s:%d:%d: ", file, line, col)
}
