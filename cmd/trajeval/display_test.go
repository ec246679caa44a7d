package main

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// TestExitCode_escaped checks that the error a command ends with is
// printed escaped: it may quote a trace, an agent or a judge.
func TestExitCode_escaped(t *testing.T) {
	err := fmt.Errorf("traces.jsonl:3: %w", errors.New("tool \x1b]0;pwned\x07\x1b[2J\u202e\nnext line"))
	var b bytes.Buffer
	if code := exitCode(err, &b); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	want := "trajeval: traces.jsonl:3: tool \\x1b]0;pwned\\x07\\x1b[2J\\u202e\nnext line\n"
	if b.String() != want {
		t.Errorf("printed %q, want %q: escaped, its lines kept", b.String(), want)
	}
}
