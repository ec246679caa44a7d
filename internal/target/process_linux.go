package target

import "syscall"

// setParentDeathSignal kills the command when trajeval itself is killed
// (Linux only): a crash of trajeval must not leave the agent running.
// Processes the command started are its own to clean up then.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
