package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval/internal/history"
)

// A histStart is the part of recording a run that needs nothing of the
// suite, started on goroutines of their own before the suite loads: the
// git process that names the commit and branch (tens of milliseconds of
// wall time, little of it CPU), and opening a history that exists already
// (a file, or a postgres:// URL). A history that does not exist yet is
// made after the suite has loaded, as before, so that a suite that does
// not load leaves none. A nil histStart is a run that records nothing.
type histStart struct {
	headDone       chan struct{}
	commit, branch string

	dsn    string
	dbDone chan struct{} // nil when the history is opened by begin
	db     *history.DB
	dbErr  error
	taken  bool // begin took db
}

// startHistory starts gitHead for the first of paths, and opens the
// history if it exists, when eval will record its run (the history's place
// is known and no flag contradicts another); it returns nil otherwise.
func (h *historyFlags) startHistory(ctx context.Context, paths []string) *histStart {
	dsn, err := h.evalDSN(getenv(ctx), paths)
	if dsn == "" || err != nil {
		return nil
	}
	c := &histStart{headDone: make(chan struct{}), dsn: dsn}
	go func() {
		defer close(c.headDone)
		c.commit, c.branch = gitHead(ctx, paths[0])
	}()
	if _, err := os.Stat(dsn); err == nil || history.IsPostgres(dsn) {
		c.dbDone = make(chan struct{})
		go func() {
			defer close(c.dbDone)
			c.db, c.dbErr = history.Open(ctx, dsn, history.Options{Create: true})
		}()
	}
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

// open returns what history.Open returned for dsn, from the start if it
// opened dsn there, and else opening it now.
func (c *histStart) open(ctx context.Context, dsn string) (*history.DB, error) {
	if c == nil || c.dbDone == nil || c.dsn != dsn {
		return history.Open(ctx, dsn, history.Options{Create: true})
	}
	<-c.dbDone
	c.taken = true
	return c.db, c.dbErr
}

// finish waits for what c started, and closes a history begin did not
// take (the suite did not load): no git process or open database outlives
// the command.
func (c *histStart) finish() {
	if c == nil {
		return
	}
	<-c.headDone
	if c.dbDone != nil {
		<-c.dbDone
		if !c.taken && c.db != nil {
			c.db.Close()
		}
	}
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
