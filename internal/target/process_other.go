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
