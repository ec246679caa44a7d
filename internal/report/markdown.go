package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/escape"
	"github.com/trajeval/trajeval/internal/plural"
)

// Markdown writes a summary for a CI job page (GitHub's
// $GITHUB_STEP_SUMMARY, GitLab and Gitea render the same Markdown):
//  1. a heading with the totals;
//  2. a table of the cases: verdict, case, suite, score and the evaluators
//     that failed or could not run;
//  3. each failure and error explained as in the text report, folded in a
//     <details> block;
//  4. when rows carry an Attempt, a table of trials per case: trials
//     passed, pass@k and pass^k, the score's mean ± spread, and whether
//     the case is flaky.
//
// A job summary is limited in size (GitHub takes 1 MiB), so beyond
// MarkdownRows cases the table lists only the cases that did not pass,
// and at most MarkdownDetails failures are explained.
//
// With FailedOnly, the table lists only the cases that did not pass, while
// the heading and the trials still count every run.
//
// What the results quote is text, never markup: a table cell is escaped
// as [escape.MarkdownCell] does, a heading as [escape.HTML], an
// explanation as [escape.Text] inside a code fence longer than any run of
// backticks it holds.
type Markdown struct {
	W          io.Writer
	FailedOnly bool // list only the cases that did not pass
	rows       []trajeval.CaseResult
}

// Limits of the Markdown summary.
const (
	MarkdownRows    = 200
	MarkdownDetails = 30
)

// Case keeps r for Close.
func (m *Markdown) Case(r trajeval.CaseResult) error {
	m.rows = append(m.rows, r)
	return nil
}

var emoji = map[trajeval.Status]string{trajeval.StatusPass: "✅", trajeval.StatusFail: "❌", trajeval.StatusError: "⚠️"}

// Close writes the summary.
func (m *Markdown) Close(s Summary) error {
	var ts trialSet
	for _, r := range m.rows {
		ts.add(r)
	}
	var b strings.Builder
	unit := plural.Noun(s.Cases, "case", "cases")
	if ts.attempts {
		unit = plural.Noun(s.Cases, "run", "runs")
	}
	fmt.Fprintf(&b, "## trajeval: %d of %d %s passed\n\n", s.Passed, s.Cases, unit)
	fmt.Fprintf(&b, "%s %d passed · %s %d failed · %s %d could not be scored\n\n",
		emoji[trajeval.StatusPass], s.Passed, emoji[trajeval.StatusFail], s.Failed, emoji[trajeval.StatusError], s.Errors)
	if ts.attempts {
		markdownTrials(&b, &ts)
	}

	rows := m.rows
	if m.FailedOnly {
		rows = notPassing(rows)
		if len(rows) > MarkdownRows {
			fmt.Fprintf(&b, "Showing the first %d of the %d %s that did not pass.\n\n", MarkdownRows, len(rows), unit)
			rows = rows[:MarkdownRows]
		}
	} else if len(rows) > MarkdownRows {
		bad := notPassing(rows)
		shown := min(len(bad), MarkdownRows)
		fmt.Fprintf(&b, "%d %s: showing the %d that did not pass", len(rows), unit, shown)
		if shown < len(bad) {
			fmt.Fprintf(&b, " (the first %d of %d)", shown, len(bad))
		}
		b.WriteString(".\n\n")
		rows = bad[:shown]
	}
	if len(rows) > 0 {
		b.WriteString("| | case | suite | score | failing evaluators |\n|---|---|---|--:|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", emoji[r.Status], escape.MarkdownCell(rowName(r)), escape.MarkdownCell(r.Suite), score(r.Score), escape.MarkdownCell(strings.Join(failing(r), ", ")))
		}
		b.WriteByte('\n')
	}

	explained := 0
	for _, r := range m.rows {
		if r.Status == trajeval.StatusPass {
			continue
		}
		if explained == 0 {
			b.WriteString("### Failures\n\n")
		}
		if explained == MarkdownDetails {
			fmt.Fprintf(&b, "Only the first %d are explained here; the JUnit or HTML report has them all.\n\n", MarkdownDetails)
			break
		}
		explained++
		why := escape.Text(explain(r))
		fence := codeFence(why)
		fmt.Fprintf(&b, "<details><summary>%s <code>%s</code>%s score %s</summary>\n\n%stext\n%s%s\n\n</details>\n\n",
			emoji[r.Status], escape.HTML(rowName(r)), escape.HTML(suiteNote(r.Suite)), score(r.Score), fence, why, fence)
	}
	_, err := io.WriteString(m.W, b.String())
	return err
}

// notPassing returns the rows that did not pass.
func notPassing(rows []trajeval.CaseResult) []trajeval.CaseResult {
	var bad []trajeval.CaseResult
	for _, r := range rows {
		if r.Status != trajeval.StatusPass {
			bad = append(bad, r)
		}
	}
	return bad
}

func markdownTrials(b *strings.Builder, ts *trialSet) {
	ks := trialKs(ts.maxTrials())
	all, none, flaky := ts.totals()
	fmt.Fprintf(b, "### Trials\n\n%s: %d passed every trial, %d flaky, %d passed none.\n\n", plural.Count(len(ts.cases), "case", "cases"), all, flaky, none)
	b.WriteString("| case | passed |")
	for _, k := range ks {
		fmt.Fprintf(b, " pass@%d |", k)
	}
	for _, k := range ks {
		fmt.Fprintf(b, " pass^%d |", k)
	}
	b.WriteString(" score (mean ± sd) | |\n|---|--:|")
	b.WriteString(strings.Repeat("--:|", 2*len(ks)))
	b.WriteString("---|---|\n")
	for i, c := range ts.cases {
		if i == MarkdownRows {
			fmt.Fprintf(b, "\n%s not shown.\n", plural.Count(len(ts.cases)-MarkdownRows, "more case", "more cases"))
			break
		}
		fmt.Fprintf(b, "| %s | %d/%d |", escape.MarkdownCell(caseName(c.Suite, c.ID)), c.Passed, c.Trials)
		for _, k := range ks {
			fmt.Fprintf(b, " %s |", prob(c.PassAtK(k)))
		}
		for _, k := range ks {
			fmt.Fprintf(b, " %s |", prob(c.PassHatK(k)))
		}
		flag := ""
		if c.Flaky() {
			flag = "flaky"
		}
		fmt.Fprintf(b, " %s | %s |\n", spread(c), flag)
	}
	b.WriteByte('\n')
}

// rowName is the case id, with the attempt when the case ran several times.
func rowName(r trajeval.CaseResult) string {
	if r.Attempt > 0 {
		return r.ID + " (attempt " + strconv.Itoa(r.Attempt) + ")"
	}
	return r.ID
}

func suiteNote(suite string) string {
	if suite == "" {
		return ""
	}
	return " (" + suite + ")"
}

// codeFence returns a backtick fence longer than any run of backticks in s,
// so that s cannot close the block.
func codeFence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
