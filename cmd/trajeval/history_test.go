package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// The tests run eval on the repository's examples: no run history
	// beside them unless a test asks for one.
	if _, ok := os.LookupEnv("TRAJEVAL_DB"); !ok {
		os.Setenv("TRAJEVAL_DB", "off")
	}
}

// run runs the command line args in-process and returns its exit code,
// standard output and standard error.
func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := execute(context.Background(), args, strings.NewReader(""), &out, &errb)
	return exitCode(err, &errb), out.String(), errb.String()
}

// TestCompare_runs checks that comparing two recorded runs gives what
// comparing their results files gives, in every format, and that show
// gives back each run's results file byte for byte, trajectories
// included.
func TestCompare_runs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	old, new := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "new.jsonl")
	const examples = "../../examples"
	if code, _, stderr := runArgs(t, "eval", examples, "-q", "--db", db, "--out", old, "--format", "jsonl"); code != 1 {
		t.Fatalf("eval: exit %d, want 1 (some examples fail on purpose)\n%s", code, stderr)
	}
	if code, _, stderr := runArgs(t, "eval", examples, "-q", "--db", db, "--out", new, "--format", "jsonl", "--threshold", "0.5", "--include-trace"); code != 1 && code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, tt := range []struct {
		ref, file string
		why       string
	}{
		{"1", old, "a run's rows are its --out file's, but for what a passing case does not keep"},
		{"last", new, "with --include-trace, the trajectories come back as eval wrote them"},
	} {
		code, stdout, stderr := runArgs(t, "show", tt.ref, "--db", db, "--format", "jsonl")
		want, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if tt.ref == "1" {
			want = []byte(lean(t, string(want)))
		}
		if code != 0 || stdout != string(want) {
			t.Errorf("show %s --format jsonl: exit %d, %s; differs from %s:\n%s\n---\n%s\n%s", tt.ref, code, tt.why, tt.file, stdout, want, stderr)
		}
		if tt.ref == "last" && !strings.Contains(stdout, `"trajectory":{"id"`) {
			t.Errorf("the --include-trace run should show its trajectories")
		}
	}
	for _, format := range []string{"text", "markdown", "json"} {
		for _, pair := range [][2]string{{"1", "2"}, {"last", "last~1"}} {
			fileArgs := []string{old, new}
			if pair[0] == "last" {
				fileArgs = []string{new, old}
			}
			fc, fout, ferr := runArgs(t, "compare", fileArgs[0], fileArgs[1], "--format", format)
			rc, rout, rerr := runArgs(t, "compare", pair[0], pair[1], "--db", db, "--format", format)
			// The files' names and the runs' differ, and only they.
			fout = strings.NewReplacer(old, "OLD", new, "NEW", mdEscape(old), "OLD", mdEscape(new), "NEW").Replace(fout)
			rout = strings.NewReplacer("run 1", "OLD", "run 2", "NEW").Replace(rout)
			if fc != rc || fout != rout || ferr != rerr {
				t.Errorf("compare %s %s --format %s: exit %d, want %d as with the files\n%s\n---\n%s\n%s", pair[0], pair[1], format, rc, fc, rout, fout, rerr)
			}
		}
	}
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "_", `\_`) }

// TestEval_gitHead checks that a recorded run keeps the commit and branch
// of the git work tree holding its suite, found while the suite loads,
// whether the history is made or opened while the suite loads, and that a
// suite that does not load leaves no history behind and records nothing in
// one that exists.
func TestEval_gitHead(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for _, f := range []string{"pipeline.yaml", "traces.jsonl"} {
		b, err := os.ReadFile(filepath.Join("../../examples/data-pipeline", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	gitRun("init", "-q", "-b", "topic")
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "suite")
	commit := gitRun("rev-parse", "HEAD")

	db := filepath.Join(t.TempDir(), "runs.db")
	suiteFile := filepath.Join(dir, "pipeline.yaml")
	runs := func(want int, why string) {
		t.Helper()
		code, stdout, stderr := runArgs(t, "runs", "--db", db, "--json")
		if code != 0 {
			t.Fatalf("runs: exit %d\n%s", code, stderr)
		}
		var got []struct{ Commit, Branch string }
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("runs --json: %v\n%s", err, stdout)
		}
		if len(got) != want {
			t.Fatalf("runs: %d, want %d: %s", len(got), want, why)
		}
		for _, r := range got {
			if r.Commit != commit || r.Branch != "topic" {
				t.Errorf("runs: got %+v, want each at %s on topic: %s", got, commit, why)
			}
		}
	}
	// The first run makes the history after the suite has loaded, the
	// second opens it while the suite loads.
	for i, why := range []string{"a new history", "a history opened while the suite loads"} {
		if code, _, stderr := runArgs(t, "eval", suiteFile, "--traces", filepath.Join(dir, "traces.jsonl"), "-q", "--db", db); code > 1 {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
		runs(i+1, why)
	}

	// A suite that does not load: a configuration error, and no history.
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: bad\nevalcases: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db2 := filepath.Join(t.TempDir(), "runs.db")
	for _, hist := range []string{db2, db} {
		code, _, stderr := runArgs(t, "eval", bad, "--traces", filepath.Join(dir, "traces.jsonl"), "-q", "--db", hist)
		if code != 2 || !strings.Contains(stderr, "bad.yaml:") {
			t.Errorf("eval of a broken suite: exit %d, want 2 and the file's place\n%s", code, stderr)
		}
	}
	if _, err := os.Stat(db2); !os.IsNotExist(err) {
		t.Errorf("eval of a broken suite made a history: %v", err)
	}
	runs(2, "a broken suite records no run in a history that exists")
}
