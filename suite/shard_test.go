package suite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/suite"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want suite.Shard
		ok   bool
		why  string
	}{
		{"2/3", suite.Shard{Index: 2, Count: 3}, true, "K/N"},
		{"1/1", suite.Shard{Index: 1, Count: 1}, true, "one shard is the whole run"},
		{"0/3", suite.Shard{}, false, "K counts from 1"},
		{"4/3", suite.Shard{}, false, "K at most N"},
		{"3", suite.Shard{}, false, "N is needed"},
		{"a/b", suite.Shard{}, false, "numbers only"},
		{"1/0", suite.Shard{}, false, "N at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := suite.ParseShard(tt.in)
			if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
				t.Errorf("ParseShard(%q) = %v, %v: %s", tt.in, got, err, tt.why)
			}
			if tt.ok && got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

// TestRunOptions_Shard checks rules 1–3 of Shard: the shards of a suite's
// cases are disjoint, cover them all, differ by one case at most, and do
// not depend on the order of the cases in the file.
func TestRunOptions_Shard(t *testing.T) {
	const n = 50
	dir := t.TempDir()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("case-%d", i)
	}
	write := func(name string, ids []string) string {
		var b strings.Builder
		b.WriteString("execution:\n  evaluators:\n    - {type: tool_trajectory, expected: [search]}\nevalcases:\n")
		for _, id := range ids {
			fmt.Fprintf(&b, "  - id: %s\n", id)
		}
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		// The suite's name is its file's: the same name, so the keys agree.
		return path
	}
	forward := write("suite", ids)
	reversed := slices.Clone(ids)
	slices.Reverse(reversed)
	other := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.Rename(write("suite", reversed), other); err != nil {
		t.Fatal(err)
	}
	write("suite", ids)
	shards := func(path string, count int) [][]string {
		s, err := suite.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		out := make([][]string, count)
		for k := 1; k <= count; k++ {
			cases, err := s.Plan(suite.RunOptions{Traces: "-", Shard: suite.Shard{Index: k, Count: count}})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				out[k-1] = append(out[k-1], c.ID)
			}
			slices.Sort(out[k-1])
		}
		return out
	}
	for _, count := range []int{1, 2, 3, 7, 50, 60} {
		got := shards(forward, count)
		var all []string
		sizes := map[int]bool{}
		for _, part := range got {
			all = append(all, part...)
			sizes[len(part)] = true
		}
		slices.Sort(all)
		want := slices.Clone(ids)
		slices.Sort(want)
		if !slices.Equal(all, want) {
			t.Errorf("%d shards: together %v, want every case once", count, all)
		}
		lo, hi := n, 0
		for size := range sizes {
			lo, hi = min(lo, size), max(hi, size)
		}
		if hi-lo > 1 {
			t.Errorf("%d shards: sizes from %d to %d, want them to differ by one at most", count, lo, hi)
		}
		if back := shards(other, count); !slices.EqualFunc(got, back, slices.Equal) {
			t.Errorf("%d shards: the cases in reverse order give other shards:\n%v\n%v", count, got, back)
		}
	}
}
