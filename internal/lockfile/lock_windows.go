//go:build windows

package lockfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The range locked: one byte far past any data. A lock on Windows is
// mandatory for the bytes it covers, and the file's own bytes must stay
// readable by others (eval --resume reads them back).
const (
	rangeLow  = 0xFFFFFFFE
	rangeHigh = 0x7FFFFFFF
)

func lock(f *os.File) error {
	ol := windows.Overlapped{Offset: rangeLow, OffsetHigh: rangeHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return ErrHeld
	}
	return err
}

func unlock(f *os.File) error {
	ol := windows.Overlapped{Offset: rangeLow, OffsetHigh: rangeHigh}
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
