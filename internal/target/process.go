package target

import (
	"context"
	"errors"
	"fmt"
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

// Standard output and error are pipes, read as the command writes them, so
// that what a command writes is bounded whatever it writes: standard
// output goes to a file up to the cap, standard error keeps its head and
// tail. Reaching a cap kills the command.

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
func execute(ctx context.Context, c command) (*result, error) {
	res := &result{}
	if len(c.argv) == 0 || c.argv[0] == "" {
		return res, fmt.Errorf("%w: the command is empty", ErrFailed)
	}
	stdout, err := os.Create(filepath.Join(c.tmp, "stdout"))
	if err != nil {
		return res, err
	}
	defer stdout.Close()
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

	overOut, overErr := make(chan struct{}), make(chan struct{})
	var drained sync.WaitGroup
	var werr error
	drained.Go(func() { _, werr = drainTo(stdout, outR, c.maxOutput, overOut) })
	drained.Go(func() { _, _ = drainTo(&res.stderr, errR, c.maxOutput, overErr) })

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
wait:
	for {
		select {
		case err = <-p.done():
			if err != nil {
				err = fmt.Errorf("%w: %v", ErrFailed, err)
			}
			break wait
		case <-timer.C:
			err = stop(fmt.Errorf("%w after %v: the command and every process it started were killed", ErrTimeout, c.timeout))
			break wait
		case <-ctx.Done():
			err = stop(fmt.Errorf("stopped: the command and every process it started were killed: %w", ctx.Err()))
			break wait
		case <-overOut:
			err = stop(&OutputError{Stream: "standard output", Limit: c.maxOutput})
			break wait
		case <-overErr:
			err = stop(&OutputError{Stream: "standard error", Limit: c.maxOutput})
			break wait
		case <-watch:
			if st, serr := os.Stat(c.outputFile); serr == nil && st.Size() > c.maxOutput {
				err = stop(&OutputError{Stream: "{OUTPUT_FILE}", Limit: c.maxOutput})
				break wait
			}
		}
	}
	p.release()
	// A stream that went over its cap while the command was ending is
	// over its cap all the same.
	if !waitDrained(&drained, outR, errR) {
		// Still read (a system where closing a pipe does not end its
		// reading): what was read is left to the readers.
		return &result{}, fmt.Errorf("%w: a process it started holds its standard output or error open, and could not be killed", ErrFailed)
	}
	if keptHook != nil {
		if st, err := stdout.Stat(); err == nil {
			keptHook(st.Size())
		}
	}
	if err == nil || errors.Is(err, ErrFailed) {
		select {
		case <-overOut:
			err = &OutputError{Stream: "standard output", Limit: c.maxOutput}
		case <-overErr:
			err = &OutputError{Stream: "standard error", Limit: c.maxOutput}
		default:
		}
	}
	if err != nil {
		return res, err
	}
	if werr != nil {
		return res, fmt.Errorf("cannot keep the command's standard output: %w", werr)
	}
	res.stdout, err = readCapped(stdout.Name(), c.maxOutput, "standard output")
	return res, err
}

// waitDrained waits for the pipes to end, at most drainGrace: after that
// they are closed, which ends their reading, and it waits as long again.
// It reports whether their reading ended.
func waitDrained(wg *sync.WaitGroup, pipes ...*os.File) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(drainGrace):
	}
	for _, p := range pipes {
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
