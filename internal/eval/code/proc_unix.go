//go:build unix

package code

import (
	"os/exec"
	"syscall"
)

// killGroup runs the command in its own process group and kills the whole
// group when its context ends, so a grader's children die with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
