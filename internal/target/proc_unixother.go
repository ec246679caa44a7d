//go:build unix && !linux

package target

import (
	"errors"
	"os"
	"syscall"
)

// setParentDeathSignal does nothing: only Linux has it.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// becomeSubreaper does nothing: only Linux has it.
func becomeSubreaper() error { return errors.ErrUnsupported }

// selfExecutable is the program a supervisor runs: the running binary.
func selfExecutable() (string, error) { return os.Executable() }

// killDescendants does nothing: without /proc the processes below root
// are only those of its process group, which killTree kills.
func killDescendants(int) {}

// reap does nothing: without a subreaper the supervisor's only child is
// the command, which it has waited for.
func reap() {}
