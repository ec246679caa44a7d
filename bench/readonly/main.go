// Command readonly reads a trace file the way trajeval eval does (format
// detected from content, arguments and results kept as JSON text where the
// reader can) and only counts its trajectories and steps: the
// floor under `trajeval eval` on the same file. It sets the collector as
// the trajeval command does (GOGC 400, a 1 GiB soft memory limit, unless
// GOGC or GOMEMLIMIT is set).
//
//	go build -o /tmp/readonly ./bench/readonly
//	/tmp/readonly [-cpuprofile FILE] /tmp/bench/traces.jsonl
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"runtime/pprof"

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
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the reading to `file`")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: readonly [-cpuprofile FILE] FILE")
	}
	if err := run(flag.Arg(0), *cpuprofile); err != nil {
		log.Fatal(err)
	}
}

func run(name, cpuprofile string) error {
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	trajectories, steps := 0, 0
	err := trace.Read(context.Background(), name, trace.Options{KeepText: true}, func(t *trajeval.Trajectory) error {
		trajectories++
		steps += len(t.Steps)
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Printf("%d trajectories, %d steps\n", trajectories, steps)
	return nil
}
