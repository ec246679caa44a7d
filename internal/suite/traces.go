package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suggest"
	"github.com/trajeval/trajeval/internal/trace"
)

// CheckTraces returns an error for every trace file the suites name that
// cannot be read: a case's trace: file and a suite's traces: file, each
// placed at the key that names it, with the names near a missing one.
// Loading does not check them; validate checks them all, and a run the
// ones it will read (see [CheckPicked]).
func CheckTraces(suites []*Suite) []error {
	return CheckPicked(suites, "", nil)
}

// CheckPicked is [CheckTraces] for a run: it checks the trace: file of
// each case that pick picks (every case when pick is nil), the traces:
// file of a suite only when such a case or the suite's open scoring reads
// it, and the run's own traces file (--traces) when any case reads it.
func CheckPicked(suites []*Suite, traces string, pick func(s *Suite, c *Case) bool) []error {
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
	runTraces := false // some case reads the run's traces file
	for _, s := range suites {
		suiteTraces := s.Open() && traces == ""
		for _, c := range s.Cases {
			if pick != nil && !pick(s, c) {
				continue
			}
			switch s.Source(c, traces) {
			case FromTraces:
				runTraces = true
			case FromSuite:
				suiteTraces = true
			case FromFile:
				if why := unreadable(c.Trace()); why != "" {
					e := &trajeval.SpecError{File: s.File, Msg: fmt.Sprintf("trace file %s cannot be read: %s", rel(s.File, c.Trace()), why)}
					if n := c.TraceNode(); n != nil {
						e = n.Errorf("%s", e.Msg)
					}
					errs = append(errs, e.With("%s", missingHint(s.File, c.Trace(), "record the case's trace there, or fix the path")))
				}
			}
		}
		if pick == nil {
			suiteTraces = true
		}
		if s.Open() && traces != "" {
			runTraces = true
		}
		if s.Traces != "" && suiteTraces {
			if why := unreadable(s.Traces); why != "" {
				e := &trajeval.SpecError{File: s.File, Msg: fmt.Sprintf("traces file %s cannot be read: %s", rel(s.File, s.Traces), why)}
				if n := s.TracesNode; n != nil {
					e = n.Errorf("%s", e.Msg)
				}
				errs = append(errs, e.With("%s", missingHint(s.File, s.Traces, "record the traces there, or fix the path")))
			}
		}
	}
	if traces != "" && traces != "-" && runTraces {
		if why := unreadable(traces); why != "" {
			hint := "give a traces file that exists; the path is relative to the current folder"
			if near := nearPaths(traces); len(near) > 0 {
				hint += "; near names: " + strings.Join(near, ", ")
			}
			errs = append(errs, &trajeval.SpecError{Msg: fmt.Sprintf("--traces file %s cannot be read: %s", traces, why), Hint: hint})
		}
	}
	SortErrors(errs)
	return errs
}

// rel writes path relative to the suite file's folder when it is inside.
func rel(suiteFile, path string) string {
	if r, err := filepath.Rel(filepath.Dir(suiteFile), path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// missingHint is the hint for a trace file a suite names: what to do, what
// the path is relative to, and the names near it when it does not exist.
func missingHint(suiteFile, path, do string) string {
	dir := filepath.Dir(suiteFile)
	if dir == "." {
		dir = "the current folder"
	}
	hint := fmt.Sprintf("%s; it is relative to the suite file's folder, %s", do, dir)
	if near := nearPaths(path); len(near) > 0 {
		for i, n := range near {
			near[i] = rel(suiteFile, n)
		}
		hint += "; near names: " + strings.Join(near, ", ")
	}
	return hint
}

// nearPaths returns the paths that path may have meant, when it does not
// exist: the first of its folders or its file name that does not exist,
// replaced by each name near it in the folder above, at most three.
func nearPaths(path string) []string {
	dir := filepath.Clean(path)
	var rest []string // the components below dir, outermost first
	for {
		if _, err := os.Stat(dir); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
		dir = parent
	}
	if len(rest) == 0 {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	var out []string
	for _, n := range suggest.Near(rest[0], names) {
		out = append(out, filepath.Join(append([]string{dir, n}, rest[1:]...)...))
		if len(out) == 3 {
			break
		}
	}
	return out
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

// CheckContents reads every trace file the suites name (trace: and
// traces:) that can be opened, as a run would read it, and returns the
// reader's error for each that is damaged: truncated, not JSON, not of a
// format trajeval reads, each placed at its file, line and column. A file
// that cannot be opened is [CheckTraces]'s to report.
func CheckContents(ctx context.Context, suites []*Suite) []error {
	seen := map[string]bool{}
	var errs []error
	check := func(path string) {
		if path == "" || seen[path] || readable(path) != "" {
			return
		}
		seen[path] = true
		if err := trace.Read(ctx, path, trace.Options{}, func(*trajeval.Trajectory) error { return nil }); err != nil {
			errs = append(errs, err)
		}
	}
	for _, s := range suites {
		check(s.Traces)
		for _, c := range s.Cases {
			check(c.Trace())
		}
	}
	return errs
}
