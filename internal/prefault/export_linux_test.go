//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || loong64)

package prefault

// Refuse makes madvise fail with err until the returned function is
// called.
func Refuse(err error) (restore func()) {
	old := advise
	advise = func(uintptr, uintptr, uintptr) error { return err }
	return func() { advise = old }
}
