// Package lockfile gives one process at a time the right to write a file,
// so that two runs told to write the same results file cannot splice
// their rows.
//
// The rules:
//  1. [Acquire] takes an exclusive lock on an open file without waiting:
//     flock on Linux, macOS and the BSDs; LockFileEx on Windows, on a
//     byte range far past any data, so that other processes can still
//     read the file. On other systems there is no lock.
//  2. The lock belongs to the open file: the kernel releases it when the
//     file is closed or the process ends, however it ends. A run killed
//     with kill -9 never blocks the next one.
//  3. The holder (its process id, host and start time) is written beside
//     the file, in FILE.lock, and that file is removed when the lock is
//     released. It is only read to name the holder when the lock is
//     refused, never to decide: one left by a killed run is overwritten
//     by the next holder.
//  4. A file that is not a regular file (a terminal, a pipe, a device)
//     is not locked: it has no rows to splice.
package lockfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrHeld says another process holds the lock.
var ErrHeld = errors.New("held by another process")

// A Holder is the process that holds a lock.
type Holder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Start time.Time `json:"start"`
}

// A HeldError says which file is locked, and by whom when that is known.
type HeldError struct {
	File   string
	Holder *Holder // nil when the holder did not say
}

func (e *HeldError) Error() string {
	who := "another process"
	if h := e.Holder; h != nil {
		who = fmt.Sprintf("process %d on %s, started %s", h.PID, h.Host, h.Start.Local().Format("2006-01-02 15:04:05 MST"))
	}
	return fmt.Sprintf("%s is being written by %s: one run at a time may write a file; wait for it to end, or give another file", e.File, who)
}

func (e *HeldError) Unwrap() error { return ErrHeld }

// A Lock is a file held by this process.
type Lock struct {
	f    *os.File
	side string // the holder's file, "" when none was written
}

// Acquire locks f, open for writing under the name name, or returns a
// *HeldError when another process holds it. The lock lasts until
// [Lock.Release] or until f is closed.
func Acquire(f *os.File, name string) (*Lock, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return &Lock{}, nil
	}
	switch err := lock(f); {
	case errors.Is(err, ErrHeld):
		return nil, &HeldError{File: name, Holder: readHolder(name + ".lock")}
	case errors.Is(err, errors.ErrUnsupported):
		return &Lock{}, nil
	case err != nil:
		return nil, fmt.Errorf("cannot lock %s: %w", name, err)
	}
	l := &Lock{f: f}
	host, _ := os.Hostname()
	data, _ := json.Marshal(Holder{PID: os.Getpid(), Host: host, Start: time.Now().UTC().Truncate(time.Second)})
	// The holder's name is only informative: a folder that refuses it
	// does not stop the run.
	if os.WriteFile(name+".lock", append(data, '\n'), 0o644) == nil {
		l.side = name + ".lock"
	}
	return l, nil
}

// Release removes the holder's file and releases the lock. It is safe to
// call more than once, and on a nil Lock.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	var err error
	if l.side != "" {
		// Removed while the lock is held: no other holder's file can be
		// removed by mistake.
		if rerr := os.Remove(l.side); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = rerr
		}
	}
	err = errors.Join(err, unlock(l.f))
	l.f, l.side = nil, ""
	return err
}

// readHolder reads a holder's file; nil when it is missing or unreadable.
func readHolder(name string) *Holder {
	data, err := os.ReadFile(name)
	if err != nil || len(data) > 4096 {
		return nil
	}
	var h Holder
	if json.Unmarshal(data, &h) != nil || h.PID <= 0 {
		return nil
	}
	return &h
}
