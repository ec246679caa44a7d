// Throwaway: load a suite N times, report CPU time per load.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"

	"github.com/trajeval/trajeval/suite"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	if os.Args[2] == "live" {
		live(os.Args[1])
		return
	}
	n, _ := strconv.Atoi(os.Args[2])
	if len(os.Args) > 3 {
		f, _ := os.Create(os.Args[3])
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	c0, w0 := cpu(), time.Now()
	for range n {
		s, err := suite.RunOptions{Traces: "/tmp/one.jsonl"}.Load(os.Args[1])
		if err != nil {
			panic(err)
		}
		_ = s
	}
	fmt.Printf("%.1f ms cpu, %.1f ms wall a load\n", float64(cpu()-c0)/1e6/float64(n), float64(time.Since(w0))/1e6/float64(n))
}
