package suite

import (
	"hash/maphash"
	"math/bits"
)

// An IDIndex finds a case by its id among a list of cases: a table of
// positions in the list, found by the id's hash, at most half full. It
// keeps no copy of the ids (each is its case's), so a million cases cost
// 8 to 16 bytes each, where a map from id to position costs 30 to 60. The
// list is the caller's: each method takes idOf, the id at a position.
//
// A slot holds a position and, in the bits the position does not use,
// bits of its id's hash: a probe that meets another id's slot passes over
// it without asking idOf, which reads the case from wherever it is in
// memory (a cache miss or three at a million cases).
type IDIndex struct {
	seed  maphash.Seed
	slots []uint32 // the hash's bits over 1 + the entry's position; 0 for an empty slot
	shift uint     // the bits of a slot's position
	n     int      // positions held
}

// NewIDIndex returns an index sized for n ids at positions under n.
func NewIDIndex(n int) IDIndex {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return IDIndex{seed: maphash.MakeSeed(), slots: make([]uint32, size), shift: uint(bits.Len(uint(size)))}
}

// slot returns what a slot holds for position pos of an id of hash h.
func (x *IDIndex) slot(h uint64, pos int32) uint32 {
	return uint32(h>>32)<<x.shift | uint32(pos+1)
}

// find returns the slot of id: the one holding the position of an entry
// with that id, or the empty slot where it would go; and the hash of id.
func (x *IDIndex) find(id string, idOf func(int32) string) (int, uint64) {
	h := maphash.String(x.seed, id)
	mask := len(x.slots) - 1
	tag := uint32(h>>32) << x.shift
	posMask := uint32(1)<<x.shift - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 || v&^posMask == tag && idOf(int32(v&posMask)-1) == id {
			return i, h
		}
	}
}

// fits makes room for one more id at position pos: the table at most half
// full, and pos within a slot's position bits.
func (x *IDIndex) fits(pos int32, idOf func(int32) string) {
	for 2*(x.n+1) > len(x.slots) || uint64(pos)+1 >= uint64(1)<<x.shift {
		x.grow(idOf)
	}
}

// Put makes id's slot hold pos, replacing the position of an earlier
// entry of the same id; it reports whether it replaced one.
func (x *IDIndex) Put(id string, pos int32, idOf func(int32) string) (replaced bool) {
	x.fits(pos, idOf)
	i, h := x.find(id, idOf)
	replaced = x.slots[i] != 0
	if !replaced {
		x.n++
	}
	x.slots[i] = x.slot(h, pos)
	return replaced
}

// Add makes id's slot hold pos unless an entry of id is held: then it
// returns that entry's position and true, and holds it still. It finds
// the slot once, where Get and Put find it twice.
func (x *IDIndex) Add(id string, pos int32, idOf func(int32) string) (int32, bool) {
	x.fits(pos, idOf)
	i, h := x.find(id, idOf)
	if v := x.slots[i]; v != 0 {
		return x.pos(v), true
	}
	x.n++
	x.slots[i] = x.slot(h, pos)
	return pos, false
}

// pos returns the position a held slot holds.
func (x *IDIndex) pos(v uint32) int32 { return int32(v&(uint32(1)<<x.shift-1)) - 1 }

// Get returns the position of the entry of id.
func (x *IDIndex) Get(id string, idOf func(int32) string) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	i, _ := x.find(id, idOf)
	v := x.slots[i]
	return x.pos(v), v != 0
}

// grow doubles the table: a source given more cases than it was sized
// for, or a position past what a slot holds.
func (x *IDIndex) grow(idOf func(int32) string) {
	old, oldShift := x.slots, x.shift
	size := max(8, 2*len(old))
	if x.seed == (maphash.Seed{}) {
		x.seed = maphash.MakeSeed() // the zero index
	}
	x.slots, x.shift = make([]uint32, size), uint(bits.Len(uint(size)))
	for _, v := range old {
		if v != 0 {
			p := int32(v&(uint32(1)<<oldShift-1)) - 1
			i, h := x.find(idOf(p), idOf)
			x.slots[i] = x.slot(h, p)
		}
	}
}
