// Package scaffold writes the files of a new suite: a small working
// example ([Starter]), or a regression suite that expects what a recorded
// trace did ([FromTrace]).
//
// The rules:
//  1. [Write] never overwrites: when any of the files exists, it writes
//     none and its error names every one that exists.
//  2. A suite from a trace has one case per trajectory, matched to its
//     trajectory by id; a trace of several trajectories needs a distinct
//     id on each. Each case expects the trajectory's tool calls in order
//     (mode in_order), each with its arguments as recorded, compared
//     exactly (args_match: exact). A trajectory with no tool call expects
//     none (mode exact, expected: []).
//  3. Every value is written so that it reads back as recorded: strings
//     quoted (so yes, null, 1e3 and "" stay strings), numbers with their
//     digits (9007199254740993 stays exact), keys that start with $
//     escaped as $$ (so they are not taken for operators).
//  4. Arguments that are not an object cannot be expected; the call is
//     expected by name alone, with a comment that says so.
//  5. [Verify] scores the written suite against the trajectories it came
//     from: a suite from a trace must pass on it.
package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// ErrExists says a file to write exists already.
var ErrExists = errors.New("the file exists")

// An ExistsError names the files that exist already.
type ExistsError struct {
	Paths []string // as the user gave them (joined to the folder)
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s already exist%s: nothing was written; remove %s, or choose another folder",
		strings.Join(e.Paths, ", "), map[bool]string{true: "s", false: ""}[len(e.Paths) == 1], map[bool]string{true: "it", false: "them"}[len(e.Paths) == 1])
}

func (e *ExistsError) Unwrap() error { return ErrExists }

// A File is one file to write: Data, or a copy of the file at From.
type File struct {
	Path string // relative to the folder written to, with slashes
	Data []byte
	From string
}

// Write writes files into dir, creating folders as needed, unless one of
// them exists (see [ExistsError]).
func Write(dir string, files []File) error {
	var exist []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(p); err == nil {
			exist = append(exist, p)
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if len(exist) > 0 {
		return &ExistsError{Paths: exist}
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		var err error
		if f.From != "" {
			err = copyFile(f.From, p)
		} else {
			err = writeNew(p, f.Data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeNew creates p, failing if it appeared since Write looked.
func writeNew(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// Verify loads the suite at path and scores each case on the trajectory
// of its id (the only one, when there is one): every case must pass. It
// returns why not.
func Verify(ctx context.Context, path string, trajs []*trajeval.Trajectory) error {
	s, errs := suite.LoadFile(path, suite.Options{}, true)
	if len(errs) > 0 {
		return fmt.Errorf("the suite does not load: %w", errors.Join(errs...))
	}
	for _, c := range s.Cases {
		t := trajs[0]
		if len(trajs) > 1 {
			t = nil
			for _, x := range trajs {
				if x.ID == c.ID {
					t = x
				}
			}
			if t == nil {
				return fmt.Errorf("case %s: no trajectory has its id", c.ID)
			}
		}
		r := run.Score(ctx, s, c, t)
		if r.Status != trajeval.StatusPass {
			var why []string
			for _, e := range r.Evaluators {
				if e.Status != trajeval.StatusPass {
					why = append(why, fmt.Sprintf("%s: %s %.2f %s", e.Name, e.Status, e.Score, e.Error))
				}
			}
			return fmt.Errorf("case %s does not pass on its own trace: %s %s", c.ID, r.Error, strings.Join(why, "; "))
		}
	}
	return nil
}
