package jsonv

import (
	"encoding/binary"
	"math/bits"
)

// flatEnd returns the index just past the object whose opening brace is
// at i when it is flat and compact, as a call's arguments mostly are
// (`{"id":"doc-1"}`, `{"limit":10,"query":"python history"}`), and 0 for
// any other object, which skip then reads the long way. Flat and compact:
//  1. no white space between its tokens;
//  2. each key and string value plain ASCII, with no escape and no control
//     character (see stops), read a word at a time;
//  3. each other value a whole number (no fraction, no exponent, no
//     leading zero), true, false or null;
//  4. every word it reads within d: an object that ends within 8 bytes of
//     the data's end goes the long way.
//
// Such an object is valid JSON, nests one deep, and holds no text that
// needs a check as UTF-8: skip takes it in one pass, with no call for
// each token, and what it refuses is read as before, so the same objects
// are taken either way.
func flatEnd(d []byte, i int) int {
	i++ // the brace
	if i < len(d) && d[i] == '}' {
		return i + 1
	}
	// One loop reads the keys and the string values, so that the scan
	// of a string is written once and needs no call.
	for key := true; ; {
		if i >= len(d) || d[i] != '"' {
			return 0
		}
		for i++; ; i += 8 {
			if i+8 > len(d) {
				return 0
			}
			if m := stops(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
		}
		if d[i] != '"' {
			return 0
		}
		i++
		if key {
			if i+1 >= len(d) || d[i] != ':' {
				return 0
			}
			i++
			switch c := d[i]; {
			case c == '"':
				key = false
				continue
			case c-'0' <= 9 || c == '-':
				i = wholeEnd(d, i)
			case c == 't':
				i = literalEnd(d, i, "true")
			case c == 'f':
				i = literalEnd(d, i, "false")
			case c == 'n':
				i = literalEnd(d, i, "null")
			default:
				return 0
			}
			if i == 0 || i >= len(d) {
				return 0
			}
		}
		// After a value: the next key, or the end (a string value's
		// closing quote may be the data's last byte).
		if i >= len(d) {
			return 0
		}
		switch d[i] {
		case ',':
			i++
			key = true
		case '}':
			return i + 1
		default:
			return 0
		}
	}
}

// wholeEnd returns the index just past the whole number at i (a minus,
// then 0 or digits not led by a zero); 0 when there is none. What
// follows is the caller's to check: a fraction or an exponent is no
// comma or brace.
func wholeEnd(d []byte, i int) int {
	if d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		return i + 1
	}
	j := i
	for j < len(d) && d[j]-'0' <= 9 {
		j++
	}
	if j == i {
		return 0
	}
	return j
}

// literalEnd returns the index just past lit when it stands at i in d,
// else 0.
func literalEnd(d []byte, i int, lit string) int {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return 0
	}
	return i + len(lit)
}
