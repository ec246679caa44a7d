// Command timeit runs one command and writes what it cost: the wall time
// from just before the process is started to just after it is reaped, its
// CPU time (user and system, of it and its waited-for children) and its
// peak resident memory. bench/targets.sh times each command with it.
//
//	go build -o /tmp/timeit ./bench/timeit
//	/tmp/timeit OUT COMMAND [ARG...]
//
// Its rules:
//  1. COMMAND is started directly, with no shell, and its standard input,
//     output and error are timeit's own.
//  2. Once COMMAND has ended, one line is written to the file OUT:
//     "WALL CPU KB STATUS" (seconds with microseconds, seconds with
//     microseconds, KiB, the exit status).
//  3. timeit exits with COMMAND's exit status. If COMMAND cannot be
//     started, is killed by a signal, or OUT cannot be written, timeit says
//     so on standard error and exits 125.
//
// Why not /usr/bin/time, or a shell's time: they count their own start (a
// shell's is 4 ms of CPU and wall on the bench's machine) where the
// command's is a tenth of a second, and GNU time gives wall time to the
// hundredth of a second only.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: timeit OUT COMMAND [ARG...]")
		os.Exit(125)
	}
	status, err := run(os.Args[1], os.Args[2], os.Args[3:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "timeit:", err)
		os.Exit(125)
	}
	os.Exit(status)
}

// run starts name with args, waits for it and writes its line to out
// (rule 2). It returns the command's exit status.
func run(out, name string, args []string) (int, error) {
	cmd := exec.Command(name, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, errors.New("no resource usage for " + name)
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	status := cmd.ProcessState.ExitCode()
	if status < 0 {
		return 0, fmt.Errorf("%s: %v", name, cmd.ProcessState)
	}
	line := fmt.Sprintf("%.6f %.6f %d %d\n", wall.Seconds(), cpu.Seconds(), ru.Maxrss, status)
	if err := os.WriteFile(out, []byte(line), 0o644); err != nil {
		return 0, err
	}
	return status, nil
}
