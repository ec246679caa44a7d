package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		status  int
		wantErr bool
		reason  string
	}{
		{"passes", []string{"sh", "-c", "exit 0"}, 0, false, "a command that succeeds gives status 0"},
		{"fails", []string{"sh", "-c", "exit 3"}, 3, false, "the command's exit status is passed on (rule 3)"},
		{"killed", []string{"sh", "-c", "kill -9 $$"}, 0, true, "a command killed by a signal is an error, not a status"},
		{"missing", []string{filepath.Join(t.TempDir(), "none")}, 0, true, "a command that cannot start is an error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			status, err := run(out, tt.args[0], tt.args[1:])
			if (err != nil) != tt.wantErr {
				t.Fatalf("run: err = %v, want error %v (%s)", err, tt.wantErr, tt.reason)
			}
			if tt.wantErr {
				return
			}
			if status != tt.status {
				t.Fatalf("status = %d, want %d (%s)", status, tt.status, tt.reason)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			f := strings.Fields(string(b))
			if len(f) != 4 {
				t.Fatalf("line %q: want 4 fields (rule 2)", b)
			}
			for i, v := range f[:3] {
				if x, err := strconv.ParseFloat(v, 64); err != nil || x < 0 {
					t.Errorf("field %d of %q: %q is not a non-negative number", i+1, b, v)
				}
			}
			if wall, _ := strconv.ParseFloat(f[0], 64); wall == 0 {
				t.Errorf("wall time 0 in %q", b)
			}
			if f[3] != strconv.Itoa(tt.status) {
				t.Errorf("status field %q, want %d", f[3], tt.status)
			}
		})
	}
}
