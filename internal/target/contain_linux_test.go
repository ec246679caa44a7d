package target_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/target"
)

// whenWritten waits for the file at path, which an agent writes whole,
// and returns its words; nil when the run ended (ended closed) without
// it, or after a minute.
func whenWritten(path string, ended <-chan struct{}) []string {
	for range 6000 {
		over := false
		select {
		case <-ended:
			over = true
		default:
		}
		if data, err := os.ReadFile(path); err == nil {
			return strings.Fields(string(data))
		}
		if over {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// killChild kills the escape agent's child, whose pid the agent wrote
// beside path, when it started one: an agent killed before it wrote
// path may have left it running.
func killChild(path string) {
	if data, err := os.ReadFile(path + ".child"); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// needSetsid skips a test whose agent escapes with the setsid command
// when the system has none.
func needSetsid(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command to escape with")
	}
}

// checkEscaped fails the test when the escape agent's child did not leave
// the agent's session (the test would then prove nothing), and returns
// the two pids.
func checkEscaped(t *testing.T, words []string) []string {
	t.Helper()
	if len(words) != 4 {
		t.Fatalf("%q, want the agent's pid and its child's, and their sessions", words)
	}
	if words[2] == words[3] {
		t.Fatalf("the agent's child %s did not call setsid", words[1])
	}
	return words[:2]
}

// checkAllGone fails the test when some of pids is still running, and
// kills it.
func checkAllGone(t *testing.T, pids []string, why string) {
	t.Helper()
	for _, p := range pids {
		pid, err := strconv.Atoi(p)
		if err != nil {
			t.Fatal(err)
		}
		if !waitGone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d is still running: %s", pid, why)
		}
	}
}

func TestRun_KillsEscapedProcesses(t *testing.T) {
	needSetsid(t)
	tests := []struct {
		name   string
		exit   bool          // the agent exits by itself, leaving its child
		stop   bool          // the run is stopped once the agent has started
		wait   time.Duration // the target's timeout
		is     error
		reason string
	}{
		{"timeout", false, false, time.Second, target.ErrTimeout,
			"past its timeout every process below the agent is killed, one that called setsid too"},
		{"stopped", false, true, time.Minute, context.Canceled,
			"a stopped run kills every process below the agent"},
		{"left behind", true, false, time.Minute, nil,
			"what an agent that exits leaves running is killed, even out of its session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			untilStarted(t, tt.wait, func(timeout time.Duration) bool {
				pidFile := filepath.Join(t.TempDir(), "pids")
				argv := []string{testdata(t, "escape"), pidFile}
				if tt.exit {
					argv = append(argv, "exit")
				}
				tg := &target.Target{Name: "agent", Provider: target.CLI, Argv: argv, Timeout: timeout}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				written, ended := make(chan []string, 1), make(chan struct{})
				go func() {
					words := whenWritten(pidFile, ended)
					if tt.stop {
						cancel()
					}
					written <- words
				}()
				_, err := target.Run(ctx, tg, target.Request{CaseID: "c1", Attempt: 1})
				close(ended)
				words := <-written
				if words == nil && errors.Is(err, target.ErrTimeout) {
					return false
				}
				pids := checkEscaped(t, words)
				if !errors.Is(err, tt.is) && (err != nil || tt.is != nil) {
					t.Errorf("error %v, want %v (%s)", err, tt.is, tt.reason)
				}
				checkAllGone(t, pids, tt.reason)
				return true
			})
		})
	}
}

// TestRun_TrajevalKilled kills -9 a stand-in for trajeval (the test binary,
// run again) while its target runs: the agent and its escaped child go,
// and so does the run's temporary folder.
func TestRun_TrajevalKilled(t *testing.T) {
	needSetsid(t)
	tmp := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+testdata(t, "escape")+" "+pidFile, "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pids := checkEscaped(t, whenWritten(pidFile, nil))
	if folders, _ := filepath.Glob(filepath.Join(tmp, "trajeval-target-*")); len(folders) != 1 {
		t.Fatalf("temporary folders %q, want the run's", folders)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	checkAllGone(t, pids, "an agent's processes outlived trajeval")
	var folders []string
	for range 1000 {
		if folders, _ = filepath.Glob(filepath.Join(tmp, "trajeval-target-*")); len(folders) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("temporary folder %q outlived trajeval", folders)
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Minute)
	mk := func(name string, lock bool, mtime time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if lock {
			if err := os.WriteFile(filepath.Join(p, ".lock"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mk("trajeval-target-1", true, old)
	noLock := mk("trajeval-target-2", false, old)
	alive := mk("trajeval-target-3", true, old)
	young := mk("trajeval-target-4", false, time.Now())
	other := mk("other-1", false, old)
	// A run that is alive holds its lock.
	f, err := os.Open(filepath.Join(alive, ".lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	removed := target.RemoveStale(dir)
	want := []string{stale, noLock}
	if strings.Join(removed, " ") != strings.Join(want, " ") {
		t.Errorf("removed %q, want %q", removed, want)
	}
	for _, p := range []string{alive, young, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v: a folder of a run alive, one just made, or not trajeval's, is kept", p, err)
		}
	}
}

// TestRun_Unsupervised runs a target in a program that never called
// Supervise: the agent's escaped child survives its timeout there (it
// cannot be found), and holds its standard output open; the run still
// ends, soon after the timeout.
func TestRun_Unsupervised(t *testing.T) {
	needSetsid(t)
	untilStarted(t, 1500*time.Millisecond, func(timeout time.Duration) bool {
		pidFile := filepath.Join(t.TempDir(), "pids")
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), helperEnv+"="+testdata(t, "escape")+" "+pidFile, helperTimeout+"="+timeout.String(), unsupervisedEnv+"=1")
		done, ended := make(chan []byte, 1), make(chan struct{})
		go func() {
			out, _ := cmd.Output()
			done <- out
			close(ended)
		}()
		words := whenWritten(pidFile, ended)
		// Unsupervised, nothing kills the escaped child.
		defer killChild(pidFile)
		var out []byte
		select {
		case out = <-done:
		case <-time.After(timeout + 10*time.Second):
			_ = cmd.Process.Kill()
			t.Fatal("the run did not end: a process the agent left holds its standard output open")
		}
		if want := "target timed out after " + timeout.String(); !strings.Contains(string(out), want) {
			t.Errorf("the run ended with %q, want %q", out, want)
		}
		if words == nil {
			return false
		}
		pids := checkEscaped(t, words)
		checkAllGone(t, pids[:1], "the agent itself is killed at its timeout")
		return true
	})
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
