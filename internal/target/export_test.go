package target

// SetKeptHook calls f with the size of the file that kept each command's
// standard output, until the returned function is called.
func SetKeptHook(f func(size int64)) (reset func()) {
	keptHook = f
	return func() { keptHook = nil }
}

// HeadTail writes chunks to the keeper of a command's standard error and
// returns what it kept: its head, its tail, and the bytes written in all.
func HeadTail(chunks ...[]byte) (head, tail []byte, total int64) {
	var h headTail
	for _, c := range chunks {
		_, _ = h.Write(c)
	}
	return h.head, append(append([]byte(nil), h.tail[h.next:]...), h.tail[:h.next]...), h.total
}

// HeadKeep and TailKeep are how many bytes of standard error are kept.
const HeadKeep, TailKeep = headKeep, tailKeep
