package target

import (
	"fmt"
	"os"
	"os/exec"
)

// A direct process is the command run as trajeval's own child: the way it
// runs when no supervisor can be started (see [Supervise]).
type direct struct {
	cmd *exec.Cmd
	ch  chan error
}

func startDirect(c command, stdout, stderr *os.File) (process, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = processGroup()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrFailed, startMessage(c.argv[0], err))
	}
	d := &direct{cmd: cmd, ch: make(chan error, 1)}
	go func() { d.ch <- cmd.Wait() }()
	return d, nil
}

func (d *direct) done() <-chan error { return d.ch }

func (d *direct) kill() { killTree(d.cmd.Process) }

// release kills what the command left running in its process group: its
// pid is not reused while the group has members, so the group is still
// the command's.
func (d *direct) release() { killGroup(d.cmd.Process) }
