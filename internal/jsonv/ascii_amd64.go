//go:build amd64 && !purego

package jsonv

// asciiBlocks returns how many bytes from b's start it found to be ASCII
// 128 and 64 at a time, in SSE2 instructions (every amd64 has them), 256
// at a time first in AVX2 where there is AVX2: see ascii_amd64.s. It stops
// at the first block with a byte of 0x80 or more, or with fewer than 64
// bytes left, and reads no byte outside b.
//
//go:noescape
func asciiBlocks(b []byte) int

// useAVX2 says that the CPU and the OS have AVX2, read once. jsonv tells
// it with CPUID of its own: golang.org/x/sys/cpu, which would tell it, is
// not in the standard library (see TestImports).
var useAVX2 = hasAVX2()

func hasAVX2() bool
