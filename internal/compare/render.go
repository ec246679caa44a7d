package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/plural"
)

// Formats are the names Write accepts.
var Formats = []string{"text", "markdown", "json"}

// Write writes r in the named format: text for a terminal, markdown for a
// pull request or a CI job summary, json for machines. Text and markdown
// list the cases that differ and count the others; json lists every case.
//
// What the results files hold (case ids, suites, evaluator names, errors)
// is escaped: in text as [escape.Line] does, each on its line; in
// markdown as [escape.MarkdownCell] does; in json, C1 and bidi characters
// as \uXXXX (see [jsonv.Escaped]), which reads back the same.
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case "text":
		return writeText(w, r)
	case "markdown":
		return writeMarkdown(w, r)
	case "json":
		enc := json.NewEncoder(jsonv.NewWriter(w))
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return fmt.Errorf("unknown format %q (text, markdown, json)", format)
}

var textMark = map[Verdict]string{
	Regressed: "REGRESSED", Improved: "IMPROVED ", Changed: "CHANGED  ", Removed: "REMOVED  ", Added: "ADDED    ",
}

var evalMark = map[string]string{"worse": "✗", "better": "✓", "changed": "~", "added": "+", "removed": "-"}

func writeText(w io.Writer, r *Report) error {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "compare %s (%s) → %s (%s), %d in common, tolerance %.2f\n\n",
		escape.Line(r.Old), plural.Count(s.OldCases, "case", "cases"), escape.Line(r.New), plural.Count(s.NewCases, "case", "cases"), s.Common, r.Tolerance)
	for _, c := range r.Cases {
		if c.Verdict == Same {
			continue
		}
		fmt.Fprintf(&b, "%s %s", textMark[c.Verdict], escape.Line(c.ID))
		if c.Suite != "" {
			fmt.Fprintf(&b, "  (%s)", escape.Line(c.Suite))
		}
		fmt.Fprintf(&b, "  %s\n", transition(c.Old, c.New, c.ScoreChange))
		if c.Why != "" {
			fmt.Fprintf(&b, "    %s\n", escape.Line(c.Why))
		}
		if c.New != nil && c.New.Error != "" {
			fmt.Fprintf(&b, "    error: %s\n", escape.Line(c.New.Error))
		}
		for _, e := range c.Evaluators {
			fmt.Fprintf(&b, "  %s %s  %s\n", evalMark[e.Verdict], escape.Line(evalName(e)), transition(e.Old, e.New, nil))
		}
	}
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s\n", counts(s))
	if r.Regressed() {
		fmt.Fprintf(&b, "regression: %s than in %s\n", plural.Count(s.Regressed, "case is worse", "cases are worse"), escape.Line(r.Old))
	} else {
		b.WriteString("no regression\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	s := r.Summary
	b.WriteString("## trajeval compare\n\n")
	if r.Regressed() {
		fmt.Fprintf(&b, "❌ **%s** of %d in common", plural.Count(s.Regressed, "case regressed", "cases regressed"), s.Common)
	} else {
		fmt.Fprintf(&b, "✅ **No regression** in %s in common", plural.Count(s.Common, "case", "cases"))
	}
	fmt.Fprintf(&b, " (%s → %s, tolerance %.2f).\n\n%s.\n", md(r.Old), md(r.New), r.Tolerance, counts(s))
	header := false
	for _, c := range r.Cases {
		if c.Verdict == Same {
			continue
		}
		if !header {
			b.WriteString("\n| | case | suite | old | new | change | details |\n|---|---|---|---|---|---|---|\n")
			header = true
		}
		var details []string
		if c.Why != "" {
			details = append(details, md(c.Why))
		}
		if c.New != nil && c.New.Error != "" {
			details = append(details, "error: "+md(c.New.Error))
		}
		for _, e := range c.Evaluators {
			details = append(details, fmt.Sprintf("%s %s: %s", md(evalMark[e.Verdict]), md(evalName(e)), md(transition(e.Old, e.New, nil))))
		}
		change := ""
		if c.ScoreChange != nil {
			change = signed(*c.ScoreChange)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdVerdict[c.Verdict], md(c.ID), md(c.Suite),
			md(describeSide(c.Old)), md(describeSide(c.New)), change, strings.Join(details, "<br>"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var mdVerdict = map[Verdict]string{
	Regressed: "❌ regressed", Improved: "✅ improved", Changed: "changed", Removed: "removed", Added: "added",
}

// counts says how many cases got each verdict.
func counts(s Summary) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	reg := "regressed"
	if s.NewlyFailing > 0 {
		reg += fmt.Sprintf(" (%d newly failing)", s.NewlyFailing)
	}
	imp := "improved"
	if s.NewlyPassing > 0 {
		imp += fmt.Sprintf(" (%d newly passing)", s.NewlyPassing)
	}
	add(s.Regressed, reg)
	add(s.Improved, imp)
	add(s.Changed, "changed")
	add(s.Same, "the same")
	add(s.Removed, "only in the old file")
	add(s.Added, "only in the new file")
	return strings.Join(parts, ", ")
}

// transition writes a case or an evaluator in the old file and the new:
// "pass 1.00 → fail 0.67 (-0.33)".
func transition(o, n *Side, change *float64) string {
	switch {
	case o == nil:
		return "only in the new file: " + describeSide(n)
	case n == nil:
		return "only in the old file: " + describeSide(o)
	}
	s := describeSide(o) + " → " + describeSide(n)
	if change != nil {
		s += " (" + signed(*change) + ")"
	}
	return s
}

// describeSide writes "pass 1.00" for a single run, "3/5 passed, mean 0.80"
// for trials.
func describeSide(s *Side) string {
	if s == nil {
		return ""
	}
	var out string
	if s.Status != "" {
		out = fmt.Sprintf("%s %.2f", escape.Line(string(s.Status)), s.Score)
	} else {
		out = fmt.Sprintf("%d/%d passed, mean %.2f", s.Passed, s.Runs, s.Score)
		if s.Errors > 0 {
			out += ", " + plural.Count(s.Errors, "error", "errors")
		}
	}
	if s.Partial {
		out += " (partial trace)"
	}
	return out
}

func evalName(e EvaluatorChange) string {
	if e.Turn > 0 {
		return fmt.Sprintf("turn %d: %s", e.Turn, e.Name)
	}
	return e.Name
}

// md escapes text for a markdown table cell (see [escape.MarkdownCell]).
func md(s string) string { return escape.MarkdownCell(s) }
