package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/run"
)

func TestReadDone(t *testing.T) {
	const a1 = `{"id":"a","suite":"s","status":"pass","score":1,"evaluators":[],"attempt":1}` + "\n"
	const b1 = `{"id":"b","suite":"s","status":"fail","score":0,"evaluators":[],"attempt":1}` + "\n"
	tests := []struct {
		name      string
		content   string // "" for no file
		rows      int
		cut       int64
		noNewline bool
		err       string
		reason    string
	}{
		{"no file", "", 0, -1, false, "", "a first run has nothing to resume"},
		{"complete", a1 + b1, 2, -1, false, "", "every row kept"},
		{"cut last line", a1 + b1[:20], 1, int64(len(a1)), false, "", "a row cut by a crash is dropped, the file is cut back to the rows before it"},
		{"last row without its line end", a1 + strings.TrimSuffix(b1, "\n"), 2, -1, true, "", "a complete row lacking its newline is kept, and the next row starts on a new line"},
		{"not a row", a1 + `{"hello":1}` + "\n" + b1, 0, 0, false, "2: not a result row: no id", "JSON that is not a result row is not this command's file"},
		{"blank line inside", a1 + "\n" + b1, 0, 0, false, "2: not a result row: a blank line", "this command never writes blank lines"},
		{"broken JSON inside", a1 + `{"id":,"suite":"s"}` + "\n" + b1, 0, 0, false, "out.jsonl:2:7: not a result row: invalid JSON: invalid character ','",
			"damage is placed at its line and column"},
		{"nested too deep inside", a1 + `{"id":` + strings.Repeat("[", 200) + "\n" + b1, 0, 0, false, "out.jsonl:2:134: not a result row: JSON nested deeper than 128",
			"at the bracket that opens level 129"},
		{"byte order mark", "\ufeff" + a1 + b1, 2, -1, false, "", "a mark at the start is no part of the first row"},
		{"byte order mark, cut last line", "\ufeff" + a1 + b1[:20], 1, int64(3 + len(a1)), false, "", "the file is cut back after the mark and the whole rows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "out.jsonl")
			if tt.content != "" {
				if err := os.WriteFile(name, []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := readDone(name)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q (%s)", err, tt.err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(d.rows) != tt.rows || d.cut != tt.cut || d.noNewline != tt.noNewline {
				t.Errorf("%d rows, cut %d, no newline %v; want %d, %d, %v (%s)", len(d.rows), d.cut, d.noNewline, tt.rows, tt.cut, tt.noNewline, tt.reason)
			}
			if tt.rows > 0 {
				if _, ok := d.rows[run.Key{Suite: "s", ID: "a", Attempt: 1}]; !ok {
					t.Errorf("row a#1 not keyed by suite, id and attempt")
				}
			}
			// Appending after resuming leaves whole rows only.
			o, err := newOut(name)
			if err != nil {
				t.Fatal(err)
			}
			o.resume = d
			o.Case(trajeval.CaseResult{ID: "c", Suite: "s", Status: trajeval.StatusPass, Evaluators: []trajeval.Result{}, Attempt: 1})
			if err := o.Close(); err != nil {
				t.Fatal(err)
			}
			again, err := readDone(name)
			if err != nil || again.cut != -1 || len(again.rows) != tt.rows+1 {
				t.Errorf("after appending: %v, cut %d, %d rows; want %d whole rows (%s)", err, again.cut, len(again.rows), tt.rows+1, tt.reason)
			}
		})
	}
}

// TestReadDone_lineTooLong checks that --resume reads no line longer than
// the limit into memory: a row past it is an error at its line, and a file
// of one endless line (--out /dev/zero) stops there.
func TestReadDone_lineTooLong(t *testing.T) {
	defer func(old int) { maxResumeLine = old }(maxResumeLine)
	maxResumeLine = 1 << 10
	const a1 = `{"id":"a","suite":"s","status":"pass","score":1,"evaluators":[],"attempt":1}` + "\n"
	// A row of n bytes, its newline included.
	row := func(n int) string {
		const head, tail = `{"id":"`, `","suite":"s","status":"pass","score":1,"evaluators":[],"attempt":1}` + "\n"
		return head + strings.Repeat("b", n-len(head)-len(tail)) + tail
	}
	long, atLimit := row(maxResumeLine+1), row(maxResumeLine)
	tests := []struct {
		name, content string
		err           string
		reason        string
	}{
		{"row past the limit", a1 + long + a1, "2: line too long: longer than 1 KiB", "a row of a results file is never this long"},
		{"row at the limit", a1 + atLimit, "", "the limit is exact"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "out.jsonl")
			if err := os.WriteFile(name, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readDone(name)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v (%s)", err, tt.reason)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), name+":"+tt.err)):
				t.Errorf("error %v, want %s:%s (%s)", err, name, tt.err, tt.reason)
			}
		})
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := readDone("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero:1: line too long") {
			t.Errorf("--out /dev/zero --resume: %v, want the line too long", err)
		}
	}
}
