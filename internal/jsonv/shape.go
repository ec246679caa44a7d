package jsonv

import (
	"encoding/binary"
	"math"
)

// A Shape remembers how the objects one reader reads again and again are
// written, for Member: the bytes from the end of one member's value to
// the start of the next one's (white space, the comma, the key in its
// quotes, the colon), or to the object's end (its closing brace), as
// they stood the last time after the same key.
// Records from one producer repeat them byte for byte
// (`,"start_time":`), so Member finds the next key with one comparison of
// up to 24 bytes where they stand, with no look at the comma, the quotes,
// the key or the colon one by one. Bytes that differ go the long way, as
// without a Shape, which then remembers them.
//
// A Shape is no check of its own: the bytes it remembers were read the
// long way and found to be the key it hands on (an escaped key, white
// space and all), and the same bytes are that key again. A key not among
// the Keys (Other) is never remembered: Member hands on its text.
//
// A Shape belongs to one reader: Member writes to it.
type Shape struct {
	keys *Keys
	// after[0] is what follows an object's start (its opening brace
	// included), after[i+1] what follows the value of key i, and the
	// last what follows a value of another key: never remembered.
	after []literal
}

// A literal is bytes Member met before in one place of an object, at
// in Shape.after, n of them (up to maxLiteral), as three words under
// masks, in the machine's byte order (see load2); key is what they
// read as (an index in the Keys, or End; Bad when nothing is
// remembered), opens whether they open the object, then the literal
// after key's value.
//
// Again compares the first two words when the depth is less than below
// (maxDepth for bytes that open the object, 0 for bytes it must not
// take: more than 16 of them, or none remembered), and adds nest to the
// depth (1 for bytes that open the object, -1 for its end).
type literal struct {
	w0, w1, w2, mask0, mask1, mask2 uint64
	n, key, below, nest             int
	opens                           bool
	then                            *literal
	at                              int
}

// words returns the first 24 bytes of b as three words in the
// machine's byte order, as load2 loads them.
func words(b []byte) (w0, w1, w2 uint64) {
	return binary.NativeEndian.Uint64(b), binary.NativeEndian.Uint64(b[8:]), binary.NativeEndian.Uint64(b[16:])
}

// maxLiteral is how many bytes a Shape remembers at one place; longer
// runs (white space, long keys) go the long way each time.
const maxLiteral = 24

// NewShape returns a Shape of objects whose keys are mostly among keys.
func NewShape(keys *Keys) *Shape {
	s := &Shape{keys: keys, after: make([]literal, len(keys.names)+2)}
	for i := range s.after {
		s.after[i] = literal{key: Bad, at: i}
	}
	return s
}

// Members starts reading an object with Member, remembering its shape in
// s and comparing with what s remembers.
func (s *Shape) Members() Members {
	return Members{keys: s.keys, shape: s, lit: &s.after[0]}
}

// MembersAfter is Members for an object its reader read up to the
// value of key i itself, not with Member (its brace, its keys, their
// values: see Parser.Expect): Member goes on from there, with what s
// remembers after key i.
func (s *Shape) MembersAfter(i int) Members {
	return Members{keys: s.keys, shape: s, lit: &s.after[i+1], open: true}
}

// memberShape is Member the long way for m, which has a Shape: the key
// is read as without one, and the bytes that led to it remembered where
// m.lit stands, up to the start of its value: white space after the colon is
// read here, as the value's reader would read it. An object's start is
// remembered only with its first key, and nothing after another key.
func (p *Parser) memberShape(m *Members) (int, []byte) {
	s, at, pos := m.shape, m.lit.at, p.pos
	none := len(s.after) - 1
	if at < none {
		// The key that follows key at-1 is compared first.
		if m.next = at; m.next == len(m.keys.words) {
			m.next = 0
		}
	}
	i, key := p.memberKeys(m)
	next := none
	switch {
	case i >= 0:
		p.space()
		next = i + 1
	case i == End && at > 0:
	default:
		at = none
	}
	m.lit = &s.after[next]
	if at == none {
		return i, key
	}
	l := literal{n: p.pos - pos, key: i, opens: at == 0, at: at, below: math.MaxInt}
	switch {
	case l.n > maxLiteral:
		s.after[at] = literal{key: Bad, at: at}
		return i, key
	case l.n > 16:
		l.below = 0 // three words: see memberLong
	case l.opens:
		l.below = maxDepth
	}
	switch {
	case l.opens:
		l.nest = 1
	case i == End:
		l.nest = -1
	}
	l.then = &s.after[none] // after the end: nothing Again takes
	if i >= 0 {
		l.then = &s.after[i+1]
	}
	var b, ones [maxLiteral]byte
	copy(b[:], p.data[pos:p.pos])
	for j := range l.n {
		ones[j] = 0xff
	}
	l.mask0, l.mask1, l.mask2 = words(ones[:])
	l.w0, l.w1, l.w2 = words(b[:])
	l.w0, l.w1, l.w2 = l.w0&l.mask0, l.w1&l.mask1, l.w2&l.mask2
	s.after[at] = l
	return i, key
}

// A Recent remembers the last string one reader read at one place of
// its records (a call's tool, its status), for NameRecent: the same
// bytes again are the same string, found by one comparison where they
// stand, with no look for the string's end, no hash and no copy.
type Recent struct {
	w0, w1, mask0, mask1 uint64 // in the machine's byte order (see load2)
	n                    int    // the bytes of the string, quotes included; 0 for none
	name                 string
}

// NameAgain is NameRecent when the bytes at pos are those r remembers:
// it moves past them and returns the string read from them before, and
// true; for other bytes it reads nothing and returns false, for
// NameRecent to read. It is small enough to be inlined.
func (p *Parser) NameAgain(r *Recent) (string, bool) {
	if p.pos+16 <= len(p.data) {
		w := load2(p.data, p.pos)
		if (w[0]^r.w0)&r.mask0|(w[1]^r.w1)&r.mask1 == 0 && r.n != 0 {
			p.pos += r.n
			return r.name, true
		}
	}
	return "", false
}

// NameRecent is Name for a string r may remember: when the bytes at pos
// are those r remembers, quotes included, it moves past them and returns
// the string read from them before; else it reads as Name does, and r
// remembers a string of up to 16 bytes with its quotes.
func (p *Parser) NameRecent(r *Recent) (string, bool) {
	if s, ok := p.NameAgain(r); ok {
		return s, true
	}
	if p.Peek() != '"' {
		return "", false
	}
	pos := p.pos
	s, ok := p.Name()
	if n := p.pos - pos; ok && n <= 16 {
		var b [16]byte
		copy(b[:], p.data[pos:p.pos])
		*r = Recent{n: n, name: s}
		r.mask0, r.mask1 = binary.NativeEndian.Uint64(masks[16-n:]), binary.NativeEndian.Uint64(masks[24-n:])
		r.w0, r.w1 = binary.NativeEndian.Uint64(b[:])&r.mask0, binary.NativeEndian.Uint64(b[8:])&r.mask1
	}
	return s, ok
}

// A RecentSpan remembers the text of the last small object or array one
// reader read at one place of its records (a call's result), for
// SpanRecent: the same bytes again are the same value, checked before,
// and end where it ended, found by one comparison where they stand with
// no look at their keys, strings or brackets one by one. Only an object
// or an array is remembered: its text ends at its closing bracket,
// whatever follows it, where a number's would not.
type RecentSpan struct {
	w0, w1, mask0, mask1 uint64
	n                    int // the bytes of the text; 0 for none
	// nest bounds how deep the value nests.
	nest int
}

// SpanRecent is Span for a value r may remember: when the bytes at pos
// are the text r remembers, and the value, however deep that text may
// nest, stays within MaxDepth where it stands, it moves past them and
// returns their place; else it reads as Span does, and r remembers an
// object or an array of up to 16 bytes that Span accepts.
func (p *Parser) SpanRecent(r *RecentSpan) (start, end int, ok bool) {
	if start, end, again := p.SpanAgain(r); again {
		return start, end, true
	}
	start, end, ok = p.Span()
	if n := end - start; ok && n <= 16 && start+16 <= len(p.data) && (p.data[start] == '{' || p.data[start] == '[') {
		// The mask's bytes: n of 0xff from masks[16-n:], then zeros.
		// A value of n bytes nests at most n/2 deep: each level takes
		// two of them, its brackets.
		*r = RecentSpan{n: n, nest: n / 2}
		r.mask0, r.mask1 = binary.NativeEndian.Uint64(masks[16-n:]), binary.NativeEndian.Uint64(masks[24-n:])
		w := load2(p.data, start)
		r.w0, r.w1 = w[0]&r.mask0, w[1]&r.mask1
	}
	return start, end, ok
}

// SpanAgain is SpanRecent when the bytes at pos are the text r
// remembers: it moves past them and returns their place and true, the
// text the same as the last one SpanRecent read or found with r; for
// other bytes it reads nothing and returns false, for SpanRecent to
// read. It is small enough to be inlined.
func (p *Parser) SpanAgain(r *RecentSpan) (start, end int, again bool) {
	start = p.pos
	if start+16 <= len(p.data) && r.n != 0 && p.depth+r.nest <= maxDepth {
		w := load2(p.data, start)
		if (w[0]^r.w0)&r.mask0|(w[1]^r.w1)&r.mask1 == 0 {
			p.pos += r.n
			return start, p.pos, true
		}
	}
	return 0, 0, false
}

// masks holds the bytes of the masks of Recent and RecentSpan: n
// bytes of 0xff from masks[16-n:], then zeros.
var masks = [32]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
