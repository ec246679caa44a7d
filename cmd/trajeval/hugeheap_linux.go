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
//  5. The allocation starts on a huge page where it can: the heap hands
//     out its lowest free pages first, so once the allocation is freed
//     the heap's next pages would be those below its first whole huge
//     page, up to 2 MiB of them a fault a 4 KiB page (about 200 of the
//     peer set's faults while loading). Before it, a small allocation
//     finds where the heap's fresh pages start, and another fills them up
//     to the next huge page; both are kept (heapPads) and never touched,
//     so they take no memory but their addresses.
func hugeHeap(n int) []byte {
	padToHugePage()
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

// heapPage is the size of the Go heap's pages.
const heapPage = 8 << 10

// padLeast is the least padToHugePage allocates at a time: an allocation
// of fewer pages (16) is taken from pages a P keeps for itself, not where
// the heap's fresh pages start.
const padLeast = 16 * heapPage

// heapPads holds padToHugePage's allocations for the life of the process.
var heapPads [][]byte

// padToHugePage allocates fresh heap pages from where the heap's fresh
// pages start up to the next huge page, and keeps them: the next large
// allocation then starts on a huge page (rule 5 of hugeHeap). A probe's
// address says where they start; a gap under padLeast reaches to the
// huge page after the next.
func padToHugePage() {
	probe := make([]byte, padLeast)
	next := uintptr(unsafe.Pointer(unsafe.SliceData(probe))) + padLeast
	gap := (next+hugePage-1)&^(hugePage-1) - next
	if gap < padLeast {
		gap += hugePage
	}
	heapPads = append(heapPads, probe, make([]byte, gap))
	heapPadBytes += uint64(padLeast + gap)
}
