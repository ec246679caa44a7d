//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || loong64)

package prefault

import (
	"errors"
	"syscall"
	"unsafe"
)

// madvPopulateRead is Linux's MADV_POPULATE_READ (5.14).
const madvPopulateRead = 22

// The auxiliary vector's keys and the program headers' values this
// package reads (see elf(5)).
const (
	atPhdr  = 3 // AT_PHDR: where the program headers are in memory
	atPhent = 4 // AT_PHENT: the size of one
	atPhnum = 5 // AT_PHNUM: how many

	ptLoad = 1 // PT_LOAD: a loadable segment
	ptPhdr = 6 // PT_PHDR: the program headers themselves

	pfX = 1 // PF_X: executable
	pfW = 2 // PF_W: writable
)

// progHeader is a 64-bit ELF program header (Elf64_Phdr), in the
// machine's byte order.
type progHeader struct {
	typ, flags                              uint32
	off, vaddr, paddr, filesz, memsz, align uint64
}

// maxHeaders bounds the program headers read: an executable has about
// ten.
const maxHeaders = 64

// errNoHeaders says that the executable's program headers were not found
// where the auxiliary vector said, or not as it said.
var errNoHeaders = errors.New("prefault: no program headers")

// advise is madvise(2); a variable so that a test can refuse it.
var advise = func(addr, n, advice uintptr) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, n, advice); e != 0 {
		return e
	}
	return nil
}

// Text asks the kernel to map the executable's code (rule 1 of the
// package) and returns how many bytes it asked for, and the first error
// (then it asks for no more).
func Text() (int, error) {
	segs, err := Segments()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range segs {
		if !s.Exec || s.Write {
			continue
		}
		if err := advise(s.Start, s.End-s.Start, madvPopulateRead); err != nil {
			return n, err
		}
		n += int(s.End - s.Start)
	}
	return n, nil
}

// A Segment is a loadable segment of the executable as mapped in this
// process: from Start, a page boundary, to End, the end of what the file
// holds of it.
type Segment struct {
	Start, End  uintptr
	Exec, Write bool
}

// Segments returns the loadable segments of the executable, from its
// program headers, which the kernel names in the auxiliary vector.
func Segments() ([]Segment, error) {
	phdr, phent, phnum, err := auxv()
	if err != nil {
		return nil, err
	}
	if phdr == 0 || phent != unsafe.Sizeof(progHeader{}) || phnum == 0 || phnum > maxHeaders {
		return nil, errNoHeaders
	}
	// The headers lie in the executable's mapping, outside Go's heap: the
	// address is taken as it is (a conversion of the uintptr itself is one
	// vet cannot tell from a pointer kept as a number).
	hs := unsafe.Slice(*(**progHeader)(unsafe.Pointer(&phdr)), phnum)
	// The headers' addresses are the file's; where the executable was
	// loaded (a position-independent one anywhere) is told by where its
	// headers are.
	bias, found := uintptr(0), false
	for _, h := range hs {
		if h.typ == ptPhdr {
			bias, found = phdr-uintptr(h.vaddr), true
		}
	}
	if !found {
		return nil, errNoHeaders
	}
	page := uintptr(syscall.Getpagesize())
	var segs []Segment
	for _, h := range hs {
		if h.typ != ptLoad || h.filesz == 0 {
			continue
		}
		start := bias + uintptr(h.vaddr)
		segs = append(segs, Segment{
			Start: start &^ (page - 1),
			End:   start + uintptr(h.filesz),
			Exec:  h.flags&pfX != 0,
			Write: h.flags&pfW != 0,
		})
	}
	return segs, nil
}

// auxv returns the program headers' place, size and count from the
// process's auxiliary vector.
func auxv() (phdr, phent, phnum uintptr, err error) {
	fd, err := syscall.Open("/proc/self/auxv", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0, 0, err
	}
	defer syscall.Close(fd)
	// Pairs of words, key and value, ending with key 0: some twenty
	// pairs, read in one call.
	var words [128]uintptr
	buf := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*int(unsafe.Sizeof(words[0])))
	n, err := syscall.Read(fd, buf)
	if err != nil {
		return 0, 0, 0, err
	}
	for i := 0; i+1 < n/int(unsafe.Sizeof(words[0])); i += 2 {
		switch words[i] {
		case 0:
			return phdr, phent, phnum, nil
		case atPhdr:
			phdr = words[i+1]
		case atPhent:
			phent = words[i+1]
		case atPhnum:
			phnum = words[i+1]
		}
	}
	return phdr, phent, phnum, nil
}
