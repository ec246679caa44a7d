package jsonv_test

import (
	"syscall"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestPlainEnd_pageEnd scans texts that end where readable memory ends
// (the page after them is mapped unreadable): a scan that loaded a byte
// past the slice would fault. Texts of every length up to 80 bytes, with
// and without a stop, from every start, and the Parser reading a string
// that ends there.
func TestPlainEnd_pageEnd(t *testing.T) {
	mem, page := guardedPage(t)
	for n := range 81 {
		d := mem[page-n : page]
		for j := range d {
			d[j] = 'a'
		}
		checkPlainEnd(t, d, "a plain text up to the page's end")
		if n > 0 {
			d[n-1] = '"'
			checkPlainEnd(t, d, "a quote as the page's last byte")
			d[0] = '"'
			var p jsonv.Parser
			p.Reset(d)
			if b, ok := p.Bytes(); n > 1 && (!ok || len(b) != n-2) {
				t.Fatalf("Bytes of a %d-byte string at the page's end = %q, %v", n, b, ok)
			}
		}
	}
}

// TestASCIIPrefix_pageEnd scans texts that end where readable memory ends,
// as TestPlainEnd_pageEnd does: every length up to 600 bytes, all ASCII
// and with a wide last byte.
func TestASCIIPrefix_pageEnd(t *testing.T) {
	mem, page := guardedPage(t)
	for n := range 601 {
		d := mem[page-n : page]
		for j := range d {
			d[j] = 'a'
		}
		if got := jsonv.ASCIIPrefix(d); got != n {
			t.Fatalf("ASCIIPrefix of %d ASCII bytes at the page's end = %d", n, got)
		}
		if n > 0 {
			d[n-1] = 0x80
			if got := jsonv.ASCIIPrefix(d); got != n-1 {
				t.Fatalf("ASCIIPrefix of %d bytes, the last wide, at the page's end = %d", n, got)
			}
		}
	}
}

// guardedPage returns memory of two pages, the second mapped unreadable,
// and the page size: a text that ends at mem[page] ends where readable
// memory does, and a scan that loads a byte past it faults.
func guardedPage(t *testing.T) (mem []byte, page int) {
	page = syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return mem, page
}
