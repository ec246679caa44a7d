package jsonv

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a JSON string, byte for byte as
// encoding/json writes it but for the characters of rule 3:
//  1. quote, backslash and control characters are escaped (\n, \t, … or
//     \u00XX);
//  2. with escapeHTML, <, > and & are escaped as \u003c, \u003e and
//     \u0026 (json.Marshal's default; an Encoder with SetEscapeHTML(false)
//     leaves them);
//  3. U+2028 and U+2029 are escaped, and so, unlike encoding/json, are
//     the C1 controls and the bidi embeddings, overrides and isolates
//     (see [Escaped]): the same string, read back, in other bytes;
//  4. invalid UTF-8 is written as \ufffd;
//  5. the first # of ##[ is escaped as \u0023 (rule 4 of [Escaped]'s
//     rule: a CI runner's command).
func AppendString(dst []byte, s string, escapeHTML bool) []byte {
	b := append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = safeEnd(s, i, escapeHTML); i == len(s) {
			break
		}
		if s[i] == '#' {
			if strings.HasPrefix(s[i:], "##[") {
				b = append(b, s[start:i]...)
				b = append(b, `\u0023`...)
				start = i + 1
			}
			i++
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if Escaped(r) {
			b = append(b, s[start:i]...)
			b = appendEscape(b, r)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendFloat appends f to dst as encoding/json writes a float64: like
// ES6, %f between 1e-6 and 1e21 and an unpadded exponent outside. NaN and
// the infinities have no JSON form: it returns dst unchanged and false.
func AppendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// AppendInt appends n to dst in decimal, as strconv.AppendInt(dst, n, 10)
// does. The numbers of results and details (counts, items, steps,
// indexes, whole scores) are mostly below a hundred: those are copied
// from a table, without strconv's calls.
func AppendInt(dst []byte, n int64) []byte {
	if uint64(n) < 100 {
		if n < 10 {
			return append(dst, byte('0'+n))
		}
		return append(dst, digitPairs[2*n], digitPairs[2*n+1])
	}
	return strconv.AppendInt(dst, n, 10)
}

// digitPairs holds the two digits of 0 to 99, in order.
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// safeEnd returns the index of the first byte of s from i that
// AppendString must look at: one it escapes, a # (escaped before #[), or
// one of 0x80 or more that starts a rune it must check; len(s) when there
// is none. It looks at eight bytes at once (see below).
func safeEnd(s string, i int, escapeHTML bool) int {
	for ; i+8 <= len(s); i += 8 {
		x := load64(s, i)
		m := equal(x, '"') | equal(x, '\\') | equal(x, '#') | below(x, 0x20) | x&highs
		if escapeHTML {
			m |= equal(x, '<') | equal(x, '>') | equal(x, '&')
		}
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '#' || escapeHTML && (c == '<' || c == '>' || c == '&') {
			break
		}
	}
	return i
}

// load64 returns the eight bytes of s from i as a little-endian word; the
// compiler makes it one load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
