package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// TestReport_browserHostile opens in headless Chromium a report page whose
// ids, tool names, arguments and errors hold markup that would run script
// (a tag with an event handler, a script closed early, a javascript: URL),
// opens every case, and checks that none of it ran and each id shows as
// its text. A copy of the page with a script added by hand, as an escaping
// mistake would add one, runs its own script but not the added one: the
// page's Content-Security-Policy allows its own alone.
func TestReport_browserHostile(t *testing.T) {
	chromium := chromiumPath(t)
	payloads := []string{
		`<img src=x onerror="window.pwned='img'">`,
		`</script><script>window.pwned='script'</script>`,
		`<svg onload="window.pwned='svg'">`,
		`javascript:window.pwned='url'`,
		`<!-- "'><iframe srcdoc="<script>parent.pwned='iframe'</script>">`,
	}
	var b bytes.Buffer
	page := &report.HTML{W: &b}
	yes := true
	for i, p := range payloads {
		r := trajeval.CaseResult{ID: p, Suite: p, Status: trajeval.StatusFail, Score: 0.5, Error: p,
			Trajectory: &trajeval.Trajectory{ID: p, Steps: []trajeval.Step{{Index: 1, Name: p, Args: map[string]any{"q": p}, Error: &yes, ErrorMessage: p}}},
			Evaluators: []trajeval.Result{{Name: p, Type: "tool_trajectory", Score: 0.5, Status: trajeval.StatusFail, Threshold: 1,
				Details: &trajeval.Details{Mode: "in_order", Hits: 0, Expected: 1, Actual: 1,
					Missing: []trajeval.Missing{{Item: 1, Tool: p, Near: []trajeval.NearMiss{{Step: 1, Tool: p, Why: p}}}},
					Extra:   []trajeval.Extra{{Step: 1, Tool: p}}}}}}
		if i == 0 {
			r.Status = trajeval.StatusError
		}
		if err := page.Case(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := page.Close(report.Summary{Cases: len(payloads), Failed: len(payloads) - 1, Errors: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	clean := filepath.Join(dir, "report.html")
	forged := filepath.Join(dir, "forged.html")
	if err := os.WriteFile(clean, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	added := bytes.Replace(b.Bytes(), []byte("</body>"), []byte("<script>window.pwned='added'</script><img src=\"https://example.invalid/pixel.png\" onerror=\"window.pwned='pixel'\"></body>"), 1)
	if err := os.WriteFile(forged, added, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	for _, file := range []string{clean, forged} {
		do(t, tab, chromedp.Navigate("file://"+file), chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)))
		if n := js[int](t, tab, `document.querySelectorAll('#rows tr.case').length`); n != len(payloads) {
			t.Fatalf("%s: %d cases drawn, want %d: the page's own script must run", filepath.Base(file), n, len(payloads))
		}
		js[bool](t, tab, `(document.querySelectorAll('#rows tr.case').forEach(tr => tr.click()), true)`)
		poll(t, tab, `document.querySelectorAll('tr.detail-row').length == `+strconv.Itoa(len(payloads)))
		time.Sleep(200 * time.Millisecond) // an image's error, were one loaded
		if got := js[string](t, tab, `String(window.pwned)`); got != "undefined" {
			t.Errorf("%s: window.pwned = %q: text from the results ran as script", filepath.Base(file), got)
		}
		if n := js[int](t, tab, `document.querySelectorAll('#rows img, #rows svg, #rows iframe, #rows script, tr.detail-row img, tr.detail-row iframe, tr.detail-row script').length`); n != 0 {
			t.Errorf("%s: %d elements made from the results' text", filepath.Base(file), n)
		}
		text := js[string](t, tab, `document.querySelector('#rows').innerText`)
		for _, p := range payloads {
			if !strings.Contains(text, p) {
				t.Errorf("%s: the page does not show %q as text", filepath.Base(file), p)
			}
		}
	}
}
