// Command trajeval scores what AI agents do: which tools they call, in what
// order, with which arguments, how fast.
//
//	trajeval eval PATH... [--traces FILE] [--out FILE] [--format text|json|jsonl|junit|markdown|html] [--threshold X] [--workers N] [--quiet]
//	              [--target NAME] [--trials N] [--max-output BYTES] [--resume] [--dump-traces DIR] [--include-trace] [--lenient] [--filter PATTERN]...
//	              [--failed-only] [--color auto|always|never]
//	trajeval report RESULTS.jsonl... [--out FILE] [--format html|junit|markdown|...] [--failed-only] [--color WHEN]
//	trajeval validate PATH...
//	trajeval convert FILE... [--from FORMAT] [-q]
//	trajeval compare OLD NEW [--format text|markdown|json] [--tolerance X] [--confidence C]
//	trajeval serve POLICY.yaml [--http ADDR] [--grpc ADDR] [--out FILE] [--otlp-logs URL] [--grace D] [--idle D] [--token T]
//	trajeval runs [--suite NAME] [--since DATE] [--json] [--db DB]; trajeval runs prune [--keep N] [--before DATE | --older-than AGE]
//	trajeval show RUN [CASE] [--format text|json|jsonl|...] [--db DB]
//	trajeval view [--db DB] [--addr HOST:PORT] [--token T]
//	trajeval init [DIR] [--from TRACE]
//	trajeval evaluators [NAME] [--json]
//	trajeval formats [--json]
//	trajeval schema
//	trajeval version (or trajeval --version)
//
// Exit codes: 0 every case passed; 1 some case failed or could not be
// scored (compare: some case regressed); 2 the command or a file was
// wrong; 130 interrupted (Ctrl-C) before every case ran.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"syscall"

	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/suite"
)

func main() {
	// First: this program is also the supervisor of the agents it runs,
	// started again with other arguments.
	suite.SuperviseTargets()
	// Scoring allocates many short-lived values and holds little: trading
	// some memory for fewer collections roughly halves the CPU time. The
	// soft limit brings the collector back when a reader must hold a lot
	// (the spans of a large OTLP file). GOGC and GOMEMLIMIT still win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
	os.Exit(mainExit(os.Args[1:]))
}

// mainExit runs the command line args with the process's signals and
// streams, and returns the exit code.
//
// Ctrl-C: the first lets a command that can finish what is under way (eval
// running cases) do so, and stops it at once otherwise; a second stops at
// once. SIGTERM stops at once.
func mainExit(args []string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := &interrupt{stop: make(chan struct{})}
	ctx = context.WithValue(ctx, interruptKey{}, in)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		// SIGTERM (a CI job's timeout) stops at once, so that agents under
		// way are killed with their process groups rather than orphaned.
		if s := <-sig; s == os.Interrupt && in.drains.Load() {
			close(in.stop)
			fmt.Fprintln(os.Stderr, "trajeval: interrupted: finishing the cases under way (Ctrl-C again to stop at once)")
			<-sig
		}
		cancel()
	}()
	err := Run(ctx, args)
	return exitCode(err, os.Stderr)
}

// An interrupt is how the first Ctrl-C reaches a command: drains is set by
// a command that can finish what is under way, which then watches stop.
type interrupt struct {
	stop   chan struct{}
	drains atomic.Bool
}

type interruptKey struct{}

// stopOf returns the channel the first Ctrl-C closes, and says that the
// command will finish what is under way when it does; nil when ctx has no
// signal handling (tests).
func stopOf(ctx context.Context) <-chan struct{} {
	in, ok := ctx.Value(interruptKey{}).(*interrupt)
	if !ok {
		return nil
	}
	in.drains.Store(true)
	return in.stop
}

// errCasesFailed says the run worked and some case did not pass.
var errCasesFailed = errors.New("some cases did not pass")

// exitCode is the one place that turns an outcome into an exit code. The
// error is printed escaped: it may quote a trace (see package escape).
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errCasesFailed), errors.Is(err, errRegressed):
		return 1
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "trajeval:", escape.Text(err.Error()))
		return 130
	}
	fmt.Fprintln(stderr, "trajeval:", escape.Text(err.Error()))
	return 2
}

// load loads the suites at paths with opts. A GOGC the user set is left
// alone; otherwise:
//  1. While the suites load, the collector works at its usual pace (GOGC
//  100. instead of the scoring's 400: parsing YAML allocates about a
//     hundred times the file's size in short-lived values.
//  2. The parse's garbage goes at once, so that the scoring's pace is set
//     by what the suites hold, not by what parsing them left behind.
//  3. The scoring's headroom is then fixed rather than a multiple of the
//     suites: GOGC 400 while they hold little, less as they grow (never
//     under 100), so that the cases a suite lists cost their own bytes,
//     not five times as much (scoringHeadroom).
func load(opts suite.RunOptions, paths []string) (*suite.Suite, error) {
	if os.Getenv("GOGC") != "" {
		return opts.Load(paths...)
	}
	prev := debug.SetGCPercent(100)
	s, err := opts.Load(paths...)
	runtime.GC()
	debug.SetGCPercent(scoringPercent(prev, liveHeap()))
	return s, err
}

// scoringHeadroom is how much the heap may grow over what the suites hold
// before a collection while cases are scored: what GOGC 400 gives a run
// whose suites hold little.
const scoringHeadroom = 128 << 20

// scoringPercent returns the GOGC for scoring with live bytes held after
// loading: scoringHeadroom over live, as a percentage, between 100 and
// pace (the pace set before loading).
func scoringPercent(pace int, live uint64) int {
	if live == 0 || pace <= 100 {
		return pace
	}
	return int(min(uint64(pace), max(100, 100*scoringHeadroom/live)))
}

// liveHeap returns the bytes of heap the last collection found in use, 0
// if the runtime does not say.
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
