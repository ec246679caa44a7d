//go:build !(386 || amd64 || arm64 || loong64 || ppc64 || ppc64le || s390x) || purego

package jsonv

import "encoding/binary"

// load2 returns the 16 bytes of d from i as two words in the machine's
// byte order (see load_unaligned.go), read a byte at a time.
func load2(d []byte, i int) *[2]uint64 {
	return &[2]uint64{binary.NativeEndian.Uint64(d[i:]), binary.NativeEndian.Uint64(d[i+8:])}
}
