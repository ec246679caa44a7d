// Package formattest is the test support shared by the trace readers under
// internal/format: golden files, detection checks and a fuzz target over
// each reader's test files. Only tests import it.
//
// A reader package keeps its test files as testdata/<format-name>/<case>.<ext>,
// with what reading one gives beside it: <case>.want.jsonl (the
// trajectories, one JSON line each, which every test file must have, even
// when it holds none) and <case>.warnings.txt (the warnings, one a line;
// absent when there are none). A damaged test file (cut off,
// or with a syntax error) has <case>.error.txt, the error of reading it
// strictly, and its .want.jsonl and .warnings.txt are what reading it
// leniently gives. Run the package's tests with -update to rewrite them.
package formattest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Updating reports whether the tests run with -update, which rewrites the
// golden files.
func Updating() bool { return *update }

// Read reads data with f, as a file called name, and returns the
// trajectories as JSON Lines and the warnings, one per line.
func Read(f trajeval.Format, name string, data []byte) (out, warns []byte, err error) {
	return read(f, name, data, false)
}

// ReadLenient is Read with trajeval.Input.Lenient set.
func ReadLenient(f trajeval.Format, name string, data []byte) (out, warns []byte, err error) {
	return read(f, name, data, true)
}

func read(f trajeval.Format, name string, data []byte, lenient bool) (out, warns []byte, err error) {
	var o, w bytes.Buffer
	in := trajeval.Input{Name: name, R: bytes.NewReader(data), Lenient: lenient, Warn: func(x trajeval.Warning) { fmt.Fprintln(&w, x.String()) }}
	err = f.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		o.Write(b)
		o.WriteByte('\n')
		return nil
	})
	// Placed as trace.ReadFrom places it (see readAll).
	return o.Bytes(), w.Bytes(), jsonl.TooDeep(name, err)
}

// Inputs returns the test files of f, testdata/<f.Name()>/*, less the
// golden files. It fails t when there are none.
func Inputs(t testing.TB, f trajeval.Format) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", f.Name(), "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		if !strings.HasSuffix(p, ".want.jsonl") && !strings.HasSuffix(p, ".warnings.txt") && !strings.HasSuffix(p, ".error.txt") {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no test files for %s", f.Name())
	}
	return out
}

// Golden reads every test file of each format, in a subtest named
// <format-name>/<file>, and compares the trajectories with <case>.want.jsonl
// and the warnings with <case>.warnings.txt, or rewrites those with -update.
//
// A file that fails to read strictly must have that error in
// <case>.error.txt, and be damaged (a *trajeval.TraceError wrapping
// trajeval.ErrCorruptTrace); the goldens then hold what reading it
// leniently gives. A file that reads strictly must read the same
// leniently: lenience changes nothing on a whole file.
func Golden(t *testing.T, formats ...trajeval.Format) {
	for _, f := range formats {
		for _, path := range Inputs(t, f) {
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				name := filepath.Base(path)
				base := strings.TrimSuffix(path, filepath.Ext(path))
				out, warns, err := Read(f, name, data)
				var msg []byte
				if err != nil {
					if !errors.Is(err, trajeval.ErrCorruptTrace) {
						t.Fatalf("Read: %v", err)
					}
					msg = []byte(err.Error() + "\n")
				}
				compare(t, base+".error.txt", msg, false)
				lout, lwarns, lerr := ReadLenient(f, name, data)
				if lerr != nil {
					t.Fatalf("Read leniently: %v", lerr)
				}
				if err == nil && (!bytes.Equal(out, lout) || !bytes.Equal(warns, lwarns)) {
					t.Errorf("reading a whole file leniently changed what was read:\n strict: %s%s\nlenient: %s%s", out, warns, lout, lwarns)
				}
				compare(t, base+".want.jsonl", lout, true)
				compare(t, base+".warnings.txt", lwarns, false)
			})
		}
	}
}

// compare compares got with the file at path, or rewrites it with -update.
// A required file must exist: were its absence read as empty, a reader that
// lost everything would pass on a test file whose golden was never written.
// Any other file is absent when empty, so that a test file shows the
// warnings and errors it has, and no others.
func compare(t *testing.T, path string, got []byte, required bool) {
	t.Helper()
	if *update {
		if len(got) == 0 && !required {
			os.Remove(path)
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	switch {
	case required && errors.Is(err, os.ErrNotExist):
		t.Fatalf("%s is missing (run with -update to write it)", path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to rewrite):\n got: %s\nwant: %s", path, got, want)
	}
}

// Detect checks that trace.Detect, given the first MiB of each test file
// of a format, names that format.
func Detect(t *testing.T, formats ...trajeval.Format) {
	for _, f := range formats {
		for _, path := range Inputs(t, f) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > 1<<20 {
				data = data[:1<<20]
			}
			got, err := trace.Detect(path, data)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if got.Name() != f.Name() {
				t.Errorf("%s: detected as %s, want %s", path, got.Name(), f.Name())
			}
		}
	}
}

// Fuzz seeds f with the test files of the formats and checks that, on any
// bytes, each format keeps the promises of [CheckRead]. more, when not nil,
// is given the bytes as well, to fuzz other entry points of the package.
func Fuzz(f *testing.F, formats []trajeval.Format, more func(t *testing.T, data []byte)) {
	for _, fm := range formats {
		for _, path := range Inputs(f, fm) {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fm := range formats {
			CheckRead(t, fm, "fuzz.json", data)
			// Read leniently, damage is never the error.
			if _, _, err := ReadLenient(fm, "fuzz.json", data); err != nil {
				var te *trajeval.TraceError
				if !errors.As(err, &te) || errors.Is(err, trajeval.ErrCorruptTrace) {
					t.Errorf("%s: read leniently: %v", fm.Name(), err)
				}
			}
		}
		if more != nil {
			more(t, data)
		}
	})
}

// SniffRejects checks that no format claims any of the heads.
func SniffRejects(t *testing.T, heads []string, formats ...trajeval.Format) {
	t.Helper()
	for _, head := range heads {
		for _, f := range formats {
			if f.Sniff([]byte(head)) == nil {
				t.Errorf("%s claims %q", f.Name(), head)
			}
		}
	}
}

// FailsAtLine checks that reading each of the inputs with f fails with a
// *trajeval.TraceError placed at the line.
func FailsAtLine(t *testing.T, f trajeval.Format, line int, inputs ...string) {
	t.Helper()
	for _, in := range inputs {
		_, _, err := Read(f, "x.jsonl", []byte(in))
		var te *trajeval.TraceError
		if !errors.As(err, &te) || te.Line != line {
			t.Errorf("Read(%q) = %v, want a TraceError at line %d", in, err, line)
		}
	}
}

// A Damage is a damaged input for a reader, and what reading it must give.
type Damage struct {
	Name string
	// In is the input, with the mark ‸ where the damage is: before the
	// offending byte, or at the end of a file cut off. The mark is taken
	// out before reading, and gives Line and Col.
	In        string
	Line, Col int // where reading it strictly fails, when In has no mark
	// Steps is how many steps reading it leniently keeps, in all.
	Steps  int
	Reason string
}

// Mark is the mark of the damage in Damage.In.
const Mark = "‸"

// Damaged checks each damaged input of f:
//  1. read strictly, it fails with a *trajeval.TraceError wrapping
//     trajeval.ErrCorruptTrace, placed at Line:Col, with a reason and the
//     hint to pass --lenient;
//  2. read leniently, it gives Steps steps in all, at least one
//     trajectory marked partial, and a warning placed at Line:Col.
func Damaged(t *testing.T, f trajeval.Format, tests []Damage) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			if i := strings.Index(tt.In, Mark); i >= 0 {
				tt.In = tt.In[:i] + tt.In[i+len(Mark):]
				tt.Line = strings.Count(tt.In[:i], "\n") + 1
				tt.Col = i - strings.LastIndexByte(tt.In[:i], '\n')
			}
			_, _, err := Read(f, "trace.json", []byte(tt.In))
			checkDamage(t, err, tt.Line, tt.Col, tt.Reason)
			out, warns, err := ReadLenient(f, "trace.json", []byte(tt.In))
			if err != nil {
				t.Fatalf("read leniently: %v (%s)", err, tt.Reason)
			}
			ts := decode(t, out)
			steps, partial := 0, false
			for _, tr := range ts {
				steps += len(tr.Steps)
				partial = partial || tr.Partial
			}
			if steps != tt.Steps || !partial {
				t.Errorf("read leniently: %d steps, partial %v; want %d steps and a partial trajectory (%s)\n%s", steps, partial, tt.Steps, tt.Reason, out)
			}
			if at := position(tt.Line, tt.Col); !bytes.Contains(warns, []byte(at)) {
				t.Errorf("read leniently: warnings %q, want one at %q (%s)", warns, at, tt.Reason)
			}
		})
	}
}

func position(line, col int) string {
	if line == 0 {
		return "trace.json: "
	}
	return fmt.Sprintf("trace.json:%d:%d: ", line, col)
}

// checkDamage checks that err is damage placed at line:col.
func checkDamage(t *testing.T, err error, line, col int, reason string) {
	t.Helper()
	var te *trajeval.TraceError
	switch {
	case !errors.As(err, &te) || !errors.Is(err, trajeval.ErrCorruptTrace):
		t.Errorf("read strictly: %v, want a *trajeval.TraceError wrapping ErrCorruptTrace (%s)", err, reason)
	case te.Line != line || te.Col != col:
		t.Errorf("read strictly: error at %d:%d, want %d:%d: %v (%s)", te.Line, te.Col, line, col, err, reason)
	case strings.TrimSpace(te.Msg) == "" || strings.HasSuffix(te.Msg, ": ") || strings.Contains(te.Msg, "Go value") || strings.Contains(te.Msg, "json: ") || !strings.Contains(te.Hint, "--lenient"):
		t.Errorf("read strictly: %v; want a reason in the user's terms and the hint to pass --lenient (%s)", err, reason)
	}
}

func decode(t *testing.T, out []byte) []trajeval.Trajectory {
	t.Helper()
	var ts []trajeval.Trajectory
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var tr trajeval.Trajectory
		if err := json.Unmarshal(line, &tr); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		ts = append(ts, tr)
	}
	return ts
}

// Breaks damages every whole JSON test file of each format in two ways,
// and checks that reading it strictly fails at the damage and reading it
// leniently warns there instead:
//  1. cut off in the middle of a line;
//  2. a second ':' after a key past the middle of the file.
func Breaks(t *testing.T, formats ...trajeval.Format) {
	for _, f := range formats {
		for _, path := range Inputs(t, f) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(bytes.TrimSpace(data)) && !validLines(data) {
				continue // binary, or damaged on purpose
			}
			cut := midLine(data)
			colon := structuralColon(data, len(data)/2)
			if colon < 0 {
				continue // no object to break
			}
			broken := append(append(append([]byte{}, data[:colon+1]...), ':'), data[colon+1:]...)
			for _, c := range []struct {
				kind string
				in   []byte
				at   int // offset of the damage
			}{{"cut", data[:cut], cut}, {"colon", broken, colon + 1}} {
				t.Run(f.Name()+"/"+filepath.Base(path)+"/"+c.kind, func(t *testing.T) {
					line := bytes.Count(c.in[:c.at], []byte("\n")) + 1
					col := c.at - bytes.LastIndexByte(c.in[:c.at], '\n')
					_, _, err := Read(f, "trace.json", c.in)
					checkDamage(t, err, line, col, "a "+c.kind+" test file")
					_, warns, err := ReadLenient(f, "trace.json", c.in)
					var te *trajeval.TraceError
					if err != nil && (!errors.As(err, &te) || errors.Is(err, trajeval.ErrCorruptTrace)) {
						t.Errorf("read leniently: %v; want what came before, or that it is empty", err)
					}
					if at := fmt.Sprintf("trace.json:%d:%d: ", line, col); !bytes.Contains(warns, []byte(at)) {
						t.Errorf("read leniently: warnings %q, want one at %s", warns, at)
					}
				})
			}
		}
	}
}

// validLines reports whether every non-blank line of data is JSON.
func validLines(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 && !json.Valid(l) {
			return false
		}
	}
	return true
}

// midLine returns an offset near the middle of data that cuts a line
// after a byte that is not white space and before its end.
func midLine(data []byte) int {
	for i := len(data) / 2; i < len(data); i++ {
		if i > 0 && !isSpace(data[i-1]) && !isSpace(data[i]) {
			return i
		}
	}
	for i := len(data) / 2; i > 0; i-- {
		if !isSpace(data[i-1]) && !isSpace(data[i]) {
			return i
		}
	}
	return 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// structuralColon returns the offset of the first ':' outside a string at
// or after from, else the last one before it.
func structuralColon(data []byte, from int) int {
	last := -1
	in, esc := false, false
	for i, c := range data {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && c == ':':
			if i >= from {
				return i
			}
			last = i
		}
	}
	return last
}

// NoDrift reads every file matching glob in testdata/real/dir (from a
// reader package's folder) with f: a file that a checked version of its
// tool wrote reads without error and gives no drift warning.
func NoDrift(t *testing.T, dir, glob string, f trajeval.Format) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("../../../testdata/real", dir, glob))
	if len(paths) == 0 {
		t.Fatalf("no files in testdata/real/%s", dir)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, warns, err := Read(f, filepath.Base(p), data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if strings.Contains(string(warns), "is not known to the") {
			t.Errorf("%s: drift in a file of a checked version:\n%s", p, warns)
		}
	}
}

// PlacedLinearly reads data, a file of many values, with f, and fails t
// when placing its values at their lines scanned more than four times its
// size for newlines (see jsonl.Scanned): a reader that counted the lines
// of each value from the start of the file would scan about the number of
// values times half its size, and take time that grows with its square.
// The read must succeed. It must not run in parallel with other tests of
// the package, whose reading would be counted too.
func PlacedLinearly(t *testing.T, f trajeval.Format, name string, data []byte, reason string) {
	t.Helper()
	before := jsonl.Scanned()
	if _, _, err := Read(f, name, data); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got, limit := jsonl.Scanned()-before, 4*int64(len(data)); got > limit {
		t.Errorf("%s (%d bytes): %d bytes scanned to place its values, want at most %d: %s", name, len(data), got, limit, reason)
	}
}
