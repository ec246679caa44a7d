package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/trajeval/trajeval"
	itrace "github.com/trajeval/trajeval/internal/trace"
)

// Formats returns the names of the trace formats ReadFile and Read know,
// in the order they are tried when the format is detected. Each is a valid
// format argument of [Read] and [ReadOptions].Format.
func Formats() []string { return itrace.Names() }

// ReadFile reads the trace file at path into trajectories, detecting its
// format (see [ReadOptions] for the rules). A damaged file is an error; use
// ReadOptions{Lenient: true}.ReadFile to read what comes before the damage.
func ReadFile(path string) ([]*trajeval.Trajectory, error) {
	return ReadOptions{}.ReadFile(path)
}

// Read reads one trace from r into trajectories. format is one of
// [Formats], or "" to detect it from the content (see [ReadOptions] for
// the rules).
func Read(r io.Reader, format string) ([]*trajeval.Trajectory, error) {
	return ReadOptions{Format: format}.Read(r)
}

// ReadOptions say how a trace is read; the zero value detects the format
// and reads strictly.
//
// The rules:
//  1. The format is recognised from the content, never from the file
//     name: each format looks at the first MiB, in the order of
//     [Formats], and the first that claims it reads it. A file that none
//     claims is an error wrapping [trajeval.ErrUnknownFormat] that names the
//     formats it came closest to.
//  2. A forced Format is used whatever the file holds, but a file it finds
//     no tool call in while another format claims it is an error naming
//     that format; an unknown name is an error wrapping
//     [trajeval.ErrUnknownFormat].
//  3. Gzip-compressed input is read transparently.
//  4. A damaged trace (cut off, or broken by a syntax error) is a
//     *[trajeval.TraceError] wrapping [trajeval.ErrCorruptTrace], at its line and column,
//     and no trajectory is returned. With Lenient, what comes before the
//     damage is read instead, a warning says where the damage is, and
//     every trajectory it may have cut short is marked Partial.
//  5. An empty input, or one that holds no trajectory, is an error
//     wrapping [trajeval.ErrEmptyTrace]; a file that cannot be opened is a
//     *[trajeval.TraceError] wrapping [trajeval.ErrNoTrace].
//  6. Problems that do not stop the reading (a result whose call never
//     appears, a call id used twice) go to Warn, never to a terminal;
//     nil drops them.
type ReadOptions struct {
	Format  string                 // one of Formats(); "" detects it
	Lenient bool                   // read what comes before damage, marked Partial
	Warn    func(trajeval.Warning) // receives each warning; nil drops them
	// Detected, when set, receives the name of the format detected for
	// each input (one of [Formats]), before its first trajectory; it is
	// not called when Format forces one.
	Detected func(format string)
	// Name names the input of Read and Each in errors and warnings;
	// "" is "input". ReadFile and EachFile use the path.
	Name string
}

// ReadFile reads the trace file at path into trajectories.
func (o ReadOptions) ReadFile(path string) ([]*trajeval.Trajectory, error) {
	return collect(o.EachFile(context.Background(), path), path)
}

// Read reads one trace from r into trajectories.
func (o ReadOptions) Read(r io.Reader) ([]*trajeval.Trajectory, error) {
	return collect(o.Each(context.Background(), r), o.name())
}

// EachFile streams the trajectories of the trace file at path ("-" is
// standard input, as on the command line): each is
// yielded as soon as it is read, so a file of millions of traces never
// sits in memory. A read error is yielded last, with a nil trajectory;
// breaking out of the loop stops the reading. Unlike ReadFile, a file
// that holds no trajectory yields nothing, without an error.
func (o ReadOptions) EachFile(ctx context.Context, path string) iter.Seq2[*trajeval.Trajectory, error] {
	return func(yield func(*trajeval.Trajectory, error) bool) {
		o.each(yield, func(opts itrace.Options, y func(*trajeval.Trajectory) error) error {
			return itrace.Read(ctx, path, opts, y)
		})
	}
}

// Each streams the trajectories of the trace read from r, as EachFile
// does.
func (o ReadOptions) Each(ctx context.Context, r io.Reader) iter.Seq2[*trajeval.Trajectory, error] {
	return func(yield func(*trajeval.Trajectory, error) bool) {
		o.each(yield, func(opts itrace.Options, y func(*trajeval.Trajectory) error) error {
			if r == nil {
				return &trajeval.TraceError{File: o.name(), Msg: "no reader to read the trace from", Err: trajeval.ErrNoTrace}
			}
			return itrace.ReadFrom(ctx, o.name(), r, opts, y)
		})
	}
}

// errBreak stops a reading whose loop was left.
var errBreak = errors.New("stopped by the caller")

func (o ReadOptions) each(yield func(*trajeval.Trajectory, error) bool, read func(itrace.Options, func(*trajeval.Trajectory) error) error) {
	opts := itrace.Options{From: o.Format, Lenient: o.Lenient, Warn: o.Warn, Detected: o.Detected}
	err := read(opts, func(t *trajeval.Trajectory) error {
		if !yield(t, nil) {
			return errBreak
		}
		return nil
	})
	if err != nil && !errors.Is(err, errBreak) {
		yield(nil, err)
	}
}

func (o ReadOptions) name() string {
	if o.Name == "" {
		return "input"
	}
	return o.Name
}

func collect(seq iter.Seq2[*trajeval.Trajectory, error], name string) ([]*trajeval.Trajectory, error) {
	var out []*trajeval.Trajectory
	for t, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s holds no trajectory", trajeval.ErrEmptyTrace, name)
	}
	return out, nil
}
