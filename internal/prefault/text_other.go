//go:build !linux || !(amd64 || arm64 || riscv64 || ppc64le || loong64)

package prefault

// Text does nothing where the package does not know how to ask for the
// executable's pages (rule 5 of the package): it returns 0 and no error.
func Text() (int, error) { return 0, nil }

// A Segment is a loadable segment of the executable; see the Linux
// version.
type Segment struct {
	Start, End  uintptr
	Exec, Write bool
}

// Segments returns nothing where the package does not read the
// executable's program headers.
func Segments() ([]Segment, error) { return nil, nil }
