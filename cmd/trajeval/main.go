// Command trajeval scores what AI agents do: which tools they call, in what
// order, with which arguments, how fast.
//
//	trajeval eval PATH... [--traces FILE] [--out FILE] [--format text|json|jsonl|junit|markdown|html] [--threshold X] [--workers N] [--quiet]
//	trajeval report RESULTS.jsonl... [--out FILE] [--format html|junit|markdown|...]
//	trajeval validate PATH...
//	trajeval convert FILE... [--from FORMAT]
//	trajeval compare OLD.jsonl NEW.jsonl [--format text|markdown|json] [--tolerance X] [--confidence C]
//	trajeval version
//
// Exit codes: 0 every case passed; 1 some case failed or could not be
// scored (compare: some case regressed); 2 the command or a file was wrong.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
)

func main() {
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := Run(ctx, os.Args[1:])
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// errCasesFailed says the run worked and some case did not pass.
var errCasesFailed = errors.New("some cases did not pass")

// exitCode is the one place that turns an outcome into an exit code.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errCasesFailed), errors.Is(err, errRegressed):
		return 1
	}
	fmt.Fprintln(stderr, "trajeval:", err)
	return 2
}
