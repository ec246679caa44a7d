package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A headCall is gitHead running on a goroutine of its own, started before
// the suite loads: the git process takes tens of milliseconds of wall
// time, little of it CPU, which the load hides. A nil headCall is a run
// that records nothing.
type headCall struct {
	done           chan struct{}
	commit, branch string
}

// startHead starts gitHead for the first of paths when eval will record
// its run (the history's place is known and no flag contradicts another);
// it returns nil otherwise.
func (h *historyFlags) startHead(ctx context.Context, paths []string) *headCall {
	if dsn, err := h.evalDSN(getenv(ctx), paths); dsn == "" || err != nil {
		return nil
	}
	c := &headCall{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.commit, c.branch = gitHead(ctx, paths[0])
	}()
	return c
}

// wait returns the commit and branch once gitHead has returned; "" for a
// nil c.
func (c *headCall) wait() (commit, branch string) {
	if c == nil {
		return "", ""
	}
	<-c.done
	return c.commit, c.branch
}

// gitHead returns the commit and branch of the git work tree holding
// path; "" for what is not known (no git, not a work tree, a detached
// head's branch).
func gitHead(ctx context.Context, path string) (commit, branch string) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", ""
	}
	dir := path
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
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
