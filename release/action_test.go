package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestActionScript_inputs runs the action's script with a stand-in for
// trajeval that records its arguments: the inputs reach eval as words,
// split on spaces where the script says so, and never as patterns the
// shell expands against the workspace's files.
func TestActionScript_inputs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the script runs under sh")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "workspace")
	for _, d := range []string{filepath.Join(work, "shop"), filepath.Join(dir, "temp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A file the pattern of --filter would match, were it expanded.
	if err := os.WriteFile(filepath.Join(work, "shop", "refund"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args := filepath.Join(dir, "args")
	fake := filepath.Join(dir, "trajeval")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n[ \"$1\" = version ] && { echo v0; exit 0; }\nprintf '%s\\n' \"$@\" >\""+args+"\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, traces, extra string
		want                      []string // eval's arguments after the fixed ones
		reason                    string
	}{
		{"pattern", "suite.yaml", "", "--threshold 0.8 --filter shop/*", []string{"--threshold", "0.8", "--filter", "shop/*"}, "the documented example: shop/* is trajeval's pattern, not the shell's"},
		{"question mark", "suite.yaml", "", "--filter shop/refun?", []string{"--filter", "shop/refun?"}, "any pattern"},
		{"path with spaces and patterns", "my suite/*.yaml", "t $(x) *.jsonl", "", nil, "path and traces are one word each, as given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(sh, mustAbs(t, "action.sh"))
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "TRAJEVAL_BINARY="+fake, "RUNNER_TEMP="+filepath.Join(dir, "temp"), "GITHUB_STEP_SUMMARY=",
				"INPUT_PATH="+tt.path, "INPUT_TRACES="+tt.traces, "INPUT_ARGS="+tt.extra)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			data, err := os.ReadFile(args)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			want := []string{"eval", tt.path}
			if tt.traces != "" {
				want = append(want, "--traces", tt.traces)
			}
			want = append(want, "--no-db", "-q", "--out", filepath.Join(dir, "temp", "trajeval-results.jsonl"))
			want = append(want, tt.want...)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("eval ran with\n  %q\nwant\n  %q\n(%s)", got, want, tt.reason)
			}
		})
	}
}

func mustAbs(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestActionScript_archiveName checks that a download folder whose
// SHA256SUMS names a path, not a file, stops the action before it
// downloads anything there.
func TestActionScript_archiveName(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("the script runs under sh")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	dir := t.TempDir()
	mirror := filepath.Join(dir, "mirror")
	if err := os.MkdirAll(filepath.Join(dir, "temp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(mirror, 0o755); err != nil {
		t.Fatal(err)
	}
	sums := strings.Repeat("0", 64) + "  ../../x_linux_amd64.tar.gz\n"
	if err := os.WriteFile(filepath.Join(mirror, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_linux_amd64.tar.gz"), []byte("not an archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, mustAbs(t, "action.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TRAJEVAL_BINARY=", "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP="+filepath.Join(dir, "temp"),
		"INPUT_PATH=suite.yaml", "INPUT_DOWNLOAD_URL=file://"+mirror)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "not a plain file name") {
		t.Errorf("action: %v\n%s\nwant exit 2, the archive's name refused", err, out)
	}
}
