package main

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestHugeHeap_advised(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("the kernel has no transparent huge pages here")
	}
	tests := []struct {
		name   string
		n      int
		least  int
		reason string
	}{
		{"three pages at least", 8 << 20, 3 * hugePage,
			"8 MiB holds three whole 2 MiB pages wherever it starts"},
		{"less than a page", hugePage / 2, 0,
			"no whole page inside: nothing is advised, nothing fails"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			advised := hugeHeap(tt.n)
			if len(advised) < tt.least {
				t.Fatalf("advised %d bytes, want at least %d (%s)", len(advised), tt.least, tt.reason)
			}
			if len(advised) == 0 {
				return
			}
			p := uintptr(unsafe.Pointer(unsafe.SliceData(advised)))
			if p%hugePage != 0 || len(advised)%hugePage != 0 {
				t.Fatalf("advised %#x, %d bytes: not whole huge pages", p, len(advised))
			}
			if !vmFlag(t, p, uintptr(len(advised)), "hg") {
				t.Errorf("the mapping of %#x has no hg (MADV_HUGEPAGE) flag in /proc/self/smaps (%s)", p, tt.reason)
			}
		})
	}
}

func TestHugeHeap_startsOnHugePage(t *testing.T) {
	if os.Getenv("TRAJEVAL_HUGEHEAP_CHILD") == "" {
		// A process of its own: the heap of this one has been collected
		// and may hand out a hole below its top, as a fresh one does not.
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeHeap_startsOnHugePage$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TRAJEVAL_HUGEHEAP_CHILD=1", "GOGC=400")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	const n = 8 << 20
	if advised := hugeHeap(n); len(advised) != n {
		t.Fatalf("advised %d bytes of %d: the allocation does not start on a huge page (rule 5: the pages below it would be loading's, a fault a 4 KiB page)", len(advised), n)
	}
}

// vmFlag reports whether every mapping that overlaps [p, p+n) has flag in
// its VmFlags line of /proc/self/smaps.
func vmFlag(t *testing.T, p, n uintptr, flag string) bool {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	overlaps, seen := false, false
	for sc.Scan() {
		line := sc.Text()
		if a, b, ok := mappingRange(line); ok {
			overlaps = a < p+n && p < b
			continue
		}
		if overlaps && strings.HasPrefix(line, "VmFlags:") {
			seen = true
			if !strings.Contains(line+" ", " "+flag+" ") {
				return false
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return seen
}

// mappingRange returns the addresses of a mapping's first line in smaps
// ("7f2c4a000000-7f2c4a400000 rw-p ..."); ok is false for its other lines.
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	first, _, _ := strings.Cut(line, " ")
	a, b, ok := strings.Cut(first, "-")
	if !ok {
		return 0, 0, false
	}
	x, errA := strconv.ParseUint(a, 16, 64)
	y, errB := strconv.ParseUint(b, 16, 64)
	return uintptr(x), uintptr(y), errA == nil && errB == nil
}
