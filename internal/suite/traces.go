package suite

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/trajeval/trajeval/internal/trajeval"
)

// CheckTraces returns an error for every trace file the suites name that
// cannot be read: a case's trace: file and a suite's traces: file, each
// placed at the key that names it. Loading does not check them, since a
// run scores a case whose trace is missing as an error and goes on with
// the others; validate checks them up front.
func CheckTraces(suites []*Suite) []error {
	checked := map[string]string{} // path → why it cannot be read, "" when it can
	unreadable := func(path string) string {
		why, ok := checked[path]
		if !ok {
			why = readable(path)
			checked[path] = why
		}
		return why
	}
	var errs []error
	for _, s := range suites {
		if s.Traces != "" {
			if why := unreadable(s.Traces); why != "" {
				e := &trajeval.SpecError{File: s.File, Msg: fmt.Sprintf("traces file %s cannot be read: %s", s.Traces, why)}
				if n := s.TracesNode; n != nil {
					e = n.Errorf("%s", e.Msg)
				}
				errs = append(errs, e.With("record the traces there, or fix the path (it is relative to the suite file)"))
			}
		}
		for _, c := range s.Cases {
			if c.Trace == "" {
				continue
			}
			if why := unreadable(c.Trace); why != "" {
				e := &trajeval.SpecError{File: s.File, Msg: fmt.Sprintf("trace file %s cannot be read: %s", c.Trace, why)}
				if n := c.TraceNode; n != nil {
					e = n.Errorf("%s", e.Msg)
				}
				errs = append(errs, e.With("record the case's trace there, or fix the path (it is relative to the suite file)"))
			}
		}
	}
	return errs
}

// readable returns why the file at path cannot be read, or "".
func readable(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return pathErr(err)
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return pathErr(err)
	case st.IsDir():
		return "it is a folder"
	}
	// Opening a file does not prove it can be read: read one byte.
	if _, err := f.Read(make([]byte, 1)); err != nil && !errors.Is(err, io.EOF) {
		return pathErr(err)
	}
	return ""
}

// CheckOpen returns an error for each suite with no cases (see Suite.Open)
// that has no traces to score: no --traces file (traces) and no traces
// file of its own.
func CheckOpen(suites []*Suite, traces string) []error {
	var errs []error
	for _, s := range suites {
		if s.Open() && traces == "" && s.Traces == "" {
			errs = append(errs, &trajeval.SpecError{File: s.File, Line: 1, Col: 1,
				Msg:  "suite has no cases, and no traces to score with its evaluators",
				Hint: "run with --traces FILE to score each trajectory of FILE as a case, give the suite traces: FILE, or add evalcases: [{id: ..., ...}]"})
		}
	}
	return errs
}
