package agentv

// idBuckets notes the call ids of one record as the fast path reads
// them, each in one of 2048 buckets picked by a hash of its mark (see
// mark): while no two ids fall in one bucket, no two are the same, and
// build need not look for an id given twice (see seenIDs), which costs
// some 50 instructions a call. Ids of one bucket (the same, or another
// that the hash sends there: one record of 20 ids in ten) or of another
// type than a string clash, and build looks as before. An absent or null
// id is no id (build gives it none), and clashes with nothing.
type idBuckets struct {
	bits  [32]uint64
	clash bool
}

// note notes the call id v, as the fast path read it.
func (b *idBuckets) note(v any) {
	id, ok := v.(string)
	if !ok {
		b.clash = b.clash || v != nil
		return
	}
	b.noteString(id)
}

// noteString is note for an id read as a string.
func (b *idBuckets) noteString(id string) {
	h := mark(id) * 0x9E3779B1 >> 21 // the top 11 bits
	w, bit := &b.bits[h>>6&31], uint64(1)<<(h&63)
	b.clash = b.clash || *w&bit != 0
	*w |= bit
}
