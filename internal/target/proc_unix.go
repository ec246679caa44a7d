//go:build unix

package target

import (
	"os"
	"syscall"
)

// processGroup puts the command in a process group of its own, whose id is
// its pid, so that killing the group reaches every process it starts that
// stays in it.
func processGroup() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(a)
	return a
}

// killGroup kills the process group of p.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// killTree kills p, its process group, and every process below it that
// can be found (see killDescendants).
func killTree(p *os.Process) {
	killDescendants(p.Pid)
	_ = syscall.Kill(p.Pid, syscall.SIGKILL)
	killGroup(p)
}
