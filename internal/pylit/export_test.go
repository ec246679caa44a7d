package pylit

// Scanned returns the bytes Locate and the placing of calls have looked
// at since the test binary started.
func Scanned() int64 { return scanned.Load() }
