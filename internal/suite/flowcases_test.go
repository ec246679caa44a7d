package suite_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/suite"
	"github.com/trajeval/trajeval/internal/suite/dialects"
)

// TestLoadFile_flowCases holds the cases read from their words (a case of
// an id and an input on one line, which the loader takes without its
// nodes) to the same cases read from their nodes: each suite is loaded as
// written and with a comment after every case, which leaves the lines to
// the YAML parser. 3,000 cases fill several parts, read ahead of the walk.
func TestLoadFile_flowCases(t *testing.T) {
	const n = 3000
	const evaluators = `execution:
  evaluators:
    - {name: check, type: tool_trajectory, mode: in_order, expected: [search]}
`
	one := func(i int) string {
		return fmt.Sprintf("  - {id: case-%04d, input: Research the history of Python}", i)
	}
	threshold := 0.25
	tests := []struct {
		name      string
		head      string
		line      func(i int) string
		threshold *float64
		reason    string
	}{
		{"inherit", evaluators, one, nil, "the suite's evaluators, shared by every case"},
		{"input first", evaluators, func(i int) string { return fmt.Sprintf("  - {input: Some text, id: c%d}", i) }, nil, "the two keys in either order"},
		{"inputs differ", evaluators, func(i int) string { return fmt.Sprintf("  - {id: c%d, input: Text number %d}", i, i%5000) }, nil, "inputs interned or kept alike"},
		{"suite input", evaluators + "input: You are a researcher\n", one, nil, "the suite's input comes before each case's"},
		{"threshold", evaluators + "threshold: 0.5\n", one, &threshold, "the command line's threshold over the suite's"},
		{"no evaluators", "", one, nil, "every case is an error placed at its item"},
		{"duplicates", evaluators, func(i int) string { return one(i % 2500) }, nil, "a repeated id is placed at its item"},
		{"other keys", evaluators, func(i int) string {
			if i%3 == 0 {
				return fmt.Sprintf("  - {id: c%d, input: Some text, expected_outcome: Found}", i)
			}
			return fmt.Sprintf("  - {id: c%d}", i)
		}, nil, "a case of other keys is read from its node"},
		{"another spelling", evaluators, func(i int) string { return fmt.Sprintf("  - {ID: c%d, Input: Some text}", i) }, nil, "keys spelt otherwise are checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var flow, parsed strings.Builder
			for _, b := range []*strings.Builder{&flow, &parsed} {
				b.WriteString("name: flow\n" + tt.head + "evalcases:\n")
			}
			for i := range n {
				flow.WriteString(tt.line(i) + "\n")
				parsed.WriteString(tt.line(i) + " # read by the YAML parser\n")
			}
			got := describeLoad(t, flow.String(), tt.threshold)
			want := describeLoad(t, parsed.String(), tt.threshold)
			if got != want {
				t.Errorf("read from the words:\n%s\nread from the nodes:\n%s", head(got), head(want))
			}
		})
	}
}

// describeLoad loads yaml and writes out its cases and errors.
func describeLoad(t *testing.T, yaml string, threshold *float64) string {
	t.Helper()
	dir := write(t, map[string]string{"suite.yaml": yaml})
	s, errs := suite.LoadFile(filepath.Join(dir, "suite.yaml"), suite.Options{Dialects: dialects.All(), Threshold: threshold}, true)
	var b strings.Builder
	for _, err := range errs {
		fmt.Fprintf(&b, "error %s\n", strings.ReplaceAll(err.Error(), dir, "DIR"))
	}
	if s == nil {
		return b.String()
	}
	for _, c := range s.Cases {
		fmt.Fprintf(&b, "%q %q %s:%d:%d %s %d", c.ID, c.Input, filepath.Base(c.Place.File()), c.Place.Line, c.Place.Col, c.Place.Path(), len(c.Evaluators))
		for _, e := range c.Evaluators {
			fmt.Fprintf(&b, " %s %v", e.Name, e.Threshold)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// head returns the first lines of s.
func head(s string) string {
	lines := strings.SplitN(s, "\n", 6)
	return strings.Join(lines[:min(len(lines), 5)], "\n")
}
