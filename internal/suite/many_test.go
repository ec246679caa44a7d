package suite_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// manyCases returns a suite of n listed cases that inherit the suite's
// evaluators, as bench/suitegen writes it; edit changes case i's line.
func manyCases(n int, edit func(i int, line string) string) string {
	var b strings.Builder
	b.WriteString(`name: many
execution:
  evaluators:
    - {name: check, type: tool_trajectory, mode: in_order, expected: [search, summarize]}
    - {name: budget, type: execution_metrics, max_tool_calls: 40}
evalcases:
`)
	for i := range n {
		line := fmt.Sprintf("  - {id: case-%07d, input: Research the history of Python}\n", i)
		if edit != nil {
			line = edit(i, line)
		}
		b.WriteString(line)
	}
	b.WriteString("traces: traces.jsonl\n")
	return b.String()
}

func TestLoadFile_manyCases(t *testing.T) {
	const n = 20_000
	const head = 6 // the lines before the first case
	tests := []struct {
		name    string
		edit    func(i int, line string) string
		wantErr string
		reason  string
	}{
		{"all load", nil, "", "a long list is read a part at a time, every case kept"},
		{"an error far down", func(i int, line string) string {
			if i == 15_000 {
				return "  - {input: no id}\n"
			}
			return line
		}, fmt.Sprintf("suite.yaml:%d:6: evalcases[15000]: case has no id", head+15_001), "a case's error names its line, column and index"},
		{"bad YAML far down", func(i int, line string) string {
			if i == 12_345 {
				return "  - {id: x, input: [unclosed}\n"
			}
			return line
		}, fmt.Sprintf("suite.yaml:%d:", head+12_346), "a YAML error in a part is placed in the file"},
		{"a duplicate across parts", func(i int, line string) string {
			if i == 19_999 {
				return "  - {id: case-0000001, input: again}\n"
			}
			return line
		}, fmt.Sprintf("suite.yaml:%d:6: evalcases[19999]: case id \"case-0000001\" is used twice", head+20_000), "ids are checked across the parts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := load(t, manyCases(n, tt.edit))
			if tt.wantErr == "" {
				if len(errs) > 0 {
					t.Fatalf("errors: %v", errs)
				}
				if len(s.Cases) != n || s.Cases[n-1].ID != fmt.Sprintf("case-%07d", n-1) {
					t.Fatalf("%d cases, the last %q", len(s.Cases), s.Cases[len(s.Cases)-1].ID)
				}
				last := s.Cases[n-1]
				if int(last.Place.Line) != head+n || last.Place.Col != 6 || last.Place.Path() != fmt.Sprintf("evalcases[%d]", n-1) {
					t.Errorf("the last case is placed at %d:%d %s", last.Place.Line, last.Place.Col, last.Place.Path())
				}
				if len(last.Evaluators) != 2 || &last.Evaluators[0] != &s.Cases[0].Evaluators[0] {
					t.Errorf("the cases do not share the suite's evaluators: each holds a copy")
				}
				return
			}
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), "/"+tt.wantErr) {
				t.Fatalf("errors %v, want one with %q", errs, tt.wantErr)
			}
		})
	}
}

// BenchmarkLoadFile_manyCases reports the heap a listed case keeps once its
// suite is loaded (live-B/case) and what loading it allocates (B/op).
func BenchmarkLoadFile_manyCases(b *testing.B) {
	const n = 20_000
	dir := write(b, map[string]string{"suite.yaml": manyCases(n, nil)})
	var suites []*suite.Suite
	var live uint64
	b.ReportAllocs()
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{Dialects: dialects.All()}, true)
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = after.HeapAlloc - before.HeapAlloc
		suites = append(suites[:0], s)
	}
	b.ReportMetric(float64(live)/n, "live-B/case")
	_ = trajeval.Warning{}
}

// TestLoadFile_listedCaseObjects holds the objects a listed case keeps
// once loaded to none of its own: its id and a new input are written into
// blocks of the suite's text, so that the collector, which marks every
// object the run holds at each collection, does not mark a million small
// strings.
func TestLoadFile_listedCaseObjects(t *testing.T) {
	const n = 20_000
	tests := []struct {
		name   string
		edit   func(i int, line string) string
		input  func(i int) string
		reason string
	}{
		{"shared input", nil, func(int) string { return "Research the history of Python" }, "cases that share an input share its bytes"},
		{"an input each", func(i int, line string) string {
			return strings.Replace(line, "Python", fmt.Sprintf("Python part %d", i), 1)
		}, func(i int) string { return fmt.Sprintf("Research the history of Python part %d", i) }, "past the inputs interned, each is written after the ids"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := write(t, map[string]string{"suite.yaml": manyCases(n, tt.edit)})
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{Dialects: dialects.All()}, true)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			for i, c := range s.Cases {
				if want := fmt.Sprintf("case-%07d", i); c.ID != want || c.Input != tt.input(i) {
					t.Fatalf("case %d is %q, input %q; want %q, %q (%s)", i, c.ID, c.Input, want, tt.input(i), tt.reason)
				}
			}
			if per := float64(int64(after.HeapObjects)-int64(before.HeapObjects)) / n; per > 0.1 {
				t.Errorf("a listed case keeps %.2f objects, want none of its own (%s)", per, tt.reason)
			}
			runtime.KeepAlive(s)
		})
	}
}
