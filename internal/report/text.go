package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval/internal/trajeval"
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
type Text struct {
	W       io.Writer
	Verbose bool // explain passing evaluators too

	trials trialSet
}

// Case writes one case, explained as trajeval.CaseResult.Explain does
// (verbose explains passing evaluators too).
func (t *Text) Case(r trajeval.CaseResult) error {
	var b strings.Builder
	t.trials.add(r)
	trajeval.WriteCase(&b, r, t.Verbose)
	_, err := io.WriteString(t.W, b.String())
	return err
}

// Close writes the summary line.
func (t *Text) Close(s Summary) error {
	if t.trials.attempts {
		if _, err := io.WriteString(t.W, textTrials(&t.trials)); err != nil {
			return err
		}
	}
	line := fmt.Sprintf("\n%d of %d cases passed", s.Passed, s.Cases)
	if t.trials.attempts {
		line = fmt.Sprintf("\n%d of %d runs passed", s.Passed, s.Cases)
	}
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
	if s.Judge != nil {
		line += "\njudge: " + usage(s.Judge)
	}
	_, err := io.WriteString(t.W, line+"\n")
	return err
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
		fmt.Fprintf(&b, "  %s  %d/%d passed  pass@k %s  pass^k %s  score %s",
			caseName(c.Suite, c.ID), c.Passed, c.Trials, passKs(c.PassAtK, ks), passKs(c.PassHatK, ks), spread(c))
		if c.Flaky() {
			b.WriteString("  flaky")
		}
		b.WriteByte('\n')
	}
	all, none, flaky := ts.totals()
	fmt.Fprintf(&b, "%d cases: %d passed every trial, %d flaky, %d passed none\n", len(ts.cases), all, flaky, none)
	return b.String()
}

func score(f float64) string { return trajeval.FormatScore(f) }
