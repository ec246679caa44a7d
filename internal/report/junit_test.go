package report_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// need returns the path of a program the test needs. Missing, it skips the
// test on a developer's machine and fails it in CI (CI=true), where
// .ci/run installs it: a check that never runs must not pass silently.
func need(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed; .ci/run installs it", names[0])
	}
	t.Skipf("%s is not installed (Debian: see .ci/run); skipped outside CI", names[0])
	return ""
}

// TestJUnit_schema validates the JUnit reports against the schema CI
// systems read (testdata/junit.xsd) with libxml2's validator, and checks
// what the schema cannot: the counts add up and each case's outcome is the
// right element.
func TestJUnit_schema(t *testing.T) {
	xmllint := need(t, "xmllint")
	cases, sum := results()
	trial, tsum := trialRows()
	odd := []trajeval.CaseResult{{ID: "bell\a and \xff bytes", Status: trajeval.StatusFail, Score: 0.5,
		Evaluators: []trajeval.Result{{Name: "x]]>y", Type: "tool_trajectory", Status: trajeval.StatusFail, Error: "nul\x00 in a message"}}}}
	tests := []struct {
		name   string
		rows   []trajeval.CaseResult
		sum    report.Summary
		reason string
	}{
		{"run", cases, sum, "pass, failure, errors, a case without a suite"},
		{"trials", trial, tsum, "one testcase per attempt"},
		{"empty", nil, report.Summary{}, "a run without cases is still a document"},
		{"odd characters", odd, report.Summary{Cases: 1, Failed: 1}, "control characters and bad UTF-8 cannot break the XML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w, _ := report.New("junit", &out)
			write(t, w, tt.rows, tt.sum)
			file := filepath.Join(t.TempDir(), "junit.xml")
			if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), file)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("not valid JUnit XML (%s): %v\n%s\n%s", tt.reason, err, msg, out.String())
			}

			var doc struct {
				Tests  int `xml:"tests,attr"`
				Fails  int `xml:"failures,attr"`
				Errors int `xml:"errors,attr"`
				Suites []struct {
					Tests int `xml:"tests,attr"`
					Cases []struct {
						Name    string    `xml:"name,attr"`
						Failure *struct{} `xml:"failure"`
						Error   *struct{} `xml:"error"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			var n, fails, errs int
			for _, s := range doc.Suites {
				if s.Tests != len(s.Cases) {
					t.Errorf("testsuite tests=%d holds %d testcases", s.Tests, len(s.Cases))
				}
				for _, c := range s.Cases {
					r := tt.rows[n]
					n++
					if (c.Failure != nil) != (r.Status == trajeval.StatusFail) || (c.Error != nil) != (r.Status == trajeval.StatusError) {
						t.Errorf("testcase %q: failure %v, error %v for a %s", c.Name, c.Failure != nil, c.Error != nil, r.Status)
					}
					if r.Attempt > 0 && !strings.HasSuffix(c.Name, " (attempt "+string(rune('0'+r.Attempt))+")") {
						t.Errorf("testcase %q does not name attempt %d", c.Name, r.Attempt)
					}
					switch r.Status {
					case trajeval.StatusFail:
						fails++
					case trajeval.StatusError:
						errs++
					}
				}
			}
			if n != len(tt.rows) || doc.Tests != n || doc.Fails != fails || doc.Errors != errs {
				t.Errorf("testsuites tests=%d failures=%d errors=%d over %d testcases; want %d, %d, %d", doc.Tests, doc.Fails, doc.Errors, n, len(tt.rows), fails, errs)
			}
		})
	}
}
