// Package pylit reads Python literals and call lists — the text a model or
// a pandas CSV writes with Python's syntax — into the JSON data model of
// package jsonv, without running any Python.
//
// [ParseValue] reads one literal:
//  1. strings in ' or " quotes, tripled or not, with Python's escapes
//     (\n \t \' \\ \x41 \101 \u00e9 \U0001F600, a backslash before a
//     newline joins lines, an unknown escape keeps its backslash), the
//     prefixes r and u in either case, and adjacent strings joined as
//     Python joins them; bytes (b'...') and f-strings are refused, as is
//     \N{name};
//  2. integers, exactly and of any size, in decimal, hex (0x), octal (0o)
//     and binary (0b), with _ between digits, and a sign; they become a
//     json.Number without a point;
//  3. floats (1.5, .5, 5., 1e-3, 1_000.5) read as Python reads them, to
//     the nearest float64, and written back the way Python's repr writes
//     them, so a float keeps a point or an exponent (1e5 is 100000.0) and
//     stays a float for whoever tells ints from floats; a float too large
//     for float64 (Python's inf) and imaginary numbers are refused;
//  4. True, False and None as true, false and null;
//  5. lists and tuples as JSON arrays, dicts as JSON objects; a key that is
//     a number, a boolean or None becomes its JSON text, as json.dumps
//     writes it; sets are refused (JSON has none).
//
// [ParseCalls] reads a list of calls as the Berkeley Function Calling
// Leaderboard's default decoder reads a prompting model's answer, see
// [ParseCalls]; there, and only there, a tuple is a [Tuple], as BFCL's
// checker tells tuples from lists.
//
// Comments (#) and newlines between tokens are allowed. Every error is a
// [*SyntaxError] with the line and column of the problem and, where one
// helps, a hint; nothing the reader is given makes it panic.
package pylit

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// ErrSyntax is what every [*SyntaxError] unwraps to.
var ErrSyntax = errors.New("not a Python literal")

// A SyntaxError is text that is not the Python the reader accepts, located
// by line and column (both 1-based; the column counts characters).
type SyntaxError struct {
	Line, Col int
	Offset    int // byte offset of the problem in the text
	Msg       string
	Hint      string // what to write instead, if anything helps
}

// Error returns "line L, column C: message (hint)".
func (e *SyntaxError) Error() string {
	s := fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Unwrap returns [ErrSyntax].
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Locate returns the line and column (1-based, the column in characters)
// of the byte offset off in src; an offset past the end is placed just
// after the last character.
func Locate(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	scanned.Add(int64(off))
	line = 1 + strings.Count(before, "\n")
	if i := strings.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCountInString(before)
}

// locate places each of calls, in the order of their offsets, in src,
// as Locate does: each counted on from the one before, so that a text of
// many calls on one line is placed in time linear in its size (Locate
// counts its lines and its line's characters from the start each time).
func locate(src string, calls []Call) {
	line, col, off := 1, 1, 0
	for i := range calls {
		to := min(max(calls[i].Offset, 0), len(src))
		if to < off {
			// Not in order, which a parser's calls always are.
			calls[i].Line, calls[i].Col = Locate(src, to)
			continue
		}
		seg := src[off:to]
		scanned.Add(int64(len(seg)))
		if j := strings.LastIndexByte(seg, '\n'); j >= 0 {
			line += strings.Count(seg, "\n")
			col, seg = 1, seg[j+1:]
		}
		col += utf8.RuneCountInString(seg)
		off = to
		calls[i].Line, calls[i].Col = line, col
	}
}

// scanned counts the bytes Locate and locate have looked at, for the
// tests.
var scanned atomic.Int64

// ParseValue reads one Python literal (see the package rules) into the
// JSON data model: nil, bool, string, json.Number, []any and
// map[string]any.
func ParseValue(src string) (any, error) {
	p, err := newParser(src, false)
	if err != nil {
		return nil, err
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return v, nil
}
