//go:build unix

package sidefile

import "syscall"

// openNoWait is the flag that opens a named pipe without waiting for a
// writer; on a regular file it changes nothing.
const openNoWait = syscall.O_NONBLOCK
