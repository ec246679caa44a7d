// Package grounding is the grounding evaluator: every argument value the
// agent sent must come from somewhere it could have seen it, so an
// invented id, name or amount fails without asking a judge.
//
// The values checked are the leaves of every call's arguments:
//  1. strings of at least MinLength characters (default 3) after
//     normalisation (below); shorter ones say too little to check;
//  2. numbers (unless Numbers is off);
//  3. booleans, null and object keys are never checked; [Options.Only]
//     and [Options.Ignore] narrow the values by path (see [Options]).
//
// A value of step j is looked for in its sources:
//  1. the case's input ([Options.Input]);
//  2. the user's messages of the trajectory, up to step j's turn (all of
//     them when the step's turn is unknown);
//  3. the results (and error messages) of the steps earlier than j:
//     issued before it and not in its parallel group, since calls issued
//     together cannot use each other's results. The arguments of earlier
//     calls are not sources: an agent repeating its own invention does
//     not ground it.
//
// Limited to some agents (agent:, see [trajeval.WholeEvaluator]), only
// their calls are checked, but their sources are the whole trajectory's:
// the case's input, every user message and the results of every agent's
// earlier calls, since a parent agent hands its sub-agents the values it
// found. A checked call is named by its place among the scoped calls, as
// every scoped result numbers steps; the results looked in are named as
// trace steps, counting every agent's calls.
//
// A result is read as text: its strings, numbers and object keys, and a
// string holding a JSON object or array decoded into its own. Matching:
//  1. a string is grounded when it occurs in a source text, as a
//     substring, after both are put in Unicode NFC, runs of white space
//     are collapsed to one space and the ends trimmed; with
//     CaseInsensitive, after Unicode case folding too. It never matches
//     across two strings of a result;
//  2. a number is grounded by value: when a number of a result, or a
//     number written in a source text, is equal to it exactly (42 =
//     42.0 = 4.2e1, and the text "42" or "42.0" or "1,200" for 1200); a
//     number written in text is a run of digits with an optional
//     fraction, a minus sign directly before it when no letter or digit
//     precedes the sign, and commas between groups of three digits.
//     "2024-05-01" holds 2024, 5 and 1, not -5.
//
// The score is the grounded values over the checked values. With nothing
// to check the score is 1 and the details say so: there is nothing the
// agent could have invented. Each ungrounded value is one failed check
// naming its step, tool, argument path and value, and where it was looked
// for.
//
// Sources are indexed once per trajectory, in issue order, so each value
// is searched in the text its step could have seen, latest first.
package grounding

import (
	"context"
	"encoding/json"
	"fmt"
	"index/suffixarray"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// DefaultMinLength is the shortest string checked, in characters.
const DefaultMinLength = 3

// Options configure a grounding evaluator. The zero value checks every
// string of 3 characters or more and every number, case-sensitively.
type Options struct {
	// MinLength is the shortest string checked, in characters after
	// normalisation; 0 means DefaultMinLength.
	MinLength int
	// CaseInsensitive compares strings after Unicode case folding.
	CaseInsensitive bool
	// SkipNumbers leaves numbers unchecked.
	SkipNumbers bool
	// Only, when not empty, are the only places checked; Ignore are places
	// not checked. Each is a path whose first segment is the tool (or *)
	// and the rest the argument's path (see argmatch.Path):
	// search.query, *.id, book_flight.passengers[*].name. A path names
	// everything below it too: search.filters covers search.filters.city.
	Only, Ignore []string
	// Input is the case's input, a source of every call.
	Input string
	// Shared marks an evaluator built once for every case (a suite's
	// own), which has no Input: when a value is not found in a trace with
	// no user message, a warning says the case's input was not looked in.
	Shared bool
}

// An OptionError is a setting New refuses. Key is its suite key (only,
// ignore, min_length) and Index the position in a list, or -1.
type OptionError struct {
	Key   string
	Index int
	Err   error
}

func (e *OptionError) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("%s[%d]: %v", e.Key, e.Index, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Key, e.Err)
}

func (e *OptionError) Unwrap() error { return e.Err }

// Evaluator is a configured grounding evaluator.
type Evaluator struct {
	minLength int
	fold      bool
	numbers   bool
	only      []argmatch.Path
	ignore    []argmatch.Path
	input     string
	shared    bool
	folder    cases.Caser
}

// New builds a grounding evaluator. It refuses, with an [*OptionError], a
// negative MinLength and a path that does not parse or starts with an
// index (an [*argmatch.PathError] underneath, with the column).
func New(o Options) (*Evaluator, error) {
	e := &Evaluator{minLength: o.MinLength, fold: o.CaseInsensitive, numbers: !o.SkipNumbers, input: o.Input, shared: o.Shared}
	if e.minLength < 0 {
		return nil, &OptionError{Key: "min_length", Index: -1, Err: fmt.Errorf("must not be negative, got %d", o.MinLength)}
	}
	if e.minLength == 0 {
		e.minLength = DefaultMinLength
	}
	for _, l := range []struct {
		key   string
		paths []string
		out   *[]argmatch.Path
	}{{"only", o.Only, &e.only}, {"ignore", o.Ignore, &e.ignore}} {
		for i, s := range l.paths {
			p, err := argmatch.ParsePath(s)
			if err != nil {
				return nil, &OptionError{Key: l.key, Index: i, Err: err}
			}
			if p[0].Index >= 0 {
				return nil, &OptionError{Key: l.key, Index: i, Err: &argmatch.PathError{Path: s, Col: 1, Msg: "a path starts with a tool name (or *), not an index"}}
			}
			*l.out = append(*l.out, p)
		}
	}
	if e.fold {
		e.folder = cases.Fold()
	}
	return e, nil
}

// normalize puts s in NFC, collapses white space, trims the ends and,
// when asked, folds case. A NUL, which separates the strings of the
// index, becomes a space.
func (e *Evaluator) normalize(s string) string {
	if !e.fold && plain(s) {
		return s
	}
	s = norm.NFC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == 0 {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	s = b.String()
	if e.fold {
		s = e.folder.String(s)
	}
	return s
}

// plain reports whether s is already normal: ASCII (which NFC leaves
// alone), with no white space but single spaces between words. Most
// values and results are, and need no copy.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || c < ' ' || c == 0x7f:
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// A value is one checked argument leaf.
type value struct {
	step  int           // position in the steps
	path  argmatch.Path // tool, then the argument's path
	raw   any
	text  string // normalised; strings only
	num   string // canonical number; numbers only
	isNum bool
}

// Evaluate scores t.
func (e *Evaluator) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	return e.evaluate(t, nil), nil
}

// EvaluateScoped scores the steps of t at the positions in, as an agent
// scope asks (see [trajeval.WholeEvaluator]): their values are looked for
// in every source of the whole trajectory they could have seen, whichever
// agent's call returned a result.
func (e *Evaluator) EvaluateScoped(_ context.Context, t *trajeval.Trajectory, in []int) (trajeval.Outcome, error) {
	if in == nil {
		in = []int{}
	}
	return e.evaluate(t, in), nil
}

// evaluate checks the values of the steps at the positions in, or of
// every step when in is nil.
func (e *Evaluator) evaluate(t *trajeval.Trajectory, in []int) trajeval.Outcome {
	var steps []trajeval.Step
	var turns []trajeval.Turn
	if t != nil {
		steps, turns = t.Steps, t.Turns
	}
	scoped := in != nil
	if !scoped {
		in = make([]int, len(steps))
		for j := range in {
			in[j] = j
		}
	}
	// no is the number a checked step is shown with: its own, or under a
	// scope its place among the scoped steps, as every scoped result
	// numbers them.
	no := func(j int) int { return stepNo(steps, j) }
	if scoped {
		pos := make(map[int]int, len(in))
		for n, j := range in {
			pos[j] = n + 1
		}
		no = func(j int) int { return pos[j] }
	}
	d := &trajeval.Details{Actual: len(in)}
	var values []value
	checked := make([]trajeval.Step, 0, len(in))
	for _, j := range in {
		values = e.leaves(values, j, argmatch.Path{{Key: steps[j].Name, Index: -1}}, steps[j].Args)
		checked = append(checked, steps[j])
	}
	d.Expected = len(values)
	d.Warnings = e.unreached(checked)
	if len(values) == 0 {
		d.Checks = append(d.Checks, trajeval.Check{Name: "grounding", Status: trajeval.CheckSkip,
			Message: fmt.Sprintf("nothing to check: no argument is a number or a string of %d characters or more", e.minLength)})
		return trajeval.Outcome{Score: 1, Details: d}
	}
	ix := e.index(steps, turns)
	ix.whole = scoped
	looked := map[int]string{} // by step: its values share their sources
	for _, v := range values {
		if ix.grounded(v) {
			d.Hits++
			continue
		}
		s := &steps[v.step]
		where, ok := looked[v.step]
		if !ok {
			where = ix.looked(v.step)
			looked[v.step] = where
		}
		d.Checks = append(d.Checks, trajeval.Check{
			Name:    fmt.Sprintf("step %d %s %s = %s", no(v.step), s.Name, argPath(v.path), show(v.raw)),
			Status:  trajeval.CheckFail,
			Message: "not in " + where,
		})
	}
	if e.shared && d.Hits < d.Expected && !slices.ContainsFunc(turns, func(t trajeval.Turn) bool { return t.User != nil }) {
		d.Warnings = append(d.Warnings, "the trace has no user message, and an evaluator of the suite's execution does not see the case's input: list grounding under the case's evaluators to look in its input too")
	}
	return trajeval.Outcome{Score: float64(d.Hits) / float64(d.Expected), Details: d}
}

// leaves appends the checked leaves of v, at path, of step j.
func (e *Evaluator) leaves(out []value, j int, path argmatch.Path, v any) []value {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = e.leaves(out, j, append(path, argmatch.Seg{Key: k, Index: -1}), x[k])
		}
	case []any:
		for i, el := range x {
			out = e.leaves(out, j, append(path, argmatch.Seg{Index: i}), el)
		}
	case string:
		if !e.checked(path) {
			return out
		}
		n := e.normalize(x)
		if n == "" || utf8.RuneCountInString(n) < e.minLength {
			return out
		}
		out = append(out, value{step: j, path: slices.Clone(path), raw: x, text: n})
	case json.Number:
		if !e.numbers || !e.checked(path) {
			return out
		}
		k, ok := canonical(string(x))
		if !ok {
			return out
		}
		out = append(out, value{step: j, path: slices.Clone(path), raw: x, num: k, isNum: true})
	}
	return out
}

// unreached returns a warning for each only and ignore path written
// TOOL.args.KEY, as reports show the value, whose tool the steps call
// with no argument named args: the path has no args segment, so as
// written it would change nothing (or, with only, check nothing) in
// silence. A path of a tool not called, or of an argument a call left
// out, is not warned about: another trace may have it.
func (e *Evaluator) unreached(steps []trajeval.Step) []string {
	var out []string
	for _, l := range []struct {
		key   string
		paths []argmatch.Path
	}{{"only", e.only}, {"ignore", e.ignore}} {
		for _, p := range l.paths {
			if len(p) < 2 || p[1].Key != "args" || p[1].Index >= 0 || p[1].Any {
				continue
			}
			called, reached := false, false
			for j := range steps {
				tool := argmatch.Path{{Key: steps[j].Name, Index: -1}}
				if !p[:1].Covers(tool) {
					continue
				}
				called = true
				if reaches(p, tool, steps[j].Args) {
					reached = true
					break
				}
			}
			if called && !reached {
				fixed := append(p[:1:1], p[2:]...)
				out = append(out, fmt.Sprintf("%s path %s: a path has no args segment (write %s)", l.key, p, fixed))
			}
		}
	}
	return out
}

// reaches reports whether the pattern p covers the place at, or a place
// inside v, which is at.
func reaches(p, at argmatch.Path, v any) bool {
	if p.Covers(at) {
		return true
	}
	if len(at) >= len(p) {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for k, el := range x {
			if reaches(p, append(at, argmatch.Seg{Key: k, Index: -1}), el) {
				return true
			}
		}
	case []any:
		for i, el := range x {
			if reaches(p, append(at, argmatch.Seg{Index: i}), el) {
				return true
			}
		}
	}
	return false
}

func (e *Evaluator) checked(path argmatch.Path) bool {
	if len(e.only) > 0 && !slices.ContainsFunc(e.only, func(p argmatch.Path) bool { return p.Covers(path) }) {
		return false
	}
	return !slices.ContainsFunc(e.ignore, func(p argmatch.Path) bool { return p.Covers(path) })
}

// A source is one text of the index: the case's input, a user message, or
// a step's result.
type source struct {
	start int // in the index's text
	kind  int // srcInput, srcUser, srcResult
	n     int // the turn number, or the step's position
}

const (
	srcInput = iota
	srcUser
	srcResult
)

// An index is every source of a trajectory as one text, in the order the
// agent saw them: the case's input, then, before each step, the user
// messages of its turn not yet seen, and after it its result. So what a
// step could see is a prefix of the text, except the results of its own
// parallel group, which are skipped.
type index struct {
	steps   []trajeval.Step
	text    string
	sources []source
	cut     []int            // per step: the end of the text it could see
	nsrc    []int            // per step: the sources it could see
	nres    []int            // per step: the results before its cut
	whole   bool             // the checked steps are a scope's: say that step numbers count the whole trace
	texts   []int            // the sources that are not results
	results []int            // the steps whose results are sources, in order
	numbers map[string][]int // canonical number → the sources holding it, ascending
	// sa indexes a long text: a value is then found in time that grows
	// with its occurrences, not with the text.
	sa *suffixarray.Index
}

// longText is the length from which an index builds a suffix array:
// below it, scanning the text back from a step's cut is faster than
// building one.
const longText = 64 << 10

func (e *Evaluator) index(steps []trajeval.Step, turns []trajeval.Turn) *index {
	ix := &index{steps: steps, cut: make([]int, len(steps)), nsrc: make([]int, len(steps)), nres: make([]int, len(steps)), numbers: map[string][]int{}}
	var b strings.Builder
	add := func(kind, n int, texts []string, nums []string) {
		if len(texts) == 0 && len(nums) == 0 {
			return
		}
		id := len(ix.sources)
		ix.sources = append(ix.sources, source{start: b.Len(), kind: kind, n: n})
		if kind == srcResult {
			ix.results = append(ix.results, n)
		} else {
			ix.texts = append(ix.texts, id)
		}
		for _, s := range texts {
			b.WriteString(s)
			b.WriteByte(0)
			if e.numbers {
				for _, k := range numberTokens(s) {
					nums = append(nums, k)
				}
			}
		}
		for _, k := range nums {
			if l := ix.numbers[k]; len(l) == 0 || l[len(l)-1] != id {
				ix.numbers[k] = append(l, id)
			}
		}
	}
	if s := e.normalize(e.input); s != "" {
		add(srcInput, 0, []string{s}, nil)
	}
	nextTurn := 0
	maxTurn := 0
	for _, tn := range turns {
		maxTurn = max(maxTurn, tn.Turn)
	}
	for j := range steps {
		upTo := steps[j].Turn
		if upTo <= 0 {
			upTo = maxTurn
		}
		for ; nextTurn < len(turns) && (turns[nextTurn].Turn <= upTo || turns[nextTurn].Turn <= 0); nextTurn++ {
			if u := turns[nextTurn].User; u != nil {
				if s := e.normalize(*u); s != "" {
					add(srcUser, turns[nextTurn].Turn, []string{s}, nil)
				}
			}
		}
		ix.cut[j], ix.nsrc[j], ix.nres[j] = b.Len(), len(ix.sources), len(ix.results)
		var texts, nums []string
		e.resultText(steps[j].Result, &texts, &nums)
		if m := e.normalize(steps[j].ErrorMessage); m != "" {
			texts = append(texts, m)
		}
		add(srcResult, j, texts, nums)
	}
	ix.text = b.String()
	if len(ix.text) >= longText {
		ix.sa = suffixarray.New([]byte(ix.text))
	}
	return ix
}

// resultText gathers the normalised strings (and object keys, and
// numbers as written) of a result, and its canonical numbers.
func (e *Evaluator) resultText(v any, texts, nums *[]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s := e.normalize(k); s != "" {
				*texts = append(*texts, s)
			}
			e.resultText(x[k], texts, nums)
		}
	case []any:
		for _, el := range x {
			e.resultText(el, texts, nums)
		}
	case string:
		if d, ok := jsonv.ParseMaybeJSON(x); ok {
			e.resultText(d, texts, nums)
			return
		}
		if s := e.normalize(x); s != "" {
			*texts = append(*texts, s)
		}
	case json.Number:
		*texts = append(*texts, string(x))
		if k, ok := canonical(string(x)); ok && e.numbers {
			*nums = append(*nums, k)
		}
	case bool:
		*texts = append(*texts, strconv.FormatBool(x))
	}
}

// sourceAt returns the source holding the byte at pos.
func (ix *index) sourceAt(pos int) int {
	return sort.Search(len(ix.sources), func(i int) bool { return ix.sources[i].start > pos }) - 1
}

// visible reports whether step j could see source i: it is before the
// step's cut and not the result of a step of its parallel group.
func (ix *index) visible(i, j int) bool {
	if i >= ix.nsrc[j] {
		return false
	}
	s := ix.sources[i]
	return s.kind != srcResult || argmatch.Earlier(ix.steps, s.n, j)
}

// grounded reports whether v occurs in a source its step could see. The
// text is searched from the step's cut backwards: the latest results are
// the likeliest sources.
func (ix *index) grounded(v value) bool {
	j := v.step
	if v.isNum {
		for _, i := range ix.numbers[v.num] {
			if i >= ix.nsrc[j] {
				return false
			}
			if ix.visible(i, j) {
				return true
			}
		}
		return false
	}
	if ix.sa != nil {
		for _, pos := range ix.sa.Lookup([]byte(v.text), -1) {
			if pos+len(v.text) <= ix.cut[j] && ix.visible(ix.sourceAt(pos), j) {
				return true
			}
		}
		return false
	}
	end := ix.cut[j]
	for end > 0 {
		pos := strings.LastIndex(ix.text[:end], v.text)
		if pos < 0 {
			return false
		}
		if ix.visible(ix.sourceAt(pos), j) {
			return true
		}
		// A sibling's result: look before it.
		end = ix.sources[ix.sourceAt(pos)].start
	}
	return false
}

// looked says where the values of step j were looked for.
func (ix *index) looked(j int) string {
	var parts []string
	var turns []int
	for _, i := range ix.texts {
		if i >= ix.nsrc[j] {
			break
		}
		switch s := ix.sources[i]; s.kind {
		case srcInput:
			parts = append(parts, "the case's input")
		case srcUser:
			turns = append(turns, s.n)
		}
	}
	// Results come in step order: those before the step's cut, less its
	// parallel group's.
	g := ix.steps[j].ParallelGroup
	results := make([]int, 0, ix.nres[j])
	for _, k := range ix.results[:ix.nres[j]] {
		if g == 0 || ix.steps[k].ParallelGroup != g {
			results = append(results, stepNo(ix.steps, k))
		}
	}
	if len(turns) > 0 {
		w := "turn "
		if len(turns) > 1 {
			w = "turns "
		}
		parts = append([]string{"the user's messages (" + w + ranges(turns) + ")"}, parts...)
	}
	trace := ""
	if ix.whole {
		trace = "trace "
	}
	if len(results) > 0 {
		w := "the result of " + trace + "step "
		if len(results) > 1 {
			w = "the results of " + trace + "steps "
		}
		parts = append(parts, w+ranges(results))
	}
	var together []int
	for k := range j {
		if g := ix.steps[j].ParallelGroup; g != 0 && ix.steps[k].ParallelGroup == g {
			together = append(together, stepNo(ix.steps, k))
		}
	}
	note := ""
	switch len(together) {
	case 0:
	case 1:
		note = "; " + trace + "step " + strconv.Itoa(together[0]) + " was issued together with this call, so its result does not count"
	default:
		note = "; " + trace + "steps " + ranges(together) + " were issued together with this call, so their results do not count"
	}
	if ix.whole && (len(results) > 0 || len(together) > 0) {
		note += " (trace steps count every agent's calls)"
	}
	switch len(parts) {
	case 0:
		return "any source: no user message, case input or earlier result to look in" + note
	case 1:
		return parts[0] + note
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1] + note
}

// ranges writes ascending numbers with runs shortened: 1–4, 6.
func ranges(ns []int) string {
	var out []string
	for i := 0; i < len(ns); {
		k := i
		for k+1 < len(ns) && ns[k+1] == ns[k]+1 {
			k++
		}
		switch {
		case k == i:
			out = append(out, strconv.Itoa(ns[i]))
		case k == i+1:
			out = append(out, strconv.Itoa(ns[i]), strconv.Itoa(ns[k]))
		default:
			out = append(out, strconv.Itoa(ns[i])+"–"+strconv.Itoa(ns[k]))
		}
		i = k + 1
	}
	return strings.Join(out, ", ")
}

func stepNo(steps []trajeval.Step, j int) int {
	if steps[j].Index > 0 {
		return steps[j].Index
	}
	return j + 1
}

// argPath writes a leaf's place as the results of argument matching do:
// args.passengers[0].name.
func argPath(p argmatch.Path) string { return p[1:].Under("args") }

// maxShow bounds a value shown in a check.
const maxShow = 80

func show(v any) string {
	s := jsonv.Marshal(v)
	if utf8.RuneCountInString(s) > maxShow {
		r := []rune(s)
		s = string(r[:maxShow-1]) + "…"
	}
	return s
}
