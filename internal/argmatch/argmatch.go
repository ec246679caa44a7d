// Package argmatch decides whether an actual tool call's arguments match
// the expected ones, and explains the paths that differ.
//
// Expected arguments are compiled once into a [Matcher]. Match compares by
// the mode (docs/scoring.md §2):
//  1. no expected arguments, or mode ignore: always a match;
//  2. partial (alias superset): every expected key is present in the actual
//     arguments and its value matches, recursively into nested objects;
//     extra actual keys are allowed at every depth;
//  3. exact: the same keys at every depth, every value matching;
//  4. subset: every actual key is present in the expected arguments with a
//     matching value, recursively; expected keys may be omitted;
//  5. paths: only the listed paths are compared, each by exact value; a
//     path missing in the expected arguments is skipped, one missing in the
//     actual arguments is a difference. A path is keys and indexes (see
//     [Path]): passengers[0].name and passengers.0.name are the same.
//
// A difference names its place below args as a [Path] writes it, an index
// in brackets whichever way the rule wrote it: args.passengers[0].name,
// args["x.y"] for a key with a dot.
//
// In every mode arrays match element by element and must have equal
// length. Values compare by JSON type: numbers by exact decimal value
// (1 = 1.0 = 1e0, 9007199254740993 ≠ 9007199254740992), strings exactly
// (unless [Options] trims or folds case), null is not a missing key, a
// bool is never a number and a number is never a string. A call with no
// arguments has the empty object as arguments.
//
// An expected value that is an object whose only key starts with "$" is an
// operator, not a literal:
//
//	{$regex: "^NY"}            a string matching the RE2 expression (unanchored)
//	{$contains: "York"}        a string containing the text, or an array with an element matching
//	{$gt: 1} {$gte: 1} {$lt: 9} {$lte: 9}   a number compared exactly
//	{$approx: 3.14}            a number within 1e-9
//	{$approx: {value: 100, abs: 0.5, rel: 0.01}}  within either tolerance
//	{$type: integer}           a value of the JSON type (null boolean number integer string array object), or any of a list
//	{$any: true}               any value, as long as the key is present
//	{$oneOf: [a, b]}           a value matching any of the patterns
//	{$not: pattern}            a value that does not match the pattern
//	{$from: "search.result.items[*].id"}  a value an earlier call returned (see below)
//
// A literal key that starts with "$" is written "$$key".
//
// $from ties an argument to what the agent saw before the call (its
// provenance). Its path is TOOL.result or TOOL.args followed by a [Path]
// (search.result.items[*].id, search.result[0], lookup.args.city; * for
// any tool; a tool name with dots quoted: ["functions.search"].result.id).
// It matches when:
//  1. some earlier call of TOOL holds, at the path in its result (or its
//     arguments), a value equal to the actual one: any earlier call, not
//     only the closest;
//  2. earlier means issued before the call matched, and not in the same
//     parallel group: calls issued together cannot see each other's
//     results. On a trail limited to some agents' steps ([ScopedTrail])
//     the earlier calls are those of the whole trajectory, in its order,
//     whichever agent made them;
//  3. a result (or a string along the path) that holds a JSON object or
//     array is decoded first, since tools often return JSON as text;
//  4. values are equal as literals are: numbers by value, strings exactly
//     (or with the string options), objects and arrays as JSON values; a
//     number is never a string, so 42 does not match the text "42".
//
// A path that does not parse is a [*CompileError] naming the column in
// the path. A path that finds nothing does not match, and Diff says what
// the path found in which steps. Only MatchAt and DiffAt see earlier
// steps: through Match and Diff a $from never matches.
package argmatch

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/suggest"
)

// Options are the opt-in string normalisations.
type Options struct {
	Trim            bool // compare strings with surrounding white space removed
	CaseInsensitive bool // compare strings without regard to case
}

// A Matcher is compiled expected arguments with their mode.
type Matcher struct {
	p     *pattern // nil: any arguments
	mode  trajeval.ArgsMode
	paths [][]string
	opt   Options
	key   string
	back  bool // some $from looks at earlier steps
}

// A CompileError is an invalid expected value, at a path below args.
type CompileError struct {
	Path Path // keys and indexes below the args object
	Msg  string
	Hint string
}

func (e *CompileError) Error() string {
	return e.Path.Under("args") + ": " + e.Msg
}

// Modes lists the valid argument modes, superset included as an alias.
var Modes = []string{"partial", "superset", "exact", "subset", "ignore"}

// ParseMode returns the mode called s.
func ParseMode(s string) (trajeval.ArgsMode, bool) {
	switch s {
	case "partial", "superset":
		return trajeval.ArgsPartial, true
	case "exact":
		return trajeval.ArgsExact, true
	case "subset":
		return trajeval.ArgsSubset, true
	case "ignore":
		return trajeval.ArgsIgnore, true
	}
	return "", false
}

// New compiles expected arguments (nil: any) under m; a zero m means
// partial.
func New(args any, m trajeval.ArgsMatch, opt Options) (*Matcher, error) {
	mt := &Matcher{mode: m.Mode, opt: opt}
	if mt.mode == "" {
		mt.mode = trajeval.ArgsPartial
		if m.Paths != nil {
			mt.mode = trajeval.ArgsPaths
		}
	}
	if mt.mode == trajeval.ArgsPaths {
		for _, p := range m.Paths {
			sp, err := SplitPath(p)
			if err != nil {
				return nil, err
			}
			mt.paths = append(mt.paths, sp)
		}
	}
	if args != nil {
		p, err := compile(args, nil)
		if err != nil {
			return nil, err
		}
		mt.p, mt.back = p, p.back
	}
	mt.key = fmt.Sprintf("%s|%q|%v|%s", mt.mode, mt.paths, opt, jsonv.Marshal(args)) // paths as parsed: a.0 and a[0] are one rule
	if mt.AcceptsAll() {
		mt.key = "*"
	}
	return mt, nil
}

// AcceptsAll reports whether every argument value matches.
func (m *Matcher) AcceptsAll() bool {
	return m == nil || m.p == nil || m.mode == trajeval.ArgsIgnore || (m.mode == trajeval.ArgsPaths && len(m.paths) == 0)
}

// Key identifies the matcher: two matchers with the same key accept the
// same arguments.
func (m *Matcher) Key() string {
	if m == nil {
		return "*"
	}
	return m.key
}

// LooksBack reports whether the matcher needs the steps before the one it
// matches (a $from operator): use MatchAt and DiffAt.
func (m *Matcher) LooksBack() bool { return m != nil && m.back && !m.AcceptsAll() }

// Match reports whether got matches. A $from operator finds no earlier
// step, so never matches: see MatchAt.
func (m *Matcher) Match(got any) bool {
	if m.AcceptsAll() {
		return true
	}
	return m.run(got, nil, nil, 0, nil)
}

// Diff returns the argument paths that differ, or nil when got matches.
func (m *Matcher) Diff(got any) []trajeval.ArgDiff {
	if m.AcceptsAll() {
		return nil
	}
	var diffs []trajeval.ArgDiff
	if m.run(got, &diffs, nil, 0, nil) {
		return nil
	}
	return diffs
}

// MatchAt reports whether the arguments of step j of the trail match,
// a $from operator looking in the steps before it.
func (m *Matcher) MatchAt(t *Trail, j int) bool {
	if m.AcceptsAll() {
		return true
	}
	return m.run(t.steps[j].Args, nil, t, j, nil)
}

// MatchWith is [Matcher.MatchAt] reading arguments kept as JSON text
// (see trajeval.KeptText) with p, a Parser the caller keeps from one call
// to the next, where MatchAt takes one from a pool for each call; a nil p
// is MatchAt. One goroutine at a time uses p.
func (m *Matcher) MatchWith(p *jsonv.Parser, t *Trail, j int) bool {
	if m.AcceptsAll() {
		return true
	}
	return m.run(t.steps[j].Args, nil, t, j, p)
}

// DiffAt returns the argument paths of step j of the trail that differ,
// or nil when they match.
func (m *Matcher) DiffAt(t *Trail, j int) []trajeval.ArgDiff {
	if m.AcceptsAll() {
		return nil
	}
	var diffs []trajeval.ArgDiff
	if m.run(t.steps[j].Args, &diffs, t, j, nil) {
		return nil
	}
	return diffs
}

// run matches got, with its differences when diffs is not nil; p, when
// not nil, reads text (see matchText).
func (m *Matcher) run(got any, diffs *[]trajeval.ArgDiff, t *Trail, j int, p *jsonv.Parser) bool {
	if text, ok := trajeval.KeptText(got); ok && diffs == nil {
		if match, ok := m.matchText(p, text, t, j); ok {
			return match
		}
	}
	// Arguments a reader kept as JSON text are decoded here, where they
	// are looked at (see trajeval.Decoded); text it kept is valid, so the
	// error is for text put there by hand, and it never matches.
	got, err := trajeval.Decoded(got)
	if err != nil {
		if diffs != nil {
			*diffs = append(*diffs, trajeval.ArgDiff{Path: "args", Want: m.p.String(), Got: "(not JSON: " + err.Error() + ")"})
		}
		return false
	}
	if got == nil && m.p.kind == pObject {
		got = map[string]any{}
	}
	c := cmp{mode: m.mode, opt: m.opt, diffs: diffs, trail: t, at: j}
	if m.mode != trajeval.ArgsPaths {
		return c.match(m.p, got, "args")
	}
	c.mode = trajeval.ArgsExact
	ok := true
	for _, path := range m.paths {
		p, found := m.p.lookup(path)
		if !found {
			continue
		}
		name := ""
		if diffs != nil {
			name = m.p.place(path)
		}
		g, present := lookup(got, path)
		if !present {
			if diffs != nil {
				c.report(name, p.String(), trajeval.ArgMissing)
			}
			ok = false
		} else if !c.match(p, g, name) {
			ok = false
		}
		if !ok && diffs == nil {
			return false
		}
	}
	return ok
}

type pkind int

const (
	pLiteral pkind = iota // a scalar
	pObject
	pArray
	pOp
)

type field struct {
	key string
	p   *pattern
}

type pattern struct {
	kind   pkind
	lit    any
	fields []field // sorted by key
	items  []*pattern
	op     string
	re     *regexp.Regexp
	num    json.Number
	abs    float64
	rel    float64
	types  []string
	subs   []*pattern
	text   string
	src    source // $from
	back   bool   // a $from at or below this pattern
}

func (p *pattern) String() string { return p.text }

var operators = []string{"$regex", "$contains", "$gt", "$gte", "$lt", "$lte", "$approx", "$type", "$any", "$oneOf", "$not", "$from"}

func compile(v any, path Path) (*pattern, error) {
	fail := func(format string, args ...any) error {
		return &CompileError{Path: slices.Clone(path), Msg: fmt.Sprintf(format, args...)}
	}
	p := &pattern{text: jsonv.Marshal(v)}
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		p.kind, p.lit = pLiteral, x
		return p, nil
	case []any:
		p.kind = pArray
		for i, e := range x {
			sub, err := compile(e, append(path, Seg{Index: i}))
			if err != nil {
				return nil, err
			}
			p.items = append(p.items, sub)
			p.back = p.back || sub.back
		}
		return p, nil
	case map[string]any:
		var ops []string
		for k := range x {
			if strings.HasPrefix(k, "$") && !strings.HasPrefix(k, "$$") {
				ops = append(ops, k)
			}
		}
		if len(ops) > 0 {
			if len(x) > 1 {
				sort.Strings(ops)
				return nil, fail("operator %s must be the only key of its object (write $%s for a literal key)", ops[0], ops[0])
			}
			return compileOp(ops[0], x[ops[0]], path, p)
		}
		p.kind = pObject
		for k, e := range x {
			key := k
			if strings.HasPrefix(k, "$$") {
				key = k[1:]
			}
			sub, err := compile(e, append(path, Seg{Key: key, Index: -1}))
			if err != nil {
				return nil, err
			}
			p.fields = append(p.fields, field{key, sub})
			p.back = p.back || sub.back
		}
		sort.Slice(p.fields, func(i, j int) bool { return p.fields[i].key < p.fields[j].key })
		return p, nil
	}
	return nil, fail("%T is not a JSON value", v)
}

func compileOp(op string, arg any, path Path, p *pattern) (*pattern, error) {
	path = append(path, Seg{Key: op, Index: -1})
	fail := func(format string, args ...any) error {
		return &CompileError{Path: slices.Clone(path), Msg: fmt.Sprintf(format, args...)}
	}
	p.kind, p.op = pOp, op
	switch op {
	case "$regex":
		s, ok := arg.(string)
		if !ok {
			return nil, fail("$regex needs a string, got %s", jsonv.Kind(arg))
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fail("invalid regular expression: %v", err)
		}
		p.re = re
	case "$contains":
		sub, err := compile(arg, path)
		if err != nil {
			return nil, err
		}
		p.subs, p.back = []*pattern{sub}, sub.back
	case "$gt", "$gte", "$lt", "$lte":
		n, ok := arg.(json.Number)
		if !ok {
			return nil, fail("%s needs a number, got %s", op, jsonv.Kind(arg))
		}
		p.num = n
	case "$approx":
		switch a := arg.(type) {
		case json.Number:
			p.num, p.abs = a, 1e-9
		case map[string]any:
			v, ok := a["value"].(json.Number)
			if !ok {
				return nil, fail("$approx needs a number value: {value: N, abs: A} or {value: N, rel: R}")
			}
			p.num = v
			for k, t := range a {
				switch k {
				case "value":
				case "abs", "rel":
					f, ok := jsonv.Number(t)
					if !ok || f < 0 {
						return nil, fail("$approx %s must be a number ≥ 0", k)
					}
					if k == "abs" {
						p.abs = f
					} else {
						p.rel = f
					}
				default:
					return nil, fail("$approx has no key %q (value, abs, rel)", k)
				}
			}
			if p.abs == 0 && p.rel == 0 {
				p.abs = 1e-9
			}
		default:
			return nil, fail("$approx needs a number or {value, abs, rel}")
		}
	case "$type":
		var names []any
		switch a := arg.(type) {
		case string:
			names = []any{a}
		case []any:
			names = a
		default:
			return nil, fail("$type needs a type name or a list of them")
		}
		for _, n := range names {
			s, _ := n.(string)
			switch s {
			case "null", "boolean", "number", "integer", "string", "array", "object":
				p.types = append(p.types, s)
			default:
				return nil, fail("unknown type %v (null, boolean, number, integer, string, array, object)", n)
			}
		}
	case "$any":
		if b, ok := arg.(bool); !ok || !b {
			return nil, fail("$any takes true")
		}
	case "$oneOf":
		list, ok := arg.([]any)
		if !ok || len(list) == 0 {
			return nil, fail("$oneOf needs a non-empty list of values")
		}
		for i, e := range list {
			sub, err := compile(e, append(path, Seg{Index: i}))
			if err != nil {
				return nil, err
			}
			p.subs, p.back = append(p.subs, sub), p.back || sub.back
		}
	case "$not":
		sub, err := compile(arg, path)
		if err != nil {
			return nil, err
		}
		p.subs, p.back = []*pattern{sub}, sub.back
	case "$from":
		s, ok := arg.(string)
		if !ok {
			return nil, fail("$from needs a path such as search.result.items[*].id, got %s", jsonv.Kind(arg))
		}
		src, err := parseSource(s)
		if err != nil {
			return nil, &CompileError{Path: slices.Clone(path), Msg: err.Error(), Hint: "a $from path is TOOL.result or TOOL.args, then keys, [index] or [*]"}
		}
		p.src, p.back = src, true
	default:
		e := &CompileError{Path: slices.Clone(path[:len(path)-1]), Msg: fmt.Sprintf("unknown operator %s (write $%s for a literal key)", op, op)}
		if s := suggest.Closest(op, operators); s != "" {
			e.Msg = fmt.Sprintf("unknown operator %s (did you mean %s?)", op, s)
		}
		return nil, e
	}
	return p, nil
}

// place writes where path, found by lookup, is below args, as an
// explanation names it: an index of an array in brackets, a key after a
// dot (args.passengers[0].name, whichever way the path was written).
func (p *pattern) place(path []string) string {
	name, cur := "args", p
	for _, seg := range path {
		if cur.kind == pArray {
			i, _ := strconv.Atoi(seg)
			name, cur = name+"["+strconv.Itoa(i)+"]", cur.items[i]
			continue
		}
		i := sort.Search(len(cur.fields), func(i int) bool { return cur.fields[i].key >= seg })
		name, cur = JoinKey(name, seg), cur.fields[i].p
	}
	return name
}

// lookup walks a compiled pattern along a dot-path.
func (p *pattern) lookup(path []string) (*pattern, bool) {
	cur := p
	for _, seg := range path {
		switch cur.kind {
		case pObject:
			i := sort.Search(len(cur.fields), func(i int) bool { return cur.fields[i].key >= seg })
			if i == len(cur.fields) || cur.fields[i].key != seg {
				return nil, false
			}
			cur = cur.fields[i].p
		case pArray:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(cur.items) {
				return nil, false
			}
			cur = cur.items[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// lookup walks a JSON value along a dot-path.
func lookup(v any, path []string) (any, bool) {
	cur := v
	for _, seg := range path {
		switch x := cur.(type) {
		case map[string]any:
			next, ok := x[seg]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

type cmp struct {
	mode  trajeval.ArgsMode
	opt   Options
	diffs *[]trajeval.ArgDiff
	trail *Trail // the steps a $from looks back along; nil: none
	at    int    // the step matched, in trail
}

func (c cmp) report(path, want, got string) {
	if c.diffs != nil {
		*c.diffs = append(*c.diffs, trajeval.ArgDiff{Path: path, Want: want, Got: got})
	}
}

func (c cmp) mismatch(p *pattern, got any, path string) bool {
	if c.diffs != nil {
		c.report(path, p.String(), jsonv.Marshal(got))
	}
	return false
}

func (c cmp) match(p *pattern, got any, path string) bool {
	switch p.kind {
	case pLiteral:
		if c.literal(p.lit, got) {
			return true
		}
		return c.mismatch(p, got, path)
	case pOp:
		if c.op(p, got) {
			return true
		}
		if p.op == "$from" && c.diffs != nil {
			c.report(path, c.fromWant(p), jsonv.Marshal(got))
			return false
		}
		return c.mismatch(p, got, path)
	case pArray:
		g, ok := got.([]any)
		if !ok || len(g) != len(p.items) {
			return c.mismatch(p, got, path)
		}
		all := true
		for i, it := range p.items {
			if !c.match(it, g[i], c.index(path, i)) {
				all = false
				if c.diffs == nil {
					return false
				}
			}
		}
		return all
	}
	g, ok := got.(map[string]any)
	if !ok {
		return c.mismatch(p, got, path)
	}
	// A match stops at the first difference; an explanation goes on to
	// find them all. (No closure here: one would be allocated per object.)
	all, explain := true, c.diffs != nil
	if c.mode != trajeval.ArgsSubset {
		for _, f := range p.fields {
			gv, present := g[f.key]
			if !present {
				if c.diffs != nil {
					c.report(c.field(path, f.key), f.p.String(), trajeval.ArgMissing)
				}
				if all = false; !explain {
					return false
				}
				continue
			}
			if !c.match(f.p, gv, c.field(path, f.key)) {
				if all = false; !explain {
					return false
				}
			}
		}
	}
	if c.mode == trajeval.ArgsExact || c.mode == trajeval.ArgsSubset {
		if explain {
			return c.explainKeys(p, g, path) && all
		}
		for k, gv := range g {
			if !c.key(p, k, gv, path) {
				return false
			}
		}
	}
	return all
}

// explainKeys checks the actual keys of g in order, as an explanation
// lists them. (A match visits the map as it is, in key, with no slice.)
func (c cmp) explainKeys(p *pattern, g map[string]any, path string) bool {
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	all := true
	for _, k := range keys {
		if !c.key(p, k, g[k], path) {
			all = false
		}
	}
	return all
}

// key checks the actual key k of an object, whose value is gv, against
// the object pattern p: under exact and subset an actual key must be
// expected, and under subset its value must match.
func (c cmp) key(p *pattern, k string, gv any, path string) bool {
	i := sort.Search(len(p.fields), func(i int) bool { return p.fields[i].key >= k })
	if i == len(p.fields) || p.fields[i].key != k {
		if c.diffs != nil {
			c.report(c.field(path, k), trajeval.ArgAbsent, jsonv.Marshal(gv))
		}
		return false
	}
	if c.mode == trajeval.ArgsSubset {
		return c.match(p.fields[i].p, gv, c.field(path, k))
	}
	return true
}

// field is the path of key under path, and index of element i; only an
// explanation needs them, so a match builds none.
func (c cmp) field(path, key string) string {
	if c.diffs == nil {
		return ""
	}
	return JoinKey(path, key)
}

func (c cmp) index(path string, i int) string {
	if c.diffs == nil {
		return ""
	}
	return path + "[" + strconv.Itoa(i) + "]"
}

func (c cmp) literal(want, got any) bool {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		if !ok {
			return false
		}
		return c.sameText(w, g)
	case json.Number:
		g, ok := got.(json.Number)
		return ok && jsonv.CompareNumbers(w, g) == 0
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	case nil:
		return got == nil
	}
	return false
}

func (c cmp) sameText(w, g string) bool {
	if c.opt.Trim {
		w, g = strings.TrimSpace(w), strings.TrimSpace(g)
	}
	if c.opt.CaseInsensitive {
		return strings.EqualFold(w, g)
	}
	return w == g
}

func (c cmp) op(p *pattern, got any) bool {
	quiet := cmp{mode: c.mode, opt: c.opt, trail: c.trail, at: c.at}
	switch p.op {
	case "$regex":
		s, ok := got.(string)
		if c.opt.Trim {
			s = strings.TrimSpace(s)
		}
		return ok && p.re.MatchString(s)
	case "$contains":
		switch g := got.(type) {
		case string:
			w, ok := p.subs[0].lit.(string)
			if !ok || p.subs[0].kind != pLiteral {
				return false
			}
			if c.opt.CaseInsensitive {
				return strings.Contains(strings.ToLower(g), strings.ToLower(w))
			}
			return strings.Contains(g, w)
		case []any:
			for _, e := range g {
				if quiet.match(p.subs[0], e, "") {
					return true
				}
			}
		}
		return false
	case "$gt", "$gte", "$lt", "$lte":
		g, ok := got.(json.Number)
		if !ok {
			return false
		}
		r := jsonv.CompareNumbers(g, p.num)
		switch p.op {
		case "$gt":
			return r > 0
		case "$gte":
			return r >= 0
		case "$lt":
			return r < 0
		}
		return r <= 0
	case "$approx":
		g, ok := jsonv.Number(got)
		w, _ := jsonv.Float(p.num)
		if !ok {
			return false
		}
		d := math.Abs(g - w)
		return d <= p.abs || d <= p.rel*math.Abs(w)
	case "$type":
		k := jsonv.Kind(got)
		for _, t := range p.types {
			if t == k || (t == "integer" && k == "number" && jsonv.IsInteger(got.(json.Number))) {
				return true
			}
		}
		return false
	case "$any":
		return true
	case "$oneOf":
		for _, s := range p.subs {
			if quiet.match(s, got, "") {
				return true
			}
		}
		return false
	case "$not":
		return !quiet.match(p.subs[0], got, "")
	case "$from":
		return c.from(p, got)
	}
	return false
}
