package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestMayBeRepository(t *testing.T) {
	root := t.TempDir()
	if mayBeRepository(filepath.Dir(root), func(string) string { return "" }) {
		t.Skip("the temporary folder is inside a repository")
	}
	mkdir := func(parts ...string) string {
		p := filepath.Join(append([]string{root}, parts...)...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write := func(data string, parts ...string) {
		if err := os.WriteFile(filepath.Join(append([]string{root}, parts...)...), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain := mkdir("plain", "suites")
	mkdir("work", ".git")
	inWork := mkdir("work", "a", "b")
	mkdir("linked", "x")
	write("gitdir: /elsewhere\n", "linked", ".git")
	mkdir("bare.git", "refs")
	write("ref: refs/heads/main\n", "bare.git", "HEAD")
	headOnly := mkdir("headonly")
	write("ref: refs/heads/main\n", "headonly", "HEAD")
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		name   string
		dir    string
		getenv func(string) string
		want   bool
		reason string
	}{
		{"plain", plain, noEnv, false, "no .git from it up: git would find nothing, and is not run"},
		{"work tree", inWork, noEnv, true, "a .git folder two levels up"},
		{"work tree's root", filepath.Join(root, "work"), noEnv, true, "the .git folder in it"},
		{"linked work tree", filepath.Join(root, "linked", "x"), noEnv, true, "a .git file (a worktree's, a submodule's) counts as the folder does"},
		{"bare", filepath.Join(root, "bare.git", "refs"), noEnv, true, "a bare repository's folder: HEAD and refs"},
		{"HEAD alone", headOnly, noEnv, false, "a file named HEAD without refs beside it is no repository"},
		{"GIT_DIR", plain, func(k string) string { return map[string]string{"GIT_DIR": "/r/.git"}[k] }, true, "git is pointed at a repository"},
		{"GIT_WORK_TREE", plain, func(k string) string { return map[string]string{"GIT_WORK_TREE": "/r"}[k] }, true, "git is pointed at a work tree"},
		{"relative", "plain/suites", noEnv, false, "made absolute from the current folder (the test's: root)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "relative" {
				t.Chdir(root)
			}
			if got := mayBeRepository(tc.dir, tc.getenv); got != tc.want {
				t.Errorf("mayBeRepository(%s) = %v, want %v: %s", tc.dir, got, tc.want, tc.reason)
			}
		})
	}
}

// TestGitHead: the commit and branch of a work tree are found as before
// (git run), and nothing outside one; both agree with git itself.
func TestGitHead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	for _, args := range [][]string{
		{"init", "-q", "-b", "trunk", repo},
		{"-C", repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	suite := filepath.Join(repo, "suite.yaml")
	if err := os.WriteFile(suite, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit, branch := gitHead(t.Context(), suite)
	if len(commit) != 40 || branch != "trunk" {
		t.Errorf("in a work tree: commit %q, branch %q; want 40 hex digits and trunk", commit, branch)
	}
	if mayBeRepository(root, os.Getenv) {
		return // the temporary folder is in a repository: the rest cannot be checked
	}
	if commit, branch := gitHead(t.Context(), root); commit != "" || branch != "" {
		t.Errorf("outside a work tree: commit %q, branch %q; want none", commit, branch)
	}
}
