package suite

import "hash/maphash"

// An IDIndex finds a case by its id among a list of cases: a table of
// positions in the list, found by the id's hash, at most half full. It
// keeps no copy of the ids (each is its case's), so a million cases cost
// 4 to 8 bytes each, where a map from id to position costs 30 to 60. The
// list is the caller's: each method takes idOf, the id at a position.
type IDIndex struct {
	seed  maphash.Seed
	slots []int32 // 1 + the entry's position; 0 for an empty slot
	n     int     // positions held
}

// NewIDIndex returns an index sized for n ids.
func NewIDIndex(n int) IDIndex {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return IDIndex{seed: maphash.MakeSeed(), slots: make([]int32, size)}
}

// find returns the slot of id: the one holding the position of an entry
// with that id, or the empty slot where it would go. idOf returns the id
// of the entry at a position.
func (x *IDIndex) find(id string, idOf func(int32) string) int {
	mask := len(x.slots) - 1
	i := int(maphash.String(x.seed, id)) & mask
	for {
		p := x.slots[i]
		if p == 0 || idOf(p-1) == id {
			return i
		}
		i = (i + 1) & mask
	}
}

// Put makes id's slot hold pos, replacing the position of an earlier
// entry of the same id.
func (x *IDIndex) Put(id string, pos int32, idOf func(int32) string) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow(idOf)
	}
	i := x.find(id, idOf)
	if x.slots[i] == 0 {
		x.n++
	}
	x.slots[i] = pos + 1
}

// Add makes id's slot hold pos unless an entry of id is held: then it
// returns that entry's position and true, and holds it still. It finds
// the slot once, where Get and Put find it twice.
func (x *IDIndex) Add(id string, pos int32, idOf func(int32) string) (int32, bool) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow(idOf)
	}
	i := x.find(id, idOf)
	if p := x.slots[i]; p != 0 {
		return p - 1, true
	}
	x.n++
	x.slots[i] = pos + 1
	return pos, false
}

// Get returns the position of the entry of id.
func (x *IDIndex) Get(id string, idOf func(int32) string) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	p := x.slots[x.find(id, idOf)]
	return p - 1, p != 0
}

// grow doubles the table: a source given more cases than it was sized for.
func (x *IDIndex) grow(idOf func(int32) string) {
	old := x.slots
	x.slots = make([]int32, max(8, 2*len(old)))
	for _, p := range old {
		if p != 0 {
			x.slots[x.find(idOf(p-1), idOf)] = p
		}
	}
}
