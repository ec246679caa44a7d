package report_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// hostile is text an agent or a trace may hold to take over what shows
// it: terminal control sequences (window title, clear screen, clipboard),
// the 8-bit CSI, bidirectional overrides and isolates, DEL and NUL,
// invalid UTF-8, characters XML 1.0 forbids, HTML and Markdown that would
// break out of their place, and a run of backticks.
const hostile = "\x1b]0;pwned\x07 \x1b[2J \x1b]52;c;cm0gLXJmIH4=\x07 \u009b31m \u202egnp.exe\u202c \u2066x\u2069 " +
	"\x7f\x00 \xff\xfe\xc3 \uFFFE\uFFFF </script><img src=x onerror=alert(1)> <!-- | a | b | [x](javascript:alert(1)) ```` \\x1b" +
	" @org/team cc@evil.example #1 GH-2 https://evil.example/t.png www.evil.example $\\color{red}{FAIL}$ ]]> \n::add-mask::PASS ##[error]forged"

// hostileResults are results with hostile text in every field a report
// shows, and a huge argument.
func hostileResults() ([]trajeval.CaseResult, report.Summary) {
	h := func(s string) string { return s + hostile }
	huge := strings.Repeat("é<&>", 1<<18) + hostile // 1.5 MiB, cut in the HTML page
	yes := true
	traj := &trajeval.Trajectory{ID: h("t"), Steps: []trajeval.Step{
		{Index: 1, Name: h("search"), Args: map[string]any{"q": h("<b>&"), "huge": huge}},
		{Index: 2, Name: h("pay"), Args: map[string]any{"amount": json.Number("2")}, Error: &yes, ErrorMessage: h("declined")},
	}}
	fail := trajeval.CaseResult{ID: h("case"), Suite: h("suite"), Status: trajeval.StatusFail, Score: 0.5, Attempt: 1,
		Warnings: []string{h("warning")}, Trajectory: traj,
		Evaluators: []trajeval.Result{{Name: h("flow"), Type: "tool_trajectory", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: true,
			Details: &trajeval.Details{Mode: "in_order", Hits: 1, Expected: 2, Actual: 2,
				Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: h("search")}},
				Missing: []trajeval.Missing{{Item: 2, Tool: h("buy"), Near: []trajeval.NearMiss{{Step: 2, Tool: h("pay"), Why: h("why"),
					Diffs: []trajeval.ArgDiff{{Path: h("args.x"), Want: h("want"), Got: h("got")}}}}}},
				Extra:    []trajeval.Extra{{Step: 2, Tool: h("pay")}},
				Checks:   []trajeval.Check{{Name: h("check"), Status: trajeval.CheckFail, Message: h("message")}},
				Warnings: []string{h("evaluator warning")},
				Notes:    map[string]any{h("note"): h("value")},
			}}}}
	errored := trajeval.CaseResult{ID: h("broken"), Suite: h("suite"), Status: trajeval.StatusError, Attempt: 2, Error: h("agent failed:\nline two"),
		Evaluators: []trajeval.Result{{Name: h("judge"), Type: "llm_judge", Status: trajeval.StatusError, Error: h("judge said")}}}
	pass := trajeval.CaseResult{ID: h("fine\nPASS  forged  score 1.00\n"), Status: trajeval.StatusPass, Score: 1, Attempt: 1,
		Evaluators: []trajeval.Result{{Name: h("flow"), Type: "tool_trajectory", Score: 1, Status: trajeval.StatusPass, Threshold: 1}}}
	return []trajeval.CaseResult{fail, errored, pass}, report.Summary{Cases: 3, Passed: 1, Failed: 1, Errors: 1}
}

// TestWriters_hostile writes results full of hostile text in every format
// and checks what each format promises whatever the text.
func TestWriters_hostile(t *testing.T) {
	cases, sum := hostileResults()
	out := map[string][]byte{}
	for _, format := range report.Formats {
		var b bytes.Buffer
		w, err := report.New(format, &b)
		if err != nil {
			t.Fatal(err)
		}
		write(t, w, cases, sum)
		out[format] = b.Bytes()
	}
	var coloured bytes.Buffer
	write(t, &report.Text{W: &coloured, Colour: true, Verbose: true}, cases, sum)

	t.Run("text", func(t *testing.T) {
		shownSafely(t, out["text"], "the text report goes to a terminal")
		for line := range strings.Lines(string(out["text"])) {
			if strings.HasPrefix(line, "PASS  forged") {
				t.Errorf("a case id started a line of its own: %q", line)
			}
		}
		for _, id := range []string{`case\x1b]0;pwned\x07`, `\u202egnp.exe\u202c`, `\xff\xfe\xc3`} {
			if !bytes.Contains(out["text"], []byte(id)) {
				t.Errorf("the text report does not show %s escaped", id)
			}
		}
	})
	t.Run("text in colour", func(t *testing.T) {
		// Only the report's own styles may remain.
		styles := regexp.MustCompile(`\x1b\[(0|1|2|31|32|33)m`)
		shownSafely(t, styles.ReplaceAll(coloured.Bytes(), nil), "colour adds the report's styles, nothing of the trace's")
	})
	t.Run("markdown", func(t *testing.T) {
		md := out["markdown"]
		shownSafely(t, md, "a CI job summary is shown to people")
		// Outside code blocks, only the summary's own tags: no tag,
		// comment or script of the text.
		for _, tag := range regexp.MustCompile(`<[^>]*>?`).FindAll(outsideFences(md), -1) {
			if !regexp.MustCompile(`^</?(details|summary|code|br)>$`).Match(tag) {
				t.Errorf("the markdown holds the tag %.80q: text must not inject HTML", tag)
				break
			}
		}
		// Outside code blocks, no mention, reference, bare link or
		// formula: GitHub makes them after reading the Markdown, in text
		// a backslash no longer guards.
		text := regexp.MustCompile(`pass[@^]\d+`).ReplaceAll(outsideFences(md), nil) // the trials' own columns
		for _, re := range []string{`@\w`, `(^|[^&])#\d`, `(?i)GH-\d`, `://`, `(?i)www\.`, `(^|[^\\])\$`} {
			if m := regexp.MustCompile(re).FindIndex(text); m != nil {
				t.Errorf("the markdown holds %q (%s) outside code, in …%q…: a mention, reference, link or formula", text[m[0]:m[1]], re, text[max(0, m[0]-40):min(len(text), m[1]+20)])
			}
		}
		// Every row of a table has the columns of its header.
		var cols int
		for line := range strings.Lines(string(md)) {
			if !strings.HasPrefix(line, "|") {
				cols = 0
				continue
			}
			n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(line, -1))
			if cols == 0 {
				cols = n
			} else if n != cols {
				t.Errorf("a table row has %d cells, its header %d: %q", n-1, cols-1, line)
			}
		}
		// A fenced block is closed only by its own fence.
		if strings.Count(string(md), "\n`````text\n") == 0 {
			t.Errorf("the explanation's fence is not longer than the text's run of 4 backticks")
		}
	})
	t.Run("junit", func(t *testing.T) {
		xmllint := need(t, "xmllint")
		file := filepath.Join(t.TempDir(), "junit.xml")
		if err := os.WriteFile(file, out["junit"], 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), file)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("not valid JUnit XML: %v\n%s", err, msg)
		}
		dec := xml.NewDecoder(bytes.NewReader(out["junit"]))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("encoding/xml cannot read the report: %v", err)
			}
		}
		shownSafely(t, out["junit"], "CI pages show JUnit text to people")
	})
	t.Run("jsonl", func(t *testing.T) {
		sc := bufio.NewScanner(bytes.NewReader(out["jsonl"]))
		sc.Buffer(nil, 64<<20)
		n := 0
		for sc.Scan() {
			n++
			var row map[string]any
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Errorf("line %d is not JSON: %v", n, err)
			}
		}
		if n != len(cases) {
			t.Errorf("%d lines, want one per case (%d)", n, len(cases))
		}
		noRawTerminal(t, out["jsonl"], "JSON Lines are read on terminals")
	})
	t.Run("json", func(t *testing.T) {
		var doc struct{ Cases []map[string]any }
		if err := json.Unmarshal(out["json"], &doc); err != nil || len(doc.Cases) != len(cases) {
			t.Errorf("not a JSON document of %d cases: %v", len(cases), err)
		}
		noRawTerminal(t, out["json"], "a JSON document is read on terminals")
	})
	t.Run("html", func(t *testing.T) {
		page := out["html"]
		if !utf8.Valid(page) {
			t.Error("the page is not valid UTF-8")
		}
		for _, raw := range []string{"<img", "<!--"} {
			if bytes.Contains(page, []byte(raw)) {
				t.Errorf("the page holds %q raw: the text must stay data", raw)
			}
		}
		if n := bytes.Count(page, []byte("</script>")); n != 2 {
			t.Errorf("the page closes %d scripts, want its own 2: the text must not end one", n)
		}
		data := pageData(t, page)
		c := data["cases"].([]any)[0].(map[string]any)
		if !strings.HasPrefix(c["id"].(string), "case\x1b]0;pwned") || !strings.Contains(c["id"].(string), "##[error]forged") {
			t.Errorf("the page's data has id %q, want the case id as it is (the page shows it as text)", c["id"])
		}
		if bytes.Contains(page, []byte("##[")) {
			t.Error("the page holds ##[, a command to a CI runner when it is written to a log")
		}
		args := c["views"].([]any)[0].(map[string]any)["rows"].([]any)[0].(map[string]any)["args"].(string)
		if !strings.Contains(args, `é<&>é<&>`) || strings.Contains(args, `\u003c`) {
			t.Errorf("arguments shown as %.80q…, want the JSON the agent sent, <, & and > as they are", args)
		}
		if !utf8.ValidString(args) || !strings.HasSuffix(args, "…") {
			t.Errorf("the huge arguments are not cut on a character boundary: …%q", args[max(0, len(args)-20):])
		}
	})
}

// shownSafely checks that out holds no character a screen would act on
// rather than show: no C0 control but newline and tab, no DEL, no C1, no
// bidirectional override or isolate, no invalid UTF-8.
func shownSafely(t *testing.T, out []byte, reason string) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Errorf("invalid UTF-8 (%s)", reason)
	}
	for i, r := range string(out) {
		bad := (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
		if bad {
			t.Errorf("%U at byte %d, in …%q… (%s)", r, i, out[max(0, i-30):min(len(out), i+10)], reason)
			return
		}
	}
}

// noRawTerminal checks that the JSON text out holds no C1 control, U+2028,
// U+2029 or bidi character as it is: valid JSON, but acted on by
// terminals, they are written as \uXXXX.
func noRawTerminal(t *testing.T, out []byte, reason string) {
	t.Helper()
	for i, r := range string(out) {
		if r >= 0x80 && r <= 0x9f || r >= 0x2028 && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Errorf("%U raw at byte %d, in …%q… (%s)", r, i, out[max(0, i-30):min(len(out), i+10)], reason)
			return
		}
	}
}

// outsideFences returns the lines of md outside its fenced code blocks,
// where HTML is text.
func outsideFences(md []byte) []byte {
	var out []byte
	fence := ""
	for line := range strings.Lines(string(md)) {
		l := strings.TrimSuffix(line, "\n")
		switch {
		case fence != "":
			if l == fence {
				fence = ""
			}
		case strings.HasPrefix(l, "```"):
			fence = l[:len(l)-len(strings.TrimLeft(l, "`"))]
		default:
			out = append(out, line...)
		}
	}
	return out
}
