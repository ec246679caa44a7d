//go:build !unix

package target

import (
	"os"
	"syscall"
)

// processGroup has no process groups to set outside Unix.
func processGroup() *syscall.SysProcAttr { return nil }

// killGroup kills the command alone: without process groups, processes it
// started may outlive it.
func killGroup(p *os.Process) { _ = p.Kill() }

// killTree kills the command alone.
func killTree(p *os.Process) { _ = p.Kill() }

// start runs c as trajeval's own child: outside Unix there is no
// supervisor.
func start(c command, stdout, stderr *os.File) (process, error) {
	return startDirect(c, stdout, stderr)
}

// Supervise returns at once outside Unix, where targets run without a
// supervisor.
func Supervise() {}
