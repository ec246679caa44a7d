package trajeval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/plural"
)

// Passed reports whether the evaluator passed: an error is not a pass.
func (r Result) Passed() bool { return r.Status == StatusPass }

// Passed reports whether the case passed: an error is not a pass.
func (r CaseResult) Passed() bool { return r.Status == StatusPass }

// Explain returns the explanation the text report gives of the result;
// [Result] states its rules.
func (r Result) Explain() string {
	var b strings.Builder
	WriteResult(&b, r, "", false)
	return b.String()
}

// Explain returns the explanation the text report gives of the case: a
// heading (PASS, FAIL or ERROR, its id, attempt, score, "partial trace",
// its suite), the reason it could not be scored, each evaluator explained
// as [Result.Explain] does, the case's warnings and what its judge calls
// cost.
func (r CaseResult) Explain() string {
	var b strings.Builder
	WriteCase(&b, r, false)
	return b.String()
}

var mark = map[Status]string{StatusPass: "PASS ", StatusFail: "FAIL ", StatusError: "ERROR"}

// WriteCase writes the explanation of a case; verbose explains passing
// evaluators too. The text report writes each case with it.
func WriteCase(b *strings.Builder, r CaseResult, verbose bool) {
	b.WriteString(mark[r.Status])
	b.WriteByte(' ')
	b.WriteString(r.ID)
	if r.Attempt > 0 {
		b.WriteString("  attempt ")
		b.WriteString(strconv.Itoa(r.Attempt))
	}
	b.WriteString("  score ")
	b.WriteString(FormatScore(r.Score))
	if r.Partial {
		b.WriteString("  partial trace")
	}
	if r.Suite != "" {
		b.WriteString("  (")
		b.WriteString(r.Suite)
		b.WriteByte(')')
	}
	b.WriteByte('\n')
	WriteCaseBody(b, r, verbose)
}

// WriteCaseBody writes the explanation of a case below its heading: its
// error, each evaluator, its warnings, its judge calls.
func WriteCaseBody(b *strings.Builder, r CaseResult, verbose bool) {
	if r.Error != "" && !fromEvaluator(r) {
		fmt.Fprintf(b, "      error: %s\n", r.Error) // a target's error lays out its own lines
	}
	for _, e := range r.Evaluators {
		WriteResult(b, e, "  ", verbose)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(b, "  warning: %s\n", w) // the case's, not its last evaluator's
	}
	if r.Judge != nil {
		fmt.Fprintf(b, "      judge: %s\n", FormatUsage(r.Judge))
	}
}

// fromEvaluator reports whether r's error is an evaluator's, which that
// evaluator's own lines say: it is not said twice.
func fromEvaluator(r CaseResult) bool {
	for _, e := range r.Evaluators {
		if e.Error != "" && r.Error == "evaluator "+e.Name+": "+e.Error {
			return true
		}
	}
	return false
}

// hang indents the lines of a text after its first under it, the first
// written after lead: an error that joins several, one per line.
func hang(text, lead string) string {
	return strings.ReplaceAll(text, "\n", "\n"+strings.Repeat(" ", utf8.RuneCountInString(lead)))
}

// WriteResult writes the explanation of one evaluator's result (see
// [Result.Explain]), each line starting with indent; verbose explains a
// passing result too.
func WriteResult(b *strings.Builder, e Result, indent string, verbose bool) {
	var sym string
	switch e.Status {
	case StatusPass:
		sym = "✓"
	case StatusFail:
		sym = "✗"
	case StatusError:
		sym = "!"
	}
	name := e.Name
	if e.Turn > 0 {
		name = "turn " + strconv.Itoa(e.Turn) + ": " + e.Name
	}
	kind := e.Type
	if e.Name == e.Type {
		kind = "" // an evaluator named after its type: say it once
	}
	if e.Details != nil && e.Details.Mode != "" {
		kind = strings.TrimSpace(kind + " " + e.Details.Mode)
	}
	if kind == name || kind == "" {
		kind = ""
	} else {
		kind = "  " + kind
	}
	for _, s := range [...]string{indent, sym, " ", name, kind, "  ", FormatScore(e.Score)} {
		b.WriteString(s)
	}
	switch {
	case e.Status != StatusFail:
	case e.Type == TypeAll:
		// Its members decide, not a threshold.
	case e.Score < e.Threshold:
		b.WriteString(" < ")
		b.WriteString(FormatScore(e.Threshold))
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
		fmt.Fprintf(b, "%serror: %s\n", in, hang(e.Error, in+"error: "))
	}
	if e.Status == StatusPass && !verbose {
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
		WriteResult(b, m, in, verbose)
	}
}

// A detailRow is an expected item's row in the text of details: the
// step that matched it, or its place among the missing.
type detailRow struct {
	tool    string
	matched *Pair
	missing *Missing
}

// joinDiffs writes argument differences one after the other.
func joinDiffs(diffs []ArgDiff) string {
	parts := make([]string, len(diffs))
	for i, df := range diffs {
		parts[i] = df.String()
	}
	return strings.Join(parts, "; ")
}

// TypeAll is the type of the result that stands for several evaluators
// scored together: its members decide whether it passes.
const TypeAll = "all"

func writeDetails(b *strings.Builder, d *Details, in string) {
	if d.Scope != nil {
		fmt.Fprintf(b, "%sscope: %s\n", in, d.Scope)
	}
	// A missing call whose nearest step differs only in arguments is a
	// near miss: its row names the step and the argument paths that
	// differ, and that step is not listed again as extra.
	var nearMiss map[int]*NearMiss // item → its near miss
	var claimed map[int]bool       // steps that are some item's near miss
	for _, m := range d.Missing {
		for i, n := range m.Near {
			if len(n.Diffs) > 0 && n.Why == "" && !claimed[n.Step] {
				if nearMiss == nil {
					nearMiss, claimed = map[int]*NearMiss{}, map[int]bool{}
				}
				nearMiss[m.Item] = &m.Near[i]
				claimed[n.Step] = true
				break
			}
		}
	}
	if len(d.Matched) > 0 || len(d.Missing) > 0 {
		for _, s := range [...]string{in, "expected ", strconv.Itoa(d.Expected), ", actual ", strconv.Itoa(d.Actual), ", matched ", strconv.Itoa(d.Hits), "\n"} {
			b.WriteString(s)
		}
		// The rows of items 1 to d.Expected: a missing item's row (and
		// tool) over a matched one's, the last of each kind over the
		// ones before.
		rows := make([]detailRow, d.Expected+1)
		for k, p := range d.Matched {
			if p.Item >= 1 && p.Item <= d.Expected {
				rows[p.Item] = detailRow{tool: p.Tool, matched: &d.Matched[k]}
			}
		}
		for k, m := range d.Missing {
			if m.Item >= 1 && m.Item <= d.Expected {
				rows[m.Item] = detailRow{tool: m.Tool, missing: &d.Missing[k]}
			}
		}
		for i, row := range rows {
			if row.matched == nil && row.missing == nil {
				continue
			}
			b.WriteString(in)
			b.WriteString("  ")
			if i < 10 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(i))
			b.WriteByte(' ')
			b.WriteString(row.tool)
			for n := utf8.RuneCountInString(row.tool); n < 28; n++ {
				b.WriteByte(' ')
			}
			b.WriteByte(' ')
			switch n := nearMiss[i]; {
			case row.matched != nil:
				b.WriteString("✓ step ")
				b.WriteString(strconv.Itoa(row.matched.Step))
				b.WriteByte(' ')
				b.WriteString(row.matched.Tool)
			case n != nil:
				b.WriteString("✗ near miss: step ")
				b.WriteString(strconv.Itoa(n.Step))
				b.WriteByte(' ')
				b.WriteString(n.Tool)
				b.WriteString(", ")
				b.WriteString(joinDiffs(n.Diffs))
			default:
				b.WriteString("✗ missing")
			}
			b.WriteByte('\n')
		}
		for _, m := range d.Missing {
			for i, n := range m.Near {
				if nearMiss[m.Item] == &m.Near[i] {
					continue
				}
				fmt.Fprintf(b, "%s     call %d %s, near step %d %s:", in, m.Item, m.Tool, n.Step, n.Tool)
				if n.Why != "" {
					fmt.Fprintf(b, " %s", n.Why)
				}
				if len(n.Diffs) > 0 {
					fmt.Fprintf(b, " %s", joinDiffs(n.Diffs))
				}
				b.WriteByte('\n')
			}
		}
	}
	first := true
	for _, x := range d.Extra {
		if claimed[x.Step] {
			continue
		}
		if first {
			b.WriteString(in)
			b.WriteString("extra steps: ")
			first = false
		} else {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x.Step))
		b.WriteByte(' ')
		b.WriteString(x.Tool)
	}
	if !first {
		b.WriteByte('\n')
	}
	for _, c := range d.Checks {
		for _, s := range [...]string{in, string(c.Status), " ", c.Name} {
			b.WriteString(s)
		}
		if c.Message != "" {
			b.WriteString(": ")
			b.WriteString(c.Message)
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

// FormatScore writes a score with two decimals.
func FormatScore(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// FormatUsage reads "3 calls (1 cached), 1200 tokens in, 80 out, $0.0012".
func FormatUsage(u *JudgeUsage) string {
	s := plural.Count(u.Calls, "call", "calls")
	if u.Cached > 0 {
		s += ", " + plural.Count(u.Cached, "answer", "answers") + " cached"
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
