package main

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on amd64 and arm64
// with 4 KiB pages (the kernel's PMD size).
const hugePage = 2 << 20

// madvHugepage is Linux's MADV_HUGEPAGE.
const madvHugepage = 14

// hugeHeap grows the heap by n bytes of fresh memory and asks the kernel
// to back it with transparent huge pages, and returns the part it asked
// for (nil if none). The memory is garbage on return: the next collection
// frees it, and the heap's later allocations reuse it.
//
// Why: a run of eval allocates its trajectories at a high rate, and the
// heap's pages are fresh memory the kernel maps on first touch, one 4 KiB
// page a fault. Where faults are dear (a virtual machine: 6–12 µs each,
// measured), they were a third of a 10,000-trace run's CPU; a 2 MiB page
// takes one fault for 512. Rules:
//  1. Only memory the runtime has just mapped is advised: a large
//     allocation from a small heap is fresh, and fresh memory is not
//     touched by the allocation (the kernel gives it zeroed), so advising
//     it costs no fault and no copy.
//  2. Only whole huge pages inside the allocation are advised.
//  3. The advice is a hint: where the kernel has no transparent huge pages
//     (`never`, or not built in) it has no effect, and an error is
//     ignored. Where they are `always`, it changes nothing.
//  4. The runtime may later give pages back (the scavenger, a memory
//     limit); the kernel then splits the huge page, as it would without
//     the advice.
func hugeHeap(n int) []byte {
	b := make([]byte, n)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + hugePage - 1) &^ (hugePage - 1)
	end := (p + uintptr(n)) &^ (hugePage - 1)
	if beg >= end {
		return nil
	}
	advised := b[beg-p : end-p]
	if err := syscall.Madvise(advised, madvHugepage); err != nil {
		return nil
	}
	runtime.KeepAlive(b)
	return advised
}
