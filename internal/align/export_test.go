package align

// InOrderWords is InOrder's plain (no bonus, no group) alignment by the
// bit-parallel LCS of any number of words, whatever the number of items:
// the reference the one-word LCS is compared with.
func (s *Scratch) InOrderWords(r *Relation) Alignment {
	if len(r.ItemClass) == 0 || len(r.Steps) == 0 {
		return Alignment{}
	}
	return r.finish(r.lcsBits(s))
}

// AnyOrderFlow is AnyOrder always through the flow, the reference its
// shortcut is compared with.
func (s *Scratch) AnyOrderFlow(r *Relation) Alignment { return s.anyOrder(r, false) }
