package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/history"
)

// viewDB records three runs of the shopping-agent example in a new
// database and returns its path and the first run's results file:
//  1. the example as it is;
//  2. with wrong-argument fixed (it searches for a laptop: it newly
//     passes) and exact-match broken (it checks the stock of another
//     product: it newly fails);
//  3. the example as it is again, so both cases flip twice.
func viewDB(t *testing.T) (db, first string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "..", "examples", "shopping-agent")
	suite, err := os.ReadFile(filepath.Join(src, "shopping.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	traces, err := os.ReadFile(filepath.Join(src, "shopping.traces.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, line := range strings.SplitAfter(string(traces), "\n") {
		switch {
		case strings.HasPrefix(line, `{"id": "wrong-argument"`):
			line = strings.ReplaceAll(line, `"phone"`, `"laptop"`)
		case strings.HasPrefix(line, `{"id": "exact-match"`):
			line = strings.Replace(line, `"check_inventory", "id": "c3", "input": {"product_id": "P001"}`, `"check_inventory", "id": "c3", "input": {"product_id": "P009"}`, 1)
		}
		changed = append(changed, line)
	}
	if string(traces) == strings.Join(changed, "") {
		t.Fatal("the example's traces changed: the test no longer changes them")
	}
	if err := os.WriteFile(filepath.Join(dir, "shopping.yaml"), suite, 0o644); err != nil {
		t.Fatal(err)
	}
	db, first = filepath.Join(dir, "runs.db"), filepath.Join(dir, "first.jsonl")
	for i, tr := range []string{string(traces), strings.Join(changed, ""), string(traces)} {
		if err := os.WriteFile(filepath.Join(dir, "shopping.traces.jsonl"), []byte(tr), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"eval", filepath.Join(dir, "shopping.yaml"), "-q", "--db", db, "--format", "jsonl"}
		if i == 0 {
			args = append(args, "--out", first)
		}
		if code, _, stderr := runArgs(t, args...); code > 1 {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
	}
	return db, first
}

// openView serves the viewer of db, with token when it is not empty.
func openView(t *testing.T, db, token string) *httptest.Server {
	t.Helper()
	h, err := history.Open(t.Context(), db, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	srv := httptest.NewServer(requireToken(token, viewHandler(h)))
	t.Cleanup(srv.Close)
	return srv
}

// TestViewHandler checks each page of view against three recorded runs.
func TestViewHandler(t *testing.T) {
	db, first := viewDB(t)
	srv := openView(t, db, "")
	whole, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	want := lean(t, string(whole))
	tests := []struct {
		path   string
		code   int
		has    []string
		hasNot []string
		why    string
	}{
		{"/", 200, []string{`<a class="report" href="/runs/3">3</a>`, `<a class="report" href="/runs/1">1</a>`, `<td class="done">done</td>`,
			`name="old" value="2" aria-label="old: run 2" checked`, `name="new" value="3" aria-label="new: run 3" checked`, `<option>shopping-agent</option>`, `/runs/1.jsonl`},
			nil, "the runs, newest first, the two newest chosen for a comparison, a suite filter"},
		{"/?suite=shopping-agent", 200, []string{`href="/runs/2"`, `/chart?suite=shopping-agent`, `/flaky?suite=shopping-agent`}, nil, "the runs of one suite, with its chart and flaky pages"},
		{"/?n=2", 200, []string{`href="/runs/3"`, `href="/runs/2"`, `1 older runs not shown: <a href="/?n=all">show all</a>`}, []string{`href="/runs/1"`}, "the newest runs only"},
		{"/?n=all", 200, []string{`href="/runs/1"`}, []string{"not shown"}, "every run"},
		{"/?n=0", 400, []string{"1 or more, or all"}, nil, "no run to show"},
		{"/?suite=nothing", 200, []string{"No run recorded yet"}, []string{`href="/runs/1"`}, "a suite no run has"},
		{"/runs/1", 200, []string{"<title>trajeval run 1</title>", "wrong-argument", `id=\"f-text\"`[:0] + `id="f-text"`, `<a href=\"/\">all runs</a>`}, nil, "a run's report, with its filters and a way back"},
		{"/runs/last~2.jsonl", 200, []string{want}, nil, "a run's results, as its --out file but for what passing cases do not keep"},
		{"/case?run=2&id=exact-match", 200, []string{"<title>trajeval run 2: exact-match</title>", "exact-match", "tr.click()"}, []string{"wrong-argument"}, "one case, opened on its timeline"},
		{"/case?run=2&id=nothing", 404, []string{`run 2 has no case "nothing"`}, nil, "a case the run lacks"},
		{"/compare?old=1&new=2", 200, []string{"run 1</a> → <a href=\"/runs/2\">run 2</a>", "1 regressed", "1 improved", "newly failing", "newly passing",
			`<td class="mono">shopping-agent/exact-match</td>`, `href="/case?id=exact-match&amp;run=2&amp;suite=shopping-agent"`, "as trajeval compare prints it"}, nil, "two runs compared, what got worse and better"},
		{"/compare?old=1&new=3", 200, []string{"0 regressed", "No case changed."}, nil, "the same traces twice"},
		{"/chart?suite=shopping-agent", 200, []string{`<svg class="chart"`, `data-name="case score"`, `data-name="ordered_flow"`, "<title>run 2: ordered_flow"}, nil, "the scores of every case over the runs"},
		{"/chart?suite=shopping-agent&case=exact-match&evaluator=ordered_flow", 200, []string{`<option selected>exact-match</option>`, `data-name="ordered_flow"`,
			"<title>run 1: ordered_flow 1.00</title>", `href="/case?id=exact-match&amp;run=2&amp;suite=shopping-agent">timeline</a>`}, []string{`data-name="exact_flow"`}, "one case, one evaluator"},
		{"/chart?suite=shopping-agent&case=nothing", 404, []string{`has a case "nothing"`}, nil, "a case no run has"},
		{"/chart", 400, []string{"give a suite"}, nil, "a chart needs a suite"},
		{"/flaky?suite=shopping-agent", 200, []string{`<td class="mono">shopping-agent/exact-match</td><td class="n">2</td>`, `<td class="mono">shopping-agent/wrong-argument</td><td class="n">2</td>`, `title="run 2: fail"`}, []string{`wrong-order`}, "the cases that flipped, with their history; steady cases left out"},
		{"/flaky?suite=shopping-agent&n=2", 200, []string{`<td class="mono">shopping-agent/exact-match</td><td class="n">1</td>`}, nil, "only the newest runs"},
		{"/flaky?suite=shopping-agent&n=1", 400, []string{"2 or more"}, nil, "one run cannot flip"},
		{"/flaky?suite=nothing", 404, []string{`no run of suite "nothing"`}, nil, "a suite no run has"},
		{"/runs/99", 404, []string{"no such run 99"}, nil, "a run that is not there"},
		{"/runs/junk", 404, []string{`"junk" is not a run`}, nil, "not a run id"},
		{"/compare?old=1", 404, []string{`"" is not a run`}, nil, "a comparison needs two runs"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Fatalf("%s: status %d, want %d (%s)\n%s", tt.path, resp.StatusCode, tt.code, tt.why, body)
			}
			// A browser must not guess another type than the one sent (a
			// results file read as HTML would run what a trace put in it).
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%s: X-Content-Type-Options %q, want nosniff", tt.path, got)
			}
			if got := resp.Header.Get("Content-Security-Policy"); !strings.Contains(got, "default-src 'none'") || !strings.Contains(got, "frame-ancestors 'none'") {
				t.Errorf("%s: Content-Security-Policy %q, want nothing loaded from elsewhere and no framing", tt.path, got)
			}
			for _, s := range tt.has {
				if !strings.Contains(string(body), s) {
					t.Errorf("%s: %s: the page lacks %q", tt.path, tt.why, s)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(string(body), s) {
					t.Errorf("%s: %s: the page has %q", tt.path, tt.why, s)
				}
			}
		})
	}
}

// getPage returns the status and body of the viewer srv's page at path.
func getPage(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestRequireToken checks that a viewer with a token answers only the
// requests that carry it.
func TestRequireToken(t *testing.T) {
	db, _ := viewDB(t)
	srv := openView(t, db, "s3cret")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		name   string
		path   string
		header map[string]string
		code   int
		has    string
		why    string
	}{
		{"none", "/", nil, 401, "needs its token", "no token: a clear refusal"},
		{"wrong header", "/", map[string]string{"Authorization": "Bearer nope"}, 401, "needs its token", "a wrong token"},
		{"header", "/", map[string]string{"Authorization": "Bearer s3cret"}, 200, "trajeval runs", "the bearer token"},
		{"cookie", "/runs/1", map[string]string{"Cookie": "trajeval_token=s3cret"}, 200, "trajeval run 1", "the cookie"},
		{"wrong cookie", "/", map[string]string{"Cookie": "trajeval_token=s3cre"}, 401, "needs its token", "a cookie with another value"},
		{"query", "/compare?old=1&new=2&token=s3cret", nil, 303, "", "the query sets the cookie and drops the token from the address"},
		{"wrong query", "/?token=nope", nil, 401, "wrong token", "a wrong token in the address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.code || !strings.Contains(string(body), tt.has) {
				t.Fatalf("%s: status %d, want %d with %q (%s)\n%s", tt.path, resp.StatusCode, tt.code, tt.has, tt.why, body)
			}
			if tt.code == 303 {
				loc, _ := url.Parse(resp.Header.Get("Location"))
				if loc.Query().Has("token") || loc.Query().Get("old") != "1" {
					t.Errorf("redirect to %s: want the address without its token", loc)
				}
				c := resp.Cookies()
				if len(c) != 1 || c[0].Name != "trajeval_token" || c[0].Value != "s3cret" || !c[0].HttpOnly {
					t.Errorf("cookies %v: want trajeval_token, HttpOnly", c)
				}
			}
		})
	}
}

// TestRequireToken_host checks that a viewer without a token answers
// only requests addressed to this machine.
func TestRequireToken_host(t *testing.T) {
	db, _ := viewDB(t)
	srv := openView(t, db, "")
	tests := []struct {
		host string
		code int
		why  string
	}{
		{"", 200, "the server's own address, 127.0.0.1:PORT"},
		{"localhost:8080", 200, "localhost"},
		{"[::1]:8080", 200, "IPv6 loopback"},
		{"evil.example:8080", 421, "a name that a rebinding DNS points at 127.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			req, err := http.NewRequest("GET", srv.URL+"/", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Fatalf("Host %q: status %d, want %d (%s)\n%s", tt.host, resp.StatusCode, tt.code, tt.why, body)
			}
		})
	}
}

// TestViewHandler_trials checks the flaky page on trials: a case whose
// trials disagree in a run is flaky even when its verdict holds.
func TestViewHandler_trials(t *testing.T) {
	db := filepath.Join(t.TempDir(), "runs.db")
	h, err := history.Open(t.Context(), db, history.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	for i, trials := range [][]trajeval.Status{{"pass", "pass", "pass"}, {"pass", "fail", "pass"}} {
		rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"shop"}, Paths: []string{"shop.yaml"}, Start: start.Add(time.Duration(i) * time.Hour), Options: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		for n, st := range trials {
			rec.Record(trajeval.CaseResult{ID: "refund", Suite: "shop", Attempt: n + 1, Status: st, Score: map[trajeval.Status]float64{"pass": 1}[st], Evaluators: []trajeval.Result{}})
			rec.Record(trajeval.CaseResult{ID: "steady", Suite: "shop", Attempt: n + 1, Status: "pass", Score: 1, Evaluators: []trajeval.Result{}})
		}
		if err := rec.End(start.Add(time.Duration(i)*time.Hour+time.Second), false); err != nil {
			t.Fatal(err)
		}
	}
	h.Close()
	srv := openView(t, db, "")
	_, body := getPage(t, srv, "/flaky?suite=shop")
	for _, s := range []string{`<td class="mono">shop/refund</td><td class="n">1</td><td class="n">1</td>`, `title="run 2: mixed (2 of 3 trials passed)"`, `title="run 1: pass (3 of 3 trials passed)"`} {
		if !strings.Contains(body, s) {
			t.Errorf("the flaky page lacks %q: refund passed 3 of 3, then 2 of 3\n%s", s, body)
		}
	}
	if strings.Contains(body, "steady") {
		t.Errorf("the flaky page lists steady, which passed every trial of every run")
	}
}

// TestViewHandler_newCases checks that the chart and flaky pages, which
// keep what they read, show the cases recorded after they were drawn:
// those of a new run, and those a run records while under way.
func TestViewHandler_newCases(t *testing.T) {
	db, _ := viewDB(t)
	srv := openView(t, db, "")
	get := func(path string) string {
		t.Helper()
		code, body := getPage(t, srv, path)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d\n%s", path, code, body)
		}
		return body
	}
	check := func(run int, has bool, why string) {
		t.Helper()
		for path, s := range map[string]string{"/chart?suite=shopping-agent": fmt.Sprintf("<title>run %d: case score", run),
			"/flaky?suite=shopping-agent": fmt.Sprintf(`title="run %d: fail"`, run)} {
			if strings.Contains(get(path), s) != has {
				t.Errorf("%s: has %q is %v, want %v: %s", path, s, !has, has, why)
			}
		}
	}
	check(4, false, "there is no run 4 yet")
	if code, _, stderr := runArgs(t, "eval", filepath.Join(filepath.Dir(db), "shopping.yaml"), "-q", "--db", db, "--format", "jsonl"); code > 1 {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	check(4, true, "run 4 was recorded")

	h, err := history.Open(t.Context(), db, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rec, err := h.Begin(t.Context(), history.Run{Suites: []string{"shopping-agent"}, Start: time.Now(), Options: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	check(5, false, "run 5 has no case yet")
	rec.Record(trajeval.CaseResult{ID: "exact-match", Suite: "shopping-agent", Status: trajeval.StatusFail, Score: 0.5, Evaluators: []trajeval.Result{}})
	if err := rec.End(time.Now(), false); err != nil {
		t.Fatal(err)
	}
	check(5, true, "run 5 recorded a case")
}

// TestCheckViewAddr checks which addresses view serves without a token.
func TestCheckViewAddr(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
		why         string
	}{
		{"127.0.0.1:8080", "", true, "loopback"},
		{"[::1]:0", "", true, "IPv6 loopback"},
		{"localhost:8080", "", true, "localhost"},
		{"0.0.0.0:8080", "", false, "every interface"},
		{":8080", "", false, "an empty host is every interface"},
		{"192.168.1.5:8080", "", false, "a LAN address"},
		{"0.0.0.0:8080", "t", true, "a token lets any address through"},
		{"8080", "", false, "not HOST:PORT"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			err := checkViewAddr(tt.addr, tt.token)
			if (err == nil) != tt.ok {
				t.Fatalf("checkViewAddr(%q, %q) = %v, want ok %v (%s)", tt.addr, tt.token, err, tt.ok, tt.why)
			}
			if err != nil && tt.token == "" && strings.Contains(tt.addr, ":") && !strings.Contains(err.Error(), "--token") {
				t.Errorf("error %q: it must say --token is the way", err)
			}
		})
	}
}

// TestViewHandler_args checks that a run's page shows a step's arguments
// as the JSON the agent sent: <, > and & as they are, not \u003c.
func TestViewHandler_args(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("suite.yaml", "execution:\n  evaluators:\n    - {name: flow, type: tool_trajectory, mode: exact, expected: [{tool: search}]}\n")
	write("traces.jsonl", `{"id":"html","steps":[{"index":1,"name":"search","args":{"q":"<b> & c"}}]}`+"\n")
	db := filepath.Join(dir, "runs.db")
	if code, _, stderr := runArgs(t, "eval", filepath.Join(dir, "suite.yaml"), "--traces", filepath.Join(dir, "traces.jsonl"), "-q", "--db", db, "--include-trace"); code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	srv := openView(t, db, "")
	resp, err := http.Get(srv.URL + "/runs/last")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	const open = `<script id="data" type="application/json">`
	i := strings.Index(string(body), open)
	j := strings.Index(string(body[i:]), "</script>")
	var data struct {
		Cases []struct {
			Views []struct {
				Rows []struct{ Args string }
			}
		}
	}
	if i < 0 || j < 0 || json.Unmarshal(body[i+len(open):i+j], &data) != nil || len(data.Cases) != 1 || len(data.Cases[0].Views) != 1 {
		t.Fatalf("no case in the page:\n%s", body)
	}
	if got, want := data.Cases[0].Views[0].Rows[0].Args, `{"q":"<b> & c"}`; got != want {
		t.Errorf("arguments shown as %q, want %q", got, want)
	}
}

// TestViewHandler_keepFailing checks that the viewer says, as show does,
// that a run past --keep-failing kept less for the cases after the bound:
// on the run's page, and on the page of a case past it only.
func TestViewHandler_keepFailing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	suite := filepath.Join("..", "..", "examples", "shopping-agent", "shopping.yaml")
	// Three cases fail: wrong-order, missing-details, wrong-argument.
	for _, args := range [][]string{{"--keep-failing", "1"}, nil} {
		args = append([]string{"eval", suite, "-q", "--db", db}, args...)
		if code, _, stderr := runArgs(t, args...); code != 1 {
			t.Fatalf("eval: exit %d, want 1\n%s", code, stderr)
		}
	}
	srv := openView(t, db, "")
	note := "run 1 kept the trajectories and evaluators&#39; details of its first 1 cases that did not pass (eval --keep-failing); the 2 after them show their verdicts and scores only"
	tests := []struct {
		path string
		has  bool
		why  string
	}{
		{"/runs/1", true, "a run past its bound says so above its report"},
		{"/case?run=1&id=wrong-argument", true, "a failing case past the bound: its page says why it has no timeline"},
		{"/case?run=1&id=wrong-order", false, "the first failing case kept everything"},
		{"/case?run=1&id=exact-match", false, "a passing case keeps no trajectory whatever the bound"},
		{"/runs/2", false, "the default bound, 1,000, keeps all three"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, body := getPage(t, srv, tt.path)
			if code != http.StatusOK {
				t.Fatalf("%s: status %d\n%s", tt.path, code, body)
			}
			if strings.Contains(body, "viewer-note") != tt.has {
				t.Fatalf("%s: %s: note shown %t, want %t", tt.path, tt.why, !tt.has, tt.has)
			}
			if tt.has && !strings.Contains(body, note) {
				t.Errorf("%s: %s: the page lacks the note %q", tt.path, tt.why, note)
			}
		})
	}
}
