// Package sniff looks at the start of a file to guess what it holds,
// tolerating a head that was cut off mid-value.
//
// Its JSON reading (Keys, Decoder, ScanValue and the rest) reads as
// encoding/json does, so that a format decides the same with it as with
// encoding/json, at a small part of the cost: detection runs on every
// trace file, and a suite may give each case a file of its own.
//  1. The same bytes are accepted and refused, at the same token.
//  2. Strings are unescaped as encoding/json unescapes them: a surrogate
//     not in a valid pair, and each byte of invalid UTF-8, read as U+FFFD.
//  3. Nesting deeper than encoding/json's 10,000 levels is refused.
//
// A UTF-8 byte order mark (EF BB BF), which Windows tools and editors
// write at the start of a text file, is not part of what the file holds:
// the functions that look at a head skip it there, and TrimBOM drops it,
// once and only there, for each loader of a user's file, so that a column
// on the first line counts from the byte after it. A mark anywhere else is
// left as it is: an error, or text.
package sniff

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// TrimBOM returns b without the UTF-8 byte order mark it starts with, if
// it starts with one.
func TrimBOM(b []byte) []byte {
	if len(b) >= len(bom) && string(b[:len(bom)]) == bom {
		return b[len(bom):]
	}
	return b
}

// DiscardBOM drops the UTF-8 byte order mark r starts with, if it starts
// with one, and returns the number of bytes dropped: TrimBOM for a reader
// read line by line, whose offsets must count the mark.
func DiscardBOM(r *bufio.Reader) int {
	head, _ := r.Peek(len(bom))
	if len(TrimBOM(head)) == len(head) {
		return 0
	}
	n, _ := r.Discard(len(bom))
	return n
}

// First returns the first byte that is not white space (or a UTF-8 byte
// order mark), or 0.
func First(head []byte) byte {
	head = bytes.TrimLeft(TrimBOM(bytes.TrimLeft(head, " \t\r\n")), " \t\r\n")
	if len(head) == 0 {
		return 0
	}
	return head[0]
}

// FirstLine returns the first non-blank line of head.
func FirstLine(head []byte) []byte {
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte{'\n'})
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t
		}
		head = rest
	}
	return nil
}

// Lines returns up to n non-blank lines of head; a last line cut off by
// the end of head is left out when there is more than one line.
func Lines(head []byte, n int) [][]byte {
	var out [][]byte
	for len(head) > 0 && len(out) < n {
		line, rest, found := bytes.Cut(head, []byte{'\n'})
		if !found && len(out) > 0 {
			break
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			out = append(out, t)
		}
		head = rest
	}
	return out
}

// Keys returns the top-level keys of the JSON object that head starts
// with, reading as far as head goes; nil when head does not start with an
// object. It reads as encoding/json's Decoder would, key by key: it stops
// at the first key or value broken or cut off, keeping the keys before it
// (and the key of a value cut off).
func Keys(head []byte) []string {
	b := TrimBOM(bytes.TrimSpace(head))
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	i++
	var keys []string
	var text []byte
	for n := 0; ; n++ {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' || b[i] == ']' {
			return keys
		}
		if n > 0 {
			if b[i] != ',' {
				return keys
			}
			i = skipSpace(b, i+1)
		}
		if i >= len(b) || b[i] != '"' {
			return keys
		}
		m, plain, ok := ScanString(b[i:])
		if !ok {
			return keys
		}
		text = Unquote(text[:0], b[i:i+m], plain)
		keys = append(keys, string(text))
		i = skipSpace(b, i+m)
		if i >= len(b) || b[i] != ':' {
			return keys
		}
		m, ok = ScanValue(b[i+1:])
		if !ok {
			return keys
		}
		i += 1 + m
	}
}

// HasKey reports whether keys holds any of names.
func HasKey(keys []string, names ...string) bool {
	for _, k := range keys {
		for _, n := range names {
			if k == n {
				return true
			}
		}
	}
	return false
}

// FirstElementKeys returns the keys of the first object of the JSON array
// head starts with.
func FirstElementKeys(head []byte) []string {
	b := TrimBOM(bytes.TrimSpace(head))
	if len(b) == 0 || b[0] != '[' {
		return nil
	}
	return Keys(b[1:])
}

// Contains reports whether head contains the quoted JSON key name.
func Contains(head []byte, key string) bool {
	return contains(head, `"`+key+`"`)
}

// ContainsStart reports whether head holds a quote followed by prefix:
// the bytes that start a JSON string whose text starts with prefix, if
// it holds no escape there.
func ContainsStart(head []byte, prefix string) bool {
	return contains(head, `"`+prefix)
}

// contains is bytes.Contains(b, []byte(s)) for an s that starts with a
// quote. bytes.Index looks for the quote first, which JSON is full of:
// the byte of s that text seldom holds finds the places to compare with
// bytes.IndexByte (vector code), over b once.
func contains(b []byte, s string) bool {
	at := 0
	for i := 1; i < len(s); i++ {
		if rarity(s[i]) < rarity(s[at]) {
			at = i
		}
	}
	c := s[at]
	for off := at; off+len(s)-at <= len(b); {
		i := bytes.IndexByte(b[off:len(b)-(len(s)-at)+1], c)
		if i < 0 {
			return false
		}
		start := off + i - at
		if string(b[start:start+len(s)]) == s {
			return true
		}
		off += i + 1
	}
	return false
}

// rarity ranks a byte by how often text holds it, the rarest first:
// digits and capitals, then the lower-case letters by their frequency
// in English, the underscore among them.
func rarity(c byte) int {
	const letters = "zqxjkvbpy_gfwmucldrhsnioate"
	switch {
	case c == '"':
		return len(letters) + 2 // what JSON is full of
	case '0' <= c && c <= '9', 'A' <= c && c <= 'Z':
		return 0
	case 'a' <= c && c <= 'z', c == '_':
		return 1 + strings.IndexByte(letters, c)
	}
	return len(letters) + 1
}

// MayHaveKey reports whether encoding/json could find any of the ASCII
// names as a key of the JSON in b, which it matches without regard to
// case: false only when b holds none of them in any case, no \u escape
// and no byte past ASCII (which case folding could match). It saves a
// decoding that could find none of them.
func MayHaveKey(b []byte, names ...string) bool {
	if !jsonv.ASCII(b) {
		return true
	}
	if bytes.Contains(b, []byte(`\u`)) {
		return true
	}
	for _, n := range names {
		if containsFold(b, n) {
			return true
		}
	}
	return false
}

// containsFold reports whether b holds the lower-case ASCII name in any
// case.
func containsFold(b []byte, name string) bool {
	// The places to compare are found by bytes.IndexByte (vector code),
	// for the first letter in each case.
	first := name[0]
	if containsFrom(b, name, first) {
		return true
	}
	return 'a' <= first && first <= 'z' && containsFrom(b, name, first-('a'-'A'))
}

// containsFold is containsFold at the places of b that start with c.
func containsFrom(b []byte, name string, c byte) bool {
	for off := 0; off+len(name) <= len(b); {
		i := bytes.IndexByte(b[off:len(b)-len(name)+1], c)
		if i < 0 {
			return false
		}
		if asciiEqualFold(b[off+i:off+i+len(name)], name) {
			return true
		}
		off += i + 1
	}
	return false
}

func asciiEqualFold(b []byte, lower string) bool {
	for i := range len(lower) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
