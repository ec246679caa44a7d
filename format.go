package trajeval

import (
	"context"
	"io"
)

// A Format reads one trace format into trajectories.
type Format interface {
	// Name is the format's name for --from, e.g. "otlp" or "agentv".
	Name() string
	// Sniff looks at the start of a file and returns nil when it holds this
	// format, or an error saying why not.
	Sniff(head []byte) error
	// Read calls yield with each trajectory of in, holding at most the one
	// it builds, and stops at the first error yield returns.
	Read(ctx context.Context, in Input, yield func(*Trajectory) error) error
}

// An Input is one trace file being read.
type Input struct {
	Name string // the file name, for errors and warnings
	R    io.Reader
	Warn func(Warning) // never nil when passed to Read
}

// A SniffError is a format's reason for not claiming a file. Closeness
// (0 to 100) says how near the file came, so that an unrecognised file is
// told about the formats it most resembles.
type SniffError struct {
	Closeness int
	Why       string
}

func (e *SniffError) Error() string { return e.Why }
