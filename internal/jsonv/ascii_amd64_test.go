//go:build amd64 && !purego

package jsonv_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestASCIIPrefix_SSE2 is TestASCIIPrefix with the AVX2 loop turned off:
// the SSE2 loop, which every amd64 runs without AVX2, found what the
// tests read with AVX2 on.
func TestASCIIPrefix_SSE2(t *testing.T) {
	defer func(was bool) { *jsonv.UseAVX2 = was }(*jsonv.UseAVX2)
	*jsonv.UseAVX2 = false
	checkASCIIPrefix(t)
}

// TestHasAVX2 compares the CPUID check with the flags Linux gives for the
// CPU, which it clears when the OS does not save the YMM registers: a
// check that said yes on a CPU without AVX2 would fault on its first
// instruction, one that said no would cost the faster loop.
func TestHasAVX2(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	flags := regexp.MustCompile(`(?m)^flags\s*:.*$`).Find(info)
	if flags == nil {
		t.Skip("no flags in /proc/cpuinfo")
	}
	want := regexp.MustCompile(`\savx2(\s|$)`).Match(flags)
	if got := jsonv.HasAVX2(); got != want {
		t.Errorf("hasAVX2() = %v; /proc/cpuinfo says avx2: %v", got, want)
	}
}
