package main

import (
	"bytes"
	"context"
	"os"
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
