package formattest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/formattest"
)

// lost is a reader that finds nothing in any file: the regression a
// golden test must catch.
type lost struct{}

func (lost) Name() string            { return "lost" }
func (lost) Sniff(head []byte) error { return nil }
func (lost) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	return nil
}

// TestGolden_helper runs Golden on the lost reader in the directory the
// parent test chose; it does nothing unless run by TestGolden.
func TestGolden_helper(t *testing.T) {
	if os.Getenv("FORMATTEST_HELPER") == "" {
		t.Skip("run by TestGolden")
	}
	formattest.Golden(t, lost{})
}

// TestGolden runs Golden in a separate process, since a failing Golden
// fails its test, over a test file with and without its goldens.
func TestGolden(t *testing.T) {
	tests := []struct {
		name    string
		want    *string // the .want.jsonl, nil when absent
		update  bool
		fails   string // what the output says when Golden fails; "" when it passes
		written bool   // whether .want.jsonl exists afterwards
		reason  string
	}{
		{"want missing", nil, false, "case.want.jsonl is missing (run with -update to write it)", false, "an absent golden is not an empty one"},
		{"want empty", ptr(""), false, "", true, "a file whose golden holds no trajectories"},
		{"want missing, -update", nil, true, "", true, "-update writes the golden, even when empty"},
		{"want differs", ptr("{}\n"), false, "case.want.jsonl differs", true, "the reader lost a trajectory"},
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "testdata", "lost")
			if err := os.MkdirAll(data, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(data, "case.json"), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(data, "case.want.jsonl")
			if tt.want != nil {
				if err := os.WriteFile(want, []byte(*tt.want), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"-test.run=^TestGolden_helper$", "-test.count=1"}
			if tt.update {
				args = append(args, "-update")
			}
			cmd := exec.Command(exe, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "FORMATTEST_HELPER=1")
			out, err := cmd.CombinedOutput()
			switch {
			case tt.fails == "" && err != nil:
				t.Errorf("Golden failed: %v\n%s\n(%s)", err, out, tt.reason)
			case tt.fails != "" && err == nil:
				t.Errorf("Golden passed, want a failure saying %q (%s)\n%s", tt.fails, tt.reason, out)
			case tt.fails != "" && !strings.Contains(string(out), tt.fails):
				t.Errorf("Golden's output does not say %q (%s):\n%s", tt.fails, tt.reason, out)
			}
			if _, err := os.Stat(want); (err == nil) != tt.written {
				t.Errorf("case.want.jsonl exists: %v, want %v (%s)", err == nil, tt.written, tt.reason)
			}
		})
	}
}

func ptr(s string) *string { return &s }
