//go:build unix

package history

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists; known is always true.
// Signal 0 checks without sending: EPERM is a process of another user.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM), true
}
