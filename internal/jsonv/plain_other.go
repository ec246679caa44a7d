//go:build !amd64 || purego

package jsonv

// plainEnd: see plainEndSWAR.
func plainEnd(d []byte, i int) (end int, wide bool) { return plainEndSWAR(d, i) }
