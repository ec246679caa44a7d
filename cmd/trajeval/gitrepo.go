package main

import (
	"os"
	"path/filepath"
)

// gitEnv are the environment variables that point git at a repository
// other than one it finds from its folder up.
var gitEnv = []string{"GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY"}

// mayBeRepository reports whether git run in dir could find a repository,
// as far as the files tell without running it; false only when git would
// surely find none:
//  1. one of gitEnv set (getenv): true;
//  2. dir not made absolute: true;
//  3. a folder from dir up with a .git entry (a folder, or a worktree's or
//     submodule's file): true;
//  4. a folder from dir up that is itself a repository's folder (a bare
//     repository: HEAD and refs in it): true;
//  5. else false.
//
// git itself stops sooner (at a file system's border, at
// GIT_CEILING_DIRECTORIES, at a folder not owned by the user): it is run
// then, and says so.
func mayBeRepository(dir string, getenv func(string) string) bool {
	for _, name := range gitEnv {
		if getenv(name) != "" {
			return true
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return true
	}
	for d := abs; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) || exists(filepath.Join(d, "HEAD")) && exists(filepath.Join(d, "refs")) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// exists reports whether path names a file or folder (a link not followed).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
