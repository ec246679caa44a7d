// Command readonly reads a trace file the way trajeval eval does (format
// detected from content) and only counts its trajectories and steps: the
// floor under `trajeval eval` on the same file. It sets the collector as
// the trajeval command does (GOGC 400, a 1 GiB soft memory limit, unless
// GOGC or GOMEMLIMIT is set).
//
//	go build -o /tmp/readonly ./bench/readonly
//	/tmp/readonly /tmp/bench/traces.jsonl
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"runtime/debug"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

func main() {
	// As cmd/trajeval's main does.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
	if len(os.Args) != 2 {
		log.Fatal("usage: readonly FILE")
	}
	trajectories, steps := 0, 0
	err := trace.Read(context.Background(), os.Args[1], trace.Options{}, func(t *trajeval.Trajectory) error {
		trajectories++
		steps += len(t.Steps)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d trajectories, %d steps\n", trajectories, steps)
}
