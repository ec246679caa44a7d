package jsonv

// Rest returns the bytes not read yet, valid until the next call on p.
// A reader whose producer writes its objects compact, their keys always
// in one order, compares the bytes it expects next (`,"id":`) with them
// as a constant, which Go compiles to a word or two compared where they
// stand, where Member would compare remembered words and say which key
// they were (see Shape); then it moves past them with Take, TakeOpen or
// TakeClose.
func (p *Parser) Rest() []byte { return p.data[p.pos:] }

// Take moves past the first n bytes of Rest, the punctuation and keys
// between two values that the caller compared: no value, and no bracket
// that opens or closes one (see TakeOpen and TakeClose).
func (p *Parser) Take(n int) { p.pos += n }

// TakeOpen is Take for bytes whose first opens an object or an array
// (`{"tool":`): it reports false and reads nothing when the value would
// nest deeper than MaxDepth, as Member does.
func (p *Parser) TakeOpen(n int) bool {
	if p.depth >= maxDepth {
		return false
	}
	p.pos += n
	p.depth++
	return true
}

// TakeClose is Take for bytes whose last closes the object or array
// being read (`}`).
func (p *Parser) TakeClose(n int) {
	p.pos += n
	p.depth--
}
