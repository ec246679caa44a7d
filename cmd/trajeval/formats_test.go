package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

// TestEval_everyFormat runs trajeval eval with --traces on every reader's
// test files: whatever the format, its trajectories are matched to cases
// by id and scored, none ends as an error.
func TestEval_everyFormat(t *testing.T) {
	files, err := filepath.Glob("../../internal/format/*/testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		base := filepath.Base(path)
		format := filepath.Base(filepath.Dir(path))
		if format == "fuzz" || strings.HasSuffix(base, ".want.jsonl") || strings.HasSuffix(base, ".warnings.txt") ||
			strings.Contains(base, "problem") || strings.HasPrefix(base, "bad") || strings.Contains(base, "truncated") || strings.Contains(base, "invalid") {
			continue
		}
		var ids []string
		seen := map[string]bool{}
		err := trace.Read(context.Background(), path, trace.Options{}, func(tr *trajeval.Trajectory) error {
			if tr.ID != "" && !seen[tr.ID] {
				seen[tr.ID] = true
				ids = append(ids, tr.ID)
			}
			return nil
		})
		if err != nil || len(ids) == 0 {
			continue // files that exist to be rejected, or without ids
		}
		n++
		t.Run(format+"/"+base, func(t *testing.T) {
			dir := t.TempDir()
			var suite strings.Builder
			suite.WriteString("execution:\n  evaluators:\n    - {name: budget, type: execution_metrics, max_tool_calls: 100000}\nevalcases:\n")
			for _, id := range ids {
				fmt.Fprintf(&suite, "  - id: %q\n", id)
			}
			sp := filepath.Join(dir, "suite.yaml")
			if err := os.WriteFile(sp, []byte(suite.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			stdin, _ := os.Open(os.DevNull)
			defer stdin.Close()
			err := execute(context.Background(), []string{"eval", sp, "--traces", path, "--format", "jsonl"}, stdin, &out, &errb)
			if code := exitCode(err, &errb); code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
			}
			if got := strings.Count(out.String(), "\n"); got != len(ids) {
				t.Errorf("%d result rows, want one per trajectory id (%d)", got, len(ids))
			}
		})
	}
	if n < 15 {
		t.Errorf("only %d trace files were evaluated; the readers' test files seem to be missing", n)
	}
}
