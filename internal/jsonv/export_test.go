package jsonv

import "encoding/binary"

// PlainEndSWAR is plainEndSWAR, for the tests that compare plainEnd with
// it on every architecture.
var PlainEndSWAR = plainEndSWAR

// Kept reports whether p keeps text as a short string (see short), to be
// found again by its bytes.
func Kept(p *Parser, text string) bool {
	if p.shorts == nil || len(text) > 15 {
		return false
	}
	var q [16]byte
	copy(q[:], text)
	q[len(text)] = '"'
	lo, hi := binary.LittleEndian.Uint64(q[:8]), binary.LittleEndian.Uint64(q[8:])
	s := &p.shorts[shortSlot(lo, hi)]
	return s.lo == lo && s.hi == hi && s.name == text
}

// Pos is where p reads next.
func (p *Parser) Pos() int { return p.pos }

// Stops is stops, for TestStops.
var Stops = stops
