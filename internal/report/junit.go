package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/escape"
)

// JUnit writes the JUnit XML report that CI systems read (Jenkins, GitLab,
// GitHub test reporters, Azure DevOps), valid against the Ant/Jenkins
// schema:
//  1. one <testsuite> per suite, in the order the suites first appear;
//     results without a suite name go to a testsuite named "trajeval";
//  2. one <testcase> per result, named by the case id, its classname the
//     suite; a case run several times gives one testcase per attempt,
//     named "ID (attempt N)";
//  3. a failed case holds a <failure> whose message names the failing
//     evaluators with their scores and thresholds, and whose text is the
//     explanation of the text report: the alignment, each missing call with
//     its near misses and argument differences, the extra steps, the
//     checks;
//  4. a case that could not be scored holds an <error> instead, with the
//     reason as its message;
//  5. every testcase's <system-out> lists each evaluator with its verdict
//     and score, so passing cases show their scores too (the schema CI
//     systems read has no properties on a testcase);
//  6. each testsuite's <properties> give each evaluator's tally over the
//     suite: "evaluator NAME" = "P of N passed";
//  7. what the results quote is escaped as [escape.Text] does (control
//     and bidirectional characters, invalid UTF-8), and what XML 1.0
//     forbids besides (U+FFFE, U+FFFF) becomes U+FFFD, so that the
//     document is always well-formed.
//
// The document needs every count up front, so it is written by Close.
type JUnit struct {
	W    io.Writer
	rows []trajeval.CaseResult
}

// Case keeps r for Close.
func (j *JUnit) Case(r trajeval.CaseResult) error {
	j.rows = append(j.rows, r)
	return nil
}

type junitSuite struct {
	name                    string
	rows                    []trajeval.CaseResult
	tests, failures, errors int
}

// Close writes the document.
func (j *JUnit) Close(Summary) error {
	var suites []*junitSuite
	index := map[string]*junitSuite{}
	for _, r := range j.rows {
		name := r.Suite
		if name == "" {
			name = "trajeval"
		}
		s := index[name]
		if s == nil {
			s = &junitSuite{name: name}
			index[name] = s
			suites = append(suites, s)
		}
		s.rows = append(s.rows, r)
		s.tests++
		switch r.Status {
		case trajeval.StatusFail:
			s.failures++
		case trajeval.StatusError:
			s.errors++
		}
	}
	var tests, failures, errors int
	for _, s := range suites {
		tests, failures, errors = tests+s.tests, failures+s.failures, errors+s.errors
	}
	var b strings.Builder
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, "<testsuites name=\"trajeval\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n", tests, failures, errors)
	for _, s := range suites {
		fmt.Fprintf(&b, "  <testsuite name=%s tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\">\n",
			attr(s.name), s.tests, s.failures, s.errors)
		writeTallies(&b, s.rows)
		for _, r := range s.rows {
			writeTestcase(&b, s.name, r)
		}
		b.WriteString("  </testsuite>\n")
	}
	b.WriteString("</testsuites>\n")
	_, err := io.WriteString(j.W, b.String())
	return err
}

func writeTestcase(b *strings.Builder, suite string, r trajeval.CaseResult) {
	name := rowName(r)
	if r.ID == "" {
		name = "(case without an id)" + strings.TrimPrefix(name, r.ID)
	}
	fmt.Fprintf(b, "    <testcase name=%s classname=%s>\n", attr(name), attr(suite))
	why := "\n" + explain(r)
	switch r.Status {
	case trajeval.StatusFail:
		fmt.Fprintf(b, "      <failure type=\"fail\" message=%s>%s</failure>\n", attr(failureMessage(r)), text(why))
	case trajeval.StatusError:
		msg := r.Error
		if msg == "" {
			msg = failureMessage(r)
		}
		fmt.Fprintf(b, "      <error type=\"error\" message=%s>%s</error>\n", attr(msg), text(why))
	}
	if len(r.Evaluators) > 0 || r.Partial {
		var out strings.Builder
		fmt.Fprintf(&out, "score %s", score(r.Score))
		if r.Partial {
			out.WriteString(" (partial trace)")
		}
		out.WriteByte('\n')
		for _, e := range r.Evaluators {
			writeVerdicts(&out, e, "")
		}
		fmt.Fprintf(b, "      <system-out>%s</system-out>\n", text(out.String()))
	}
	b.WriteString("    </testcase>\n")
}

// writeTallies writes each evaluator's passes over rows as properties.
func writeTallies(b *strings.Builder, rows []trajeval.CaseResult) {
	type tally struct{ passed, total int }
	var names []string
	count := map[string]*tally{}
	for _, r := range rows {
		for _, e := range r.Evaluators {
			n := evalName(e)
			c := count[n]
			if c == nil {
				c = &tally{}
				count[n] = c
				names = append(names, n)
			}
			c.total++
			if e.Status == trajeval.StatusPass {
				c.passed++
			}
		}
	}
	if len(names) == 0 {
		return
	}
	b.WriteString("    <properties>\n")
	for _, n := range names {
		fmt.Fprintf(b, "      <property name=%s value=\"%d of %d passed\"/>\n", attr("evaluator "+n), count[n].passed, count[n].total)
	}
	b.WriteString("    </properties>\n")
}

// explain is the text report's explanation of r without its heading,
// unindented.
func explain(r trajeval.CaseResult) string {
	var b strings.Builder
	trajeval.WriteCaseBody(&b, r, false)
	lines := strings.SplitAfter(b.String(), "\n")
	cut := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if cut < 0 || n < cut {
			cut = n
		}
	}
	for i, l := range lines {
		if len(l) >= cut && cut > 0 {
			lines[i] = l[cut:]
		}
	}
	return strings.Join(lines, "")
}

// writeVerdicts lists an evaluator and its members, one line each.
func writeVerdicts(b *strings.Builder, e trajeval.Result, indent string) {
	fmt.Fprintf(b, "%s%s %s  %s  %s\n", indent, e.Status, evalName(e), e.Type, score(e.Score))
	for _, m := range e.Members {
		writeVerdicts(b, m, indent+"  ")
	}
}

// failureMessage names the evaluators that failed or could not run, e.g.
// "score 0.67: flow 0.50 < 1.00, judge: no judge client".
func failureMessage(r trajeval.CaseResult) string {
	var parts []string
	for _, e := range r.Evaluators {
		switch e.Status {
		case trajeval.StatusFail:
			parts = append(parts, fmt.Sprintf("%s %s < %s", evalName(e), score(e.Score), score(e.Threshold)))
		case trajeval.StatusError:
			parts = append(parts, evalName(e)+": "+e.Error)
		}
	}
	msg := "score " + score(r.Score)
	if len(parts) > 0 {
		msg += ": " + strings.Join(parts, ", ")
	}
	return msg
}

// failing lists the names of the evaluators that failed or could not run.
// failing names the evaluators of r that did not pass, each that was not
// required marked so: a case passes with those failing.
func failing(r trajeval.CaseResult) []string {
	var names []string
	for _, e := range r.Evaluators {
		if e.Status != trajeval.StatusPass {
			name := evalName(e)
			if !e.Required {
				name += " (not required)"
			}
			names = append(names, name)
		}
	}
	return names
}

func evalName(e trajeval.Result) string {
	if e.Turn > 0 {
		return fmt.Sprintf("turn %d: %s", e.Turn, e.Name)
	}
	return e.Name
}

// attr quotes s as an XML attribute value, escaped as [escape.Text] does;
// line breaks and tabs are escaped so that they survive attribute
// normalisation.
func attr(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	_ = xml.EscapeText(&b, []byte(xmlChars(escape.Text(s))))
	b.WriteByte('"')
	return b.String()
}

// text escapes s as XML character data, escaped as [escape.Text] does,
// keeping its line breaks readable.
func text(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(xmlChars(escape.Text(s)))
}

// xmlChars replaces what XML 1.0 cannot hold and escape.Text leaves
// (U+FFFE and U+FFFF; the control characters and invalid UTF-8 are
// escaped before) with U+FFFD.
func xmlChars(s string) string {
	ok := func(r rune) bool {
		return r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r != utf8.RuneError && r != 0xFFFE && r != 0xFFFF)
	}
	clean := true
	for _, r := range s {
		if !ok(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if ok(r) {
			return r
		}
		return '\uFFFD'
	}, s)
}
