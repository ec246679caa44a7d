package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// A command is one process to run.
type command struct {
	argv      []string
	dir       string
	env       []string
	timeout   time.Duration
	tmp       string // the run's folder: standard output is kept there
	maxOutput int64  // the cap of each stream
	// outputFile is {OUTPUT_FILE} when the command names it: held to
	// maxOutput too, watched while the command runs.
	outputFile string
}

// A result is what a command wrote.
type result struct {
	stdout []byte
	stderr headTail
}

// A process is a started command.
type process interface {
	// done yields once, when the command has ended: nil when it exited
	// with status 0, else why it ended ("exit status 3").
	done() <-chan error
	// kill kills the command and every process it started.
	kill()
	// release, once the command has ended, kills whatever it left
	// running and frees what start took.
	release()
}

// drainGrace bounds the wait for the end of the pipes once every process
// of the command was killed: a process that escaped (where trajeval
// cannot find every descendant) may hold them open.
const drainGrace = time.Second

// watchEvery is how often {OUTPUT_FILE}'s size is checked.
const watchEvery = 100 * time.Millisecond

// keptHook, when set (by tests), is told the size of the file that kept
// a command's standard output, once the command is over.
var keptHook func(size int64)

// execute runs c and waits for it to end, be killed, or write too much.
//
// Standard output and error are pipes, read as the command writes them, so
// that what a command writes is bounded whatever it writes: standard
// output goes to a file up to the cap, standard error keeps its head and
// tail. A pipe, unlike a file, also tells when a stream goes over its cap,
// so that the command is killed then.
func execute(ctx context.Context, c command) (*result, error) {
	res := &result{}
	if len(c.argv) == 0 || c.argv[0] == "" {
		return res, fmt.Errorf("%w: the command is empty", ErrFailed)
	}
	kept, err := os.Create(filepath.Join(c.tmp, "stdout"))
	if err != nil {
		return res, err
	}
	defer kept.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		return res, err
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return res, err
	}
	defer errR.Close()
	p, err := start(c, outW, errW)
	// The command holds the write ends now: the pipes end when it and
	// every process it started are gone.
	outW.Close()
	errW.Close()
	if err != nil {
		return res, err
	}
	s := drain(kept, outR, &res.stderr, errR, c.maxOutput)
	err = waitFor(ctx, c, p, s)
	p.release()
	if !s.wait() {
		// Still read (a system where closing a pipe does not end its
		// reading): what was read is left to the readers.
		return &result{}, fmt.Errorf("%w: a process it started holds its standard output or error open, and could not be killed", ErrFailed)
	}
	if keptHook != nil {
		if st, err := kept.Stat(); err == nil {
			keptHook(st.Size())
		}
	}
	if err == nil || errors.Is(err, ErrFailed) {
		// A stream that went over its cap as the command ended is over
		// its cap all the same.
		if over := s.over(); over != nil {
			err = over
		}
	}
	if err != nil {
		return res, err
	}
	if s.werr != nil {
		return res, fmt.Errorf("cannot keep the command's standard output: %w", s.werr)
	}
	res.stdout, err = readCapped(kept.Name(), c.maxOutput, "standard output")
	return res, err
}

// waitFor waits for the end of p: by itself, or killed when it runs past
// c's timeout, writes past c's cap, or ctx ends.
func waitFor(ctx context.Context, c command, p process, s *streams) error {
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	var watch <-chan time.Time
	if c.outputFile != "" {
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		watch = t.C
	}
	stop := func(why error) error {
		p.kill()
		<-p.done()
		return why
	}
	for {
		select {
		case err := <-p.done():
			if err != nil {
				return fmt.Errorf("%w: %v", ErrFailed, err)
			}
			return nil
		case <-timer.C:
			return stop(fmt.Errorf("%w after %v: the command and every process it started were killed", ErrTimeout, c.timeout))
		case <-ctx.Done():
			return stop(fmt.Errorf("stopped: the command and every process it started were killed: %w", ctx.Err()))
		case <-s.overOut:
			return stop(&OutputError{Stream: "standard output", Limit: s.limit})
		case <-s.overErr:
			return stop(&OutputError{Stream: "standard error", Limit: s.limit})
		case <-watch:
			if st, err := os.Stat(c.outputFile); err == nil && st.Size() > c.maxOutput {
				return stop(&OutputError{Stream: "{OUTPUT_FILE}", Limit: c.maxOutput})
			}
		}
	}
}

// streams are the standard output and error of a command, read as it
// writes them.
type streams struct {
	pipes            []*os.File
	limit            int64
	overOut, overErr chan struct{} // closed when a stream passes limit
	wg               sync.WaitGroup
	werr             error // keeping standard output failed
}

// drain reads standard output from outR into kept, and standard error from
// errR into stderr, each up to limit.
func drain(kept io.Writer, outR *os.File, stderr io.Writer, errR *os.File, limit int64) *streams {
	s := &streams{pipes: []*os.File{outR, errR}, limit: limit, overOut: make(chan struct{}), overErr: make(chan struct{})}
	s.wg.Go(func() { _, s.werr = drainTo(kept, outR, limit, s.overOut) })
	s.wg.Go(func() { _, _ = drainTo(stderr, errR, limit, s.overErr) })
	return s
}

// over returns the error of a stream that went over its cap, if any:
// standard output's first.
func (s *streams) over() error {
	for _, o := range []struct {
		ch     chan struct{}
		stream string
	}{{s.overOut, "standard output"}, {s.overErr, "standard error"}} {
		select {
		case <-o.ch:
			return &OutputError{Stream: o.stream, Limit: s.limit}
		default:
		}
	}
	return nil
}

// wait waits for the pipes to end, at most drainGrace: after that they
// are closed, which ends their reading, and it waits as long again. It
// reports whether their reading ended.
func (s *streams) wait() bool {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(drainGrace):
	}
	for _, p := range s.pipes {
		_ = p.SetReadDeadline(time.Now())
		_ = p.Close()
	}
	select {
	case <-done:
		return true
	case <-time.After(drainGrace):
		return false
	}
}

// startMessage says why a command could not start.
func startMessage(name string, err error) string {
	if errors.Is(err, exec.ErrNotFound) {
		return name + ": command not found"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("cannot start %s: %v", name, err)
}
