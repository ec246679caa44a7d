package jsonv

import (
	"bytes"
	"errors"
	"fmt"
)

// MaxDepth is how deeply the JSON that trajeval reads may nest: 128 arrays
// and objects, one inside the other. Traces, agent output and results
// files are untrusted, and every decoder of the JSON data model recurses
// once per level: the text is checked before any of them runs. Real
// traces nest a few dozen levels at most.
const MaxDepth = 128

// ErrTooDeep is JSON nested deeper than MaxDepth.
var ErrTooDeep = errors.New("JSON nested too deep")

// A DepthError is JSON nested deeper than MaxDepth: Offset is the byte
// that opens level MaxDepth+1, Line and Col its place (1-based) in the
// data checked.
type DepthError struct {
	Offset    int64
	Line, Col int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("JSON nested deeper than %d levels of arrays and objects", MaxDepth)
}

func (e *DepthError) Unwrap() error { return ErrTooDeep }

// DepthHint tells the user what to do about JSON nested too deep.
const DepthHint = "no trace nests this deep: the file is corrupt or hostile, and is never read, even with --lenient"

// CheckDepth returns a *DepthError when the JSON text in data nests
// deeper than MaxDepth, nil otherwise. It looks only at brackets outside
// strings, so it is linear and needs no memory, and it does not validate:
// brackets that do not match count as they come. A raw newline ends a
// string, as no valid string holds one, so that a string cut off in one
// line of JSON Lines cannot hide the brackets of the next.
func CheckDepth(data []byte) error {
	// Nothing nests deeper than it has opening brackets, and counting
	// them is a fast pass of the standard library's: a text with too few
	// to pass MaxDepth, as most are, needs no closer look.
	if bytes.Count(data, []byte{'{'})+bytes.Count(data, []byte{'['}) <= MaxDepth {
		return nil
	}
	depth, line, lineStart := 0, 1, 0
	for i := 0; i < len(data); i++ {
		for i < len(data) && !depthStop[data[i]] {
			i++
		}
		if i == len(data) {
			break
		}
		switch data[i] {
		case '{', '[':
			if depth++; depth > MaxDepth {
				return &DepthError{Offset: int64(i), Line: line, Col: i - lineStart + 1}
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case '\n':
			line, lineStart = line+1, i+1
		case '"':
			i = stringEnd(data, i+1)
			if i < len(data) && data[i] == '\n' {
				line, lineStart = line+1, i+1
			}
		}
	}
	return nil
}

// depthStop holds the bytes CheckDepth looks at, and stringStop those
// that end or escape a string or break its line: the loops skip every
// other byte with one look-up.
var (
	depthStop  = [256]bool{'{': true, '[': true, '}': true, ']': true, '"': true, '\n': true}
	stringStop = [256]bool{'"': true, '\\': true, '\n': true}
)

// stringEnd returns the index of the quote that ends the string starting
// at i, of the raw newline that breaks it, or len(data).
func stringEnd(data []byte, i int) int {
	for {
		i = stringStopAt(data, i)
		if i == len(data) || data[i] != '\\' {
			return i
		}
		switch i++; {
		case i == len(data):
			return i // cut off after the backslash
		case data[i] == '\n':
			return i
		}
		i++
	}
}
