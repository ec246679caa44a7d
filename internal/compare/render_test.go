package compare_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/compare"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares testdata/old.jsonl with testdata/new.jsonl, which hold
// every verdict: the same, newly failing, a score drop beyond the
// tolerance (from a partial trace), newly passing, a drop within it, a
// case that can no longer be scored, cases in one file only, trials that
// regressed and trials that only wobbled, an evaluator added, a per-turn
// evaluator that is not required starting to fail, and an id that
// markdown must escape.
func golden(t *testing.T) *compare.Report {
	t.Helper()
	old, err := compare.ReadFile("testdata/old.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	new, err := compare.ReadFile("testdata/new.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	old.Name, new.Name = "old.jsonl", "new.jsonl"
	rep, err := compare.Compare(old, new, compare.Options{Tolerance: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestWrite_golden(t *testing.T) {
	rep := golden(t)
	tests := []struct {
		format, golden, reason string
	}{
		{"text", "compare.txt", "the cases that differ, each with why and its evaluators, then the counts"},
		{"markdown", "compare.md", "a job summary: the verdict, the counts and a table of the cases that differ"},
		{"json", "compare.json", "every case, the same ones too, with both sides and the changes"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var out bytes.Buffer
			if err := compare.Write(&out, rep, tt.format); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s output differs from %s (%s); run go test -update to see it:\n%s", tt.format, path, tt.reason, out.String())
			}
		})
	}
	if err := compare.Write(new(bytes.Buffer), rep, "html"); err == nil {
		t.Error("format html: no error, want one naming the formats")
	}
}

func TestWrite_jsonRoundTrip(t *testing.T) {
	rep := golden(t)
	var out bytes.Buffer
	if err := compare.Write(&out, rep, "json"); err != nil {
		t.Fatal(err)
	}
	var back compare.Report
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary != rep.Summary || len(back.Cases) != len(rep.Cases) {
		t.Errorf("read back %+v with %d cases, want %+v with %d: the JSON report is the report", back.Summary, len(back.Cases), rep.Summary, len(rep.Cases))
	}
}

// TestWrite_hostile compares files whose ids, suites, evaluator names and
// errors hold terminal control sequences, bidirectional overrides and
// markup: text shows them escaped, each on its line; markdown keeps its
// table.
func TestWrite_hostile(t *testing.T) {
	const bad = "\x1b]0;pwned\x07\x1b[2J\u202e|<img src=x>\nFAKE"
	row := func(status string, score float64) string {
		b, _ := json.Marshal(map[string]any{"id": "case" + bad, "suite": "suite" + bad, "status": status, "score": score,
			"error": "agent\x1b]52;c;eA==\x07", "evaluators": []map[string]any{{"name": "flow" + bad, "type": "tool_trajectory", "status": status, "score": score, "threshold": 1}}})
		return string(b) + "\n"
	}
	old, err := compare.Parse("old.jsonl", []byte(row("pass", 1)))
	if err != nil {
		t.Fatal(err)
	}
	new, err := compare.Parse("new.jsonl", []byte(row("error", 0)))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := compare.Compare(old, new, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := compare.Write(&out, rep, format); err != nil {
				t.Fatal(err)
			}
			for i, r := range out.String() {
				if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x202a && r <= 0x202e) {
					t.Fatalf("%U at byte %d of\n%s", r, i, out.String())
				}
			}
			for line := range strings.Lines(out.String()) {
				if strings.HasPrefix(line, "FAKE") || (format == "markdown" && strings.Contains(line, "<img")) {
					t.Errorf("a field broke out of its place: %q", line)
				}
			}
		})
	}
}
