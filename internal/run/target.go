package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/target"
	"github.com/trajeval/trajeval/internal/trace"
)

// A Key names one row of results: results are keyed by suite and case id
// (two suites may share a case id), and by attempt when a case runs
// several trials.
type Key struct {
	Suite, ID string
	Attempt   int
}

// KeyOf returns the key of a row.
func KeyOf(r trajeval.CaseResult) Key { return Key{r.Suite, r.ID, r.Attempt} }

// submit submits the job of case c of s (attempt 0): the row of a previous
// run in its place when there is one, nothing when the run is stopping.
func submit(s *suite.Suite, c *suite.Case, opts Options, o *ordered, j job) error {
	return submitAttempt(s, c, 0, opts, o, j)
}

func submitAttempt(s *suite.Suite, c *suite.Case, attempt int, opts Options, o *ordered, j job) error {
	if r, ok := opts.Done[Key{s.Name, c.ID, attempt}]; ok {
		return o.Submit(result(r))
	}
	if j == nil {
		return nil
	}
	select {
	case <-opts.Stop:
		return ErrStopped
	default:
	}
	return o.Submit(timed(j))
}

// runsTarget reports whether some case of suites runs its suite's target.
func runsTarget(suites []*suite.Suite, opts Options) bool {
	for _, s := range suites {
		for _, c := range s.Cases {
			if s.Source(c, opts.Traces) == suite.FromTarget && opts.picked(s, c.ID) {
				return true
			}
		}
	}
	return false
}

// warnTargets warns of targets no case runs, and of recorded cases that
// trials score once.
func warnTargets(suites []*suite.Suite, opts Options, o *ordered) {
	recorded := 0
	for _, s := range suites {
		runs := false
		for _, c := range s.Cases {
			if !opts.picked(s, c.ID) {
				continue
			}
			if s.Source(c, opts.Traces) == suite.FromTarget {
				runs = true
			} else {
				recorded++
			}
		}
		if s.Target != nil && !runs {
			o.Warn(trajeval.Warning{File: s.File, Msg: fmt.Sprintf("target %s is not run: every case has a recorded trace (trace: or --traces)", s.Target.Name)})
		}
	}
	if opts.Trials > 1 && recorded > 0 {
		o.Warn(trajeval.Warning{Msg: fmt.Sprintf("--trials %d: %s, the same on every trial; each is scored once", opts.Trials, plural.Count(recorded, "case has a recorded trace", "cases have a recorded trace"))})
	}
}

// runTarget submits the runs of case c's target, one per trial. Each goes
// to a worker alone: a target takes seconds, not microseconds.
func runTarget(ctx context.Context, s *suite.Suite, c *suite.Case, opts Options, o *ordered) error {
	n := max(opts.Trials, 1)
	for a := 1; a <= n; a++ {
		attempt := a
		if n == 1 {
			attempt = 0
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		err := submitAttempt(s, c, attempt, opts, o, func(warn func(trajeval.Warning), r *trajeval.CaseResult) {
			*r = scoreFromTarget(ctx, s, c, attempt, opts, warn)
		})
		if err != nil {
			return err
		}
		o.flush()
	}
	return nil
}

// scoreFromTarget runs the target of case c and scores what it produced.
func scoreFromTarget(ctx context.Context, s *suite.Suite, c *suite.Case, attempt int, opts Options, warn func(trajeval.Warning)) trajeval.CaseResult {
	fail := func(err error) trajeval.CaseResult {
		r := errorResult(s, c, err)
		r.Attempt = attempt
		return r
	}
	tg := s.Target
	switch {
	case len(c.Turns()) > 0:
		return fail(fmt.Errorf("case %q has turns, and target %s is given one input and runs one turn; record the conversation and name it with trace: FILE", c.ID, tg.Name))
	case strings.TrimSpace(c.Input) == "":
		return fail(fmt.Errorf("case %q has no input to give target %s; add input: to the case", c.ID, tg.Name))
	}
	out, err := target.Run(ctx, tg, target.Request{Suite: s.Name, CaseID: c.ID, Input: c.Input, Attempt: max(attempt, 1)})
	if err != nil {
		return fail(err)
	}
	dumped := ""
	if opts.DumpTraces != "" {
		path, err := dump(opts.DumpTraces, s.Name, c.ID, attempt, out.Trace)
		if err != nil {
			warn(trajeval.Warning{File: path, Msg: "cannot write the trace (--dump-traces): " + err.Error()})
		} else {
			dumped = path
		}
	}
	from := out.Format
	if from == "" {
		from = opts.From
	}
	t, warnings, err := readOne(c, out.Name, opts.Lenient, warn, func(o trace.Options, yield func(*trajeval.Trajectory) error) error {
		o.From = from
		return trace.ReadFrom(ctx, out.Name, bytes.NewReader(out.Trace), o, yield)
	})
	if err != nil {
		r := fail(err)
		r.Warnings = warnings
		return r
	}
	var r trajeval.CaseResult
	score(ctx, &r, s, c, t, dumped, opts.keep(), nil)
	r.Attempt = attempt
	r.Warnings = append(warnings, r.Warnings...)
	return r
}

// readOne reads the trajectory of case c from one source: the one with
// the case's id, else the only one. It returns the warnings met, which
// were also passed to warn.
func readOne(c *suite.Case, name string, lenient bool, warn func(trajeval.Warning), read func(trace.Options, func(*trajeval.Trajectory) error) error) (*trajeval.Trajectory, []string, error) {
	var found, first *trajeval.Trajectory
	n := 0
	var warnings []string
	w := func(x trajeval.Warning) {
		warnings = append(warnings, x.String())
		warn(x)
	}
	err := read(trace.Options{Lenient: lenient, KeepText: keepText && readsText(c), Warn: w}, func(t *trajeval.Trajectory) error {
		n++
		if n == 1 {
			first = t
		}
		if t.ID == c.ID && found == nil {
			found = t
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, warnings, err
	case n == 0:
		return nil, warnings, fmt.Errorf("%w: %s holds no trajectory", trajeval.ErrEmptyTrace, name)
	case found == nil && n == 1:
		found = first
	case found == nil:
		return nil, warnings, fmt.Errorf("%w: %s holds %s and none has id %q", trajeval.ErrNoTrace, name, plural.Count(n, "trajectory", "trajectories"), c.ID)
	}
	return found, warnings, nil
}

// dump writes a trace a target produced to dir/SUITE/ID.json (or .jsonl
// for JSON Lines and event streams; ID.attempt-N.json with trials) and
// returns its path.
func dump(dir, suiteName, id string, attempt int, data []byte) (string, error) {
	name := fileName(id)
	if attempt > 0 {
		name += ".attempt-" + strconv.Itoa(attempt)
	}
	if json.Valid(data) {
		name += ".json"
	} else {
		name += ".jsonl"
	}
	path := filepath.Join(dir, fileName(suiteName), name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, err
	}
	return path, os.WriteFile(path, data, 0o644)
}

// fileName makes a suite name or case id safe as one file name.
func fileName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' || r == 0x7f {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		return "_" + s
	}
	return s
}
