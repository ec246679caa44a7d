// Package prefault maps the executable's code into the process as it
// starts, in one system call, rather than a page at a time as the code
// first runs.
//
// Why: trajeval's executable holds some 15 MB of code, and the packages'
// initialisation and a command's first steps run code from all over it
// (protobuf, gRPC, OTLP, SQLite, the C library's translation). Each first
// touch of a 4 KiB page of it is a page fault, and where faults are dear
// (a virtual machine: 6–12 µs each, measured) the faults of the code were
// a fifth of the faults of `trajeval version`; the kernel maps the same
// pages in a fraction of that time when asked for them all at once.
//
// Importing the package is all it takes. Its rules:
//  1. On Linux (64-bit), when the package is initialised, every loadable
//     segment of the executable that is executable and not writable (its
//     code) is asked for with madvise(MADV_POPULATE_READ): the kernel maps
//     each of its pages into the process, from the page cache, reading
//     from disk what the cache does not hold.
//  2. Nothing else is asked for: the read-only data (pclntab and the
//     rest) took as many pages again for a tenth of the faults, and every
//     page mapped counts in the process's resident memory; writable data
//     must be copied on its first write whatever is done before.
//  3. A refusal changes nothing: a kernel before 5.14 (which does not know
//     MADV_POPULATE_READ), a process without /proc, or an executable
//     whose program headers cannot be found leaves the pages to fault in
//     as before. The error is not reported at initialisation; [Text] returns
//     it.
//  4. It runs early: Go initialises a package once every package it
//     imports is, in the order of their import paths, and this one imports
//     only syscall and unsafe, so its init runs right after syscall's,
//     before the packages whose inits touch the most code
//     (GODEBUG=inittrace=1 shows the order).
//  5. Elsewhere (other systems, 32-bit Linux) it does nothing.
package prefault

func init() { Text() }
