//go:build (386 || amd64 || arm64 || loong64 || ppc64 || ppc64le || s390x) && !purego

package jsonv

import "unsafe"

// load2 returns the 16 bytes of d from i as two words in the machine's
// byte order, as binary.NativeEndian reads them: a Shape compares them
// with words it read so (see literal). i+16 must be at most len(d).
// These machines load a word from any address: the words are read where
// they stand, small enough for Again to be inlined.
func load2(d []byte, i int) *[2]uint64 {
	return (*[2]uint64)(unsafe.Pointer(&d[i]))
}
