// Package jsonltest gives the readers' tests an input that never ends.
package jsonltest

import (
	"errors"
	"io"
)

// ErrCeiling is what an Endless returns once it has handed out its
// ceiling: the reader under test read on past every limit it should have
// stopped at.
var ErrCeiling = errors.New("read on past the test's ceiling")

// An Endless hands out Prefix and then Fill, byte after byte, without end
// (up to Ceiling bytes, then ErrCeiling), and counts what it handed out.
// It holds none of what it hands out, so a test can feed a reader far
// more than it should read without allocating it.
type Endless struct {
	Prefix  string
	Fill    string // repeated; a space if empty
	Ceiling int64
	Handed  int64
}

var _ io.Reader = (*Endless)(nil)

func (e *Endless) Read(p []byte) (int, error) {
	if e.Handed >= e.Ceiling {
		return 0, ErrCeiling
	}
	fill := e.Fill
	if fill == "" {
		fill = " "
	}
	p = p[:min(int64(len(p)), e.Ceiling-e.Handed)]
	for i := range p {
		at := e.Handed + int64(i)
		if at < int64(len(e.Prefix)) {
			p[i] = e.Prefix[at]
		} else {
			p[i] = fill[(at-int64(len(e.Prefix)))%int64(len(fill))]
		}
	}
	e.Handed += int64(len(p))
	return len(p), nil
}
