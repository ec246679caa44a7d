package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/compare"
	"github.com/trajeval/trajeval/internal/history"
	"github.com/trajeval/trajeval/internal/report"
)

//go:embed view/*.tmpl
var viewFiles embed.FS

// viewPages parses the view's templates on first use, not at every
// start of the program: parsing them is most of the command's own
// start-up, and only view needs them.
var viewPages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"score": func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
		"signed": func(f *float64) string {
			if f == nil {
				return ""
			}
			return fmt.Sprintf("%+.2f", *f)
		},
		"dict": func(c compare.Case, old, new string) map[string]any {
			return map[string]any{"C": c, "OldID": old, "NewID": new}
		},
		"query": func(kv ...string) template.URL {
			v := url.Values{}
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i+1] != "" {
					v.Set(kv[i], kv[i+1])
				}
			}
			return template.URL(v.Encode())
		},
	}).ParseFS(viewFiles, "view/*.tmpl"))
})

//go:embed view/view.css
var viewCSS string

// The cookie requireToken sets from ?token=.
const tokenCookie = "trajeval_token"

// requireToken lets through the requests that carry token, in the header
// Authorization: Bearer TOKEN, in the cookie trajeval_token, or in the
// query ?token=TOKEN (which sets the cookie and redirects to the page
// without it); it answers any other with 401. An empty token lets every
// request through.
//
// Without a token, it answers only requests addressed to this machine by
// name (Host localhost or a loopback address), so that a web page cannot
// reach the viewer through a name of its own that resolves to 127.0.0.1
// (DNS rebinding).
func requireToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !loopbackHost(r.Host) {
				http.Error(w, fmt.Sprintf("trajeval view answers only requests for localhost or a loopback address, not %q: open http://127.0.0.1:PORT/, or serve with --token", r.Host), http.StatusMisdirectedRequest)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	same := func(s string) bool { return subtle.ConstantTimeCompare([]byte(s), []byte(token)) == 1 }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); q.Has("token") {
			if !same(q.Get("token")) {
				http.Error(w, "trajeval view: wrong token in ?token=", http.StatusUnauthorized)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && same(auth) {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(tokenCookie); err == nil && same(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="trajeval view"`)
		http.Error(w, "trajeval view needs its token: open this address once with ?token=TOKEN (the server then sets a cookie), or send the header Authorization: Bearer TOKEN", http.StatusUnauthorized)
	})
}

// loopbackHost reports whether host (HOST or HOST:PORT) names this
// machine: localhost or a loopback address.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// viewHandler serves the pages of view:
//
//	/                          the newest 100 runs (?n=N, ?n=all; ?suite= picks one suite), to choose two to compare
//	/runs/RUN                  a run's report, with its filters and timelines (RUN: an id, last, last~N)
//	/runs/RUN.jsonl            its results, as eval --out wrote them
//	/case?run=RUN&id=ID        one case of a run (&suite= when ids repeat), its timeline open
//	/compare?old=A&new=B       two runs compared, as trajeval compare A B judges them
//	/chart?suite=S             the scores of a suite's runs over time (&case=ID for one case)
//	/flaky?suite=S&n=N         the cases whose verdict changed over the N newest runs of a suite
func viewHandler(h *history.DB) http.Handler {
	v := &viewer{h: h, cache: &viewCache{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", v.runs)
	mux.HandleFunc("GET /runs/{run}", v.run)
	mux.HandleFunc("GET /case", v.caseTimeline)
	mux.HandleFunc("GET /compare", v.compare)
	mux.HandleFunc("GET /chart", v.chart)
	mux.HandleFunc("GET /flaky", v.flaky)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every answer says its type and forbids the browser to guess
		// another: a results file it took for HTML would run what a
		// trace put in it.
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// Nothing is loaded from elsewhere (no script, image or style of
		// another origin: no tracking pixel, nowhere to send a page's
		// data), and no other site may frame the pages. Inline script and
		// style are the pages' own: html/template escapes what they show,
		// and a report page allows only its own, by their hashes.
		w.Header().Set("Content-Security-Policy", viewCSP)
		mux.ServeHTTP(w, r)
	})
}

const viewCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

type viewer struct {
	h     *history.DB
	cache *viewCache
}

// viewError is an error with its HTTP status.
type viewError struct {
	code int
	err  error
}

func (e viewError) Error() string { return e.err.Error() }

func (v *viewer) fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var ve viewError
	switch {
	case errors.As(err, &ve):
		code = ve.code
	case errors.Is(err, history.ErrNoRun) || strings.Contains(err.Error(), "is not a run"):
		code = http.StatusNotFound
	}
	http.Error(w, err.Error(), code)
}

func (v *viewer) page(w http.ResponseWriter, name string, data map[string]any) {
	data["CSS"] = template.CSS(viewCSS)
	data["Where"] = v.h.Where()
	var buf bytes.Buffer
	if err := viewPages().ExecuteTemplate(&buf, name, data); err != nil {
		v.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

func (v *viewer) runs(w http.ResponseWriter, r *http.Request) {
	suite := r.FormValue("suite")
	limit := 100
	if s := r.FormValue("n"); s == "all" {
		limit = 0
	} else if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			v.fail(w, viewError{http.StatusBadRequest, fmt.Errorf("n=%s: give a number of runs, 1 or more, or all", s)})
			return
		}
		limit = n
	}
	// Only the runs shown are read: a history of many runs costs a count.
	f := history.Filter{Suite: suite, Last: limit}
	runs, err := v.h.Runs(r.Context(), f)
	if err != nil {
		v.fail(w, err)
		return
	}
	total, err := v.h.Count(r.Context(), f)
	if err != nil {
		v.fail(w, err)
		return
	}
	suites, err := v.h.Suites(r.Context())
	if err != nil {
		v.fail(w, err)
		return
	}
	type row struct {
		history.Run
		Suites, Started, Duration, Status string
		Old, New                          bool
	}
	var rows []row
	for i := len(runs) - 1; i >= 0; i-- {
		run := runs[i]
		rows = append(rows, row{Run: run, Suites: strings.Join(run.Suites, ", "),
			Started: run.Start.Local().Format("2006-01-02 15:04:05"), Duration: duration(run), Status: status(run),
			New: len(rows) == 0, Old: len(rows) == 1})
	}
	v.page(w, "runs", map[string]any{"Title": "trajeval runs", "Runs": rows, "Suites": suites, "Suite": suite, "More": max(0, total-len(runs))})
}

// reportPage draws rows as the page trajeval report draws, and adds
// script to it when script is not empty.
func reportPage(title string, rows []report.Row, sum report.Summary, script string) ([]byte, error) {
	var buf bytes.Buffer
	page := &report.HTML{W: &buf, Title: title, Script: script}
	for _, row := range rows {
		if err := page.Row(row); err != nil {
			return nil, err
		}
	}
	if err := page.Close(sum); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// viewNote is note as a line of its own under the viewer's links; "" for
// no note.
func viewNote(note string) string {
	if note == "" {
		return ""
	}
	return `<br><span class="viewer-note">` + template.HTMLEscapeString(note) + `</span>`
}

// unkept reports whether a row of rows did not pass and came back with
// evaluators and none of their details: a case past the run's
// --keep-failing (keptNote).
func unkept(rows []report.Row) bool {
	for _, row := range rows {
		if row.Status == trajeval.StatusPass || len(row.Evaluators) == 0 {
			continue
		}
		if !slices.ContainsFunc(row.Evaluators, func(r trajeval.Result) bool { return r.Details != nil }) {
			return true
		}
	}
	return false
}

// backLink adds to a report page a line of links back to the viewer.
func backLink(links string) string {
	return `(function(){var p=document.createElement('p');p.className='viewer-nav';p.style.cssText='margin:0;padding:.6em 24px;font:14px system-ui,sans-serif';p.innerHTML=` +
		strconv.Quote(links) + `;document.body.prepend(p);})();`
}

func (v *viewer) run(w http.ResponseWriter, r *http.Request) {
	ref, jsonl := strings.CutSuffix(r.PathValue("run"), ".jsonl")
	run, results, data, err := runRows(r.Context(), v.h, ref)
	if err != nil {
		v.fail(w, err)
		return
	}
	if jsonl {
		w.Header().Set("Content-Type", "application/jsonl; charset=utf-8")
		w.Write(data)
		return
	}
	name := "run " + strconv.FormatInt(run.ID, 10)
	rows, _, err := report.ReadRows(bytes.NewReader(data), name)
	if err != nil {
		v.fail(w, err)
		return
	}
	id := strconv.FormatInt(run.ID, 10)
	links := `<a href="/">all runs</a> · <a href="/runs/` + id + `.jsonl">results (JSON Lines)</a>`
	if len(run.Suites) > 0 {
		s := url.QueryEscape(run.Suites[0])
		links += ` · <a href="/chart?suite=` + s + `">scores over time</a> · <a href="/flaky?suite=` + s + `">flaky cases</a>`
	}
	links += viewNote(keptNote(run, name))
	page, err := reportPage("trajeval "+name, rows, summarize(results), backLink(links))
	if err != nil {
		v.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(page)
}

// caseTimeline serves the report page of one case of a run (each of its
// trials), with the case opened on its timeline.
func (v *viewer) caseTimeline(w http.ResponseWriter, r *http.Request) {
	run, _, data, err := runRows(r.Context(), v.h, r.FormValue("run"))
	if err != nil {
		v.fail(w, err)
		return
	}
	name := "run " + strconv.FormatInt(run.ID, 10)
	rows, _, err := report.ReadRows(bytes.NewReader(data), name)
	if err != nil {
		v.fail(w, err)
		return
	}
	id, suite := r.FormValue("id"), r.FormValue("suite")
	var picked []report.Row
	var sum report.Summary
	for _, row := range rows {
		if row.ID == id && (suite == "" || row.Suite == suite) {
			picked = append(picked, row)
			sum.Add(row.CaseResult)
		}
	}
	if len(picked) == 0 {
		v.fail(w, viewError{http.StatusNotFound, fmt.Errorf("%s has no case %q", name, id)})
		return
	}
	// Open every row once the page has drawn them.
	open := `(function open(){if(!document.body.hasAttribute('data-ready')){return setTimeout(open,20);}` +
		`document.querySelectorAll('#rows tr.case').forEach(function(tr){tr.click();});})();`
	runID := strconv.FormatInt(run.ID, 10)
	links := `<a href="/">all runs</a> · <a href="/runs/` + runID + `">` + name + `</a>`
	if s := cmp.Or(suite, picked[0].Suite); s != "" {
		links += ` · <a href="/chart?` + template.HTMLEscapeString(url.Values{"suite": {s}, "case": {id}}.Encode()) + `">this case over time</a>`
	}
	if unkept(picked) {
		links += viewNote(keptNote(run, name))
	}
	page, err := reportPage("trajeval "+name+": "+id, picked, sum, backLink(links)+open)
	if err != nil {
		v.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(page)
}

func (v *viewer) compare(w http.ResponseWriter, r *http.Request) {
	var files [2]*compare.File
	var ids [2]int64
	for i, key := range []string{"old", "new"} {
		run, _, data, err := runRows(r.Context(), v.h, r.FormValue(key))
		if err != nil {
			v.fail(w, err)
			return
		}
		ids[i] = run.ID
		if files[i], err = compare.Parse("run "+strconv.FormatInt(run.ID, 10), data); err != nil {
			v.fail(w, viewError{http.StatusUnprocessableEntity, err})
			return
		}
	}
	var text bytes.Buffer
	rep, err := compare.Compare(files[0], files[1], compare.Options{Confidence: 0.95})
	if err == nil {
		err = compare.Write(&text, rep, "text")
	}
	if err != nil {
		v.fail(w, viewError{http.StatusUnprocessableEntity, err})
		return
	}
	var changed, same []compare.Case
	for _, c := range rep.Cases {
		if c.Verdict == compare.Same {
			same = append(same, c)
		} else {
			changed = append(changed, c)
		}
	}
	v.page(w, "compare", map[string]any{"Title": "trajeval " + rep.Old + " → " + rep.New, "Report": rep,
		"OldID": ids[0], "NewID": ids[1], "Changed": changed, "Same": same, "Text": text.String()})
}

// suiteRuns returns the newest limit runs of suite (every run when
// limit is 0), oldest first, and their ids.
func (v *viewer) suiteRuns(ctx context.Context, suite string, limit int) ([]history.Run, []int64, error) {
	if suite == "" {
		return nil, nil, viewError{http.StatusBadRequest, errors.New("give a suite: ?suite=NAME (the runs page lists them)")}
	}
	runs, err := v.h.Runs(ctx, history.Filter{Suite: suite, Last: limit})
	if err != nil {
		return nil, nil, err
	}
	if len(runs) == 0 {
		return nil, nil, viewError{http.StatusNotFound, fmt.Errorf("no run of suite %q in %s", suite, v.h.Where())}
	}
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return runs, ids, nil
}

// A series is one line of a chart: a score per run, NaN where the run has
// none.
type series struct {
	Name   string
	Colour string
	Values []float64
	Points string // the SVG polyline's points
	Dots   []dot
}

type dot struct {
	X, Y  float64
	Title string
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

func (v *viewer) chart(w http.ResponseWriter, r *http.Request) {
	suite, caseID, evaluator := r.FormValue("suite"), r.FormValue("case"), r.FormValue("evaluator")
	runs, ids, err := v.suiteRuns(r.Context(), suite, 100)
	if err != nil {
		v.fail(w, err)
		return
	}
	// For each run: the case score and each evaluator's score, averaged
	// over the cases picked (one case, or every case) and their trials.
	got, err := v.cache.get(r.Context(), v.h, fmt.Sprint("scores", ids, suite, "\x00", caseID), func() (any, error) {
		return v.h.Scores(r.Context(), ids, suite, caseID)
	})
	if err != nil {
		v.fail(w, err)
		return
	}
	sc := got.(history.Scores)
	cases, evaluators := sc.Cases, sc.Names
	if caseID != "" && !slices.Contains(cases, caseID) {
		v.fail(w, viewError{http.StatusNotFound, fmt.Errorf("no run of suite %q has a case %q", suite, caseID)})
		return
	}
	mean := func(i int, name string) (history.Mean, bool) {
		if name == "case score" {
			return sc.Case[i], sc.Case[i].N > 0
		}
		m, ok := sc.Evaluators[i][name]
		return m, ok
	}
	var names []string // "case score" then evaluators, in order of first appearance
	for i := range runs {
		if sc.Case[i].N > 0 {
			names = append(names, "case score")
			break
		}
	}
	names = append(names, evaluators...)
	const width, height, left, right, top, bottom = 760.0, 260.0, 40.0, 10.0, 10.0, 30.0
	x := func(i int) float64 {
		if len(runs) == 1 {
			return left + (width-left-right)/2
		}
		return left + float64(i)*(width-left-right)/float64(len(runs)-1)
	}
	y := func(s float64) float64 { return top + (1-s)*(height-top-bottom) }
	var lines []series
	for k, name := range names {
		if evaluator != "" && name != evaluator && name != "case score" {
			continue
		}
		s := series{Name: name, Colour: palette[k%len(palette)]}
		var pts []string
		for i := range runs {
			a, ok := mean(i, name)
			if !ok {
				s.Values = append(s.Values, math.NaN())
				continue
			}
			m := a.Sum / float64(a.N)
			s.Values = append(s.Values, m)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(m)))
			s.Dots = append(s.Dots, dot{x(i), y(m), fmt.Sprintf("run %d: %s %.2f", runs[i].ID, name, m)})
		}
		s.Points = strings.Join(pts, " ")
		lines = append(lines, s)
	}
	type tick struct {
		X     float64
		Label string
		ID    int64
	}
	var ticks []tick
	step := max(1, len(runs)/12)
	for i, run := range runs {
		if i%step == 0 || i == len(runs)-1 {
			ticks = append(ticks, tick{x(i), "#" + strconv.FormatInt(run.ID, 10), run.ID})
		}
	}
	type grid struct{ Y, Label string }
	var grids []grid
	for _, g := range []float64{0, 0.25, 0.5, 0.75, 1} {
		grids = append(grids, grid{fmt.Sprintf("%.1f", y(g)), fmt.Sprintf("%.2f", g)})
	}
	type cell struct {
		Text  string
		Class string
	}
	table := make([][]cell, len(runs))
	for i := range runs {
		for _, l := range lines {
			if math.IsNaN(l.Values[i]) {
				table[i] = append(table[i], cell{"–", ""})
			} else {
				table[i] = append(table[i], cell{fmt.Sprintf("%.2f", l.Values[i]), ""})
			}
		}
	}
	v.page(w, "chart", map[string]any{"Title": "trajeval " + suite + " over time", "Suite": suite, "Case": caseID, "Evaluator": evaluator,
		"Cases": cases, "Evaluators": evaluators, "Runs": runs, "Lines": lines, "Ticks": ticks, "Grid": grids, "Table": table,
		"Width": width, "Height": height, "Left": left, "Right": width - right, "Bottom": height - bottom})
}

// A flakyCase is a case whose verdict changed over the runs looked at, or
// whose trials disagreed within a run.
type flakyCase struct {
	Suite, ID string
	Flips     int // changes of verdict from one run to the next it ran in
	Mixed     int // runs whose trials disagreed
	History   []flakyCell
}

type flakyCell struct {
	RunID  int64
	Status string // pass, fail, error, mixed; "" when the run lacks the case
	Title  string
}

func (v *viewer) flaky(w http.ResponseWriter, r *http.Request) {
	suite := r.FormValue("suite")
	n := 10
	if s := r.FormValue("n"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 2 {
			v.fail(w, viewError{http.StatusBadRequest, fmt.Errorf("n=%s: give a number of runs, 2 or more", s)})
			return
		}
	}
	runs, ids, err := v.suiteRuns(r.Context(), suite, n)
	if err != nil {
		v.fail(w, err)
		return
	}
	type flakyRows struct {
		verdicts []history.Verdict
		total    int
	}
	got, err := v.cache.get(r.Context(), v.h, fmt.Sprint("flaky", ids, suite), func() (any, error) {
		vs, n, err := v.h.Verdicts(r.Context(), ids, suite, true)
		return flakyRows{vs, n}, err
	})
	if err != nil {
		v.fail(w, err)
		return
	}
	verdicts, total := got.(flakyRows).verdicts, got.(flakyRows).total
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	type key struct{ suite, id string }
	var order []key
	hist := map[key][]flakyCell{}
	for _, vd := range verdicts {
		k := key{vd.Suite, vd.ID}
		if _, ok := hist[k]; !ok {
			order = append(order, k)
			hist[k] = make([]flakyCell, len(runs))
			for j := range runs {
				hist[k][j].RunID = runs[j].ID
			}
		}
		cell := &hist[k][at[vd.Run]]
		tot := vd.Pass + vd.Fail + vd.Errors
		switch {
		case vd.Pass > 0 && vd.Pass < tot:
			cell.Status = "mixed" // trials disagreed
		case vd.Pass == tot:
			cell.Status = "pass"
		case vd.Errors == tot:
			cell.Status = "error"
		default:
			cell.Status = "fail"
		}
		cell.Title = fmt.Sprintf("run %d: %s", vd.Run, cell.Status)
		if tot > 1 {
			cell.Title += fmt.Sprintf(" (%d of %d trials passed)", vd.Pass, tot)
		}
	}
	var flaky []flakyCase
	for _, k := range order {
		fc := flakyCase{Suite: k.suite, ID: k.id, History: hist[k]}
		last := ""
		for _, c := range fc.History {
			if c.Status == "" {
				continue
			}
			if c.Status == "mixed" {
				fc.Mixed++
			}
			if last != "" && c.Status != last {
				fc.Flips++
			}
			last = c.Status
		}
		if fc.Flips > 0 || fc.Mixed > 0 {
			flaky = append(flaky, fc)
		}
	}
	slices.SortStableFunc(flaky, func(a, b flakyCase) int { return cmp.Compare(b.Flips+b.Mixed, a.Flips+a.Mixed) })
	v.page(w, "flaky", map[string]any{"Title": "trajeval flaky cases of " + suite, "Suite": suite, "N": n,
		"Runs": runs, "Flaky": flaky, "Cases": total})
}
