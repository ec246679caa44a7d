//go:build unix

package target

import (
	"os"
	"syscall"
)

// processGroup puts the command in a process group of its own, whose id is
// its pid, so that killing the group reaches every process it starts.
func processGroup() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(a)
	return a
}

// killGroup kills the process group of p. After p has been waited for its
// pid may not be reused while the group still has members, so the group is
// still p's.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
