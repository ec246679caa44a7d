package sniff

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// The JSON scanning below reads as encoding/json does, and is tested
// against it on any bytes: the readers' sniffing must decide the same
// with it as with encoding/json, only sooner.

// maxDepth is the deepest nesting encoding/json's scanner accepts.
const maxDepth = 10000

// ScanString returns the length of the JSON string that b starts with
// (its quotes included), as encoding/json's scanner checks it; plain says
// it holds no escape and no byte past ASCII. It is false for a string cut
// off or broken (a control character, an invalid escape).
func ScanString(b []byte) (n int, plain, ok bool) {
	plain = true
	for i := 1; i < len(b); i++ {
		// Runs of plain text are skipped a word at a time: only a quote,
		// a backslash or a control character stops the scan.
		end, wide := jsonv.PlainEnd(b, i)
		if wide {
			plain = false
		}
		if i = end; i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, plain, true
		case c == '\\':
			plain = false
			i++
			if i >= len(b) {
				return 0, false, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return 0, false, false
				}
				i += 4
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return 0, false, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ScanLiteral returns the length of the number, true, false or null that
// b starts with, as encoding/json's scanner checks it: it ends at the
// first byte that cannot go on, which is for what follows to judge. It is
// false for a literal broken, or cut off by the end of b.
func ScanLiteral(b []byte) (n int, ok bool) {
	for _, w := range []string{"true", "false", "null"} {
		if len(b) > 0 && b[0] == w[0] {
			if !bytes.HasPrefix(b, []byte(w)) {
				return 0, false
			}
			return len(w), true
		}
	}
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, false
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	return i, true
}

// ScanValue returns the length of the JSON value that b starts with, as
// encoding/json's Decoder reads one value: a string or literal as
// ScanString and ScanLiteral read it, an array or object to its closing
// bracket, each part checked, and nested at most as deep as
// encoding/json allows. It is false for a value broken, or cut off by
// the end of b.
func ScanValue(b []byte) (n int, ok bool) {
	var stack []bool // true for an object
	i := 0
	for {
		// A value starts at i.
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; c {
		case '{', '[':
			if len(stack) >= maxDepth {
				return 0, false
			}
			stack = append(stack, c == '{')
			i = skipSpace(b, i+1)
			if i >= len(b) {
				return 0, false
			}
			if c == '[' && b[i] == ']' || c == '{' && b[i] == '}' {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i = keyColon(b, i); i < 0 {
					return 0, false
				}
			}
			continue
		case '"':
			m, _, ok := ScanString(b[i:])
			if !ok {
				return 0, false
			}
			i += m
		default:
			m, ok := ScanLiteral(b[i:])
			if !ok {
				return 0, false
			}
			i += m
		}
		// A value ended before i: close what it ends, then go on with
		// the next element, or stop at the top.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, false
			}
			isObj := stack[len(stack)-1]
			c := b[i]
			if isObj && c == '}' || !isObj && c == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if c != ',' {
				return 0, false
			}
			i++
			if isObj {
				if i = keyColon(b, skipSpace(b, i)); i < 0 {
					return 0, false
				}
			}
			break
		}
	}
}

// keyColon reads a key and its colon at i, and returns where the value
// may start; -1 if they are not there.
func keyColon(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	m, _, ok := ScanString(b[i:])
	if !ok {
		return -1
	}
	i = skipSpace(b, i+m)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return i + 1
}

func skipSpace(b []byte, i int) int {
	// Compact JSON has no space between tokens: a byte above the space
	// is none of the four, and one comparison says so.
	if i < len(b) && b[i] > ' ' {
		return i
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// Unquote appends to dst the text of raw, a string ScanString accepted
// (plain as it said), decoded as encoding/json decodes it: escapes
// resolved, and a surrogate not in a valid pair and each byte of invalid
// UTF-8 read as U+FFFD.
func Unquote(dst, raw []byte, plain bool) []byte {
	in := raw[1 : len(raw)-1]
	if plain || (bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in)) {
		return append(dst, in...)
	}
	for r := 0; r < len(in); {
		c := in[r]
		switch {
		case c == '\\':
			switch e := in[r+1]; e {
			case 'u':
				rr := hex4(in[r+2:])
				r += 6
				if utf16.IsSurrogate(rr) {
					if r+6 <= len(in) && in[r] == '\\' && in[r+1] == 'u' {
						if d := utf16.DecodeRune(rr, hex4(in[r+2:])); d != unicode.ReplacementChar {
							r += 6
							dst = utf8.AppendRune(dst, d)
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, rr)
				continue
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			default: // " \ /
				c = e
			}
			dst = append(dst, c)
			r += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			r++
		default:
			rr, size := utf8.DecodeRune(in[r:])
			dst = utf8.AppendRune(dst, rr)
			r += size
		}
	}
	return dst
}

// hex4 reads the four hex digits b starts with; -1 if it does not.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
