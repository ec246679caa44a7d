package jsonv

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A Parser reads well-formed JSON into the data model fast: a hand-written
// scanner with no reflection, names interned. It is a fast path, not a
// validator of its own: on anything it does not read exactly as
// encoding/json with UseNumber would (a syntax error, invalid UTF-8, a lone
// surrogate, nesting deeper than MaxDepth) it says no (ok false), and the
// caller decodes the same bytes with encoding/json, whose result, error or
// salvage is then the answer; the caller checks the depth (CheckDepth)
// before it does. So for every input the
// Parser accepts, its values are those encoding/json gives.
//
// A Parser is used by one goroutine at a time; its values do not share
// memory with the input.
type Parser struct {
	data  []byte
	pos   int
	depth int
	buf   []byte            // unescaped text
	names map[string]string // interned short strings
	// recent holds the last name seen in each of a few slots, picked
	// by a cheap hash of the name (see slot): most names are found
	// there without the map.
	recent [256]string
	// boxed holds, in pairs of slots picked the same way, the last two
	// short strings or numbers Value returned there, boxed: values that
	// repeat from record to record ("ok", 10) come back without
	// allocating.
	boxed [256]any
	// elems holds the elements of the arrays Value is reading, so that
	// each array is allocated once, at its length.
	elems []any
	// shorts holds the short plain strings read before, found again by
	// their bytes (see short).
	shorts *[shortSlots]short
}

// maxDepth is the limit on nesting: deeper input is refused before any
// recursive decoder runs (see CheckDepth).
const maxDepth = MaxDepth

// maxNames bounds the interned strings, and maxNameLen their length.
const (
	maxNames   = 4096
	maxNameLen = 64
)

// Reset starts reading data.
func (p *Parser) Reset(data []byte) {
	p.data, p.pos, p.depth = data, 0, 0
}

// space moves pos past white space.
func (p *Parser) space() {
	for p.pos < len(p.data) && p.data[p.pos] <= ' ' && isSpace[p.data[p.pos]] {
		p.pos++
	}
}

// isSpace holds JSON's white space.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// Peek returns the first byte of the next value (0 at the end).
func (p *Parser) Peek() byte {
	// Compact JSON has no white space between tokens: the next byte is
	// the one, and Peek is small enough to be inlined for it.
	if p.pos < len(p.data) && p.data[p.pos] > ' ' {
		return p.data[p.pos]
	}
	return p.peekSpace()
}

func (p *Parser) peekSpace() byte {
	p.space()
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

// End reports whether nothing but white space is left.
func (p *Parser) End() bool {
	p.space()
	return p.pos == len(p.data)
}

// Null reads a null if one comes next.
func (p *Parser) Null() bool {
	if p.Peek() == 'n' && p.literal("null") {
		return true
	}
	return false
}

func (p *Parser) literal(lit string) bool {
	if len(p.data)-p.pos < len(lit) || string(p.data[p.pos:p.pos+len(lit)]) != lit {
		return false
	}
	p.pos += len(lit)
	return true
}

// Object reads an object, calling member with each key; member reads the
// value (or skips it) and reports whether all went well.
//
// Its loop is written out again in Member, Array, object and
// arrayElems on purpose: helpers for entering and leaving a value are
// too big to be inlined, and cost 2.4 % of reading's instructions.
func (p *Parser) Object(member func(key []byte) bool) bool {
	if p.Peek() != '{' {
		return false
	}
	p.pos++
	if p.depth++; p.depth > maxDepth {
		return false
	}
	if p.Peek() == '}' {
		p.pos++
		p.depth--
		return true
	}
	for {
		if p.Peek() != '"' {
			return false
		}
		key, ok := p.raw()
		if !ok || p.Peek() != ':' {
			return false
		}
		p.pos++
		if !member(key) {
			return false
		}
		switch p.Peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return true
		default:
			return false
		}
	}
}

// Keys are the names an object's members mostly have, for Member:
// plain ASCII names of at most 15 bytes, no two alike, in the order they
// are usually written.
type Keys struct {
	names []string
	words []keyWords
}

// keyWords are a name's bytes with its closing quote, n of them: the
// first eight under mask, and the eight from lastAt under lastMask (none
// for a name of up to eight). A name never compared by its bytes has n 0
// and a mask no word matches.
type keyWords struct {
	first, mask, last, lastMask uint64
	lastAt, n                   int
}

// NewKeys returns the Keys of names. A name past 15 bytes, or holding a
// quote, a backslash or a byte that is not printable ASCII, is still
// found, by Object's reading. With no names, every key is Other.
func NewKeys(names ...string) *Keys {
	k := &Keys{names: names}
	if len(names) == 0 {
		// Member compares a key with the words of the one expected next
		// before it checks for any: one that matches no word.
		k.words = []keyWords{{first: 1}}
	}
	for _, n := range names {
		q := []byte(n + `"`)
		var w keyWords
		switch {
		case !plainName(n) || len(q) > 16:
			// Never compared by its bytes: no word w has w&0 == 1.
			w.first = 1
		case len(q) <= 8:
			w = keyWords{mask: 1<<(8*len(q)) - 1, n: len(q)}
			w.first = binary.LittleEndian.Uint64(append(q, make([]byte, 8-len(q))...))
		default:
			w = keyWords{mask: ^uint64(0), lastMask: ^uint64(0), lastAt: len(q) - 8, n: len(q)}
			w.first, w.last = binary.LittleEndian.Uint64(q), binary.LittleEndian.Uint64(q[len(q)-8:])
		}
		k.words = append(k.words, w)
	}
	return k
}

func plainName(n string) bool {
	for i := range len(n) {
		if c := n[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return n != ""
}

// ObjectKeys is Object for an object whose keys are mostly among keys:
// member gets a key's index in keys (and a nil key), or -1 and any other
// key, as Members hands them on (see there).
func (p *Parser) ObjectKeys(keys *Keys, member func(i int, key []byte) bool) bool {
	m := keys.Members()
	for {
		switch i, key := p.Member(&m); i {
		case End:
			return true
		case Bad:
			return false
		default:
			if !member(i, key) {
				return false
			}
		}
	}
}

// What Member returns past an object's keys.
const (
	Other = -1 // a key not among the Keys, handed on
	End   = -2 // the closing brace: the object is read
	Bad   = -3 // not an object, or broken: stop
)

// Members is where Member is in an object: which key it compares first,
// and whether the opening brace is read.
type Members struct {
	keys  *Keys
	next  int
	open  bool
	shape *Shape   // nil: none remembered
	lit   *literal // where m is in shape (see Shape.after)
}

// Members starts reading an object with Member.
func (k *Keys) Members() Members { return Members{keys: k, lit: &noLiteral} }

// noLiteral is where Members without a Shape stand: Again takes no bytes
// for it (below 0).
var noLiteral = literal{key: Bad}

// Member reads the next key of the object m reads (its opening brace
// first, the comma after the member before), up to the colon, and
// returns its index in m's Keys, or Other and the key, valid until the
// next call on p; End after the closing brace, Bad for anything else. The
// caller reads the member's value before it calls Member again.
//
// A key is first compared, by its bytes, with the one that follows the
// last key found, then with the others, so that the names of keys are
// read without scanning them, and in the order of the Keys with one
// comparison each; a key written otherwise (escaped, or another) is read
// as Object reads it. With a Shape (see Shape.Members), the bytes that
// stood there last time are compared before all that. The keys are the
// same either way. Member, not a function called for each member as
// Object does it, so that the caller's loop costs no call of a closure.
func (p *Parser) Member(m *Members) (int, []byte) {
	if k := p.Again(m); k != Miss {
		return k, nil
	}
	return p.memberLong(m)
}

// Miss is what Again returns when the bytes at the Parser's place are
// not those its Shape remembers there.
const Miss = -4

// Again is Member when the bytes at the Parser's place are those the
// Shape of m remembers there, in two words (see Shape): it moves past
// them and returns their key or End; anything else (a Shape that
// remembers nothing there, or more than 16 bytes, a Members without a
// Shape) reads nothing and returns Miss, for Member to read. It is small
// enough to be inlined: a reader's loop that calls it before Member
// pays no call for a key found again.
func (p *Parser) Again(m *Members) int {
	if l := m.lit; p.pos+16 <= len(p.data) && p.depth < l.below {
		w := load2(p.data, p.pos)
		if (w[0]^l.w0)&l.mask0|(w[1]^l.w1)&l.mask1 == 0 {
			p.pos += l.n
			p.depth += l.nest
			m.lit = l.then
			return l.key
		}
	}
	return Miss
}

// memberLong is Member past Again: bytes a Shape remembers in three
// words (white space), other bytes, and no Shape.
func (p *Parser) memberLong(m *Members) (int, []byte) {
	s := m.shape
	if s == nil {
		return p.memberKeys(m)
	}
	l := m.lit
	m.open = l != &s.after[0] // Again does not say
	d, pos := p.data, p.pos
	if l.n > 16 && pos+maxLiteral <= len(d) && (!l.opens || p.depth < maxDepth) {
		w0, w1, w2 := words(d[pos : pos+maxLiteral])
		if (w0^l.w0)&l.mask0|(w1^l.w1)&l.mask1|(w2^l.w2)&l.mask2 == 0 {
			p.pos = pos + l.n
			p.depth += l.nest
			m.open = true
			m.lit = l.then
			return l.key, nil
		}
	}
	return p.memberShape(m)
}

// memberKeys is Member with no Shape, or bytes other than the Shape's.
func (p *Parser) memberKeys(m *Members) (int, []byte) {
	// Compact JSON, the key expected next: the comma (or the opening
	// brace), the key's quotes and its colon where they must be, the
	// name one or two 64-bit compares, all from locals. Anything else
	// goes the long way, member.
	d, pos := p.data, p.pos
	if pos+32 <= len(d) {
		// An array, so that the places below need no bounds checks.
		b := (*[32]byte)(d[pos : pos+32])
		c := b[0]
		if b[1] == '"' && (c == ',' && m.open || c == '{' && !m.open && p.depth < maxDepth) {
			words := m.keys.words
			next := m.next
			k := &words[next]
			at := 2 + uint(k.lastAt)&15
			if binary.LittleEndian.Uint64(b[2:10])&k.mask == k.first &&
				binary.LittleEndian.Uint64(b[at:at+8])&k.lastMask == k.last &&
				b[(2+uint(k.n))&31] == ':' {
				if c == '{' {
					p.depth++
					m.open = true
				}
				p.pos = pos + 3 + k.n
				if m.next = next + 1; m.next == len(words) {
					m.next = 0
				}
				return next, nil
			}
		}
	}
	if pos < len(d) && d[pos] == '}' && m.open {
		p.pos++
		p.depth--
		return End, nil
	}
	return p.member(m)
}

// member is Member the long way: white space, another key, the end.
func (p *Parser) member(m *Members) (int, []byte) {
	if m.open {
		switch p.Peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return End, nil
		default:
			return Bad, nil
		}
	} else {
		if p.Peek() != '{' {
			return Bad, nil
		}
		p.pos++
		if p.depth++; p.depth > maxDepth {
			return Bad, nil
		}
		m.open = true
		if p.Peek() == '}' {
			p.pos++
			p.depth--
			return End, nil
		}
	}
	if p.Peek() != '"' {
		return Bad, nil
	}
	keys := m.keys
	i := p.known(keys, m.next)
	var key []byte // nil for a key of keys
	if i >= 0 {
		p.pos += keys.words[i].n + 1
	} else {
		var ok bool
		if key, ok = p.raw(); !ok {
			return Bad, nil
		}
		for j, k := range keys.names {
			if string(key) == k {
				i, key = j, nil
				break
			}
		}
	}
	if p.Peek() != ':' {
		return Bad, nil
	}
	p.pos++
	if i >= 0 {
		if m.next = i + 1; m.next == len(keys.names) {
			m.next = 0
		}
	}
	return i, key
}

// known returns the index of the name in keys that the string at pos is,
// compared by its bytes, from next on; -1 if none is.
func (p *Parser) known(keys *Keys, next int) int {
	start := p.pos + 1
	if start+16 > len(p.data) {
		return -1 // near the end: read as Object does
	}
	d := p.data[start : start+16]
	w := binary.LittleEndian.Uint64(d)
	words := keys.words
	for n, j := 0, next; n < len(words); n++ {
		k := &words[j]
		if w&k.mask == k.first && binary.LittleEndian.Uint64(d[k.lastAt:])&k.lastMask == k.last {
			return j
		}
		if j++; j == len(words) {
			j = 0
		}
	}
	return -1
}

// Array reads an array, calling elem for each element, which reads it.
func (p *Parser) Array(elem func() bool) bool {
	if p.Peek() != '[' {
		return false
	}
	p.pos++
	if p.depth++; p.depth > maxDepth {
		return false
	}
	if p.Peek() == ']' {
		p.pos++
		p.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch p.Peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return true
		default:
			return false
		}
	}
}

// Str reads a string.
func (p *Parser) Str() (string, bool) {
	if p.Peek() != '"' {
		return "", false
	}
	b, ok := p.raw()
	if !ok {
		return "", false
	}
	return string(b), true
}

// StrValue is Value for a string, given as one: a short string found
// again (see shortAt) costs no box and no look at the box; any other is
// read, and kept, as Value reads and keeps it. A value that is no string
// reads nothing (ok false).
func (p *Parser) StrValue() (string, bool) {
	if p.Peek() != '"' {
		return "", false
	}
	if s, n := p.shortAt(p.pos); s != nil {
		p.pos += n + 1
		return s.name, true
	}
	v, ok := p.Value()
	s, _ := v.(string)
	return s, ok
}

// Bytes reads a string and returns its unescaped bytes without copying
// them: they are valid until the next call on p, for a reader that parses
// or compares the text at once (a time, an id) instead of keeping it.
func (p *Parser) Bytes() ([]byte, bool) {
	if p.Peek() != '"' {
		return nil, false
	}
	return p.raw()
}

// Plain reads a string of at most max bytes, all ASCII and none escaped,
// and returns them in place, valid until the next call on p: a reader
// that parses short text at once (a time) takes it with no look for
// escapes past max bytes and no check for UTF-8. For any other value (not
// a string, a longer one, an escape, a byte past ASCII, a control
// character) ok is false and nothing is read: the caller reads it another
// way (Bytes, Str, Skip).
func (p *Parser) Plain(max int) (b []byte, ok bool) {
	if p.Peek() != '"' {
		return nil, false
	}
	start := p.pos + 1
	end := min(start+max+1, len(p.data)) // room for the closing quote
	i, wide := plainEnd(p.data[:end], start)
	if i == end || p.data[i] != '"' || wide {
		return nil, false
	}
	p.pos = i + 1
	return p.data[start:i], true
}

// Quoted returns the n bytes after the opening quote of the string that
// starts at pos when a quote follows them, without reading them (nil
// otherwise, and for white space before the string). They are that
// string's text only when none of them is a quote, a backslash, a control
// character or a byte past ASCII: a reader that parses text of a fixed
// shape (a time) checks every byte as it parses, then takes the string
// with TakeQuoted(n). It is small enough to be inlined.
func (p *Parser) Quoted(n int) []byte {
	i := p.pos
	if n < 0 || i+n+2 > len(p.data) || p.data[i] != '"' || p.data[i+n+1] != '"' {
		return nil
	}
	return p.data[i+1 : i+n+1]
}

// TakeQuoted moves past the string whose n bytes Quoted returned.
func (p *Parser) TakeQuoted(n int) { p.pos += n + 2 }

// Name reads a string and interns it when it is short: tool names, roles
// and keys repeat on every line of a trace.
func (p *Parser) Name() (string, bool) {
	if p.Peek() != '"' {
		return "", false
	}
	pos := p.pos
	s, n := p.shortAt(pos)
	if s != nil {
		p.pos += n + 1
		return s.name, true
	}
	b, ok := p.raw()
	if !ok {
		return "", false
	}
	if s := p.keepShort(pos, n, b); s != nil {
		return s.name, true
	}
	return p.intern(b), true
}

func (p *Parser) intern(b []byte) string {
	if len(b) == 0 || len(b) > maxNameLen {
		return string(b)
	}
	slot := slot(b, 0)
	if s := p.recent[slot]; s == string(b) {
		return s
	}
	if s, ok := p.names[string(b)]; ok {
		p.recent[slot] = s
		return s
	}
	s := string(b)
	if p.names == nil {
		p.names = map[string]string{}
	}
	if len(p.names) < maxNames {
		p.names[s] = s
	}
	p.recent[slot] = s
	return s
}

// raw reads the string at pos and returns its unescaped bytes, valid
// until the next call.
func (p *Parser) raw() ([]byte, bool) {
	start := p.pos + 1 // after the opening quote
	i, wide := plainEnd(p.data, start)
	if i == len(p.data) {
		return nil, false
	}
	p.pos = i
	switch p.data[i] {
	case '"':
		b := p.data[start:i]
		p.pos++
		if wide && !utf8.Valid(b) {
			return nil, false // encoding/json replaces invalid bytes
		}
		return b, true
	case '\\':
		return p.escaped(start)
	}
	return nil, false // a control character
}

// escaped reads the rest of a string that holds an escape, from its start.
func (p *Parser) escaped(start int) ([]byte, bool) {
	p.buf = append(p.buf[:0], p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		i, _ := plainEnd(p.data, p.pos)
		p.buf = append(p.buf, p.data[p.pos:i]...)
		p.pos = i
		if i == len(p.data) {
			break
		}
		switch c := p.data[i]; {
		case c == '"':
			p.pos++
			if !utf8.Valid(p.buf) {
				return nil, false
			}
			return p.buf, true
		case c < 0x20:
			return nil, false
		}
		if p.pos+1 >= len(p.data) {
			return nil, false
		}
		e := p.data[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			p.buf = append(p.buf, e)
		case 'b':
			p.buf = append(p.buf, '\b')
		case 'f':
			p.buf = append(p.buf, '\f')
		case 'n':
			p.buf = append(p.buf, '\n')
		case 'r':
			p.buf = append(p.buf, '\r')
		case 't':
			p.buf = append(p.buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return nil, false
			}
			if utf16.IsSurrogate(r) {
				// Only a whole pair: encoding/json replaces a lone half.
				if !p.literal(`\u`) {
					return nil, false
				}
				r2, ok := p.hex4()
				if !ok {
					return nil, false
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return nil, false
				}
			}
			p.buf = utf8.AppendRune(p.buf, r)
		default:
			return nil, false
		}
	}
	return nil, false
}

func (p *Parser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	p.pos += 4
	return r, true
}

// Number reads a number and returns its text.
func (p *Parser) Number() (string, bool) {
	p.space()
	start := p.pos
	if !p.numberEnd() {
		return "", false
	}
	return string(p.data[start:p.pos]), true
}

// Float reads a number as encoding/json reads it into a float64: the
// nearest one, ok false when it is out of range. It does not allocate.
func (p *Parser) Float() (float64, bool) {
	f, _, ok := p.float(false)
	return f, ok
}

// FloatOrNull is Float for a number that may be null: null reports that
// it was (f is 0 then). It costs one call where Peek, Null and Float cost
// two, and is small enough to be inlined.
func (p *Parser) FloatOrNull() (f float64, null, ok bool) { return p.float(true) }

// float is Float, and FloatOrNull when orNull.
func (p *Parser) float(orNull bool) (f float64, null, ok bool) {
	// A whole number of up to 15 digits, not led by a zero, is a float64
	// exactly, the one ParseFloat gives: read in one pass where it
	// stands, when no fraction, exponent or further digit follows.
	d, i := p.data, p.pos
	if i+8 <= len(d) {
		// Up to 7 digits read as one word, byte i lowest: x is it less
		// '0' in each byte, so that a digit leaves its value, 0 to 9;
		// adding 6 to a byte carries into its high half past 9, and a
		// byte whose high half is set is no digit already. So the first
		// byte that is no digit is the lowest set bit of notDigit: a
		// carry out of a byte only follows a byte that is none.
		w := binary.LittleEndian.Uint64(d[i:])
		x := w ^ 0x30303030_30303030
		notDigit := (x | (x + 0x06060606_06060606)) & 0xf0f0f0f0_f0f0f0f0
		k := uint(bits.TrailingZeros64(notDigit)) / 8
		if k-1 < 7 && (byte(w) != '0' || k == 1) && !moreNumber[byte(w>>(8*k))] {
			// The k digits moved to the word's top bytes, the highest
			// first at the bottom: pairs, fours, then eights combined.
			v := x << (64 - 8*k)
			v = (v * (10<<8 + 1)) >> 8 & 0x00ff00ff_00ff00ff
			v = (v * (100<<16 + 1)) >> 16 & 0x0000ffff_0000ffff
			v = (v * (10000<<32 + 1)) >> 32
			p.pos = i + int(k)
			return float64(v), false, true
		}
	}
	if orNull && p.Peek() == 'n' {
		ok := p.Null()
		return 0, ok, ok
	}
	n, j := int64(0), i
	for j < len(d) && j-i < 15 && d[j]-'0' <= 9 {
		n = n*10 + int64(d[j]-'0')
		j++
	}
	if j > i && (d[i] != '0' || j == i+1) && (j == len(d) || !moreNumber[d[j]]) {
		p.pos = j
		return float64(n), false, true
	}
	p.space()
	start := p.pos
	if !p.numberEnd() {
		return 0, false, false
	}
	b := p.data[start:p.pos]
	if f, ok := exactDecimal(b); ok {
		return f, false, true
	}
	f, err := strconv.ParseFloat(string(b), 64)
	return f, false, err == nil
}

// exactDecimal reads b, a number numberEnd took, when it has no exponent
// and at most 15 digits in all (0.01, -61, 1193.5): its digits, a whole
// number n, are a float64 exactly, and so is the power of ten 10^k that k
// digits after the dot divide them by; the quotient of two exact
// float64s is the one nearest to the true one, which is what ParseFloat
// gives (Clinger's fast path; strconv takes it too, after more work).
func exactDecimal(b []byte) (float64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) > 16 {
		return 0, false
	}
	n, digits, dot := int64(0), 0, len(b)-1
	for i, c := range b {
		switch {
		case c-'0' <= 9:
			n = n*10 + int64(c-'0')
			digits++
		case c == '.':
			dot = i
		default:
			return 0, false // an exponent
		}
	}
	if digits > 15 {
		return 0, false
	}
	f := float64(n) / exactTens[len(b)-1-dot]
	if neg {
		f = -f
	}
	return f, true
}

// exactTens[k] is 10^k, exact in a float64 for every k up to 22.
var exactTens = [16]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// Int reads a number as encoding/json reads it into an int64: ok false
// for a fraction, an exponent or a number out of range. It does not
// allocate.
func (p *Parser) Int() (int64, bool) {
	p.space()
	start := p.pos
	if !p.numberEnd() {
		return 0, false
	}
	b := p.data[start:p.pos]
	if len(b) <= 18 {
		// Up to 18 bytes, a minus and digits: no int64 overflows them.
		neg := b[0] == '-'
		if neg {
			b = b[1:]
		}
		n := int64(0)
		for _, c := range b {
			if c-'0' > 9 {
				return p.parseInt(start)
			}
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return n, true
	}
	return p.parseInt(start)
}

// parseInt is Int for the number from start to pos with a fraction, an
// exponent or more than 18 bytes: ParseInt says whether it is an int64.
func (p *Parser) parseInt(start int) (int64, bool) {
	n, err := strconv.ParseInt(string(p.data[start:p.pos]), 10, 64)
	return n, err == nil
}

// moreNumber holds the bytes that carry a number on past its whole part.
var moreNumber = [256]bool{'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true, '.': true, 'e': true, 'E': true}

// numberEnd reports whether a number is at pos, and moves pos past it
// when one is.
func (p *Parser) numberEnd() bool {
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	p.pos = i
	return true
}

// slot picks the slot of recent or boxed for b, not empty, from all of
// a short b and the first and last eight bytes of a longer one: the names
// and values of a record ("call_7", "doc-10") must not share slots.
func slot(b []byte, kind int) int {
	h := uint64(len(b))<<8 | uint64(kind)
	// Two loads that overlap when b is short cover all of it: every byte
	// of a text of up to 16 bytes counts, with no loop over them.
	var lo, hi uint64
	switch n := len(b); {
	case n >= 8:
		lo, hi = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		lo, hi = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	default:
		lo, hi = uint64(b[0]), uint64(b[n/2])<<8|uint64(b[n-1])
	}
	h ^= lo * 0xff51afd7ed558ccd
	h ^= hi * 0xc4ceb9fe1a85ec53
	return int(h * 0x9e3779b97f4a7c15 >> 56)
}

// box returns b as a string, or as a json.Number when number, boxed; a
// short one from boxed when one of the last two values of its pair of
// slots is the same.
func (p *Parser) box(b []byte, number bool) any {
	if len(b) == 0 || len(b) > maxNameLen {
		if number {
			return json.Number(b)
		}
		return string(b)
	}
	kind := 0
	if number {
		kind = 1
	}
	i := slot(b, kind) &^ 1
	for w := i; w <= i+1; w++ {
		switch v := p.boxed[w].(type) {
		case string:
			if !number && v == string(b) {
				return p.hit(i, w)
			}
		case json.Number:
			if number && string(v) == string(b) {
				return p.hit(i, w)
			}
		}
	}
	var v any = string(b)
	if number {
		v = json.Number(b)
	}
	p.boxed[i+1], p.boxed[i] = p.boxed[i], v
	return v
}

// hit returns the value in way w of the pair of slots at i, first in
// the pair now: the one a miss keeps.
func (p *Parser) hit(i, w int) any {
	if w != i {
		p.boxed[i], p.boxed[w] = p.boxed[w], p.boxed[i]
	}
	return p.boxed[i]
}

// Value reads any value into the data model: nil, bool, string,
// json.Number, []any, map[string]any. Object keys are interned.
func (p *Parser) Value() (any, bool) {
	switch c := p.Peek(); c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		pos := p.pos
		s, n := p.shortAt(pos)
		if s != nil {
			p.pos += n + 1
			return s.value(), true
		}
		b, ok := p.raw()
		if !ok {
			return nil, false
		}
		if s := p.keepShort(pos, n, b); s != nil {
			return s.value(), true
		}
		return p.box(b, false), true
	case 't':
		return true, p.literal("true")
	case 'f':
		return false, p.literal("false")
	case 'n':
		return nil, p.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			start := p.pos
			if !p.numberEnd() {
				return nil, false
			}
			return p.box(p.data[start:p.pos], true), true
		}
	}
	return nil, false
}

// object is Value for an object, read here rather than through Object:
// a member costs no call of a closure, and most of a trace's values are
// small objects.
func (p *Parser) object() (any, bool) {
	m := map[string]any{}
	p.pos++ // the brace
	if p.depth++; p.depth > maxDepth {
		return m, false
	}
	if p.Peek() == '}' {
		p.pos++
		p.depth--
		return m, true
	}
	for {
		if p.Peek() != '"' {
			return m, false
		}
		var k string
		pos := p.pos
		if s, n := p.shortAt(pos); s != nil {
			p.pos += n + 1
			k = s.name
		} else {
			key, ok := p.raw()
			if !ok {
				return m, false
			}
			if s := p.keepShort(pos, n, key); s != nil {
				k = s.name
			} else {
				k = p.intern(key)
			}
		}
		if p.Peek() != ':' {
			return m, false
		}
		p.pos++
		v, ok := p.Value()
		if !ok {
			return m, false
		}
		m[k] = v
		switch p.Peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return m, true
		default:
			return m, false
		}
	}
}

// array is Value for an array: its elements gather on p.elems, so that
// it is allocated once, at its length.
func (p *Parser) array() (any, bool) {
	base := len(p.elems)
	ok := p.arrayElems()
	a := make([]any, len(p.elems)-base)
	copy(a, p.elems[base:])
	clear(p.elems[base:]) // keep no value alive
	p.elems = p.elems[:base]
	return a, ok
}

func (p *Parser) arrayElems() bool {
	p.pos++ // the bracket
	if p.depth++; p.depth > maxDepth {
		return false
	}
	if p.Peek() == ']' {
		p.pos++
		p.depth--
		return true
	}
	for {
		v, ok := p.Value()
		if !ok {
			return false
		}
		p.elems = append(p.elems, v)
		switch p.Peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return true
		default:
			return false
		}
	}
}

// Skip reads a value and drops it, checking it as Value does (depth
// included); nothing is decoded, copied or kept (see skipString).
func (p *Parser) Skip() bool { return p.skip() }

// Span reads a value, checked as Value checks it (depth included), and
// returns where its text starts and ends in the input; nothing is
// decoded, copied or kept (see skipString).
func (p *Parser) Span() (start, end int, ok bool) {
	p.Peek()
	start = p.pos
	ok = p.skip()
	return start, p.pos, ok
}

// skip is Skip and Span, its loops written out as Value's are.
func (p *Parser) skip() bool {
	switch c := p.Peek(); c {
	case '{':
		// A flat compact object, as arguments mostly are, in one pass.
		if end := flatEnd(p.data, p.pos); end > 0 && p.depth < maxDepth {
			p.pos = end
			return true
		}
		p.pos++
		if p.depth++; p.depth > maxDepth {
			return false
		}
		if p.Peek() == '}' {
			p.pos++
			p.depth--
			return true
		}
		for {
			if p.Peek() != '"' || !p.skipString() || p.Peek() != ':' {
				return false
			}
			p.pos++
			// A string value skipped here: no call of skip for it.
			if p.Peek() == '"' {
				if !p.skipString() {
					return false
				}
			} else if !p.skip() {
				return false
			}
			switch p.Peek() {
			case ',':
				p.pos++
			case '}':
				p.pos++
				p.depth--
				return true
			default:
				return false
			}
		}
	case '[':
		p.pos++
		if p.depth++; p.depth > maxDepth {
			return false
		}
		if p.Peek() == ']' {
			p.pos++
			p.depth--
			return true
		}
		for {
			if !p.skip() {
				return false
			}
			switch p.Peek() {
			case ',':
				p.pos++
			case ']':
				p.pos++
				p.depth--
				return true
			default:
				return false
			}
		}
	case '"':
		return p.skipString()
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return p.numberEnd()
		}
	}
	return false
}

// skipString reads a string as Value checks it, keeping nothing. A
// string of plain ASCII whose closing quote stands within 16 bytes, as
// most keys and short values do, is read a word at a time where it
// stands: a look for its short (see short) costs more than the look at
// its bytes, and a string skipped is not looked up again.
func (p *Parser) skipString() bool {
	d, pos := p.data, p.pos
	if pos+17 <= len(d) {
		b := (*[16]byte)(d[pos+1 : pos+17])
		for k := 0; k < 16; k += 8 {
			x := binary.LittleEndian.Uint64(b[k:])
			// The first byte that stops plain text (see plainEnd), or
			// past ASCII, which must be checked as UTF-8.
			if m := stops(x); m != 0 {
				if i := k + bits.TrailingZeros64(m)>>3; b[i&15] == '"' {
					p.pos = pos + i + 2
					return true
				}
				break
			}
		}
	}
	_, ok := p.raw()
	return ok
}
