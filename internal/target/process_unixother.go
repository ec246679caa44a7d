//go:build unix && !linux

package target

import "syscall"

func setParentDeathSignal(*syscall.SysProcAttr) {}
