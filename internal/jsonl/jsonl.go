// Package jsonl reads JSON Lines and places JSON errors at a line and
// column.
//
// Lines may be of any length: it does not use bufio.Scanner, whose default
// limit of 64 KiB would reject a long trace line.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Each calls fn with every non-blank line of r (without its line ending)
// and its 1-based line number. The line's bytes are only valid during the
// call. It stops at the first error fn returns.
func Each(r io.Reader, fn func(line []byte, n int) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for n := 1; ; n++ {
		chunk, err := br.ReadSlice('\n')
		line := chunk
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], chunk...)
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				long = append(long, chunk...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if ferr := fn(t, n); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			return nil
		}
	}
}

// Position turns a byte offset in data into a 1-based line and column.
func Position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	before := data[:offset]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// ErrorOffset returns the byte offset a JSON decoding error points at, if
// it has one.
func ErrorOffset(err error) (int64, bool) {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Offset, true
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Offset, true
	}
	return 0, false
}

// Describe turns a JSON decoding error into a short message and the place
// in data it points at (line and column from firstLine, 1-based), with a
// hint for the common mistakes.
func Describe(data []byte, err error, firstLine int) (msg string, line, col int) {
	msg = err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		line, col = Position(data, int64(len(data)))
		return "unexpected end of JSON: the file is truncated or a bracket is missing", line + firstLine - 1, col
	}
	if off, ok := ErrorOffset(err); ok {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			msg = "invalid JSON: " + se.Error()
			// The offset counts the offending byte itself: point at it.
			off = max(off-1, 0)
		}
		line, col = Position(data, off)
		return msg, line + firstLine - 1, col
	}
	return fmt.Sprintf("invalid JSON: %v", err), firstLine, 0
}
