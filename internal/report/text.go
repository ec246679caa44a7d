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

// Text writes a report for people: each case with its verdict and score,
// each evaluator's score, and for a failure the expected-versus-actual
// alignment, what is missing (with the near misses and the argument paths
// that differ), what is extra, and each check.
//
// When rows carry an Attempt (a case run several times), each row names
// its attempt and the summary is preceded by one line per case: trials
// passed, pass rate, pass@k and pass^k, the score's mean ± spread, and
// "flaky" when some trials passed and some did not.
//
// With FailedOnly, passing cases are left out, while the summary and the
// trials still count every run. With Colour, the report is painted for a
// terminal: the verdicts in green (pass), red (fail) and yellow (error),
// the details dimmed.
//
// What the results quote is escaped, so that no control sequence of a
// trace reaches the terminal, in colour or not: a case's id and suite as
// [escape.Line] does (they stay on their line), its explanation (tool
// names, arguments, errors, warnings) as [escape.Text] does.
type Text struct {
	W          io.Writer
	Verbose    bool // explain passing evaluators too
	FailedOnly bool // leave passing cases out
	Colour     bool // ANSI colours, for a terminal

	trials trialSet
}

// Case writes one case, explained as trajeval.CaseResult.Explain does
// (verbose explains passing evaluators too).
func (t *Text) Case(r trajeval.CaseResult) error {
	t.trials.add(r)
	if t.FailedOnly && r.Status == trajeval.StatusPass {
		return nil
	}
	// The heading names the case on one line: its id and suite are
	// escaped as lines, so that neither can start a line of its own (a
	// verdict that is not the case's); the explanation below is text of
	// several lines. Both before the paint, which is ours.
	h := r
	h.ID, h.Suite = escape.Line(r.ID), escape.Line(r.Suite)
	var b strings.Builder
	trajeval.WriteCase(&b, h, t.Verbose)
	head, body, _ := strings.Cut(b.String(), "\n")
	out := head + "\n" + escape.Text(body)
	if t.Colour {
		out = paintCase(out)
	}
	_, err := io.WriteString(t.W, out)
	return err
}

// Close writes the summary line.
func (t *Text) Close(s Summary) error {
	if t.trials.attempts {
		if _, err := io.WriteString(t.W, textTrials(&t.trials)); err != nil {
			return err
		}
	}
	unit := plural.Noun(s.Cases, "case", "cases")
	if t.trials.attempts {
		unit = plural.Noun(s.Cases, "run", "runs")
	}
	head := fmt.Sprintf("%d of %d %s passed", s.Passed, s.Cases, unit)
	var more []string
	if s.Failed > 0 {
		more = append(more, t.style(ansiRed, fmt.Sprintf("%d failed", s.Failed)))
	}
	if s.Errors > 0 {
		more = append(more, t.style(ansiYellow, fmt.Sprintf("%d could not be scored", s.Errors)))
	}
	line := "\n" + head
	if len(more) > 0 {
		line += " (" + strings.Join(more, ", ") + ")"
	} else if s.Cases > 0 {
		line = "\n" + t.style(ansiGreen, head)
	}
	if s.Judge != nil {
		line += "\njudge: " + usage(s.Judge)
	}
	_, err := io.WriteString(t.W, line+"\n")
	return err
}

// style wraps s in an ANSI style when the report is in colour.
func (t *Text) style(ansi, s string) string {
	if !t.Colour {
		return s
	}
	return ansi + s + ansiReset
}

func usage(u *trajeval.JudgeUsage) string { return trajeval.FormatUsage(u) }

// textTrials writes the trials section of the text report.
func textTrials(ts *trialSet) string {
	var b strings.Builder
	ks := trialKs(ts.maxTrials())
	kl := make([]string, len(ks))
	for i, k := range ks {
		kl[i] = strconv.Itoa(k)
	}
	fmt.Fprintf(&b, "\ntrials (pass@k and pass^k for k = %s)\n", strings.Join(kl, ", "))
	for _, c := range ts.cases {
		fmt.Fprintf(&b, "  %s  %d/%d passed", escape.Line(caseName(c.Suite, c.ID)), c.Passed, c.Trials)
		if c.Errors > 0 {
			// They count as not passing; say so, so that pass^k 0 over
			// trials that could not run is not read as an agent failing.
			fmt.Fprintf(&b, " (%d could not be scored)", c.Errors)
		}
		fmt.Fprintf(&b, "  pass@k %s  pass^k %s  score %s", passKs(c.PassAtK, ks), passKs(c.PassHatK, ks), spread(c))
		if c.Flaky() {
			b.WriteString("  flaky")
		}
		b.WriteByte('\n')
	}
	all, none, flaky := ts.totals()
	fmt.Fprintf(&b, "%s: %d passed every trial, %d flaky, %d passed none\n", plural.Count(len(ts.cases), "case", "cases"), all, flaky, none)
	return b.String()
}

func score(f float64) string { return trajeval.FormatScore(f) }
