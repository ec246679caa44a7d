package align

// A Scratch is the working memory of the alignments, kept from one
// relation to the next so that aligning many trajectories stops
// allocating once it has grown. Its methods give exactly what the
// functions of the same names give. One goroutine at a time may use a
// Scratch, and the Pairs of an Alignment it returns are its own, valid
// until its next use: copy them to keep them. The zero value is ready.
type Scratch struct {
	pairs  []Pair
	blocks [][2]int
	words  []uint64
	counts []int32
	at     []int32  // lcsWord's listed steps
	match  []uint64 // and their items
	any    anyScratch
}

// uint64s returns n words of the scratch, their contents undefined.
func (s *Scratch) uint64s(n int) []uint64 {
	if cap(s.words) < n {
		s.words = make([]uint64, n)
	}
	return s.words[:n]
}

// int32s returns n counts of the scratch, their contents undefined.
func (s *Scratch) int32s(n int) []int32 {
	if cap(s.counts) < n {
		s.counts = make([]int32, n)
	}
	return s.counts[:n]
}

// extend lengthens ss by one, the new element an empty slice that keeps
// the memory it had when ss last held it.
func extend[T any](ss [][]T) [][]T {
	if len(ss) < cap(ss) {
		ss = ss[:len(ss)+1]
		ss[len(ss)-1] = ss[len(ss)-1][:0]
		return ss
	}
	return append(ss, nil)
}
