package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// results are a run's results covering what a report shows: a pass, a
// failure explained in full (alignment, near misses with argument
// differences, extra steps, checks, notes, warnings), a composite with its
// members, a per-turn evaluator, an optional evaluator, and an error.
func results() ([]trajeval.CaseResult, report.Summary) {
	f := func(v float64) float64 { return v }
	cases := []trajeval.CaseResult{
		{ID: "all-good", Suite: "shop", Status: trajeval.StatusPass, Score: 1, Evaluators: []trajeval.Result{
			{Name: "flow", Type: "tool_trajectory", Score: 1, Status: trajeval.StatusPass, Threshold: 1, Weight: 1, Required: true,
				Details: &trajeval.Details{Mode: "in_order", Hits: 2, Expected: 2, Actual: 2,
					Matched:  []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 2, Step: 2, Tool: "buy"}},
					Warnings: []string{"step 2 has no duration; its latency check is skipped"}}},
		}},
		{ID: "wrong <args> & order", Suite: "shop", Status: trajeval.StatusFail, Score: f(2.0 / 3), Evaluators: []trajeval.Result{
			{Name: "flow", Type: "tool_trajectory", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 2, Required: true,
				Details: &trajeval.Details{Mode: "in_order", Hits: 1, Expected: 2, Actual: 3,
					Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}},
					Missing: []trajeval.Missing{{Item: 2, Tool: "buy", Near: []trajeval.NearMiss{
						{Step: 3, Tool: "buy", Diffs: []trajeval.ArgDiff{{Path: "args.qty", Want: "2", Got: "3"}, {Path: "args.sku", Want: `"A<1>"`, Got: `"B&2"`}}},
						{Step: 2, Tool: "by", Why: "a close name"},
					}}},
					Extra:  []trajeval.Extra{{Step: 2, Tool: "by"}},
					Checks: []trajeval.Check{{Name: "latency buy ≤ 500ms", Status: trajeval.CheckSkip, Message: "not matched"}},
					Notes:  map[string]any{"lcs": json.Number("1"), "actual_order": []any{"search", "by", "buy"}},
				}},
			{Name: "bundle", Type: "composite", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: true, Members: []trajeval.Result{
				{Name: "budget", Type: "execution_metrics", Score: 1, Status: trajeval.StatusPass, Threshold: 1, Weight: 1, Required: true,
					Details: &trajeval.Details{Checks: []trajeval.Check{{Name: "max_tool_calls ≤ 5", Status: trajeval.CheckPass, Message: "3 calls"}}}},
				{Name: "no-errors", Type: "tool_error", Score: 0, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: true,
					Details: &trajeval.Details{Checks: []trajeval.Check{{Name: "step 3 buy", Status: trajeval.CheckFail, Message: "the tool failed"}}}},
			}},
			{Name: "exact", Type: "tool_trajectory", Score: 0, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: false,
				Details: &trajeval.Details{Mode: "exact", Expected: 2, Actual: 3}},
			{Name: "greeting", Type: "tool_trajectory", Turn: 2, Score: 0, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: true,
				Error: "turn 2 is not in the trace"},
		}, Warnings: []string{"the case expects 2 turns, the trace has 1"}},
		{ID: "no-trace", Suite: "shop", Status: trajeval.StatusError, Error: `no trace for case "no-trace" in runs.jsonl`, Evaluators: []trajeval.Result{}},
		{ID: "judge", Status: trajeval.StatusError, Error: "evaluator judge: no judge client", Score: 0, Evaluators: []trajeval.Result{
			{Name: "judge", Type: "llm_judge", Status: trajeval.StatusError, Threshold: 0.5, Weight: 1, Required: true, Error: "no judge client"},
		}},
	}
	return cases, report.Summary{Cases: 4, Passed: 1, Failed: 1, Errors: 2}
}

// trialRows are a run of three cases, three trials each: one passes every
// trial, one is flaky (an error among its trials), one never passes.
func trialRows() ([]trajeval.CaseResult, report.Summary) {
	flow := func(st trajeval.Status, sc float64) []trajeval.Result {
		return []trajeval.Result{{Name: "flow", Type: "tool_trajectory", Score: sc, Status: st, Threshold: 1, Weight: 1, Required: true,
			Details: &trajeval.Details{Mode: "in_order", Hits: 1, Expected: 1, Actual: 1, Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}}}}}
	}
	var rows []trajeval.CaseResult
	var sum report.Summary
	for a := 1; a <= 3; a++ {
		rows = append(rows,
			trajeval.CaseResult{ID: "steady", Suite: "shop", Status: trajeval.StatusPass, Score: 1, Attempt: a, Evaluators: flow(trajeval.StatusPass, 1)},
			trajeval.CaseResult{ID: "flaky", Suite: "shop", Status: [...]trajeval.Status{trajeval.StatusPass, trajeval.StatusFail, trajeval.StatusError}[a-1],
				Score: [...]float64{1, 0.5, 0}[a-1], Attempt: a, Evaluators: flow([...]trajeval.Status{trajeval.StatusPass, trajeval.StatusFail, trajeval.StatusError}[a-1], [...]float64{1, 0.5, 0}[a-1])},
			trajeval.CaseResult{ID: "broken", Suite: "shop", Status: trajeval.StatusFail, Score: 0.5, Attempt: a, Evaluators: flow(trajeval.StatusFail, 0.5)},
		)
	}
	for _, r := range rows {
		sum.Add(r)
	}
	return rows, sum
}

func TestWriters_golden(t *testing.T) {
	tests := []struct {
		name   string
		format string
		golden string
		setup  func(report.Writer)
		reason string
	}{
		{"text", "text", "report.txt", nil, "passing evaluators in one line, failures explained"},
		{"text verbose", "text", "report.verbose.txt", func(w report.Writer) { w.(*report.Text).Verbose = true }, "--verbose explains passing evaluators too"},
		{"json", "json", "report.json", nil, "one document: the summary and every case, indented"},
		{"jsonl", "jsonl", "report.jsonl", nil, "one row per case, no summary"},
		{"junit", "junit", "report.junit.xml", nil, "one testcase per case; failures and errors explained"},
		{"markdown", "markdown", "report.md", nil, "totals, a table of cases, failures folded"},
		{"text colour", "text", "report.colour.txt", func(w report.Writer) { w.(*report.Text).Colour = true }, "verdicts coloured, details dimmed, the words unchanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w, err := report.New(tt.format, &out)
			if err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				tt.setup(w)
			}
			cases, sum := results()
			write(t, w, cases, sum)
			golden(t, filepath.Join("testdata", tt.golden), out.Bytes(), tt.reason)
		})
	}
}

// TestFailedOnly checks --failed-only: the cases that did not pass are
// reported, the summary counts them all, and the reports that cannot
// honour it refuse it.
func TestFailedOnly(t *testing.T) {
	tests := []struct {
		format string
		golden string // "" when the format refuses it
		reason string
	}{
		{"text", "failed.txt", "the passing case left out, the summary counting 4 cases"},
		{"markdown", "failed.md", "the table lists the cases that did not pass; the heading counts every case"},
		{"jsonl", "failed.jsonl", "passing rows left out"},
		{"json", "failed.json", "passing rows left out, the summary counting every case"},
		{"junit", "", "a CI test page counts the tests it is given"},
		{"html", "", "the page filters by status itself"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var out bytes.Buffer
			w, err := report.New(tt.format, &out)
			if err != nil {
				t.Fatal(err)
			}
			w, err = report.FailedOnly(w)
			if tt.golden == "" {
				if err == nil || !strings.Contains(err.Error(), "--failed-only") {
					t.Fatalf("FailedOnly(%s) = %v, want an error naming --failed-only: %s", tt.format, err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cases, sum := results()
			write(t, w, cases, sum)
			if strings.Contains(out.String(), "all-good") {
				t.Errorf("the passing case is reported: %s", tt.reason)
			}
			golden(t, filepath.Join("testdata", tt.golden), out.Bytes(), tt.reason)
		})
	}
}

// TestWriters_trials checks the reports of a run whose cases ran several
// times: each attempt is its own row, and text and Markdown add the
// trials of each case (pass rate, pass@k, pass^k, spread, flaky).
func TestWriters_trials(t *testing.T) {
	tests := []struct {
		format, golden, reason string
	}{
		{"text", "trials.txt", "rows name their attempt; a trials section before the summary"},
		{"markdown", "trials.md", "a trials table; attempts in the case table"},
		{"junit", "trials.junit.xml", "one testcase per attempt, the attempt in its name"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var out bytes.Buffer
			w, err := report.New(tt.format, &out)
			if err != nil {
				t.Fatal(err)
			}
			rows, sum := trialRows()
			write(t, w, rows, sum)
			golden(t, filepath.Join("testdata", tt.golden), out.Bytes(), tt.reason)
		})
	}
}

func write(t *testing.T, w report.Writer, cases []trajeval.CaseResult, sum report.Summary) {
	t.Helper()
	for _, c := range cases {
		if err := w.Case(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(sum); err != nil {
		t.Fatal(err)
	}
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte, reason string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (%s; run with -update to rewrite):\n got:\n%s\nwant:\n%s", path, reason, got, want)
	}
}

// TestJSON_machineReadable checks the machine formats' promises beyond
// their bytes: each JSON Lines row is one case that decodes on its own,
// the JSON document decodes with its summary, text is never HTML-escaped,
// and a run without cases still gives a list.
func TestJSON_machineReadable(t *testing.T) {
	cases, sum := results()
	var jl bytes.Buffer
	w := report.NewJSONL(&jl)
	for _, c := range cases {
		if err := w.Case(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(sum); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(jl.String(), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d JSON Lines rows for %d cases", len(lines), len(cases))
	}
	for i, line := range lines {
		var r trajeval.CaseResult
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.ID != cases[i].ID || r.Status != cases[i].Status {
			t.Errorf("row %d = %+v, %v; want case %s", i+1, r, err, cases[i].ID)
		}
	}
	if !strings.Contains(jl.String(), `"wrong <args> & order"`) {
		t.Errorf("JSON Lines escape HTML characters:\n%s", jl.String())
	}

	var doc bytes.Buffer
	dw, _ := report.New("json", &doc)
	if err := dw.Close(report.Summary{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Summary *report.Summary   `json:"summary"`
		Cases   []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(doc.Bytes(), &got); err != nil || got.Summary == nil || got.Cases == nil {
		t.Errorf("empty JSON report %s: %v; want a summary and an empty list of cases", doc.String(), err)
	}
}

func TestNew_unknownFormat(t *testing.T) {
	if _, err := report.New("xml", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "text, json, jsonl, junit, markdown, html") {
		t.Errorf("New(xml) = %v, want an error listing the formats", err)
	}
	for _, f := range report.Formats {
		if _, err := report.New(f, &bytes.Buffer{}); err != nil {
			t.Errorf("New(%s) = %v", f, err)
		}
	}
}

type failing struct{ calls *[]string }

func (f failing) Case(r trajeval.CaseResult) error {
	*f.calls = append(*f.calls, "case "+r.ID)
	return errors.New("disk full")
}

func (f failing) Close(report.Summary) error {
	*f.calls = append(*f.calls, "close")
	return errors.New("disk full")
}

func TestMulti(t *testing.T) {
	var a, b bytes.Buffer
	m := report.Multi{report.NewJSONL(&a), &report.Text{W: &b}}
	cases, sum := results()
	if err := m.Case(cases[0]); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(sum); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.String(), `"id":"all-good"`) || !strings.Contains(b.String(), "all-good") || !strings.Contains(b.String(), "1 of 4 cases passed") {
		t.Errorf("every writer gets every case and the summary:\n%s\n%s", a.String(), b.String())
	}

	var calls []string
	var c bytes.Buffer
	m = report.Multi{failing{&calls}, report.NewJSONL(&c)}
	if err := m.Case(cases[0]); err == nil {
		t.Error("Multi.Case hid a writer's error")
	}
	if err := m.Close(sum); err == nil {
		t.Error("Multi.Close hid a writer's error")
	}
	if c.Len() != 0 || strings.Join(calls, ",") != "case all-good,close" {
		t.Errorf("calls %v, later writer got %q: Multi stops at the first error", calls, c.String())
	}
}

// TestMarkdown_limits checks a large run's summary stays within what a CI
// job page takes: past MarkdownRows cases only those that did not pass are
// listed, and at most MarkdownDetails failures are explained.
func TestMarkdown_limits(t *testing.T) {
	var rows []trajeval.CaseResult
	var sum report.Summary
	for i := range 1000 {
		r := trajeval.CaseResult{ID: "case-" + strconv.Itoa(i), Status: trajeval.StatusPass, Score: 1}
		if i%20 == 0 {
			r.Status, r.Score = trajeval.StatusFail, 0.5
		}
		rows = append(rows, r)
		sum.Add(r)
	}
	var out bytes.Buffer
	w, _ := report.New("markdown", &out)
	write(t, w, rows, sum)
	md := out.String()
	if got := strings.Count(md, "\n| ❌ |"); got != 50 || strings.Contains(md, "| ✅ |") {
		t.Errorf("%d failed rows listed (want 50) or passes listed past %d cases", got, report.MarkdownRows)
	}
	if !strings.Contains(md, "1000 cases: showing the 50 that did not pass.") {
		t.Errorf("the summary does not say which cases it lists:\n%.500s", md)
	}
	if got := strings.Count(md, "<details>"); got != report.MarkdownDetails || !strings.Contains(md, "Only the first 30 are explained here") {
		t.Errorf("%d failures explained, want %d and a note", got, report.MarkdownDetails)
	}
}

// TestText_wording: a line says what decided it, in plain words.
func TestText_wording(t *testing.T) {
	cost := 0.00003
	r := trajeval.CaseResult{ID: "c", Status: trajeval.StatusFail, Score: 1,
		Evaluators: []trajeval.Result{
			{Name: "code", Type: "code", Score: 1, Status: trajeval.StatusFail, Threshold: 0.5, Weight: 1, Required: true},
			{Name: "flow", Type: "tool_trajectory", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: true},
		},
		Judge: &trajeval.JudgeUsage{Calls: 1, CostUSD: &cost},
	}
	var b strings.Builder
	w := &report.Text{W: &b}
	if err := w.Case(r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, tt := range []struct{ want, reason string }{
		{"✗ code  1.00  failed by its verdict", "named after its type: the type once; a verdict, not the threshold, failed it"},
		{"✗ flow  tool_trajectory  0.50 < 1.00", "a score under its threshold says so"},
		{"$3e-05", "a cost under a hundredth of a cent is not $0.0000"},
	} {
		if !strings.Contains(out, tt.want) {
			t.Errorf("report:\n%s\nwant %q: %s", out, tt.want, tt.reason)
		}
	}
}

// TestJSONL_timing checks the row fields that say where and when a case
// ran: the start time always with milliseconds in UTC, the duration
// present with it even at 0, both read back as they were written, and
// rows without them (written before they were recorded) still read.
func TestJSONL_timing(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 5, 120_000_000, time.FixedZone("CET", 3600))
	tests := []struct {
		name   string
		r      trajeval.CaseResult
		want   []string // substrings of the row
		absent []string
		reason string
	}{
		{"timed", trajeval.CaseResult{ID: "a", Status: trajeval.StatusPass, Evaluators: []trajeval.Result{}, Trace: "runs/a.json", StartedAt: start, DurationMS: 1.5},
			[]string{`"trace":"runs/a.json"`, `"started_at":"2026-11-23T11:00:05.120Z"`, `"duration_ms":1.5`}, nil,
			"three decimals, even when the last is 0, and UTC"},
		{"instant", trajeval.CaseResult{ID: "b", Status: trajeval.StatusError, Evaluators: []trajeval.Result{}, StartedAt: start},
			[]string{`"duration_ms":0`}, []string{`"trace"`},
			"a duration that rounds to 0 is still given when the start is"},
		{"old row", trajeval.CaseResult{ID: "c", Status: trajeval.StatusFail, Evaluators: []trajeval.Result{}},
			nil, []string{`"trace"`, `"started_at"`, `"duration_ms"`},
			"a row without timing has none of the fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := report.NewJSONL(&b).Case(tt.r); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("row %s lacks %s: %s", b.String(), s, tt.reason)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(b.String(), s) {
					t.Errorf("row %s has %s: %s", b.String(), s, tt.reason)
				}
			}
			rows, _, err := report.ReadRows(&b, "results.jsonl")
			if err != nil || len(rows) != 1 {
				t.Fatalf("ReadRows: %v, %d rows", err, len(rows))
			}
			got := rows[0].CaseResult
			if got.Trace != tt.r.Trace || !got.StartedAt.Equal(tt.r.StartedAt) || got.DurationMS != tt.r.DurationMS {
				t.Errorf("read back trace %q, start %v, %vms; want %q, %v, %vms", got.Trace, got.StartedAt, got.DurationMS, tt.r.Trace, tt.r.StartedAt, tt.r.DurationMS)
			}
		})
	}
}
