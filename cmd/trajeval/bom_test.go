package main

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExamples_bom evaluates every example again with a UTF-8 byte order
// mark written at the start of each of its text files (suites, sidecars,
// question files, targets, traces, datasets), as PowerShell's
// `Out-File -Encoding utf8` and older Windows editors write them: every
// case is scored as before, with the same verdict and score.
func TestExamples_bom(t *testing.T) {
	const dir = "../../examples"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "go.mod")); err == nil {
			continue // a Go module, not a suite folder
		}
		t.Run(e.Name(), func(t *testing.T) {
			src := filepath.Join(dir, e.Name())
			dst := filepath.Join(t.TempDir(), e.Name())
			err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(src, path)
				if d.IsDir() {
					if strings.HasPrefix(d.Name(), ".") && rel != "." {
						return fs.SkipDir // the run history
					}
					return os.MkdirAll(filepath.Join(dst, rel), 0o755)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				switch strings.ToLower(filepath.Ext(path)) {
				case ".yaml", ".yml", ".json", ".jsonl", ".csv":
					data = append([]byte("\xef\xbb\xbf"), data...)
					marked++
				}
				return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
			})
			if err != nil {
				t.Fatal(err)
			}
			want, got := scores(t, src), scores(t, dst)
			for _, id := range slices.Sorted(maps.Keys(want)) {
				if got[id] != want[id] {
					t.Errorf("case %s: %q with byte order marks, %q without", id, got[id], want[id])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d cases with byte order marks, %d without", len(got), len(want))
			}
		})
	}
	if marked < 20 {
		t.Fatalf("only %d files marked", marked)
	}
}

// scores returns each case's verdict and score, by case and attempt.
func scores(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range evalRows(t, path) {
		var row struct {
			ID, Status string
			Attempt    int
			Score      json.RawMessage
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("result row %q: %v", line, err)
		}
		out[row.ID+"#"+string(rune('0'+row.Attempt))] = row.Status + " " + string(row.Score)
	}
	if len(out) == 0 {
		t.Fatalf("trajeval eval %s scored no case", path)
	}
	return out
}
