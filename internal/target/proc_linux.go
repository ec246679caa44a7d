package target

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// setParentDeathSignal kills the command when its parent dies: on Linux
// the kernel does it, whatever killed the parent.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// becomeSubreaper makes the calling process the new parent of every
// orphaned process below it, where the kernel would otherwise give them
// to init: a process that calls setsid and whose parent dies is still
// found below the supervisor.
func becomeSubreaper() error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// selfExecutable is the program a supervisor runs: the running binary
// itself, even when its file was replaced or removed since it started.
func selfExecutable() (string, error) { return "/proc/self/exe", nil }

// killRounds bounds killDescendants: a process the kernel holds in an
// uninterruptible wait dies only when that wait ends.
const killRounds = 2000

// killDescendants kills every live process below root, found in /proc
// through their parents, round after round until none is left: a process
// that forked while its parent was killed leaves a child that the next
// round finds (below root when root is a subreaper).
func killDescendants(root int) {
	for range killRounds {
		pids := descendants(root)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// descendants returns the live processes below root; a zombie is dead.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, live := procParent(pid); live {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// procParent reads a process's parent from /proc/PID/stat, and whether
// it is alive (not a zombie).
func procParent(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The state and the parent follow the command's name, in parentheses
	// that the name itself may hold.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 || f[0][0] == 'Z' || f[0][0] == 'X' {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	return ppid, err == nil
}

// reap waits for every child the supervisor has: the command's orphans,
// given to it as their subreaper, all killed.
func reap() {
	for {
		var ws syscall.WaitStatus
		if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
			return
		}
	}
}
