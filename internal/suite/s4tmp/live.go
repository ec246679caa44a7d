package main

import (
	"fmt"
	"runtime"

	"github.com/trajeval/trajeval/suite"
)

func live(path string) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := suite.RunOptions{Traces: "/tmp/one.jsonl"}.Load(path)
	if err != nil {
		panic(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	fmt.Printf("%.1f live B a case, %.1f objects a case\n", float64(after.HeapAlloc-before.HeapAlloc)/float64(len(s.Cases)), float64(after.HeapObjects-before.HeapObjects)/float64(len(s.Cases)))
	runtime.KeepAlive(s)
}
