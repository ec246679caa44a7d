package target

// SetKeptHook calls f with the size of the file that kept each command's
// standard output, until the returned function is called.
func SetKeptHook(f func(size int64)) (reset func()) {
	keptHook = f
	return func() { keptHook = nil }
}
