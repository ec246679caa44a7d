package formattest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// CheckRead reads data with f, as a file called name, twice, and checks
// what every reader promises whatever the bytes:
//  1. reading is deterministic: the same trajectories, warnings and error;
//  2. an error is a *trajeval.TraceError naming the file, placed inside
//     the input when it is placed (a line of the input; a column within
//     that line, or just past its end), never a column without a line;
//     a JSON syntax error is always placed at its line and column;
//  3. a warning names the file, at a line of the input or none;
//  4. each trajectory is complete: steps numbered 1, 2, ... in order, turns
//     numbered 1, 2, ..., no step in a turn that is not listed (when turns
//     are);
//  5. each trajectory survives its canonical JSON: encoded, decoded and
//     encoded again, it gives the same bytes.
func CheckRead(t testing.TB, f trajeval.Format, name string, data []byte) {
	t.Helper()
	f.Sniff(data)
	first := readAll(f, name, data, func(tr *trajeval.Trajectory) { checkTrajectory(t, f.Name(), tr) })
	second := readAll(f, name, data, nil)
	if !bytes.Equal(first.out, second.out) || fmt.Sprint(first.warns) != fmt.Sprint(second.warns) || fmt.Sprint(first.err) != fmt.Sprint(second.err) {
		t.Fatalf("%s: reading twice gives different results:\n%s\n%v\n%v\n---\n%s\n%v\n%v", f.Name(), first.out, first.warns, first.err, second.out, second.warns, second.err)
	}
	if err := first.err; err != nil {
		var te *trajeval.TraceError
		if !errors.As(err, &te) {
			t.Fatalf("%s: error %v (%T) is not a TraceError", f.Name(), err, err)
		}
		if te.File != name {
			t.Errorf("%s: error %q names file %q, want %q", f.Name(), err, te.File, name)
		}
		if msg := Misplaced(data, te.Line, te.Col); msg != "" {
			t.Errorf("%s: error %q: %s", f.Name(), err, msg)
		}
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) && (te.Line < 1 || te.Col < 1) {
			t.Errorf("%s: a syntax error without its line and column: %q", f.Name(), err)
		}
	}
	for _, w := range first.warns {
		if w.File != name {
			t.Errorf("%s: warning %q names file %q, want %q", f.Name(), w, w.File, name)
		}
		if msg := Misplaced(data, w.Line, 0); msg != "" {
			t.Errorf("%s: warning %q: %s", f.Name(), w, msg)
		}
	}
}

// Misplaced returns what is wrong with the position line:col in data, or
// "" when it lies inside it: on a line of data, at a column within that
// line or just past its end (both 1-based, in bytes). Line 0 means the
// whole file, col 0 the whole line.
func Misplaced(data []byte, line, col int) string {
	lines := bytes.Split(data, []byte("\n"))
	switch {
	case line == 0 && col != 0:
		return fmt.Sprintf("column %d without a line", col)
	case line < 0 || line > len(lines):
		return fmt.Sprintf("line %d outside the input's %d lines", line, len(lines))
	case col < 0 || line > 0 && col > len(lines[line-1])+1:
		return fmt.Sprintf("column %d outside line %d (%d bytes)", col, line, len(lines[line-1]))
	}
	return ""
}

func checkTrajectory(t testing.TB, format string, tr *trajeval.Trajectory) {
	t.Helper()
	for i, s := range tr.Steps {
		if s.Index != i+1 {
			t.Errorf("%s: trajectory %q: step %d has index %d", format, tr.ID, i+1, s.Index)
		}
		if len(tr.Turns) > 0 && (s.Turn < 0 || s.Turn > len(tr.Turns)) {
			t.Errorf("%s: trajectory %q: step %d is in turn %d of %d", format, tr.ID, i+1, s.Turn, len(tr.Turns))
		}
	}
	for i, turn := range tr.Turns {
		if turn.Turn != i+1 {
			t.Errorf("%s: trajectory %q: turn %d is numbered %d", format, tr.ID, i+1, turn.Turn)
		}
	}
	enc, err := json.Marshal(tr)
	if err != nil {
		t.Fatalf("%s: trajectory %q cannot be encoded: %v", format, tr.ID, err)
	}
	var back trajeval.Trajectory
	if err := json.Unmarshal(enc, &back); err != nil {
		t.Fatalf("%s: trajectory %q: its canonical JSON does not decode: %v\n%s", format, tr.ID, err, enc)
	}
	again, err := json.Marshal(&back)
	if err != nil {
		t.Fatalf("%s: trajectory %q: decoded again, it cannot be encoded: %v", format, tr.ID, err)
	}
	if !bytes.Equal(enc, again) {
		t.Fatalf("%s: trajectory %q changes through its canonical JSON:\n%s\n%s", format, tr.ID, enc, again)
	}
}

type reading struct {
	out   []byte
	warns []trajeval.Warning
	err   error
}

// readAll reads data with f and calls check, when not nil, with each
// trajectory as it comes (a reader may reuse it afterwards).
func readAll(f trajeval.Format, name string, data []byte, check func(*trajeval.Trajectory)) reading {
	var r reading
	var o bytes.Buffer
	in := trajeval.Input{Name: name, R: bytes.NewReader(data), Warn: func(w trajeval.Warning) { r.warns = append(r.warns, w) }}
	r.err = f.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		b, err := json.Marshal(tr)
		if err != nil {
			b = []byte(err.Error())
		}
		o.Write(b)
		o.WriteByte('\n')
		if check != nil {
			check(tr)
		}
		return nil
	})
	// JSON nested too deep is found as the lines are split, where the
	// file's name is not known: trace.ReadFrom, which every read goes
	// through, places it at its file, line and column, as here.
	r.err = jsonl.TooDeep(name, r.err)
	r.out = o.Bytes()
	return r
}
