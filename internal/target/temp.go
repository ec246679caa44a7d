package target

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Each run has a temporary folder, removed when the run ends: by Run,
// else (trajeval was killed) by the run's supervisor, else (both were)
// by the next run of trajeval that runs a target. A run holds a lock on
// its folder's lockName for as long as it is alive, which the system
// releases when the process dies: a folder whose lock can be taken
// belongs to a run that is gone.
const (
	tempPrefix = "trajeval-target-"
	lockName   = ".lock"
	// staleAfter spares a folder just made, whose run has not taken its
	// lock yet.
	staleAfter = time.Minute
)

var cleanOnce sync.Once

// makeTemp makes the run's temporary folder and locks it; unlock
// releases the lock. The first call of a process first removes the
// folders of runs that are gone.
func makeTemp() (dir string, unlock func(), err error) {
	cleanOnce.Do(func() { RemoveStale(os.TempDir()) })
	dir, err = os.MkdirTemp("", tempPrefix+"*")
	if err != nil {
		return "", nil, err
	}
	unlock, err = lockFile(filepath.Join(dir, lockName))
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return dir, unlock, nil
}

// RemoveStale removes the temporary folders in dir of the runs of
// targets that are gone: folders older than a minute whose lock no
// process holds. It returns the folders removed.
func RemoveStale(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < staleAfter {
			continue
		}
		p := filepath.Join(dir, e.Name())
		unlock, ok := tryLock(filepath.Join(p, lockName))
		if !ok {
			continue
		}
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
		unlock()
	}
	return removed
}
