//go:build !amd64 || purego

package jsonv

// asciiBlocks: none where there is no vector version; ASCIIPrefix reads
// a word at a time.
func asciiBlocks(b []byte) int { return 0 }
