package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// tracedRow is a failed case whose row carries its trajectory: two
// searches issued together (a parallel group), a slow step, a failed
// step, an extra step, an expected call missing with an argument
// difference (drawn beside the step that came closest), and one missing
// with nothing close.
func tracedRow() report.Row {
	f := func(v float64) *float64 { return &v }
	g := func(v int) *int { return &v }
	yes := true
	msg := "card declined"
	return report.Row{
		CaseResult: trajeval.CaseResult{ID: "traced-checkout", Suite: "shop", Status: trajeval.StatusFail, Score: 0.5,
			Evaluators: []trajeval.Result{{Name: "checkout_flow", Type: "tool_trajectory", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1, Weight: 1, Required: true,
				Details: &trajeval.Details{Mode: "in_order", Hits: 2, Expected: 4, Actual: 4,
					Matched: []trajeval.Pair{{Item: 1, Step: 1, Tool: "search"}, {Item: 2, Step: 3, Tool: "cart_add"}},
					Missing: []trajeval.Missing{{Item: 3, Tool: "pay", Near: []trajeval.NearMiss{{Step: 4, Tool: "pay",
						Diffs: []trajeval.ArgDiff{{Path: "args.amount", Want: "20", Got: "200"}}}}}, {Item: 4, Tool: "receipt"}},
					Extra:  []trajeval.Extra{{Step: 2, Tool: "search"}, {Step: 4, Tool: "pay"}},
					Checks: []trajeval.Check{{Name: "latency cart_add (call 2) ≤ 500ms", Status: trajeval.CheckFail, Message: "step 3 took 900ms"}},
				}}}},
		Trajectory: &report.Trace{Steps: []report.TraceStep{
			{Index: 1, Name: "search", Args: json.RawMessage(`{"q":"shoes"}`), DurationMS: f(120), ParallelGroup: g(1)},
			{Index: 2, Name: "search", Args: json.RawMessage(`{"q":"boots"}`), DurationMS: f(130), ParallelGroup: g(1)},
			{Index: 3, Name: "cart_add", Args: json.RawMessage(`{"sku":"A1"}`), DurationMS: f(900)},
			{Index: 4, Name: "pay", Args: json.RawMessage(`{"amount":200}`), Error: &yes, ErrorMessage: &msg},
		}},
	}
}

func writeHTML(t *testing.T, dir string, rows []report.Row) string {
	t.Helper()
	var b bytes.Buffer
	h := &report.HTML{W: &b, Title: "checkout agent"}
	for _, r := range rows {
		if err := h.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(report.Summarize(rows)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHTML_selfContained checks the page needs nothing from the network
// and that case text cannot break out of the embedded data.
func TestHTML_selfContained(t *testing.T) {
	cases, _ := results()
	rows := []report.Row{tracedRow()}
	for _, c := range cases {
		rows = append(rows, report.Row{CaseResult: c})
	}
	rows[1].ID = "</script><script>alert(1)</script>"
	page, err := os.ReadFile(writeHTML(t, t.TempDir(), rows))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"http://", "https://", "<link", "src=", "</script><script>alert"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("the page contains %q: it must be self-contained and escape case text", bad)
		}
	}
}

// TestHTML_browser opens report pages in headless Chromium (the system's:
// nothing is downloaded) and checks what a person sees: the totals, the
// filters, a failing case's alignment with the missing call and its
// argument difference, slow, failed and extra steps, the parallel group,
// the trials; then that a page of 10,000 cases draws only the rows in
// view. One browser serves both pages.
func TestHTML_browser(t *testing.T) {
	chromium := need(t, "chromium", "chromium-browser", "google-chrome")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	shots := os.Getenv("TRAJEVAL_SCREENSHOTS") // keep the screenshots there
	if shots == "" {
		shots = t.TempDir()
	}

	t.Run("a few cases", func(t *testing.T) {
		cases, _ := results()
		rows := []report.Row{tracedRow()}
		for _, c := range cases {
			rows = append(rows, report.Row{CaseResult: c})
		}
		trial, _ := trialRows()
		for _, c := range trial {
			rows = append(rows, report.Row{CaseResult: c})
		}
		page := writeHTML(t, t.TempDir(), rows)
		tab, closeTab := chromedp.NewContext(bctx)
		defer closeTab()

		do(t, tab,
			chromedp.Navigate("file://"+page),
			chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
		)
		totals := js[string](t, tab, `document.getElementById('totals').innerText`)
		count := js[string](t, tab, `document.getElementById('count').innerText`)
		trials := js[string](t, tab, `document.getElementById('trials').innerText`)
		// Open the traced failure and the untraced one.
		do(t, tab,
			chromedp.Click(chromedp.CSS(`#rows tr.case[data-i="0"]`)),
			chromedp.Click(chromedp.CSS(`#rows tr.case[data-i="2"]`)),
			chromedp.WaitVisible(chromedp.CSS(`tr.tl.missing`)),
		)
		missing := js[string](t, tab, `document.querySelector('tr.detail-row tr.tl.missing').innerText`)
		mismatch := js[string](t, tab, `document.querySelector('tr.detail-row tr.tl.mismatch').innerText`)
		near := js[string](t, tab, `document.querySelector('tr.detail-row tr.near').innerText`)
		flags := js[string](t, tab, `[...document.querySelectorAll('tr.detail-row .flag')].map(e => e.className + ' step ' + e.closest('tr').children[4].textContent).join('; ')`)
		par := js[string](t, tab, `[...document.querySelectorAll('tr.detail-row tr.tl.in-par')].map(e => e.children[4].textContent + (e.classList.contains('par-first') ? ' first' : '') + (e.classList.contains('par-last') ? ' last' : '')).join(', ')`)
		extra := js[string](t, tab, `[...document.querySelectorAll('tr.detail-row')[0].querySelectorAll('tr.tl.extra')].map(e => e.children[4].textContent + ' ' + e.children[5].firstChild.textContent).join(', ')`)
		note := js[string](t, tab, `[...document.querySelectorAll('.trace-note')].map(e => e.textContent).join(' | ')`)
		unnamed := js[bool](t, tab, `document.querySelectorAll('tr.detail-row')[1].textContent.includes('(not named in the results)')`)
		marks := js[string](t, tab, `[0, 1].map(i => getComputedStyle(document.querySelector('#rows tr.case[data-i="' + i + '"] td'), '::before').content).join(' ')`)
		hint := js[string](t, tab, `document.querySelector('#rows tr.case').title`)
		keyboard := js[string](t, tab, `(r => { r.focus(); r.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true})); return r.getAttribute('aria-expanded') + ' ' + r.nextElementSibling.className })(document.querySelector('#rows tr.case[data-i="1"]'))`)
		png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(shots, "report.png")
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", shot)
		// Filters: failures only; then the failures of one evaluator; then
		// a text search.
		do(t, tab,
			chromedp.Click(chromedp.CSS(`#f-pass`)),
			chromedp.Click(chromedp.CSS(`#f-error`)),
		)
		failures := js[string](t, tab, `document.getElementById('count').innerText`)
		pick := func(name string) string {
			return js[string](t, tab, `(s => { s.value = '`+name+`'; s.dispatchEvent(new Event('change')); s.value = ''; return document.getElementById('count').innerText + ': ' + [...document.querySelectorAll('#rows tr.case')].map(r => r.children[1].textContent).join(', ') })(document.getElementById('f-eval'))`)
		}
		byEval, passing := pick("no-errors"), pick("budget")
		do(t, tab,
			chromedp.SendKeys(chromedp.CSS(`#f-text`), "checkout"),
			chromedp.Sleep(400*time.Millisecond), // the text filter waits for typing to pause
		)
		filtered := js[string](t, tab, `document.getElementById('count').innerText`)

		checks := []struct {
			what, got, want string
		}{
			{"totals", totals, "14 runs"},
			{"totals", totals, "5 passed"},
			{"count", count, "showing 14 of 14 matching"},
			{"missing call", missing, "4\treceipt\t✗ missing"},
			{"missing call beside its near miss", mismatch, "3\tpay\t✗ near miss\t\t4\tpay"},
			{"argument difference", near, "near step 4 pay"},
			{"argument difference", near, "args.amount: expected 20, got 200"},
			{"slow step", flags, "flag slow step 3"},
			{"failed step", flags, "flag failed step 4"},
			{"parallel group", par, "1 first, 2 last"},
			{"extra steps", extra, "2 search"},
			{"keyboard", keyboard, "true detail-row"},
			{"rows show that they open", marks, `"▾" "▸"`},
			{"rows say what opens", hint, "open: what was expected"},
			{"trace note", note, "the recorded trajectory"},
			{"trace note", note, "only those the results name"},
			{"trials", trials, "3 cases: 1 passed every trial, 1 flaky, 1 passed none"},
			{"trials", trials, "flaky"},
			{"failures only", failures, "showing 6 of 6 matching"},
			{"failures of one evaluator", byEval, "showing 1 of 1 matching (14 in all): wrong <args> & order"},
			{"an evaluator that passed in a failed case", passing, "showing 0 of 0 matching"},
			{"text search", filtered, "showing 1 of 1 matching"},
		}
		for _, c := range checks {
			if !strings.Contains(c.got, c.want) {
				t.Errorf("%s: %q does not contain %q", c.what, c.got, c.want)
			}
		}
		if unnamed {
			t.Errorf("a case without its trajectory shows steps it cannot name")
		}
	})

	t.Run("10,000 cases", func(t *testing.T) {
		const n = 10000
		base := tracedRow()
		rows := make([]report.Row, n)
		for i := range rows {
			r := base
			r.ID = fmt.Sprintf("case-%05d", i)
			if i%3 == 0 {
				r.Status, r.Score = trajeval.StatusPass, 1
			}
			rows[i] = r
		}
		page := writeHTML(t, t.TempDir(), rows)
		info, _ := os.Stat(page)
		tab, closeTab := chromedp.NewContext(bctx)
		defer closeTab()
		start := time.Now()
		do(t, tab,
			chromedp.Navigate("file://"+page),
			chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)),
		)
		wall := time.Since(start)
		ready := js[float64](t, tab, `window.trajevalReadyMs`)
		drawn := js[int](t, tab, `document.querySelectorAll('#rows tr.case').length`)
		do(t, tab, chromedp.ScrollIntoView(chromedp.CSS(`#more`)))
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelectorAll('#rows tr.case').length > 100`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Errorf("scrolling to the end of the table drew no more rows: %v", err)
		}
		after := js[int](t, tab, `document.querySelectorAll('#rows tr.case').length`)
		count := js[string](t, tab, `document.getElementById('count').innerText`)
		// A measurement, not a verdict: timing never decides a test.
		t.Logf("%d cases, page %.1f MB: ready %.0f ms after navigation started (%v until the test saw it)", n, float64(info.Size())/1e6, ready, wall.Round(time.Millisecond))
		if drawn != 100 {
			t.Errorf("%d rows drawn at load, want 100: rows are drawn as they are scrolled into view", drawn)
		}
		if after <= 100 || !strings.Contains(count, "of 10000 matching") {
			t.Errorf("after scrolling: %d rows drawn, count %q; want the next rows drawn", after, count)
		}
	})
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// js evaluates expr in the page.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// pageData decodes the data the page draws from.
func pageData(t *testing.T, page []byte) map[string]any {
	t.Helper()
	const open = `<script id="data" type="application/json">`
	i := bytes.Index(page, []byte(open))
	j := bytes.Index(page[i:], []byte("</script>"))
	if i < 0 || j < 0 {
		t.Fatalf("no data in the page")
	}
	var data map[string]any
	if err := json.Unmarshal(page[i+len(open):i+j], &data); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestHTML_timeline checks, without a browser, how the page lines up the
// expected calls with the actual steps.
func TestHTML_timeline(t *testing.T) {
	untraced := tracedRow()
	untraced.Trajectory = nil
	cases, _ := results()
	tests := []struct {
		name   string
		row    report.Row
		want   string // kind item step, one per row
		reason string
	}{
		{"traced", tracedRow(), "matched 1 1, extra 0 2, matched 2 3, mismatch 3 4, missing 4 0",
			"every step of the trajectory in order; the missing pay beside the pay step that came closest; receipt missing at the end"},
		{"untraced", untraced, "matched 1 1, extra 0 2, matched 2 3, mismatch 3 4, missing 4 0",
			"the same steps, named by the results"},
		{"beside its near miss", report.Row{CaseResult: cases[1]}, "matched 1 1, extra 0 2, mismatch 2 3",
			"a near miss that matched nothing else holds its missing call"},
		{"where it was due", report.Row{CaseResult: trajeval.CaseResult{ID: "x", Status: trajeval.StatusFail, Evaluators: []trajeval.Result{{
			Name: "flow", Status: trajeval.StatusFail, Details: &trajeval.Details{Expected: 3, Actual: 2,
				Matched: []trajeval.Pair{{Item: 2, Step: 1, Tool: "b"}, {Item: 3, Step: 2, Tool: "c"}},
				Missing: []trajeval.Missing{{Item: 1, Tool: "a"}}}}}}},
			"missing 1 0, matched 2 1, matched 3 2", "a missing call with nothing close comes before the match of the next expected call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := os.ReadFile(writeHTML(t, t.TempDir(), []report.Row{tt.row}))
			if err != nil {
				t.Fatal(err)
			}
			c := pageData(t, page)["cases"].([]any)[0].(map[string]any)
			v := c["views"].([]any)[0].(map[string]any)
			var got []string
			for _, r := range v["rows"].([]any) {
				r := r.(map[string]any)
				num := func(k string) int { f, _ := r[k].(float64); return int(f) }
				got = append(got, fmt.Sprintf("%s %d %d", r["kind"], num("item"), num("step")))
			}
			if strings.Join(got, ", ") != tt.want {
				t.Errorf("rows %s, want %s: %s", strings.Join(got, ", "), tt.want, tt.reason)
			}
			if (c["trace"] == true) != (tt.row.Trajectory != nil) {
				t.Errorf("trace = %v: the page must say where the steps come from", c["trace"])
			}
		})
	}
}

// TestHTML_args checks that a step's arguments show as the JSON the agent
// sent, cut on a character boundary.
func TestHTML_args(t *testing.T) {
	long := strings.Repeat("é", 1500) // 3000 bytes: cut after 2000
	tests := []struct {
		name   string
		args   json.RawMessage
		want   string
		reason string
	}{
		{"html characters", json.RawMessage(`{"q":"<b> & c"}`), `{"q":"<b> & c"}`, "<, > and & are shown as sent"},
		{"escaped by an encoder", json.RawMessage(`{"q":"\u003cb\u003E \u0026 c"}`), `{"q":"<b> & c"}`,
			"a row written by encoding/json holds them escaped; the page shows what the agent sent"},
		{"an escaped backslash", json.RawMessage(`{"q":"\\u003c"}`), `{"q":"\\u003c"}`, `\\ is a backslash: what follows it is text`},
		{"other escapes", json.RawMessage(`{"q":"a\"b\n\u00e9"}`), `{"q":"a\"b\n\u00e9"}`, "only the three HTML escapes are undone"},
		{"long", json.RawMessage(`{"q":"a` + long + `"}`), `{"q":"a` + long[:1992] + "…", "cut at most 2000 bytes in, before the character that byte 2000 splits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := tracedRow()
			row.Trajectory.Steps[0].Args = tt.args
			page, err := os.ReadFile(writeHTML(t, t.TempDir(), []report.Row{row}))
			if err != nil {
				t.Fatal(err)
			}
			c := pageData(t, page)["cases"].([]any)[0].(map[string]any)
			got := c["views"].([]any)[0].(map[string]any)["rows"].([]any)[0].(map[string]any)["args"]
			if got != tt.want {
				t.Errorf("arguments shown as %.60q…, want %.60q… (%s)", got, tt.want, tt.reason)
			}
		})
	}
	t.Run("from a case result", func(t *testing.T) {
		var b bytes.Buffer
		h := &report.HTML{W: &b}
		r := tracedRow().CaseResult
		r.Trajectory = &trajeval.Trajectory{Steps: []trajeval.Step{{Index: 1, Name: "search", Args: map[string]any{"q": "<b> & c"}}}}
		if err := h.Case(r); err != nil {
			t.Fatal(err)
		}
		if err := h.Close(report.Summary{Cases: 1, Failed: 1}); err != nil {
			t.Fatal(err)
		}
		c := pageData(t, b.Bytes())["cases"].([]any)[0].(map[string]any)
		got := c["views"].([]any)[0].(map[string]any)["rows"].([]any)[0].(map[string]any)["args"]
		if want := `{"q":"<b> & c"}`; got != want {
			t.Errorf("arguments shown as %q, want %q: eval's own rows must not show \\u003c", got, want)
		}
	})
}
