package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestInits_lazy keeps work out of the packages' initialisation, which
// every command pays before it reads its first argument: this test binary
// links the packages the command does, and runs again with
// GODEBUG=inittrace=1 to read what each package's init allocated.
func TestInits_lazy(t *testing.T) {
	out := inittrace(t)
	tests := []struct {
		pkg    string
		allocs int
		reason string
	}{
		{"github.com/trajeval/trajeval/internal/jsonschema", 1_000, "the drafts' meta-schemas compile on the first Compile (21,000 allocations at init upstream)"},
		{"github.com/trajeval/trajeval/internal/eval/builtin", 500, "the types' documentation is made on first use (2,600 allocations at init)"},
		{"github.com/trajeval/trajeval/internal/eval/dokimos", 30, "its snake_case pattern is compiled on first use (79 allocations at init)"},
		{"github.com/trajeval/trajeval/internal/suite", 50, "the loader's keys' documentation is made on first use, by Schema (418 allocations at init)"},
		{"github.com/trajeval/trajeval/internal/report", 100, "the HTML report's template is parsed on first use (150 allocations at init)"},
	}
	for _, tt := range tests {
		line := regexp.MustCompile(`(?m)^init ` + regexp.QuoteMeta(tt.pkg) + ` @\S+ ms, \S+ ms clock, \d+ bytes, (\d+) allocs$`)
		m := line.FindSubmatch(out)
		if m == nil {
			continue // no init at all: nothing allocated
		}
		if n, _ := strconv.Atoi(string(m[1])); n > tt.allocs {
			t.Errorf("%s: init made %d allocations, want at most %d (%s)", tt.pkg, n, tt.allocs, tt.reason)
		}
	}
}

// TestInits_prefaultEarly checks that the command maps its code before
// the packages whose inits run most of it initialise (package prefault,
// rule 4): its init must come before theirs, so it imports next to nothing.
func TestInits_prefaultEarly(t *testing.T) {
	out := inittrace(t)
	order := map[string]int{}
	for i, m := range regexp.MustCompile(`(?m)^init (\S+) @`).FindAllSubmatch(out, -1) {
		order[string(m[1])] = i
	}
	at, ok := order["github.com/trajeval/trajeval/internal/prefault"]
	if !ok {
		t.Fatalf("no init of internal/prefault in\n%s", out)
	}
	tests := []struct {
		pkg    string
		reason string
	}{
		{"os", "prefault reads /proc/self/auxv through syscall alone, not os (whose init comes later)"},
		{"google.golang.org/protobuf/internal/filedesc", "protobuf's descriptors"},
		{"google.golang.org/grpc", "gRPC, for serve"},
		{"go.opentelemetry.io/collector/pdata/internal", "the OTLP reader's pdata"},
		{"modernc.org/libc", "the C library SQLite is translated with"},
		{"github.com/trajeval/trajeval/internal/history", "the run history"},
	}
	for _, tt := range tests {
		if i, ok := order[tt.pkg]; ok && i < at {
			t.Errorf("%s initialised (#%d) before internal/prefault (#%d): %s", tt.pkg, i, at, tt.reason)
		}
	}
	if len(order) < 100 {
		t.Errorf("only %d inits traced: the test binary no longer links what the command does", len(order))
	}
}

// inittrace runs this test binary again, running no test, under
// GODEBUG=inittrace=1, and returns what it printed: a line for each
// package's init, in the order they ran.
func inittrace(t *testing.T) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}
