package jsonv

import (
	"encoding/binary"
	"io"
	"math/bits"
)

// Every JSON text trajeval writes may end up on a terminal (eval --format
// jsonl is read there all the time), and JSON lets a string hold
// characters a terminal acts on or that reorder what follows. The rule,
// one for every writer, escapes these as \uXXXX inside strings:
//  1. the C1 control characters U+0080–U+009F (U+009B is a CSI on
//     terminals that read 8 bits);
//  2. the line and paragraph separators U+2028 and U+2029, as
//     encoding/json does;
//  3. the bidirectional embeddings and overrides U+202A–U+202E and
//     isolates U+2066–U+2069, which reorder the text that follows them;
//  4. the first # of ##[, as \u0023: a CI runner (GitHub Actions) reads
//     ##[command] anywhere in a line of its log as a command to it, and
//     JSON written to standard output lands in CI logs.
//
// An escape decodes to the very character it stands for: what a program
// reads from the text is the same, only its bytes differ. In UTF-8 these
// are C2 80–C2 9F, E2 80 A8–E2 80 AE, E2 81 A6–E2 81 A9 and the byte #:
// in JSON text, bytes of 0x80 or more and # stand only inside strings, so
// the rule applies to text byte by byte, without parsing it.

// Escaped reports whether the rule escapes r.
func Escaped(r rune) bool {
	return 0x80 <= r && r <= 0x9f || 0x2028 <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069
}

// escapedAt returns the length of the UTF-8 sequence of a character the
// rule escapes at b[i:] and the character, or 0 when there is none.
func escapedAt(b []byte, i int) (int, rune) {
	if i+1 >= len(b) {
		return 0, 0
	}
	switch b[i] {
	case '#':
		if i+2 < len(b) && b[i+1] == '#' && b[i+2] == '[' {
			return 1, '#'
		}
	case 0xc2:
		if c := b[i+1]; 0x80 <= c && c <= 0x9f {
			return 2, rune(c)
		}
	case 0xe2:
		if i+2 >= len(b) {
			return 0, 0
		}
		switch c := b[i+2]; b[i+1] {
		case 0x80:
			if 0xa8 <= c && c <= 0xae {
				return 3, 0x2000 | rune(c-0x80)
			}
		case 0x81:
			if 0xa6 <= c && c <= 0xa9 {
				return 3, 0x2040 | rune(c-0x80)
			}
		}
	}
	return 0, 0
}

// appendEscape appends the escape \uXXXX of r, which is below U+10000.
func appendEscape(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// nextLead returns the index of the first 0xC2, 0xE2 or # byte of b from
// i, the bytes that start a character the rule escapes, or len(b). It
// looks at eight bytes at once.
func nextLead(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		m := equal(x, '#')
		if x&highs != 0 {
			m |= equal(x, 0xc2) | equal(x, 0xe2)
		}
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == 0xc2 || c == 0xe2 || c == '#' {
			break
		}
	}
	return i
}

// NeedsEscape reports whether the JSON text b holds a character the rule
// escapes, written as it is.
func NeedsEscape(b []byte) bool {
	for i := nextLead(b, 0); i < len(b); i = nextLead(b, i+1) {
		if n, _ := escapedAt(b, i); n > 0 {
			return true
		}
	}
	return false
}

// AppendEscaped appends the JSON text b to dst with the characters the
// rule escapes written as \uXXXX; b with none is copied as it is.
func AppendEscaped(dst, b []byte) []byte {
	start := 0
	for i := nextLead(b, 0); i < len(b); i = nextLead(b, i) {
		n, r := escapedAt(b, i)
		if n == 0 {
			i++
			continue
		}
		dst = append(dst, b[start:i]...)
		dst = appendEscape(dst, r)
		i += n
		start = i
	}
	return append(dst, b[start:]...)
}

// Escape returns the JSON text b with the rule applied: b itself when it
// holds nothing to escape, else a new slice.
func Escape(b []byte) []byte {
	if !NeedsEscape(b) {
		return b
	}
	return AppendEscaped(make([]byte, 0, len(b)+32), b)
}

// NewWriter returns a writer that applies the rule to what is written
// through it to w. Each Write must hold whole UTF-8 sequences, as each of
// a json.Encoder's does (one value per Write).
func NewWriter(w io.Writer) io.Writer { return escapeWriter{w} }

type escapeWriter struct{ w io.Writer }

func (e escapeWriter) Write(p []byte) (int, error) {
	q := Escape(p)
	if _, err := e.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
