//go:build amd64 && !purego

package jsonv

// asciiBlocks returns how many bytes from b's start it found to be ASCII
// 128 and 64 at a time, in SSE2 instructions (every amd64 has them): see
// ascii_amd64.s. It stops at the first block with a byte of 0x80 or more,
// or with fewer than 64 bytes left, and reads no byte outside b.
//
//go:noescape
func asciiBlocks(b []byte) int
