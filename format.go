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
	// Lenient asks for what can be read of a damaged file (see Damage)
	// instead of an error.
	Lenient bool
	// KeepText lets the reader leave arguments and results as the JSON
	// text it read (see Decoded); a reader may decode them all the same.
	KeepText bool
	// Steps, when set, is where the reader may take its trajectories'
	// step slices from (see StepPool); the caller gives back those of the
	// trajectories it is done with. Nil makes them as usual.
	Steps *StepPool
}

// damageHint tells the user what to do about a damaged trace.
const damageHint = "the file is truncated or corrupt; fix it, or pass --lenient to score what was read"

// Damage is what a reader calls where its input stops being valid in its
// format: the file is cut off, or a syntax error breaks it (invalid JSON,
// a truncated protobuf message). reason says what is wrong, in the user's
// terms; line and col place it (0 when unknown).
//
// The rules:
//  1. Read strictly (the default), the damage is a *TraceError wrapping
//     [ErrCorruptTrace], which the reader returns: nothing after it is read,
//     and the case it holds is an error, never a score.
//  2. Read leniently, the damage is a warning and Damage returns nil: the
//     reader keeps what came before the damage (and, in JSON Lines, goes
//     on with the next line) and marks every trajectory the damage may
//     have cut short Partial.
//
// Data that is valid JSON but not a record of the format (a line `{}`,
// `null` or `{"id": "a"}` among events) is not damage but junk, which is
// never an empty run: an error at its line, or read leniently a warning,
// the record skipped (see jsonl.NotARecord).
func (in Input) Damage(line, col int, reason string) error {
	if reason == "" {
		reason = "the trace is not valid"
	}
	if !in.Lenient {
		return &TraceError{File: in.Name, Line: line, Col: col, Msg: reason, Hint: damageHint, Err: ErrCorruptTrace}
	}
	in.Warn(Warning{File: in.Name, Line: line, Col: col, Msg: reason + "; read leniently: what came before is kept, marked partial"})
	return nil
}

// A SniffError is a format's reason for not claiming a file. Closeness
// (0 to 100) says how near the file came, so that an unrecognised file is
// told about the formats it most resembles.
type SniffError struct {
	Closeness int
	Why       string
}

func (e *SniffError) Error() string { return e.Why }
