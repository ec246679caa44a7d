package target

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// A command is one process to run.
type command struct {
	argv    []string
	dir     string
	env     []string
	timeout time.Duration
	tmp     string // a folder for its standard output and error
}

// A result is what a command wrote.
type result struct {
	stdout, stderr []byte
}

// execute runs c in its own process group and waits for it. Standard
// output and error go to files, not pipes: a process the command left
// running that holds them open cannot keep the run waiting.
func execute(ctx context.Context, c command) (result, error) {
	var res result
	if len(c.argv) == 0 || c.argv[0] == "" {
		return res, fmt.Errorf("%w: the command is empty", ErrFailed)
	}
	stdout, err := os.Create(filepath.Join(c.tmp, "stdout"))
	if err != nil {
		return res, err
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(c.tmp, "stderr"))
	if err != nil {
		return res, err
	}
	defer stderr.Close()
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = processGroup()
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return res, fmt.Errorf("%w: %s: command not found", ErrFailed, c.argv[0])
		}
		return res, fmt.Errorf("%w: cannot start %s: %v", ErrFailed, c.argv[0], unwrapPath(err))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case err = <-done:
		killGroup(cmd.Process) // whatever it left running
		if err != nil {
			err = fmt.Errorf("%w: %v", ErrFailed, err)
		}
	case <-timer.C:
		killGroup(cmd.Process)
		<-done
		err = fmt.Errorf("%w after %v: the command and every process it started were killed", ErrTimeout, c.timeout)
	case <-ctx.Done():
		killGroup(cmd.Process)
		<-done
		err = fmt.Errorf("stopped: the command and every process it started were killed: %w", ctx.Err())
	}
	res.stdout, _ = os.ReadFile(stdout.Name())
	res.stderr, _ = os.ReadFile(stderr.Name())
	return res, err
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
