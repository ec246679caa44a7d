package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var updateShots = flag.Bool("update", false, "write the viewer's screenshots to testdata/view")

// chromiumPath finds the system's Chromium; outside CI a missing one
// skips the test, under CI=true it fails it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("chromium is not installed; .ci/run installs it")
	}
	t.Skipf("chromium is not installed (Debian: see .ci/run); skipped outside CI")
	return ""
}

// TestView_browser opens the viewer in headless Chromium and clicks
// through it as a person would: the runs, a run's report and a failing
// case's timeline in it; two runs chosen and compared, then a case of the
// comparison on its own page; the scores over time; the flaky cases. It
// saves screenshots of the runs, a failing case's timeline and a
// comparison (with -update, also to testdata/view), and of the chart and
// the flaky cases, in $TRAJEVAL_SCREENSHOTS when set.
func TestView_browser(t *testing.T) {
	chromium := chromiumPath(t)
	db, _ := viewDB(t)
	srv := openView(t, db, "")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.WindowSize(1100, 700))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	shots := os.Getenv("TRAJEVAL_SCREENSHOTS") // keep the screenshots there
	if shots == "" {
		shots = t.TempDir()
	}
	shot := func(name string, keep bool) {
		t.Helper()
		// The database's path is the test's temporary folder: not for the repository.
		js[bool](t, tab, `(document.querySelectorAll('.where').forEach(e => e.textContent = 'runs.db'), true)`)
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		dirs := []string{shots}
		if *updateShots && keep {
			dirs = append(dirs, filepath.Join("testdata", "view"))
		}
		for _, d := range dirs {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("screenshot: %s", filepath.Join(shots, name))
	}

	// The runs, newest first.
	do(t, tab, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#runs`)))
	if got := js[string](t, tab, `[...document.querySelectorAll('#runs tr.run')].map(r => r.dataset.id + ' ' + r.children[9].textContent + '/' + r.children[10].textContent).join(', ')`); got != "3 3/3, 2 3/3, 1 3/3" {
		t.Errorf("runs (id passed/failed): %s, want the three runs newest first, 3 passed and 3 failed each", got)
	}
	shot("runs.png", true)

	// A run's report; its failing case opened on its timeline.
	do(t, tab, chromedp.Click(chromedp.CSS(`#runs tr.run[data-id="2"] a.report`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready]`)))
	if got := js[string](t, tab, `document.title`); got != "trajeval run 2" {
		t.Errorf("after clicking run 2: title %q", got)
	}
	do(t, tab, chromedp.Click(chromedp.CSS(`#f-text`)))
	do(t, tab, chromedp.SendKeys(chromedp.CSS(`#f-text`), "exact-match"))
	poll(t, tab, `document.querySelectorAll('#rows tr.case').length == 1`)
	do(t, tab, chromedp.Click(chromedp.CSS(`#rows tr.case`)), chromedp.WaitVisible(chromedp.CSS(`tr.detail-row tr.tl.mismatch`)))
	if got := js[string](t, tab, `document.querySelector('tr.detail-row').innerText`); !strings.Contains(got, "near miss") || !strings.Contains(got, "P009") {
		t.Errorf("the timeline of exact-match in run 2: %q, want the check of P009 as a near miss", got)
	}
	shot("case-timeline.png", true)

	// Two runs picked on the runs page, compared.
	do(t, tab, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#runs`)),
		chromedp.Click(chromedp.CSS(`input[name="old"][value="1"]`)),
		chromedp.Click(chromedp.CSS(`input[name="new"][value="2"]`)),
		chromedp.Click(chromedp.CSS(`#compare`)),
		chromedp.WaitVisible(chromedp.CSS(`#diff`)))
	if got := js[string](t, tab, `[...document.querySelectorAll('#diff tbody tr')].map(r => r.children[0].innerText + ' ' + r.children[1].innerText).join('; ')`); got != "regressed newly failing shopping-agent/exact-match; improved newly passing shopping-agent/wrong-argument" {
		t.Errorf("diff of runs 1 and 2: %q, want exact-match regressed and wrong-argument improved", got)
	}
	if got := js[string](t, tab, `document.querySelector('#summary').innerText`); !strings.Contains(got, "1 regressed") || !strings.Contains(got, "1 improved") {
		t.Errorf("summary %q", got)
	}
	shot("diff.png", true)

	// A case of the comparison on its own page, its timeline open.
	do(t, tab, chromedp.Click(chromedp.CSS(`#diff tbody tr:first-child a:last-child`)), chromedp.WaitVisible(chromedp.CSS(`tr.detail-row tr.tl.mismatch`)))
	if got := js[string](t, tab, `document.querySelectorAll('#rows tr.case').length + ' ' + document.querySelector('#rows tr.case').innerText`); !strings.HasPrefix(got, "1 fail") || !strings.Contains(got, "exact-match") {
		t.Errorf("the case page: %q, want only exact-match, failing", got)
	}

	// The scores over time, for one case.
	do(t, tab, chromedp.Navigate(srv.URL+"/chart?suite=shopping-agent"), chromedp.WaitVisible(chromedp.CSS(`#chart`)))
	// Pick the case as a user does; the select's change handler loads the
	// case's chart (one expression, so no navigation falls between the
	// choice and the event).
	js[bool](t, tab, `(() => { const s = document.querySelector('#case'); s.value = 'exact-match'; return s.dispatchEvent(new Event('change')) })()`)
	poll(t, tab, `location.search.includes('case=exact-match') && document.readyState == 'complete' && !!document.querySelector('#chart')`)
	if got := js[string](t, tab, `[...document.querySelectorAll('#chart g.series[data-name="ordered_flow"] circle title')].map(e => e.textContent).join(', ')`); !strings.HasPrefix(got, "run 1: ordered_flow 1.00, run 2: ordered_flow 0.") || !strings.HasSuffix(got, "run 3: ordered_flow 1.00") {
		t.Errorf("ordered_flow of exact-match over the runs: %q, want 1, lower, 1", got)
	}
	if n := js[int](t, tab, `document.querySelectorAll('#chart polyline').length`); n < 2 {
		t.Errorf("%d lines, want the case score and each evaluator", n)
	}

	shot("chart.png", false)

	// The flaky cases.
	do(t, tab, chromedp.Click(chromedp.CSS(`nav a[href^="/flaky"]`)), chromedp.WaitVisible(chromedp.CSS(`#flaky`)))
	if got := js[string](t, tab, `[...document.querySelectorAll('#flaky tr.flaky')].map(r => r.children[0].innerText + ' ' + [...r.querySelectorAll('.cell')].map(c => c.className.split(' ')[1]).join('-')).join('; ')`); got != "shopping-agent/exact-match pass-fail-pass; shopping-agent/wrong-argument fail-pass-fail" {
		t.Errorf("flaky cases: %q", got)
	}
	shot("flaky.png", false)
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// poll waits for expr to hold in the page, across a navigation: a page
// that goes away while it is asked is asked again.
func poll(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	var err error
	for range 50 {
		if _, err = chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))); err == nil {
			return
		}
		if ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond) // the next page is loading
	}
	t.Fatalf("waiting for %s: %v", expr, err)
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
