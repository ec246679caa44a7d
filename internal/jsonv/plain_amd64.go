//go:build amd64 && !purego

package jsonv

// plainEnd is plainEndSWAR sixteen bytes at a time, in SSE2 instructions
// (every amd64 has them): see plain_amd64.s. It reads no byte outside d.
//
//go:noescape
func plainEnd(d []byte, i int) (end int, wide bool)
