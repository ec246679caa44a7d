package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A histStart is the part of recording a run that needs nothing of the
// suite, started before the suite loads: the git process that names the
// commit and branch (tens of milliseconds of wall time, little of it CPU).
// The history itself is opened after the suite has loaded, so that a suite
// that does not load neither makes nor migrates one, nor waits on a busy
// one. A nil histStart is a run that records nothing.
type histStart struct {
	headDone       chan struct{}
	commit, branch string
}

// startHistory starts gitHead for the first of paths when eval will record
// its run (the history's place is known and no flag contradicts another);
// it returns nil otherwise.
func (h *historyFlags) startHistory(ctx context.Context, paths []string) *histStart {
	dsn, err := h.evalDSN(getenv(ctx), paths)
	if dsn == "" || err != nil {
		return nil
	}
	c := &histStart{headDone: make(chan struct{})}
	go func() {
		defer close(c.headDone)
		c.commit, c.branch = gitHead(ctx, paths[0])
	}()
	return c
}

// head returns the commit and branch once gitHead has returned; "" for a
// nil c.
func (c *histStart) head() (commit, branch string) {
	if c == nil {
		return "", ""
	}
	<-c.headDone
	return c.commit, c.branch
}

// finish waits for what c started: no git process outlives the command.
func (c *histStart) finish() {
	if c != nil {
		<-c.headDone
	}
}

// gitHead returns the commit and branch of the git work tree holding
// path; "" for what is not known (no git, not a work tree, a detached
// head's branch). git is not started when it could find no repository
// (see mayBeRepository): starting it takes tens of milliseconds.
func gitHead(ctx context.Context, path string) (commit, branch string) {
	dir := path
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	if !mayBeRepository(dir, os.Getenv) {
		return "", ""
	}
	if _, err := exec.LookPath("git"); err != nil {
		return "", ""
	}
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "HEAD", "--abbrev-ref", "HEAD").Output()
	if err != nil {
		return "", ""
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 {
		return "", ""
	}
	commit, branch = lines[0], lines[1]
	if branch == "HEAD" {
		branch = ""
	}
	return commit, branch
}
