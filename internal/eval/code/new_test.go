package code_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/code"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name      string
		opts      code.Options
		msg, hint string // the error's; "" when New succeeds
		reason    string
	}{
		{"empty", code.Options{}, "the command is empty", "", "there is nothing to run"},
		{"empty program", code.Options{Command: []string{"", "x"}}, "the command is empty", "", "an empty program name is no program"},
		{"missing file", code.Options{Command: []string{"./nope.sh"}, Dir: "testdata"}, "program ./nope.sh not found",
			"paths are relative to the suite's folder: testdata/nope.sh", "a path is looked up in Dir, and the hint shows where"},
		{"not on PATH", code.Options{Command: []string{"no-such-program-anywhere"}}, "program no-such-program-anywhere is not on PATH", "",
			"a bare name is looked up on PATH"},
		{"negative timeout", code.Options{Command: []string{"sh"}, Timeout: -time.Second}, "timeout must be a positive number of seconds", "",
			"a negative timeout would never let the program run"},
		{"found", code.Options{Command: []string{"sh", "grade.sh"}, Dir: "testdata"}, "", "", "sh is on PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := code.New(tt.opts)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("New: %v (%s)", err, tt.reason)
				}
				return
			}
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.Msg != tt.msg || se.Hint != tt.hint || se.File != "" || se.Line != 0 {
				t.Fatalf("New = %v, %v; want an unplaced SpecError %q (hint %q): %s", e, err, tt.msg, tt.hint, tt.reason)
			}
		})
	}
}

func TestNew_defaults(t *testing.T) {
	e, err := code.New(code.Options{Command: []string{"sh", "testdata/grade.sh"}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dir != "." || e.Timeout != 30*time.Second {
		t.Errorf("Dir %q, Timeout %v; want the current folder and 30s", e.Dir, e.Timeout)
	}
}

func ExampleNew() {
	e, err := code.New(code.Options{Command: []string{"sh", "verdict.sh", "true"}, Dir: "testdata", Case: eval.Case{ID: "c1"}})
	if err != nil {
		panic(err)
	}
	out, err := e.Evaluate(context.Background(), &trajeval.Trajectory{ID: "c1"})
	fmt.Println(out.Score, *out.Verdict, err)
	// Output: 1 true <nil>
}
