package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

//go:embed html/page.html
var pageHTML string

//go:embed html/report.css
var reportCSS string

//go:embed html/report.js
var reportJS string

// page is the HTML report's template, parsed on first use (as pageCSP):
// parsing it took 150 allocations in every command's start-up.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageHTML))
})

// HTML writes one self-contained page to explore a run: no network, its
// style and script inlined. It shows:
//  1. the totals, and filters by status, by evaluator and by text; with an
//     evaluator chosen, the status filter applies to that evaluator's
//     verdict (so "fail" and "flow" list the cases whose flow failed);
//  2. a table of the cases, drawn as it is scrolled (so that tens of
//     thousands of cases stay quick), each expanded on demand;
//  3. for an expanded case, each evaluator with, when it aligned calls,
//     the expected calls and the actual steps side by side in the order of
//     the run: matched, missing (with the near misses and the argument
//     paths that differ) and extra steps marked, slow steps (a failed
//     latency limit) and failed steps (the tool reported an error) flagged,
//     calls issued together drawn as one parallel group;
//  4. when rows carry an Attempt, each case's trials: pass rate, pass@k,
//     pass^k, mean ± spread of the score, flaky or not.
//
// The actual steps come from the row's trajectory when the run kept it;
// otherwise they are the steps the results name (matched, extra, near
// misses), and the page says so.
//
// What the results hold is data in the page, drawn as text, never
// markup; and the page's Content-Security-Policy runs its own script and
// style alone (each named by its SHA-256) and loads nothing, so that text
// that slipped into markup could neither run nor fetch.
type HTML struct {
	W      io.Writer
	Title  string // default "trajeval report"
	Script string // script of the caller's, run after the page's own (trajeval view's links); never untrusted text

	cases []htmlCase
	names []string // evaluator names, in order of first appearance
	seen  map[string]bool
	ts    trialSet
}

// Case adds r. When r carries a trajectory under "trajectory" (however the
// run stored it), the page draws its steps.
func (h *HTML) Case(r trajeval.CaseResult) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var t struct {
		Trajectory json.RawMessage `json:"trajectory"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return err
	}
	row := Row{CaseResult: r}
	row.Trajectory, row.Warnings = readTrace(t.Trajectory, r.Warnings)
	return h.Row(row)
}

// readTrace reads a row's trajectory, if it has one. One that cannot be
// read is left out with a warning added to warnings: the row is then drawn
// from its details alone.
func readTrace(raw json.RawMessage, warnings []string) (*Trace, []string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, warnings
	}
	var t Trace
	if err := json.Unmarshal(raw, &t); err != nil {
		msg, _, _ := jsonl.Describe(raw, err, 1)
		return nil, append(slices.Clone(warnings), "the trajectory cannot be read ("+msg+"); its steps are drawn from the results alone")
	}
	return &t, warnings
}

// Row adds a row read from a results file.
func (h *HTML) Row(r Row) error {
	h.ts.add(r.CaseResult)
	if h.seen == nil {
		h.seen = map[string]bool{}
	}
	c := htmlCase{
		ID: r.ID, Suite: r.Suite, Status: r.Status, Score: r.Score, Attempt: r.Attempt,
		Error: r.Error, Partial: r.Partial, Warnings: r.Warnings, Failing: failing(r.CaseResult),
		Trace: r.Trajectory != nil,
	}
	var steps []TraceStep
	if r.Trajectory != nil {
		steps = r.Trajectory.Steps
	}
	for _, e := range r.Evaluators {
		c.Views = append(c.Views, evalView(e, steps, r.Trajectory != nil))
		if c.Evals == nil {
			c.Evals = map[string]trajeval.Status{}
		}
		for _, v := range flatten(e) {
			if worse(v.Status, c.Evals[v.Name]) {
				c.Evals[v.Name] = v.Status
			}
			if !h.seen[v.Name] {
				h.seen[v.Name] = true
				h.names = append(h.names, v.Name)
			}
		}
	}
	h.cases = append(h.cases, c)
	return nil
}

// Close writes the page.
func (h *HTML) Close(s Summary) error {
	p := htmlPage{Summary: s, Evaluators: h.names, Cases: h.cases}
	if p.Cases == nil {
		p.Cases = []htmlCase{}
	}
	if h.ts.attempts {
		p.Ks = trialKs(h.ts.maxTrials())
		for _, c := range h.ts.cases {
			lo, hi := c.Range()
			t := htmlTrial{Suite: c.Suite, ID: c.ID, Trials: c.Trials, Passed: c.Passed,
				Mean: c.Mean(), SD: c.StdDev(), Lo: lo, Hi: hi, Flaky: c.Flaky()}
			for _, k := range p.Ks {
				t.PassAt = append(t.PassAt, prob(c.PassAtK(k)))
				t.PassHat = append(t.PassHat, prob(c.PassHatK(k)))
			}
			p.Trials = append(p.Trials, t)
		}
	}
	title := h.Title
	if title == "" {
		title = "trajeval report"
	}
	p.Title = title
	data, err := json.Marshal(p) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	// A page written to standard output lands in CI logs, where ##[ is a
	// command anywhere in a line: jsonv.Escape writes its first # as
	// \u0023, which reads back as it.
	data = jsonv.Escape(data)
	var b bytes.Buffer
	csp := pageCSP()
	if h.Script != "" {
		csp = strings.Replace(csp, "script-src ", "script-src "+hashSource(h.Script)+" ", 1)
	}
	err = page().Execute(&b, map[string]any{
		"Title":  title,
		"CSP":    csp,
		"CSS":    template.CSS(reportCSS),
		"JS":     template.JS(reportJS),
		"Data":   template.JS(data),
		"Script": template.JS(h.Script),
	})
	if err != nil {
		return err
	}
	_, err = h.W.Write(b.Bytes())
	return err
}

// pageCSP lets the page run its script and style, and nothing else: no
// other script, inline or not, no fetch, no image but data: URLs, no form.
// It is made on first use: the hashes of the script and the style cost
// half a million instructions, which every run's start-up paid.
var pageCSP = sync.OnceValue(func() string {
	return "default-src 'none'; script-src " + hashSource(reportJS) + "; style-src " + hashSource(reportCSS) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
})

// hashSource is the CSP source that allows the inline script or style s.
func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

type htmlPage struct {
	Title      string      `json:"title"`
	Summary    Summary     `json:"summary"`
	Evaluators []string    `json:"evaluators"`
	Ks         []int       `json:"ks,omitempty"`
	Trials     []htmlTrial `json:"trials,omitempty"`
	Cases      []htmlCase  `json:"cases"`
}

type htmlTrial struct {
	Suite   string   `json:"suite,omitempty"`
	ID      string   `json:"id"`
	Trials  int      `json:"trials"`
	Passed  int      `json:"passed"`
	PassAt  []string `json:"pass_at"`
	PassHat []string `json:"pass_hat"`
	Mean    float64  `json:"mean"`
	SD      float64  `json:"sd"`
	Lo      float64  `json:"lo"`
	Hi      float64  `json:"hi"`
	Flaky   bool     `json:"flaky,omitempty"`
}

type htmlCase struct {
	ID       string                     `json:"id"`
	Suite    string                     `json:"suite,omitempty"`
	Status   trajeval.Status            `json:"status"`
	Score    float64                    `json:"score"`
	Attempt  int                        `json:"attempt,omitempty"`
	Error    string                     `json:"error,omitempty"`
	Partial  bool                       `json:"partial,omitempty"`
	Warnings []string                   `json:"warnings,omitempty"`
	Failing  []string                   `json:"failing,omitempty"`
	Evals    map[string]trajeval.Status `json:"evals,omitempty"` // each evaluator's verdict, the worst of its turns
	Trace    bool                       `json:"trace,omitempty"` // the actual steps come from the trajectory
	Views    []htmlEval                 `json:"views,omitempty"`
}

type htmlEval struct {
	Name      string           `json:"name"`
	Type      string           `json:"type"`
	Mode      string           `json:"mode,omitempty"`
	Status    trajeval.Status  `json:"status"`
	Score     float64          `json:"score"`
	Threshold float64          `json:"threshold"`
	Required  bool             `json:"required"`
	Turn      int              `json:"turn,omitempty"`
	Error     string           `json:"error,omitempty"`
	Counts    string           `json:"counts,omitempty"`
	Checks    []trajeval.Check `json:"checks,omitempty"`
	Warnings  []string         `json:"warnings,omitempty"`
	Notes     []string         `json:"notes,omitempty"`
	Rows      []htmlRow        `json:"rows,omitempty"`
	Unnamed   int              `json:"unnamed,omitempty"` // actual steps the results do not name
	Members   []htmlEval       `json:"members,omitempty"`
}

// An htmlRow is one line of a timeline: an expected call, an actual step,
// or both when they matched.
type htmlRow struct {
	Kind   string     `json:"kind"` // matched, missing, mismatch, extra, or step (not judged)
	Item   int        `json:"item,omitempty"`
	Want   string     `json:"want,omitempty"`
	Step   int        `json:"step,omitempty"`
	Got    string     `json:"got,omitempty"`
	Near   []htmlNear `json:"near,omitempty"`
	Slow   string     `json:"slow,omitempty"`
	Failed string     `json:"failed,omitempty"`
	Dur    *float64   `json:"dur,omitempty"`
	Group  *int       `json:"group,omitempty"`
	Args   string     `json:"args,omitempty"`
}

// An htmlNear is a near miss as the page shows it: its argument
// differences as the text report writes them.
type htmlNear struct {
	Step  int        `json:"step"`
	Tool  string     `json:"tool"`
	Why   string     `json:"why,omitempty"`
	Diffs []htmlDiff `json:"diffs,omitempty"`
}

type htmlDiff struct {
	Path string `json:"path"`
	Want string `json:"want"`
	Got  string `json:"got"`
}

func nearText(ns []trajeval.NearMiss) []htmlNear {
	out := make([]htmlNear, len(ns))
	for i, n := range ns {
		out[i] = htmlNear{Step: n.Step, Tool: n.Tool, Why: n.Why}
		for _, d := range n.Diffs {
			out[i].Diffs = append(out[i].Diffs, htmlDiff{d.Path, d.Want, d.Got})
		}
	}
	return out
}

// flatten lists e and its members, depth first.
func flatten(e trajeval.Result) []trajeval.Result {
	all := []trajeval.Result{e}
	for _, m := range e.Members {
		all = append(all, flatten(m)...)
	}
	return all
}

// worse reports whether verdict a is worse than b: error, then fail, then
// pass, then none.
func worse(a, b trajeval.Status) bool {
	rank := map[trajeval.Status]int{trajeval.StatusError: 3, trajeval.StatusFail: 2, trajeval.StatusPass: 1}
	return rank[a] > rank[b]
}

// slowStep finds the step of a failed latency limit ("step 3 took 900ms").
var slowStep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^step (\d+) took `) })

// maxArgs bounds the bytes of arguments shown per step, to keep the page
// small.
const maxArgs = 2000

// shownArgs is how the page shows a step's arguments: the JSON the agent
// sent, with <, > and & as they are where an encoder wrote them as
// \u003c, \u003e and \u0026 (encoding/json and the canonical form do),
// cut after maxArgs bytes on a character boundary.
func shownArgs(raw json.RawMessage) string {
	var b []byte
	for i := 0; i < len(raw) && len(b) <= maxArgs; i++ {
		c := raw[i]
		if c != '\\' || i+1 == len(raw) {
			b = append(b, c)
			continue
		}
		// An escape: \uXXXX or a backslash and one character.
		if esc := raw[i:min(i+6, len(raw))]; len(esc) == 6 && esc[1] == 'u' {
			switch strings.ToLower(string(esc[2:])) {
			case "003c":
				b, i = append(b, '<'), i+5
				continue
			case "003e":
				b, i = append(b, '>'), i+5
				continue
			case "0026":
				b, i = append(b, '&'), i+5
				continue
			}
		}
		b, i = append(b, c, raw[i+1]), i+1
	}
	s := string(b)
	if len(s) <= maxArgs {
		return s
	}
	cut := maxArgs
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func evalView(e trajeval.Result, steps []TraceStep, traced bool) htmlEval {
	v := htmlEval{Name: e.Name, Type: e.Type, Status: e.Status, Score: e.Score, Threshold: e.Threshold,
		Required: e.Required, Turn: e.Turn, Error: e.Error}
	for _, m := range e.Members {
		v.Members = append(v.Members, evalView(m, steps, traced))
	}
	d := e.Details
	if d == nil {
		return v
	}
	v.Mode, v.Checks, v.Warnings = d.Mode, d.Checks, d.Warnings
	keys := make([]string, 0, len(d.Notes))
	for k := range d.Notes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v.Notes = append(v.Notes, k+": "+jsonv.Marshal(d.Notes[k]))
	}
	if d.Scope != nil {
		// Its step numbers count the scoped steps, not the trace's.
		v.Notes = append(v.Notes, "scope: "+d.Scope.String())
		traced = false
	}
	if len(d.Matched)+len(d.Missing)+len(d.Extra) == 0 {
		return v
	}
	v.Counts = "expected " + strconv.Itoa(d.Expected) + ", actual " + strconv.Itoa(d.Actual) + ", matched " + strconv.Itoa(d.Hits)
	v.Rows, v.Unnamed = timeline(d, steps, traced)
	return v
}

// timeline lines up the expected calls with the actual steps: the actual
// steps in the order of the run, each matched step beside its expected
// call; a missing call beside the step that came closest to it (a
// mismatch) when that step matched nothing else, else just before the
// step that matched the next expected call (where it was due); extra
// steps alone.
func timeline(d *trajeval.Details, steps []TraceStep, traced bool) (rows []htmlRow, unnamed int) {
	byStep := map[int]trajeval.Pair{}
	for _, p := range d.Matched {
		byStep[p.Step] = p
	}
	extra := map[int]bool{}
	names := map[int]string{}
	for _, x := range d.Extra {
		extra[x.Step] = true
		names[x.Step] = x.Tool
	}
	for _, p := range d.Matched {
		names[p.Step] = p.Tool
	}
	missing := slices.Clone(d.Missing)
	sort.Slice(missing, func(i, j int) bool { return missing[i].Item < missing[j].Item })
	for _, m := range missing {
		for _, n := range m.Near {
			if names[n.Step] == "" {
				names[n.Step] = n.Tool
			}
		}
	}
	slow := map[int]string{}
	for _, c := range d.Checks {
		if c.Status == trajeval.CheckFail && strings.HasPrefix(c.Name, "latency") {
			if m := slowStep().FindStringSubmatch(c.Message); m != nil {
				n, _ := strconv.Atoi(m[1])
				slow[n] = c.Name + ": " + c.Message
			}
		}
	}

	var order []int
	if traced {
		for i := range steps {
			order = append(order, i+1)
		}
	} else {
		for s := range names {
			order = append(order, s)
		}
		sort.Ints(order)
		unnamed = max(0, d.Actual-len(order))
	}

	// A missing call is drawn beside its closest step when no expected
	// call matched that step and no other missing call claimed it.
	beside := map[int]trajeval.Missing{}
	attached := map[int]bool{} // items drawn beside a step
	for _, m := range missing {
		for _, n := range m.Near {
			if _, ok := byStep[n.Step]; ok {
				continue
			}
			if _, taken := beside[n.Step]; taken {
				continue
			}
			if traced && (n.Step < 1 || n.Step > len(steps)) {
				continue // not drawn: it would hide the missing call
			}
			beside[n.Step] = m
			attached[m.Item] = true
			break
		}
	}
	next := 0 // missing[next:] are not drawn yet
	flush := func(before int) {
		for ; next < len(missing) && (before < 0 || missing[next].Item < before); next++ {
			if m := missing[next]; !attached[m.Item] {
				rows = append(rows, htmlRow{Kind: "missing", Item: m.Item, Want: m.Tool, Near: nearText(m.Near)})
			}
		}
	}
	for _, s := range order {
		row := htmlRow{Kind: "step", Step: s, Got: names[s], Slow: slow[s]}
		if traced && s <= len(steps) {
			st := steps[s-1]
			row.Got, row.Dur, row.Group = st.Name, st.DurationMS, st.ParallelGroup
			if st.Error != nil && *st.Error {
				row.Failed = "failed"
				if st.ErrorMessage != nil && *st.ErrorMessage != "" {
					row.Failed = *st.ErrorMessage
				}
			}
			if len(st.Args) > 0 && string(st.Args) != "null" {
				row.Args = shownArgs(st.Args)
			}
		}
		if p, ok := byStep[s]; ok {
			flush(p.Item)
			row.Kind, row.Item, row.Want = "matched", p.Item, p.Tool
		} else if m, ok := beside[s]; ok {
			row.Kind, row.Item, row.Want, row.Near = "mismatch", m.Item, m.Tool, nearText(m.Near)
		} else if extra[s] {
			row.Kind = "extra"
		}
		rows = append(rows, row)
	}
	flush(-1)
	return rows, unnamed
}
