//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || loong64)

package prefault_test

import (
	"errors"
	"reflect"
	"syscall"
	"testing"
	"unsafe"

	"github.com/trajeval/trajeval/internal/prefault"
)

// rodata is a constant string: its bytes are in the read-only data.
const rodata = "prefault: a string of the read-only data"

func TestSegments(t *testing.T) {
	segs, err := prefault.Segments()
	if err != nil {
		t.Fatal(err)
	}
	in := func(p uintptr) *prefault.Segment {
		for i, s := range segs {
			if s.Start <= p && p < s.End {
				return &segs[i]
			}
		}
		return nil
	}
	tests := []struct {
		name        string
		addr        uintptr
		exec, write bool
		reason      string
	}{
		{"code", reflect.ValueOf(TestSegments).Pointer(), true, false, "a function's code lies in the executable, not writable segment"},
		{"read-only data", uintptr(unsafe.Pointer(unsafe.StringData(rodata))), false, false, "a constant string lies in a segment neither executable nor writable"},
		{"data", uintptr(unsafe.Pointer(&writable)), false, true, "an initialised variable lies in the writable segment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := in(tt.addr)
			if s == nil {
				t.Fatalf("%#x in no segment of %+v (%s)", tt.addr, segs, tt.reason)
			}
			if s.Exec != tt.exec || s.Write != tt.write {
				t.Errorf("%#x in %+v, want exec %v write %v (%s)", tt.addr, *s, tt.exec, tt.write, tt.reason)
			}
			if s.Start%uintptr(syscall.Getpagesize()) != 0 {
				t.Errorf("%+v starts off a page boundary", *s)
			}
		})
	}
}

// writable is an initialised variable: it lies in the writable data.
var writable = []int{1, 2, 3}

func TestText(t *testing.T) {
	segs, err := prefault.Segments()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, s := range segs {
		if s.Exec && !s.Write {
			want += int(s.End - s.Start)
		}
	}
	n, err := prefault.Text()
	if errors.Is(err, syscall.EINVAL) {
		t.Skip("the kernel does not know MADV_POPULATE_READ (before 5.14)")
	}
	if err != nil || n != want || n == 0 {
		t.Errorf("Text() = %d, %v; want %d, nil (the code segments' sizes)", n, err, want)
	}
}

func TestText_refused(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		reason string
	}{
		{"unknown advice", syscall.EINVAL, "a kernel before 5.14"},
		{"not allowed", syscall.EPERM, "a sandbox that filters madvise"},
		{"no memory", syscall.ENOMEM, "a page that could not be mapped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore := prefault.Refuse(tt.err)
			defer restore()
			n, err := prefault.Text()
			if n != 0 || !errors.Is(err, tt.err) {
				t.Errorf("Text() = %d, %v; want 0, %v (%s: said, nothing counted as asked for)", n, err, tt.err, tt.reason)
			}
		})
	}
}
