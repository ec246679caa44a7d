package compare_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/compare"
)

const (
	rowA  = `{"id":"a","suite":"s","status":"pass","score":1,"evaluators":[]}`
	rowB  = `{"id":"b","suite":"s","status":"fail","score":0.5,"evaluators":null}`
	rowA1 = `{"id":"a","suite":"s","status":"pass","score":1,"evaluators":[],"attempt":1}`
	rowA2 = `{"id":"a","suite":"s","status":"fail","score":0,"evaluators":[],"attempt":2}`
)

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		err    error  // nil: the file reads
		msg    string // the error's start
		reason string
	}{
		{"rows", rowA + "\n\n" + rowB + "\n", nil, "", "blank lines are skipped; evaluators may be null"},
		{"trials", rowA1 + "\n" + rowA2 + "\n", nil, "", "one row per attempt"},
		{"same id in two suites", rowA + "\n" + strings.Replace(rowA, `"s"`, `"t"`, 1), nil, "", "a case is a suite and an id"},
		{"cut in the last line", rowA + "\n" + rowB[:30], compare.ErrDamaged,
			"x.jsonl:2:31: unexpected end of JSON: a value is cut off or a bracket is missing (the row is cut off", "a run stopped while writing"},
		{"broken line", rowA + "\n" + `{"id":"b" "status":"pass"}` + "\n" + rowB, compare.ErrDamaged,
			"x.jsonl:2:11: invalid JSON: invalid character '\"' after object key:value pair", "the offending byte, never a silent partial comparison"},
		{"empty", "", compare.ErrEmpty, "x.jsonl: no results: the file is empty", "nothing to compare is not a pass"},
		{"blank", "\n  \n", compare.ErrEmpty, "x.jsonl: no results", "only blank lines"},
		{"duplicate", rowA + "\n" + rowB + "\n" + rowA, compare.ErrDuplicate,
			`x.jsonl:3: case "a" of suite "s" appears twice, also on line 1 (each case has one row per attempt`, "two runs in one file"},
		{"duplicate attempt", rowA1 + "\n" + rowA1, compare.ErrDuplicate,
			`x.jsonl:2: case "a" of suite "s" attempt 1 appears twice, also on line 1`, "the same attempt twice"},
		{"with and without attempts", rowA + "\n" + rowA2, compare.ErrDuplicate,
			`x.jsonl:2: case "a" of suite "s" has a row without an attempt number (line 1) and one with (line 2)`, "a single run beside trials"},
		{"a trajectory", `{"id":"a","turns":[],"steps":[],"metrics":{}}`, compare.ErrNotResults,
			"x.jsonl:1: not a trajeval result row: it has steps: this looks like a trajectory, not a result (compare reads the JSON Lines", "convert's output"},
		{"an AgentV trace", `{"id":"a","output":[]}`, compare.ErrNotResults,
			`x.jsonl:1: not a trajeval result row: no "status"`, "a traces file"},
		{"an array", `[1, 2]`, compare.ErrNotResults,
			"x.jsonl:1: not a trajeval result row: expected a JSON object, got an array", "not a row at all"},
		{"a status of another tool", strings.Replace(rowA, `"pass"`, `"PASSED"`, 1), compare.ErrNotResults,
			`x.jsonl:1: not a trajeval result row: "status" must be pass, fail or error, got "PASSED"`, "only trajeval's three verdicts"},
		{"a score as text", strings.Replace(rowA, `"score":1`, `"score":"1"`, 1), compare.ErrNotResults,
			`x.jsonl:1:47: not a trajeval result row: expected a number for "score", got a string`, "the value's place"},
		{"a negative attempt", strings.Replace(rowA1, `"attempt":1`, `"attempt":-1`, 1), compare.ErrNotResults,
			"x.jsonl:1: not a trajeval result row: attempt -1 is below 1", "attempts count from 1"},
		{"nested too deep", rowA + "\n" + `{"id":"b","x":` + strings.Repeat("[", 200) + "\n", compare.ErrDamaged,
			"x.jsonl:2:142: JSON nested deeper than 128 levels of arrays and objects (no results file nests this deep", "refused before any decoder recurses"},
		{"a byte order mark", "\ufeff" + rowA + "\n" + rowB + "\n", nil, "", "as PowerShell and Python's utf-8-sig write a file"},
		{"a byte order mark, then damage", "\ufeff" + `{"id":,"status":"pass"}`, compare.ErrDamaged,
			"x.jsonl:1:7: invalid JSON", "a column on line 1 counts from the byte after the mark"},
		{"a byte order mark on line 2", rowA + "\n\ufeff" + rowB, compare.ErrDamaged,
			"x.jsonl:2:1: invalid JSON", "only a mark at the start is dropped"},
		{"the JSON report", "{\n  \"summary\": {\"cases\": 1},\n  \"cases\": [" + rowA + "]\n}\n", compare.ErrNotResults,
			"x.jsonl:1:1: this is the JSON report of trajeval eval --format json, not JSON Lines", "--format json instead of --out"},
		{"a document without a summary", "{\n  \"cases\": [" + rowA + "],\n  \"x\": {\"summary\": 1}\n}\n", compare.ErrDamaged,
			"x.jsonl:1:2: unexpected end of JSON", "only the keys at the top tell the report"},
	}
	// ReadFile reads a file a line at a time, Parse the bytes given: both
	// read each file the same.
	dir := t.TempDir()
	name := filepath.Join(dir, "x.jsonl")
	read := []struct {
		how  string
		read func(data string) (*compare.File, error)
	}{
		{"Parse", func(data string) (*compare.File, error) { return compare.Parse("x.jsonl", []byte(data)) }},
		{"ReadFile", func(data string) (*compare.File, error) {
			if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			return compare.ReadFile(name)
		}},
	}
	for _, tt := range tests {
		for _, r := range read {
			t.Run(tt.name+"/"+r.how, func(t *testing.T) {
				f, err := r.read(tt.data)
				if tt.err == nil {
					if err != nil {
						t.Fatalf("error %v: %s", err, tt.reason)
					}
					if len(f.Rows) == 0 {
						t.Fatal("no rows")
					}
					return
				}
				if !errors.Is(err, tt.err) {
					t.Fatalf("error %v, want %v: %s", err, tt.err, tt.reason)
				}
				if msg := strings.ReplaceAll(err.Error(), name, "x.jsonl"); !strings.HasPrefix(msg, tt.msg) {
					t.Errorf("error\n  %s\nwant it to start\n  %s\n(%s)", msg, tt.msg, tt.reason)
				}
				var fe *compare.FileError
				if !errors.As(err, &fe) || fe.Hint == "" {
					t.Errorf("error %v: not a *FileError with a hint", err)
				}
			})
		}
	}
}

func TestParse_lines(t *testing.T) {
	f, err := compare.Parse("x.jsonl", []byte("\n"+rowA+"\n\n"+rowB+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows[0].Line != 2 || f.Rows[1].Line != 4 || f.Rows[1].ID != "b" || f.Rows[1].Score != 0.5 {
		t.Errorf("rows %+v: want b on line 4 with score 0.5, lines counted with the blank ones", f.Rows)
	}
}

// FuzzParse checks that any input is either read into rows that look like
// results, or refused with a located error; never a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(rowA + "\n" + rowB + "\n"))
	f.Add([]byte(rowA1 + "\n" + rowA2))
	f.Add([]byte(rowA + "\n" + rowB[:30]))
	f.Add([]byte("{\n\"summary\":{},\"cases\":[]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := compare.Parse("x.jsonl", data)
		if err != nil {
			var fe *compare.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FileError", err)
			}
			return
		}
		if len(file.Rows) == 0 {
			t.Fatal("no error and no rows")
		}
		for _, r := range file.Rows {
			if r.ID == "" || r.Line < 1 || (r.Status != "pass" && r.Status != "fail" && r.Status != "error") {
				t.Fatalf("row %+v read without an id, a line or a verdict", r)
			}
		}
	})
}
