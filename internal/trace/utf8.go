package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/plural"
)

// utf8Check passes a text trace through, checking that it is UTF-8 as it
// goes, so that no reader decodes a byte of it before it is checked:
//  1. Read strictly, the first invalid sequence is a *TraceError at its
//     line and column, wrapping ErrCorruptTrace.
//  2. Read leniently, it is a warning at its place, the readers decode it
//     as U+FFFD, and when the data ends a second warning counts them all
//     if there was more than one.
//
// A sequence split between two reads is checked whole.
//
// The place of a bad sequence is needed once at most (the error, or the
// first warning), so it is found when it is needed: an input that can be
// read again where it stood (a file, data in memory: see at) is read
// again up to the sequence's offset, its lines counted then; only
// another input (standard input, a pipe, gzip data) has its lines
// counted as it passes through, a count every byte would pay for.
type utf8Check struct {
	r    io.Reader
	in   trajeval.Input
	off  int64  // the offset of the next byte, from the check's first
	line int    // the line of the next byte, from 1, when at is nil
	head int64  // the offset of that line's first byte, when at is nil
	tail []byte // the start of a sequence the last read cut off
	bad  int    // invalid sequences met
	done bool
	size int64 // bytes the input holds, -1 if unknown
	// at reads the input again, the check's first byte at base; nil
	// for an input that cannot be read again.
	at   io.ReaderAt
	base int64
}

// newUTF8Check checks r, which holds size bytes (-1 if unknown); at,
// when not nil, reads the same bytes again, r's first at base.
func newUTF8Check(r io.Reader, in trajeval.Input, size int64, at io.ReaderAt, base int64) *utf8Check {
	return &utf8Check{r: r, in: in, line: 1, size: size, at: at, base: base}
}

// Size returns how many bytes the input holds, -1 if unknown, so that a
// reader can size its buffer to a small file (see msglog.EachValue).
func (c *utf8Check) Size() int64 { return c.size }

func (c *utf8Check) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if cerr := c.check(p[:n], err != nil); cerr != nil {
		return 0, cerr
	}
	if errors.Is(err, io.EOF) && !c.done {
		c.done = true
		if c.bad > 1 {
			c.in.Warn(trajeval.Warning{File: c.in.Name, Msg: fmt.Sprintf("%s of invalid UTF-8 in all, read as U+FFFD", plural.Count(c.bad, "sequence", "sequences"))})
		}
	}
	return n, err
}

// check checks b, which follows what came before; last says no more
// bytes follow.
func (c *utf8Check) check(b []byte, last bool) error {
	if len(c.tail) > 0 {
		// The sequence the last read cut off, completed from b.
		joined := append(append([]byte(nil), c.tail...), b[:min(utf8.UTFMax, len(b))]...)
		if !utf8.FullRune(joined) && !last {
			c.off += int64(len(joined) - len(c.tail))
			c.tail = joined
			return nil
		}
		r, size := utf8.DecodeRune(joined)
		c.off -= int64(len(c.tail))
		if r == utf8.RuneError && size <= 1 {
			if err := c.invalid(); err != nil {
				return err
			}
			size = len(c.tail) // go on with b's first byte
		}
		c.off += int64(size)
		b = b[size-len(c.tail):]
		c.tail = nil
	}
	for len(b) > 0 {
		i := invalidAt(b)
		if i < 0 {
			c.advance(b)
			return nil
		}
		c.advance(b[:i])
		b = b[i:]
		if !utf8.FullRune(b) && !last {
			c.tail = append([]byte(nil), b...)
			c.off += int64(len(b))
			return nil
		}
		if err := c.invalid(); err != nil {
			return err
		}
		c.off++
		b = b[1:]
	}
	return nil
}

// invalidAt returns the index of the first byte of b that does not start
// a valid sequence, or -1.
func invalidAt(b []byte) int {
	// The ASCII that most of a trace is, a vector at a time: utf8.Valid
	// reads 32 bytes a turn of its loop.
	i := jsonv.ASCIIPrefix(b)
	if i == len(b) || utf8.Valid(b[i:]) {
		return -1
	}
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// advance moves past b, which holds no bad sequence; its lines are
// counted only for an input that cannot be read again.
func (c *utf8Check) advance(b []byte) {
	if c.at == nil {
		if k := bytes.Count(b, []byte{'\n'}); k > 0 {
			c.line += k
			c.head = c.off + int64(bytes.LastIndexByte(b, '\n')) + 1
		}
	}
	c.off += int64(len(b))
}

// place returns the line and column, in bytes, of the next byte.
func (c *utf8Check) place() (line, col int) {
	if c.at == nil {
		return c.line, int(c.off-c.head) + 1
	}
	line, head := 1, int64(0)
	buf := make([]byte, 64<<10)
	for done := int64(0); done < c.off; {
		n, err := c.at.ReadAt(buf[:min(int64(len(buf)), c.off-done)], c.base+done)
		b := buf[:n]
		if k := bytes.Count(b, []byte{'\n'}); k > 0 {
			line += k
			head = done + int64(bytes.LastIndexByte(b, '\n')) + 1
		}
		done += int64(n)
		if err != nil || n == 0 {
			break // changed since it was read: the place as far as it goes
		}
	}
	return line, int(c.off-head) + 1
}

// invalid reports an invalid sequence at the current place.
func (c *utf8Check) invalid() error {
	c.bad++
	const msg = "invalid UTF-8: a trace is UTF-8 text"
	if !c.in.Lenient {
		line, col := c.place()
		return &trajeval.TraceError{File: c.in.Name, Line: line, Col: col, Msg: msg,
			Hint: "the file is corrupt or in another encoding; fix it, or pass --lenient to read the bad bytes as U+FFFD",
			Err:  trajeval.ErrCorruptTrace}
	}
	if c.bad == 1 {
		line, col := c.place()
		c.in.Warn(trajeval.Warning{File: c.in.Name, Line: line, Col: col, Msg: msg + "; read leniently as U+FFFD"})
	}
	return nil
}
