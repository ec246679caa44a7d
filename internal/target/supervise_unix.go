//go:build unix

package target

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
)

// supervisorArg is the first argument of a program run as a supervisor:
// PROGRAM supervisorArg TMP ARGV...
const supervisorArg = "-trajeval-target-supervisor"

// supervisor is the program Run starts as the supervisor of each command,
// "" when Supervise was not called (or the program cannot be found).
var supervisor struct {
	once sync.Once
	path string
}

// Supervise must be called first in main by a program that runs targets,
// before anything else: when the program was started as the supervisor of
// a target's command, it does that job and exits; otherwise it returns at
// once, and Run then runs each command under a supervisor: the program
// itself, started again. Without it a command runs as trajeval's own
// child: its process group is killed, and on Linux every process below it
// that still has its parent, but not one that called setsid and whose
// parent is gone, nor any of them when trajeval itself is killed.
//
// A supervisor:
//  1. becomes the subreaper of the processes below it (Linux), so that
//     an orphan, setsid or not, is still found below it;
//  2. starts the command in a process group of its own, killed if the
//     supervisor dies (Linux);
//  3. when the command ends by itself, kills every process left below it,
//     and tells trajeval how the command ended;
//  4. when trajeval asks (timeout, stop, a stream over its cap), kills
//     every process below it; when trajeval is gone (its pipe closes
//     with nothing said: trajeval was killed), does the same and removes
//     the run's temporary folder, which trajeval cannot remove any more;
//  5. drops Ctrl-C, which is trajeval's to act on, and on SIGTERM or
//     SIGHUP kills every process below it.
func Supervise() {
	if len(os.Args) >= 4 && os.Args[1] == supervisorArg {
		os.Exit(supervise(os.Args[2], os.Args[3:]))
	}
	supervisor.once.Do(func() {
		if p, err := selfExecutable(); err == nil {
			supervisor.path = p
		}
	})
}

// start runs c under a supervisor when there is one, else as trajeval's
// own child.
func start(c command, stdout, stderr *os.File) (process, error) {
	if supervisor.path == "" {
		return startDirect(c, stdout, stderr)
	}
	return startSupervised(c, stdout, stderr)
}

// The files a supervisor is given, after standard input, output and
// error.
const (
	fdStdout  = 3 + iota // the command's standard output
	fdStderr             // the command's standard error
	fdControl            // trajeval to supervisor: a byte, or the end
	fdStatus             // supervisor to trajeval: lines of status
)

// A supervised process is a command run by a supervisor.
type supervised struct {
	sup    *exec.Cmd
	ctl    *os.File // closed by release
	ch     chan error
	status *bufio.Reader
	once   sync.Once
}

func startSupervised(c command, stdout, stderr *os.File) (process, error) {
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		return nil, err
	}
	sup := exec.Command(supervisor.path, append([]string{supervisorArg, c.tmp}, c.argv...)...)
	sup.Dir = c.dir
	sup.Env = append(os.Environ(), c.env...)
	sup.Stderr = stderr // the supervisor's own complaints, if any
	sup.ExtraFiles = []*os.File{stdout, stderr, ctlR, stW}
	// Its own process group: a signal to trajeval's (Ctrl-C, a terminal
	// closing, kill -9 of the group) does not reach it, so it outlives
	// trajeval to clean up.
	sup.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = sup.Start()
	ctlR.Close()
	stW.Close()
	if err != nil {
		ctlW.Close()
		stR.Close()
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Path == supervisor.path {
			// The program is gone (replaced since it started): run the
			// command directly rather than not at all.
			return startDirect(c, stdout, stderr)
		}
		return nil, fmt.Errorf("%w: %s", ErrFailed, startMessage(c.argv[0], err))
	}
	s := &supervised{sup: sup, ctl: ctlW, ch: make(chan error, 1), status: bufio.NewReader(stR)}
	word, rest := s.line()
	if word != "started" {
		s.release()
		stR.Close()
		if word == "error" {
			return nil, fmt.Errorf("%w: %s", ErrFailed, rest)
		}
		return nil, fmt.Errorf("%w: its supervisor ended before starting it", ErrFailed)
	}
	go func() {
		defer stR.Close()
		switch word, rest := s.line(); word {
		case "exit":
			if rest == "" {
				s.ch <- nil
			} else {
				s.ch <- errors.New(rest)
			}
		default:
			s.ch <- errors.New("its supervisor ended unexpectedly")
		}
	}()
	return s, nil
}

// line reads a line of status: its first word, and the rest.
func (s *supervised) line() (string, string) {
	l, err := s.status.ReadString('\n')
	if err != nil {
		return "", ""
	}
	word, rest, _ := strings.Cut(strings.TrimSuffix(l, "\n"), " ")
	return word, rest
}

func (s *supervised) done() <-chan error { return s.ch }

// kill asks the supervisor to kill every process of the command: a byte
// on its control pipe, then its end.
func (s *supervised) kill() { s.release() }

// release tells the supervisor that trajeval is done with the command
// and waits for it to have killed whatever is left.
func (s *supervised) release() {
	s.once.Do(func() {
		_, _ = s.ctl.Write([]byte{'k'})
		s.ctl.Close()
		_ = s.sup.Wait()
	})
}

// supervise is the supervisor's work (see [Supervise]); it returns its
// exit code.
func supervise(tmp string, argv []string) int {
	// Ctrl-C is caught and dropped rather than ignored: an ignored signal
	// stays ignored in the programs the supervisor starts.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGHUP)
	// Inherited files are not closed on exec: the agent must not hold
	// them, beyond the standard output and error it is given.
	for fd := fdStdout; fd <= fdStatus; fd++ {
		syscall.CloseOnExec(fd)
	}
	stdout := os.NewFile(fdStdout, "stdout")
	stderr := os.NewFile(fdStderr, "stderr")
	ctl := os.NewFile(fdControl, "control")
	status := os.NewFile(fdStatus, "status")
	if stdout == nil || stderr == nil || ctl == nil || status == nil {
		return 2
	}
	_ = becomeSubreaper()

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = processGroup()
	err := cmd.Start()
	stdout.Close()
	stderr.Close()
	if err != nil {
		fmt.Fprintf(status, "error %s\n", startMessage(argv[0], err))
		return 1
	}
	fmt.Fprintln(status, "started")

	told := make(chan bool, 1) // true: trajeval asked; false: trajeval is gone
	go func() {
		var b [1]byte
		n, _ := ctl.Read(b[:])
		told <- n > 0
	}()
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	root := os.Getpid()
	var heard, gone bool
	select {
	case err = <-ended:
	case ok := <-told:
		heard, gone = true, !ok
		killBelow(root, cmd.Process)
		err = <-ended
	case <-term:
		killBelow(root, cmd.Process)
		err = <-ended
	}
	killBelow(root, cmd.Process)
	msg := "exit"
	if err != nil {
		msg += " " + err.Error()
	}
	fmt.Fprintln(status, msg)
	status.Close()
	if !heard {
		gone = !<-told
	}
	killBelow(root, cmd.Process)
	reap()
	if gone {
		_ = os.RemoveAll(tmp)
	}
	return 0
}

// killBelow kills the command's process group and every process below
// the supervisor.
func killBelow(root int, p *os.Process) {
	killGroup(p)
	killDescendants(root)
}
