package history

// SetAside sets asideFrom and asideBytes for a test, and makes the
// aside's stop run a checkpoint asked for and not yet begun (asideDrain),
// so the test's figures do not depend on the machine's load; it sets them
// back when the test ends.
func SetAside(t interface{ Cleanup(func()) }, from, every int) {
	f, e, d := asideFrom, asideBytes, asideDrain
	asideFrom, asideBytes, asideDrain = from, every, true
	t.Cleanup(func() { asideFrom, asideBytes, asideDrain = f, e, d })
}
