//go:build !linux

package main

// hugeHeap does nothing where the kernel has no madvise(MADV_HUGEPAGE):
// see the Linux version.
func hugeHeap(int) []byte { return nil }
