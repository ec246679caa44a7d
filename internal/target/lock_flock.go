//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package target

import (
	"errors"
	"os"
	"syscall"
)

// lockFile creates the file at path and holds an exclusive lock on it
// until unlock, or until the process ends.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// tryLock takes the lock of the file at path when no process holds it.
// A missing file counts as free: its run died before making it.
func tryLock(path string) (func(), bool) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, true
	}
	if err != nil {
		return nil, false
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}
