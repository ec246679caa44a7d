package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// Text writes a report for people: each case with its verdict and score,
// each evaluator's score, and for a failure the expected-versus-actual
// alignment, what is missing (with the near misses and the argument paths
// that differ), what is extra, and each check.
type Text struct {
	W       io.Writer
	Verbose bool // explain passing evaluators too
}

var mark = map[trajeval.Status]string{trajeval.StatusPass: "PASS ", trajeval.StatusFail: "FAIL ", trajeval.StatusError: "ERROR"}

// Case writes one case.
func (t *Text) Case(r trajeval.CaseResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s  score %s", mark[r.Status], r.ID, score(r.Score))
	if r.Attempt > 0 {
		fmt.Fprintf(&b, "  attempt %d", r.Attempt)
	}
	if r.Partial {
		b.WriteString("  partial trace")
	}
	if r.Suite != "" {
		fmt.Fprintf(&b, "  (%s)", r.Suite)
	}
	b.WriteByte('\n')
	if r.Error != "" {
		fmt.Fprintf(&b, "      error: %s\n", r.Error)
	}
	for _, e := range r.Evaluators {
		writeEval(&b, e, "  ", t.Verbose)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w) // the case's, not its last evaluator's
	}
	_, err := io.WriteString(t.W, b.String())
	return err
}

func writeEval(b *strings.Builder, e trajeval.Result, indent string, verbose bool) {
	sym := map[trajeval.Status]string{trajeval.StatusPass: "✓", trajeval.StatusFail: "✗", trajeval.StatusError: "!"}[e.Status]
	name := e.Name
	if e.Turn > 0 {
		name = fmt.Sprintf("turn %d: %s", e.Turn, e.Name)
	}
	kind := e.Type
	if e.Details != nil && e.Details.Mode != "" {
		kind += " " + e.Details.Mode
	}
	fmt.Fprintf(b, "%s%s %s  %s  %s", indent, sym, name, kind, score(e.Score))
	if e.Status == trajeval.StatusFail {
		fmt.Fprintf(b, " < %s", score(e.Threshold))
	}
	if !e.Required {
		b.WriteString("  (not required)")
	}
	b.WriteByte('\n')
	in := indent + "    "
	if e.Error != "" {
		fmt.Fprintf(b, "%serror: %s\n", in, e.Error)
	}
	if e.Status == trajeval.StatusPass && !verbose {
		if e.Details != nil {
			for _, w := range e.Details.Warnings {
				fmt.Fprintf(b, "%swarning: %s\n", in, w)
			}
		}
		return
	}
	if d := e.Details; d != nil {
		writeDetails(b, d, in)
	}
	for _, m := range e.Members {
		writeEval(b, m, in, verbose)
	}
}

func writeDetails(b *strings.Builder, d *trajeval.Details, in string) {
	if len(d.Matched) > 0 || len(d.Missing) > 0 {
		rows := make(map[int]string)
		for _, p := range d.Matched {
			rows[p.Item] = fmt.Sprintf("✓ step %d %s", p.Step, p.Tool)
		}
		for _, m := range d.Missing {
			rows[m.Item] = "✗ missing"
		}
		tools := make(map[int]string)
		for _, p := range d.Matched {
			tools[p.Item] = p.Tool
		}
		for _, m := range d.Missing {
			tools[m.Item] = m.Tool
		}
		fmt.Fprintf(b, "%sexpected %d, actual %d, matched %d\n", in, d.Expected, d.Actual, d.Hits)
		for i := 1; i <= d.Expected; i++ {
			if rows[i] == "" {
				continue
			}
			fmt.Fprintf(b, "%s  %2d %-28s %s\n", in, i, tools[i], rows[i])
		}
		for _, m := range d.Missing {
			for _, n := range m.Near {
				fmt.Fprintf(b, "%s     call %d %s, near step %d %s:", in, m.Item, m.Tool, n.Step, n.Tool)
				if n.Why != "" {
					fmt.Fprintf(b, " %s", n.Why)
				}
				for i, df := range n.Diffs {
					if i > 0 {
						b.WriteByte(';')
					}
					fmt.Fprintf(b, " %s", df)
				}
				b.WriteByte('\n')
			}
		}
	}
	if len(d.Extra) > 0 {
		parts := make([]string, len(d.Extra))
		for i, x := range d.Extra {
			parts[i] = fmt.Sprintf("%d %s", x.Step, x.Tool)
		}
		fmt.Fprintf(b, "%sextra steps: %s\n", in, strings.Join(parts, ", "))
	}
	for _, c := range d.Checks {
		fmt.Fprintf(b, "%s%s %s", in, c.Status, c.Name)
		if c.Message != "" {
			fmt.Fprintf(b, ": %s", c.Message)
		}
		b.WriteByte('\n')
	}
	keys := make([]string, 0, len(d.Notes))
	for k := range d.Notes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "%s%s: %s\n", in, k, jsonv.Marshal(d.Notes[k]))
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(b, "%swarning: %s\n", in, w)
	}
}

// Close writes the summary line.
func (t *Text) Close(s Summary) error {
	line := fmt.Sprintf("\n%d of %d cases passed", s.Passed, s.Cases)
	var more []string
	if s.Failed > 0 {
		more = append(more, fmt.Sprintf("%d failed", s.Failed))
	}
	if s.Errors > 0 {
		more = append(more, fmt.Sprintf("%d could not be scored", s.Errors))
	}
	if len(more) > 0 {
		line += " (" + strings.Join(more, ", ") + ")"
	}
	_, err := io.WriteString(t.W, line+"\n")
	return err
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
