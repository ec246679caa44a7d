package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// projectRoot is the folder whose .trajeval/ keeps the run history of the
// suite or folder at path:
//  1. the root of the git work tree that holds path (the nearest folder
//     from path up with a .git entry, a folder or a worktree's file);
//  2. else path's own folder (path itself when it is a folder).
//
// So every command run anywhere inside a project finds the history that
// eval made, whichever suite it ran.
func projectRoot(path string) string {
	dir := path
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return relToWD(d)
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// relToWD writes the absolute dir relative to the current folder, as the
// user wrote the path it was found from.
func relToWD(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	if rel, err := filepath.Rel(wd, dir); err == nil {
		return rel
	}
	return dir
}

// historyIgnore is the entry init adds to the project's ignore file.
const historyIgnore = ".trajeval/"

// ignoreHistory makes git ignore the run history of the project that holds
// dir: it adds .trajeval/ to the .gitignore at the project's root, creating
// the file when there is none. It returns the file it changed, or "" when
// the file already ignores the history.
func ignoreHistory(dir string) (string, error) {
	file := filepath.Join(projectRoot(dir), ".gitignore")
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	for line := range strings.Lines(string(old)) {
		switch strings.TrimSpace(line) {
		case ".trajeval", ".trajeval/", "/.trajeval", "/.trajeval/", ".trajeval/*", "**/.trajeval/":
			return "", nil
		}
	}
	var add bytes.Buffer
	if len(old) > 0 && old[len(old)-1] != '\n' {
		add.WriteByte('\n')
	}
	fmt.Fprintf(&add, "# trajeval's run history (trajeval eval records every run there)\n%s\n", historyIgnore)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(add.Bytes()); err != nil {
		f.Close()
		return "", err
	}
	return file, f.Close()
}

// historiesBelow lists the run histories one or two folders below dir, for
// the hint of a command that found none from dir up.
func historiesBelow(dir string) []string {
	var found []string
	for _, pattern := range []string{"*", "*/*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern, defaultDB))
		found = append(found, m...)
	}
	return found
}
