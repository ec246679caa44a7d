package jsonv

import (
	"encoding/binary"
	"math/bits"
)

// The scanners look for the bytes that end a run of plain text eight at a
// time, in one 64-bit word (SWAR: SIMD within a register). In a word x,
// little-endian so that its lowest byte comes first in the data:
//
//	below(x, n) has the high bit of each byte less than n (n ≤ 0x80) set;
//	equal(x, c) has the high bit of each byte equal to c set.
//
// Only the lowest set bit is exact: a borrow from a byte that matches can
// mark the bytes above it, never those below. The scanners use only the
// lowest, through bits.TrailingZeros64, and an OR of such masks keeps that
// property, since the lowest bit of the OR is the lowest of one of them.
const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

func below(x uint64, n byte) uint64 { return (x - lows*uint64(n)) &^ x & highs }

func equal(x uint64, c byte) uint64 { return below(x^(lows*uint64(c)), 1) }

// stops has the high bit of each byte of x that stops plain ASCII text
// set (a quote, a backslash, a control character, a byte of 0x80 or
// more), exact at the lowest as below is. A quote and the control
// characters are one test: x^0x02 maps 0x22 to 0x20 and the bytes below
// 0x20 among themselves, and no other byte below 0x80 below 0x21.
func stops(x uint64) uint64 { return plainStops(x) | x&highs }

// plainStops is stops for the bytes that end or escape a string, or may
// not stand in one: a quote, a backslash, a control character.
func plainStops(x uint64) uint64 { return below(x^(lows*0x02), 0x21) | equal(x, '\\') }

// PlainEnd is plainEnd, for the scanners of other packages.
func PlainEnd(d []byte, i int) (end int, wide bool) { return plainEnd(d, i) }

// ASCII reports whether every byte of b is below 0x80, eight at a time.
func ASCII(b []byte) bool {
	var high uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		high |= binary.LittleEndian.Uint64(b[i:])
	}
	for ; i < len(b); i++ {
		high |= uint64(b[i])
	}
	return high&highs == 0
}

// ASCIIPrefix returns the index of the first byte of b that is 0x80 or
// more, or len(b) when all of b is ASCII: a look at a whole text before a
// slower check (utf8.Valid) reads what follows. It reads 128 bytes at a
// time where there is a vector version (see ascii_amd64.s), then a word,
// then a byte at a time.
func ASCIIPrefix(b []byte) int {
	i := asciiBlocks(b)
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&highs != 0 {
			break
		}
	}
	for ; i < len(b) && b[i] < 0x80; i++ {
	}
	return i
}

// plainEndSWAR is plainEnd a word at a time, on every architecture: it
// is plainEnd where there is no vector version (see plain_amd64.s), other
// architectures and the purego build tag, and the tests compare the two.
//
// plainEnd returns the index of the first byte from i that ends or
// escapes a JSON string (a quote, a backslash) or may not stand in one (a
// control character), or len(d); and whether a byte of 0x80 or more came
// before it, so that the text must be checked as UTF-8.
func plainEndSWAR(d []byte, i int) (end int, wide bool) {
	var high uint64
	for ; i+8 <= len(d); i += 8 {
		x := binary.LittleEndian.Uint64(d[i:])
		if m := plainStops(x); m != 0 {
			// Only the bytes before the stop count: m&-m-1 keeps them
			// and the low seven bits of the stop itself.
			high |= x & (m&-m - 1)
			return i + bits.TrailingZeros64(m)>>3, high&highs != 0
		}
		high |= x
	}
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		high |= uint64(c)
	}
	return i, high&highs != 0
}

// stringStopAt returns the index of the first quote, backslash or newline
// from i, or len(d): the bytes CheckDepth stops at inside a string.
func stringStopAt(d []byte, i int) int {
	for ; i+8 <= len(d); i += 8 {
		x := binary.LittleEndian.Uint64(d[i:])
		if m := equal(x, '"') | equal(x, '\\') | equal(x, '\n'); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(d) && !stringStop[d[i]] {
		i++
	}
	return i
}
