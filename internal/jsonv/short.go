package jsonv

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// A short is a string of up to 15 bytes the Parser has read before, plain
// ASCII with no escape, kept so that the same text is found again by its
// bytes where it stands: no scan for its end or its escapes, no hash of
// its text, no copy. Keys, call ids, tool names and short arguments
// repeat from record to record.
type short struct {
	// lo and hi are its bytes and closing quote, zero past the quote: no
	// text in the data matches an empty slot, whose words are zero,
	// since the quote is not.
	lo, hi uint64
	name   string
	boxed  any // name boxed, made when it is first read as a value
}

// shortSlots is how many shorts a Parser keeps, in slots picked by a
// hash of their bytes: a record's names and values (some 60 on the
// bench's records) seldom share one.
const shortSlots = 1024

// shortAt returns the short that the string starting at pos (its opening
// quote) is, and the bytes of its text with the closing quote, n; a nil
// short when none is kept, and n 0 also when the text is longer than 15
// bytes or is cut off by the end of the data.
func (p *Parser) shortAt(pos int) (*short, int) {
	d := p.data
	var lo, hi uint64
	if pos+17 <= len(d) {
		b := (*[16]byte)(d[pos+1 : pos+17])
		lo, hi = binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
	} else {
		lo, hi = tailWords(d, pos+1)
	}
	var n int
	// q^(q-1) keeps the bits up to the quote's high bit, the lowest set
	// in q: the bytes up to the quote, the quote included.
	if q := equal(lo, '"'); q != 0 {
		n = bits.TrailingZeros64(q)/8 + 1
		lo &= q ^ (q - 1)
		hi = 0
	} else if q := equal(hi, '"'); q != 0 {
		n = bits.TrailingZeros64(q)/8 + 9
		hi &= q ^ (q - 1)
	} else {
		return nil, 0
	}
	if p.shorts == nil {
		return nil, n
	}
	if s := &p.shorts[shortSlot(lo, hi)]; s.lo == lo && s.hi == hi {
		return s, n
	}
	return nil, n
}

// tailWords returns the bytes of d from i as shortAt reads them, near
// the end of the data, as every string of a small value is (an argument
// object kept as text and decoded alone): zero past the end, where no
// quote is found. Apart, so that shortAt needs no frame for them.
//
//go:noinline
func tailWords(d []byte, i int) (lo, hi uint64) {
	var tail [16]byte
	copy(tail[:], d[min(i, len(d)):])
	return binary.LittleEndian.Uint64(tail[:8]), binary.LittleEndian.Uint64(tail[8:])
}

func shortSlot(lo, hi uint64) int {
	return int((lo*0x9e3779b97f4a7c15 ^ hi*0xc2b2ae3d27d4eb4f) >> (64 - 10))
}

// keepShort keeps text, the string at pos read whole (n its bytes with
// the closing quote, from shortAt), when it stood plain in the data: a
// short must be the text its bytes spell. It returns the short kept, nil
// for text it does not keep.
func (p *Parser) keepShort(pos, n int, text []byte) *short {
	if n == 0 || len(text) != n-1 {
		return nil
	}
	raw := p.data[pos+1 : pos+n]
	if bytes.IndexByte(raw, '\\') >= 0 || !ASCII(raw) {
		return nil
	}
	var q [16]byte
	copy(q[:], raw)
	q[n-1] = '"'
	lo, hi := binary.LittleEndian.Uint64(q[:8]), binary.LittleEndian.Uint64(q[8:])
	if p.shorts == nil {
		p.shorts = new([shortSlots]short) // made at first use: not every Parser reads values
	}
	s := &p.shorts[shortSlot(lo, hi)]
	// A copy, not interned: a short value read once (a record's id) would
	// fill the interned names for good.
	*s = short{lo: lo, hi: hi, name: string(text)}
	return s
}

// value returns s's text boxed, boxing it the first time.
func (s *short) value() any {
	if s.boxed == nil {
		s.boxed = s.name
	}
	return s.boxed
}
