package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// rejected reports whether a reader's test file exists to be rejected, and
// why: a file damaged on purpose has a sibling NAME.error.txt (NAME without
// its last extension) holding the error its reader gives, which the
// reader's golden test checks. Reading such a file is an error, and a case
// on it is an error saying so; every other test file must be read and
// scored. So the list cannot drift from the readers' own test files.
func rejected(path string) (string, bool) {
	b, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".error.txt")
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// TestEval_everyFormat runs trajeval eval on every reader's test files:
// whatever the format, its trajectories are matched to cases (by id with
// --traces; a file of one trajectory without an id through the case's
// trace: key) and scored, and every case passes. The files damaged on
// purpose (see rejected) must instead make their case an error.
func TestEval_everyFormat(t *testing.T) {
	root, err := filepath.Abs("../../internal/format")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "*", "testdata", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range files {
		base := filepath.Base(path)
		format := filepath.Base(filepath.Dir(path))
		if format == "fuzz" || strings.HasSuffix(base, ".want.jsonl") || strings.HasSuffix(base, ".warnings.txt") || strings.HasSuffix(base, ".error.txt") {
			continue
		}
		name := format + "/" + base
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			var ids []string
			n, anonymous := 0, 0
			runs := map[string]bool{} // id and trial: each trial of a case is a row
			readErr := trace.Read(context.Background(), path, trace.Options{}, func(tr *trajeval.Trajectory) error {
				n++
				if tr.ID == "" {
					anonymous++
				} else if !slices.Contains(ids, tr.ID) {
					ids = append(ids, tr.ID)
				}
				runs[fmt.Sprintf("%s/%d", tr.ID, tr.Trial)] = true
				return nil
			})
			why, isRejected := rejected(path)
			switch {
			case isRejected && readErr == nil:
				t.Fatalf("the file reads without error, but its .error.txt says it is rejected (%s): remove that file, or make the reader reject it", why)
			case isRejected:
				// A case naming the file is an error, for the reader's reason.
				code, rows, stderr := evalOn(t, path, []string{"rejected"}, false)
				if code != 1 || len(rows) != 1 || rows[0].Status != "error" || !strings.Contains(rows[0].Error, readErr.Error()) {
					t.Errorf("exit %d, rows %+v: a case on a rejected file (%s) must be an error saying %q\nstderr:\n%s", code, rows, why, readErr, stderr)
				}
				return
			case readErr != nil:
				t.Fatalf("cannot read a reader's test file: %v\n(if it exists to be rejected, give it a sibling .error.txt with its error)", readErr)
			case n == 0:
				t.Fatal("the file holds no trajectory")
			}

			switch {
			case anonymous == 0:
				code, rows, stderr := evalOn(t, path, ids, true)
				checkAllPass(t, code, rows, stderr, len(runs))
			case n == 1:
				// No id to match by: the case names the file itself.
				code, rows, stderr := evalOn(t, path, []string{"only"}, false)
				checkAllPass(t, code, rows, stderr, 1)
			default:
				// Several trajectories, some without an id: a case naming
				// the file cannot pick one, and must say so.
				code, rows, stderr := evalOn(t, path, []string{"only"}, false)
				if code != 1 || !slices.Equal(statuses(rows), []string{"error"}) {
					t.Errorf("exit %d, statuses %v: a case whose trace file holds %d trajectories, %d without an id, must be an error\nstderr:\n%s", code, statuses(rows), n, anonymous, stderr)
				}
			}
		})
	}
	if len(seen) < 30 {
		t.Errorf("only %d trace files were found; the readers' test files seem to be missing", len(seen))
	}
}

// evalOn writes a suite of one execution_metrics evaluator per case id and
// runs trajeval eval on it: with --traces path when byID, else with each
// case naming path as its trace. It returns the exit code, the result rows
// and standard error.
func evalOn(t *testing.T, path string, ids []string, byID bool) (int, []resultRow, string) {
	t.Helper()
	var suite strings.Builder
	suite.WriteString("execution:\n  evaluators:\n    - {name: budget, type: execution_metrics, max_tool_calls: 100000}\nevalcases:\n")
	for _, id := range ids {
		fmt.Fprintf(&suite, "  - id: %q\n", id)
		if !byID {
			fmt.Fprintf(&suite, "    trace: %q\n", path)
		}
	}
	sp := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(sp, []byte(suite.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", sp, "--format", "jsonl"}
	if byID {
		args = append(args, "--traces", path)
	}
	var out, errb bytes.Buffer
	stdin, _ := os.Open(os.DevNull)
	defer stdin.Close()
	code := exitCode(execute(context.Background(), args, stdin, &out, &errb), &errb)
	var rows []resultRow
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r resultRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("result row %q: %v", sc.Text(), err)
		}
		rows = append(rows, r)
	}
	return code, rows, errb.String()
}

type resultRow struct {
	ID, Status, Error string
}

func statuses(rows []resultRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Status)
	}
	return out
}

// checkAllPass checks that the run exited 0 with want rows, each a pass.
func checkAllPass(t *testing.T, code int, rows []resultRow, stderr string, want int) {
	t.Helper()
	if code != 0 {
		t.Errorf("exit %d, want 0\nrows: %+v\nstderr:\n%s", code, rows, stderr)
	}
	if len(rows) != want {
		t.Errorf("%d result rows, want one per trajectory id (%d)", len(rows), want)
	}
	for _, r := range rows {
		if r.Status != "pass" {
			t.Errorf("case %s: %s %s", r.ID, r.Status, r.Error)
		}
	}
}
