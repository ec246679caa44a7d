package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval/internal/jsonv"
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

var mark = map[trajeval.Status]string{trajeval.StatusPass: "PASS ", trajeval.StatusFail: "FAIL ", trajeval.StatusError: "ERROR"}

// Case writes one case.
func (t *Text) Case(r trajeval.CaseResult) error {
	var b strings.Builder
	t.trials.add(r)
	fmt.Fprintf(&b, "%s %s", mark[r.Status], r.ID)
	if r.Attempt > 0 {
		fmt.Fprintf(&b, "  attempt %d", r.Attempt)
	}
	fmt.Fprintf(&b, "  score %s", score(r.Score))
	if r.Partial {
		b.WriteString("  partial trace")
	}
	if r.Suite != "" {
		fmt.Fprintf(&b, "  (%s)", r.Suite)
	}
	b.WriteByte('\n')
	writeCase(&b, r, t.Verbose)
	_, err := io.WriteString(t.W, b.String())
	return err
}

// writeCase explains a case below its heading: its error, each evaluator,
// its warnings.
func writeCase(b *strings.Builder, r trajeval.CaseResult, verbose bool) {
	if r.Error != "" {
		fmt.Fprintf(b, "      error: %s\n", r.Error)
	}
	for _, e := range r.Evaluators {
		writeEval(b, e, "  ", verbose)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(b, "  warning: %s\n", w) // the case's, not its last evaluator's
	}
	if r.Judge != nil {
		fmt.Fprintf(b, "      judge: %s\n", usage(r.Judge))
	}
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
	if kind == name {
		kind = "" // an evaluator named after its type: say it once
	} else {
		kind = "  " + kind
	}
	fmt.Fprintf(b, "%s%s %s%s  %s", indent, sym, name, kind, score(e.Score))
	switch {
	case e.Status != trajeval.StatusFail:
	case e.Score < e.Threshold:
		fmt.Fprintf(b, " < %s", score(e.Threshold))
	default:
		// The evaluator's own verdict failed it (all_pass, a program's
		// pass: false, a required criterion), not its threshold.
		b.WriteString("  failed by its verdict")
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

// usage reads "3 calls (1 cached), 1200 tokens in, 80 out, $0.0012".
func usage(u *trajeval.JudgeUsage) string {
	s := fmt.Sprintf("%d calls", u.Calls)
	if u.Cached > 0 {
		s = fmt.Sprintf("%d calls, %d answers cached", u.Calls, u.Cached)
	}
	s += fmt.Sprintf(", %d tokens in, %d out", u.InputTokens, u.OutputTokens)
	if u.CostUSD != nil {
		s += ", " + usd(*u.CostUSD)
	} else if u.Calls > 0 {
		s += ", cost not reported"
	}
	return s
}

// usd writes a cost with four decimals, or with two significant digits
// when it is smaller than that: $0.0000 would say the judge was free.
func usd(c float64) string {
	if c != 0 && c < 0.0001 {
		return "$" + strconv.FormatFloat(c, 'g', 2, 64)
	}
	return fmt.Sprintf("$%.4f", c)
}

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

func score(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
