package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// hostileJSON is a JSON string's content that, printed raw, would set the
// terminal's title (OSC 0), clear its screen (CSI 2J), start an 8-bit CSI
// (U+009B), reverse the text that follows (U+202E, and an isolate
// U+2066–U+2069), break the line (U+2028), return the cursor to the
// line's start (a lone CR) and hold a NUL.
const hostileJSON = `x\u001b]0;pwned\u0007\u001b[2J\u009b2J\u202egnp\u2066i\u2069\u2028\rover\u0000y`

// rawControl matches what must not reach a terminal raw: C0 controls but
// newline and tab, DEL, C1 controls, bidirectional embeddings, overrides
// and isolates, and a carriage return not before a newline.
var rawControl = regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]|\r[^\n]")

// colour matches the colours and styles of the text report, the only
// sequences it writes itself.
var colour = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// jsonControl matches what trajeval's JSON text never holds raw: C0
// controls but newline (between values), which JSON escapes, and C1
// controls, U+2028 and U+2029 and bidi characters, which JSON allows raw
// and trajeval escapes all the same.
var jsonControl = regexp.MustCompile("[\x00-\x09\x0b-\x1f\u0080-\u009f\u2028-\u202e\u2066-\u2069]")

// TestExecute_hostileText runs each command that shows what a trace, a
// suite or a results file holds on such text, and checks that nothing of
// it reaches standard output or standard error raw: escaped in text,
// Markdown and JUnit, escaped as \uXXXX in JSON (C1 and bidi included).
func TestExecute_hostileText(t *testing.T) {
	eachOutput(t, hostileJSON, func(t *testing.T, json bool, stdout, stderr, reason string) {
		if m := rawControl.FindStringIndex(stderr); m != nil {
			t.Errorf("standard error holds %q raw at byte %d (%s):\n%s", stderr[m[0]:m[1]], m[0], reason, stderr)
		}
		re := rawControl
		if json {
			re = jsonControl
		}
		if m := re.FindStringIndex(colour.ReplaceAllString(stdout, "")); m != nil {
			t.Errorf("standard output holds %q raw at byte %d (%s):\n%s", stdout[m[0]:m[1]], m[0], reason, stdout)
		}
	})
}

// workflowJSON is a JSON string's content that, printed raw in a GitHub
// Actions log, would be read as commands: mask PASS in the rest of the
// log (after a newline, and after white space the runner trims), make an
// error annotation, stop the reading of commands, and the older form,
// read anywhere in a line.
const workflowJSON = `x pwned\n::add-mask::PASS\n \u00a0\u2028::error file=a.go,line=1::fake\n::stop-commands::tok\nz ##[add-mask]FAIL ##[set-output name=x;]y`

// workflowLine matches a line that GitHub's runner reads as a command.
var workflowLine = regexp.MustCompile(`(?m)^[\s\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]*::|##\[`)

// TestExecute_workflowCommands runs the commands of TestExecute_hostileText
// on text that a CI runner reads as commands: no line of standard output
// or error is one.
func TestExecute_workflowCommands(t *testing.T) {
	eachOutput(t, workflowJSON, func(t *testing.T, json bool, stdout, stderr, reason string) {
		for name, out := range map[string]string{"output": stdout, "error": stderr} {
			if m := workflowLine.FindStringIndex(out); m != nil {
				t.Errorf("standard %s holds a workflow command at byte %d: %q (%s):\n%s", name, m[0], out[max(0, m[0]-20):min(len(out), m[1]+20)], reason, out)
			}
		}
	})
}

// eachOutput runs each command that shows what a trace, a suite or a
// results file holds, on ids, names, arguments and errors holding hostile
// (the content of a JSON string), and hands check what each writes.
func eachOutput(t *testing.T, hostile string, check func(t *testing.T, json bool, stdout, stderr, reason string)) {
	hostileJSON := hostile
	var hostileID string
	if err := json.Unmarshal([]byte(`"case`+hostile+`"`), &hostileID); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := func(name, data string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	suite := file("suite.yaml", `name: "s`+hostileJSON+`"
evalcases:
  - id: "case`+hostileJSON+`"
    execution:
      evaluators:
        - {name: "flow`+hostileJSON+`", type: tool_trajectory, mode: exact, expected: [{tool: search}]}
`)
	// The second step's arguments hold C1 and bidi characters as they are,
	// with nothing else to escape: JSON text a reader may keep and copy.
	traces := file("traces.jsonl", `{"id":"case`+hostileJSON+`","steps":[{"index":1,"name":"tool`+hostileJSON+`","args":{"q":"`+hostileJSON+`"},"error":true,"error_message":"`+hostileJSON+`"},`+
		`{"index":2,"name":"search","args":{"q":"`+"pwned\u009b2J\u202egnp\u2066i\u2069"+`"}}]}`+"\n")
	good := file("good.jsonl", `{"id":"case`+hostileJSON+`","steps":[{"index":1,"name":"search","args":{}}]}`+"\n")
	warned := file("warned.jsonl", `{"id":"case`+hostileJSON+`","steps":[{"index":1,"name":"search","args":{}}]}`+"\n"+`{"id":"w`+hostileJSON+`","steps":[`)
	file("runs/a.jsonl", `{"id":"run-a`+hostileJSON+`","steps":[{"index":1,"name":"a`+hostileJSON+`","args":{}}]}`+"\n")
	file("runs/b.jsonl", `{"id":"run-b`+hostileJSON+`","steps":[{"index":1,"name":"b`+hostileJSON+`","args":{}}]}`+"\n")
	file("runs/c.jsonl", `{"id":"run-c`+hostileJSON+`","steps":[{"index":1,"name":"c`+hostileJSON+`","args":{}}]}`+"\n")
	db := filepath.Join(dir, "runs.db")
	oldOut, newOut := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "new.jsonl")
	if code, _, stderr := runArgs(t, "eval", suite, "--traces", good, "-q", "--db", db, "--out", oldOut); code != 0 {
		t.Fatalf("eval good: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runArgs(t, "eval", suite, "--traces", traces, "-q", "--db", db, "--out", newOut, "--include-trace"); code != 1 {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	tests := []struct {
		name   string
		args   []string
		json   bool // standard output is JSON: escaped as \uXXXX
		shown  bool // the output quotes the hostile text
		reason string
	}{
		{"eval text", []string{"eval", suite, "--traces", traces, "--color", "never"}, false, true, "the text report"},
		{"eval colour", []string{"eval", suite, "--traces", traces, "--color", "always", "--verbose"}, false, true, "colours are added after escaping"},
		{"eval markdown", []string{"eval", suite, "--traces", traces, "--format", "markdown"}, false, true, "a CI job summary"},
		{"eval junit", []string{"eval", suite, "--traces", traces, "--format", "junit"}, false, true, "XML"},
		{"eval json", []string{"eval", suite, "--traces", traces, "--format", "json"}, true, true, "JSON"},
		{"eval jsonl", []string{"eval", suite, "--traces", traces, "--format", "jsonl"}, true, true, "JSON Lines"},
		{"eval jsonl trace", []string{"eval", suite, "--traces", traces, "--format", "jsonl", "--include-trace"}, true, true, "the trajectory, its arguments as they were read"},
		{"eval lenient warnings", []string{"eval", suite, "--traces", warned, "--lenient", "--color", "never"}, false, true, "warnings quote the trace"},
		{"eval strict error", []string{"eval", suite, "--traces", warned, "--color", "never"}, false, true, "the error quotes the trace"},
		{"convert", []string{"convert", traces}, true, true, "the canonical form"},
		{"convert error", []string{"convert", warned}, true, true, "the error quotes the trace"},
		{"validate", []string{"validate", suite}, false, false, "a suite's names"},
		{"report text", []string{"report", newOut, "--format", "text"}, false, true, "a results file"},
		{"report markdown", []string{"report", newOut, "--format", "markdown"}, false, true, "a results file"},
		{"report junit", []string{"report", newOut, "--format", "junit"}, false, true, "a results file"},
		{"report html", []string{"report", newOut, "--format", "html"}, false, true, "a results file, as a page's data"},
		{"compare text", []string{"compare", oldOut, newOut}, false, true, "two results files"},
		{"compare markdown", []string{"compare", oldOut, newOut, "--format", "markdown"}, false, true, "two results files"},
		{"compare json", []string{"compare", oldOut, newOut, "--format", "json"}, true, true, "two results files"},
		{"show", []string{"show", "last", "--db", db}, false, true, "the history"},
		{"show jsonl", []string{"show", "last", "--db", db, "--format", "jsonl"}, true, true, "the history's rows"},
		{"show json", []string{"show", "last", "--db", db, "--format", "json"}, true, true, "the history's rows"},
		{"runs json", []string{"runs", "--db", db, "--json"}, true, true, "the history's runs"},
		{"compare runs json", []string{"compare", "last~1", "last", "--db", db, "--format", "json"}, true, true, "two runs of the history"},
		{"show case", []string{"show", "last", hostileID, "--db", db}, false, true, "one case of the history"},
		{"runs", []string{"runs", "--db", db}, false, true, "the history's runs"},
		{"compare runs", []string{"compare", "last~1", "last", "--db", db}, false, true, "two runs of the history"},
		{"init --merge", []string{"init", filepath.Join(dir, "mined"), "--merge", "--from", filepath.Join(dir, "runs", "*.jsonl"), "--holdout", "0.34", "--seed", "1"}, false, true, "held-back runs that fail are named"},
		{"init --from", []string{"init", filepath.Join(dir, "mined1"), "--from", traces}, false, false, "a suite mined from one run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code > 2 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			check(t, tt.json, stdout, stderr, tt.reason)
			if tt.shown != strings.Contains(stdout+stderr, "pwned") {
				t.Errorf("the output quotes the hostile text: %v, want %v (%s): is the test seeing it?\n%s\n%s", !tt.shown, tt.shown, tt.reason, stdout, stderr)
			}
		})
	}
}
