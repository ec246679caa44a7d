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
