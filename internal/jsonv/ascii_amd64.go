//go:build amd64 && !purego

package jsonv

import "golang.org/x/sys/cpu"

// asciiBlocks returns how many bytes from b's start it found to be ASCII,
// in blocks: 256 at a time in AVX2 instructions where the CPU has them,
// then 128 and 64 at a time in SSE2 (every amd64 has them); see
// ascii_amd64.s. It stops at the first block with a byte of 0x80 or more,
// or with fewer than 64 bytes left, and reads no byte outside b.
func asciiBlocks(b []byte) int {
	i := 0
	if hasAVX2 && len(b) >= 256 {
		i = asciiBlocksAVX2(b)
	}
	return i + asciiBlocksSSE2(b[i:])
}

// hasAVX2 is whether asciiBlocks may use AVX2; the tests turn it off to
// check the SSE2 blocks alone.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func asciiBlocksSSE2(b []byte) int

//go:noescape
func asciiBlocksAVX2(b []byte) int
