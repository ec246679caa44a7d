package history

// SetAside sets asideFrom and asideBytes for a test, and sets them back
// when it ends.
func SetAside(t interface{ Cleanup(func()) }, from, every int) {
	f, e := asideFrom, asideBytes
	asideFrom, asideBytes = from, every
	t.Cleanup(func() { asideFrom, asideBytes = f, e })
}
