package suite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/suite"
)

// TestLoad_listedCaseBytes holds what a listed case keeps once loaded to
// a few hundred bytes: its id, input and evaluators are shared or its own
// strings, its place a few words, not the nodes it was read from.
func TestLoad_listedCaseBytes(t *testing.T) {
	const n = 20_000
	const most = 250 // bytes a case: the internal case (88), the public one (104), their pointers, its id
	var b strings.Builder
	b.WriteString("name: many\nexecution:\n  evaluators:\n    - {name: check, type: tool_trajectory, mode: in_order, expected: [search, summarize]}\nevalcases:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {id: case-%07d, input: Research the history of Python}\n", i)
	}
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(s.Cases) != n {
		t.Fatalf("%d cases, want %d", len(s.Cases), n)
	}
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	if per > most {
		t.Errorf("a listed case keeps %d bytes, want at most %d", per, most)
	}
	runtime.KeepAlive(s)
}

// TestRun_listedCaseBytes holds what a run keeps for each listed case,
// beyond the loaded suite, to its index of the cases by id: the run holds
// its plan to its end, and a suite may list a million cases.
func TestRun_listedCaseBytes(t *testing.T) {
	const n = 100_000
	const most = 32 // bytes a case: the run's entry and its slots by id (run.IndexBytes, 28)
	var b strings.Builder
	b.WriteString("name: many\nexecution:\n  evaluators:\n    - {name: check, type: tool_trajectory, mode: in_order, expected: [search]}\nevalcases:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {id: case-%07d, input: Research the history of Python}\n", i)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.yaml")
	traces := filepath.Join(dir, "traces.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(traces, []byte(`{"id":"case-0000000","messages":[{"role":"assistant","tool_calls":[{"tool":"search","input":{}}]}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := suite.RunOptions{Traces: traces, Workers: 1}
	s, err := o.Load(path) // with the run's options, so that the run does not load it again
	if err != nil {
		t.Fatal(err)
	}
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	measured := false
	for r, err := range s.Run(t.Context(), o) {
		if err != nil {
			t.Fatal(err)
		}
		if !measured {
			runtime.GC()
			runtime.ReadMemStats(&during)
			measured = true
		}
		_ = r
	}
	per := (int64(during.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d bytes a case", per)
	if per > most {
		t.Errorf("a run keeps %d bytes a listed case, want at most %d", per, most)
	}
	runtime.KeepAlive(s)
}
