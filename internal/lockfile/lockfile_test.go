package lockfile_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/trajeval/trajeval/internal/lockfile"
)

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestAcquire(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" && runtime.GOOS != "freebsd" {
		t.Skip("no lock on", runtime.GOOS)
	}
	name := filepath.Join(t.TempDir(), "results.jsonl")
	first, err := lockfile.Acquire(open(t, name), name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name + ".lock"); err != nil {
		t.Errorf("the holder's file: %v", err)
	}

	_, err = lockfile.Acquire(open(t, name), name)
	var held *lockfile.HeldError
	if !errors.As(err, &held) || !errors.Is(err, lockfile.ErrHeld) {
		t.Fatalf("a second Acquire: %v, want a HeldError", err)
	}
	host, _ := os.Hostname()
	if held.Holder == nil || held.Holder.PID != os.Getpid() || held.Holder.Host != host || held.Holder.Start.IsZero() {
		t.Errorf("holder %+v: want this process, this host and a start time", held.Holder)
	}
	if data, err := os.ReadFile(name); err != nil || len(data) != 0 {
		t.Errorf("the locked file must stay readable by others: %q, %v", data, err)
	}

	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if err := first.Release(); err != nil {
		t.Errorf("a second Release: %v", err)
	}
	if _, err := os.Stat(name + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the holder's file outlives the lock: %v", err)
	}
	again, err := lockfile.Acquire(open(t, name), name)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	again.Release()
}

func TestAcquire_notRegular(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	for range 2 {
		if _, err := lockfile.Acquire(f, os.DevNull); err != nil {
			t.Errorf("%s: %v: a device has no rows to splice, and is not locked", os.DevNull, err)
		}
	}
}

// A holder killed with kill -9 never blocks the next one: the kernel
// releases its lock, and the holder's file it left is overwritten.
func TestAcquire_killedHolder(t *testing.T) {
	if name := os.Getenv("LOCKFILE_HOLD"); name != "" {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
		if err == nil {
			_, err = lockfile.Acquire(f, name)
		}
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		// Until killed: blocked in a read of standard input, which the
		// test holds open. Not select {}: with nothing left to wake it,
		// the runtime would end the holder ("all goroutines are
		// asleep"), and with it the lock, before the test checks it.
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(1)
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" && runtime.GOOS != "freebsd" {
		t.Skip("no lock on", runtime.GOOS)
	}
	name := filepath.Join(t.TempDir(), "results.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestAcquire_killedHolder$")
	cmd.Env = append(os.Environ(), "LOCKFILE_HOLD="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the holder said %q", line)
	}
	_, err = lockfile.Acquire(open(t, name), name)
	var held *lockfile.HeldError
	if !errors.As(err, &held) || held.Holder == nil || held.Holder.PID != cmd.Process.Pid {
		t.Errorf("while the holder lives: %v, want it named (pid %d)", err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := lockfile.Acquire(open(t, name), name)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	defer l.Release()
	_, err = lockfile.Acquire(open(t, name), name)
	if !errors.As(err, &held) || held.Holder == nil || held.Holder.PID != os.Getpid() {
		t.Errorf("the killed holder's file is not overwritten: %v", err)
	}
}
