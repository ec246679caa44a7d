package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// lean returns the rows of a results file as the run history keeps them by
// default: a passing case without its trajectory and its evaluators'
// details (rule 9 of package history).
func lean(t testing.TB, rows string) string {
	t.Helper()
	rs, _, err := report.ReadRows(strings.NewReader(rows), "rows")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := report.NewJSONL(&b)
	for _, r := range rs {
		c := r.CaseResult
		if c.Status == trajeval.StatusPass {
			c.Trajectory = nil
			evs := make([]trajeval.Result, len(c.Evaluators))
			for i, e := range c.Evaluators {
				e.Details = nil
				evs[i] = e
			}
			c.Evaluators = evs
		}
		if err := w.Case(c); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
