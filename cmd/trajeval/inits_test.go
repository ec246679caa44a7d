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
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
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
