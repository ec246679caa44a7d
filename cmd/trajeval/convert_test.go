package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingWriter fails every write, as standard output on a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestConvert_writeError: convert reports that it could not write its
// output (exit code 2), never exits 0 with a short output.
func TestConvert_writeError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	trace := `{"id": "t1", "output": [{"role": "assistant", "tool_calls": [{"tool": "search"}]}]}`
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	err := execute(context.Background(), []string{"convert", path}, strings.NewReader(""), failingWriter{}, &stderr)
	if code := exitCode(err, &stderr); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "writing the output: no space left on device") {
		t.Errorf("stderr %q, want the write error", stderr.String())
	}
}
