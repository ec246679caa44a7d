package vertex_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/vertex"
)

func loadCSV(t testing.TB, data, metrics string) (*suite.Suite, []error) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if metrics != "" {
		if err := os.WriteFile(filepath.Join(dir, "data.metrics.yaml"), []byte(metrics), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return suite.LoadFile(path, suite.Options{Dialects: []suite.Dialect{vertex.Dialect}}, true)
}

func TestDialect_csvExample(t *testing.T) {
	s, errs := suite.LoadFile("../../../examples/vertex/museums.csv", suite.Options{Dialects: []suite.Dialect{vertex.Dialect}}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s.Dialect != "vertex" || s.Name != "museums" || s.Traces != s.File || len(s.Cases) != 2 {
		t.Fatalf("suite %s (%s), traces %q, %d cases: want the vertex suite museums, its own traces file, 2 cases", s.Name, s.Dialect, s.Traces, len(s.Cases))
	}
	if c := s.Cases[0]; c.ID != "museum-hours" || c.Input != "When does the Louvre open on Monday?\nAnd is it busy then?" || len(c.Evaluators) != len(vertex.Metrics) {
		t.Errorf("case %s, input %q, %d evaluators: want the id column, the two-line prompt, the five reference metrics", c.ID, c.Input, len(c.Evaluators))
	}
}

func TestDialect_csv(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // the case ids, or part of the error
		reason     string
	}{
		{"python repr", ",id,reference_trajectory\n0,a,\"[{'tool_name': 'x', 'tool_input': {'n': 1, 'ok': True}}]\"\n", "a", "pandas writes a list of dicts as its repr"},
		{"json text", "id,reference_trajectory\na,\"[{\"\"tool_name\"\": \"\"x\"\"}]\"\n", "a", "a cell may hold JSON, quotes doubled"},
		{"row ids", "reference_trajectory,prompt\n[],\"two\nlines\"\n[],one\n", "row-2 row-4", "without an id column, a row is named by the line its record starts on"},
		{"bom", "\xef\xbb\xbfid,reference_trajectory\na,[]\n", "a", "to_csv(encoding='utf-8-sig') writes a byte order mark"},
		{"crlf", "id,reference_trajectory\r\na,[]\r\n", "a", "Windows line ends"},
		{"empty reference", "id,reference_trajectory\na,[]\nb,\n", "data.csv:3:1: row b has no reference_trajectory", "an empty cell is a missing value, an error at its row"},
		{"bad python", "id,reference_trajectory\na,\"[{'tool_name': 'x', 1 2}]\"\n", "data.csv:2:3: reference_trajectory: row a: text that is not a list of calls in JSON or Python syntax: line 1, column 23: expected ':' after the dict key, found '2'", "the cell's place in the file, the problem's place in the cell"},
		{"bad shape", "id,reference_trajectory\na,\"{'tool_name': 'x'}\"\n", "row a: an object, not a list of calls", "the shape is named"},
		{"duplicate id", "id,reference_trajectory\na,[]\na,[]\n", `data.csv:3:1: row id "a" is used twice`, "ids match rows to trajectories"},
		{"open quote", "id,reference_trajectory\na,\"[]\n", "data.csv:2:", "a quote left open is placed"},
		{"extra cell", "id,reference_trajectory\na,[],x\n", "data.csv:2:1: this row has another number of cells", "a row longer than the header"},
		{"column twice", "id,reference_trajectory,id\na,[],b\n", `data.csv:1:25: column "id" is named twice`, "which id would win is unclear"},
		{"header only", "id,reference_trajectory\n", "no rows", "a dataset without rows scores nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := loadCSV(t, tt.data, "")
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if s != nil {
				for _, c := range s.Cases {
					got = append(got, c.ID)
				}
			}
			if g := strings.Join(got, " "); !strings.Contains(g, tt.want) {
				t.Errorf("got %q, want %q: %s", g, tt.want, tt.reason)
			}
		})
	}
}

func TestDialect_csvMetricsFile(t *testing.T) {
	s, errs := loadCSV(t, "id,reference_trajectory\na,[]\n", "metrics: [trajectory_recall]\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if e := s.Cases[0].Evaluators; len(e) != 1 || e[0].Name != "trajectory_recall" {
		t.Errorf("evaluators %v, want the one of data.metrics.yaml beside data.csv", e)
	}
}

func TestLoad_csvNotADataset(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sales.csv")
	os.WriteFile(path, []byte("region,total\neu,3\n"), 0o644)
	opts := suite.Options{Dialects: []suite.Dialect{vertex.Dialect}}
	if s, errs := suite.LoadFile(path, opts, false); s != nil || errs != nil {
		t.Errorf("found in a folder: suite %v, errors %v; want it left alone", s, errs)
	}
	_, errs := suite.LoadFile(path, opts, true)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "sales.csv:1:1: this CSV file is not a Vertex AI dataset") {
		t.Errorf("named: errors %v, want one saying it is not a dataset", errs)
	}
}

// FuzzLoadCSV checks the CSV dataset loader on any bytes: it never
// panics, and it gives a suite with a case per row or errors, each placed
// in the file.
func FuzzLoadCSV(f *testing.F) {
	for _, s := range []string{
		",id,prompt,reference_trajectory\n0,a,\"two\nlines\",\"[{'tool_name': 'x', 'tool_input': {'n': 1.5}}]\"\n",
		"id,reference_trajectory\na,\"[{\"\"tool_name\"\": \"\"x\"\"}]\"\nb,\n",
		"id,reference_trajectory\na,\"[]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		s, errs := loadCSV(t, data, "")
		if s == nil && len(errs) == 0 {
			t.Fatalf("no suite and no error")
		}
		for _, err := range errs {
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.Msg == "" {
				t.Fatalf("error %v is not a *SpecError with a message", err)
			}
			if se.Line < 0 || se.Line > strings.Count(data, "\n")+1 {
				t.Fatalf("error %v is placed outside the file's lines", err)
			}
		}
	})
}

// TestDialect_csvLongRecord: a record of a CSV dataset is bounded as a
// line of a trace is, so that a quote left open cannot gather the rest of
// a large file into one cell.
func TestDialect_csvLongRecord(t *testing.T) {
	defer jsonl.SetMaxLine(1 << 10)()
	tests := []struct {
		name, data string
		reason     string
	}{
		{"long cell", "id,reference_trajectory\na,[]\nb," + strings.Repeat("x", 2<<10) + "\n", "one line longer than the limit"},
		{"open quote", "id,reference_trajectory\na,[]\nb,\"[" + strings.Repeat("x\n", 1<<10) + "\n", "many short lines inside one quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := loadCSV(t, tt.data, "")
			if len(errs) != 1 || !errors.Is(errs[0], jsonl.ErrLineTooLong) && !strings.Contains(errs[0].Error(), "line too long") {
				t.Fatalf("errs = %v, want one error, line too long: %s", errs, tt.reason)
			}
			if got := errs[0].Error(); !strings.Contains(got, "data.csv:3:1: line too long: longer than 1 KiB") || !strings.Contains(got, "quote left open") {
				t.Errorf("err = %q, want it at the record's first line, with the hint: %s", got, tt.reason)
			}
		})
	}
}
