// Command profile runs what `trajeval eval SUITE --traces FILE --format
// jsonl` runs (load the suites, score every case, write JSON Lines) under
// the CPU profiler, for finding the hot path. It sets the collector as the
// trajeval command does (GOGC 400, a 1 GiB soft memory limit, unless
// GOGC or GOMEMLIMIT is set), so that the profile shows the same
// collections:
//
//	go run ./bench/suitegen -n 100000 -steps 20 -evaluators three -dir /tmp/b100k
//	go build -o /tmp/profile ./bench/profile
//	/tmp/profile -cpuprofile /tmp/eval.pprof /tmp/b100k/suite.yaml /tmp/b100k/traces.jsonl > /dev/null
//	go tool pprof -top /tmp/profile /tmp/eval.pprof
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/report"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

func main() {
	cpu := flag.String("cpuprofile", "", "write a CPU profile to this file")
	mem := flag.String("memprofile", "", "write an allocation profile to this file at the end")
	workers := flag.Int("workers", 0, "as eval --workers")
	flag.Parse()
	// As cmd/trajeval's main does.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
	if flag.NArg() != 2 {
		log.Fatal("usage: profile [-cpuprofile FILE] [-memprofile FILE] SUITE TRACES")
	}
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	suites, errs := suite.Load([]string{flag.Arg(0)}, suite.Options{Judges: &judge.Runtime{Workers: 1}, Dialects: dialects.All()})
	if len(errs) > 0 {
		log.Fatal(errs)
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	w, err := report.New("jsonl", out)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := run.Run(context.Background(), suites, run.Options{
		Traces: flag.Arg(1), Workers: *workers,
		Warn: func(w trajeval.Warning) { fmt.Fprintln(os.Stderr, "warning:", w) },
	}, w.Case)
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Close(report.Summary{Cases: sum.Cases, Passed: sum.Passed, Failed: sum.Failed, Errors: sum.Errors}); err != nil {
		log.Fatal(err)
	}
	if err := out.Flush(); err != nil {
		log.Fatal(err)
	}
	if *mem != "" {
		f, err := os.Create(*mem)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	fmt.Fprintf(os.Stderr, "%d cases: %d passed, %d failed, %d errors\n", sum.Cases, sum.Passed, sum.Failed, sum.Errors)
}
