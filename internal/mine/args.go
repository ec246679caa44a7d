package mine

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// Bounds on what is read of one call for $from: its values are agent
// output, untrusted.
const (
	maxLeaves = 512       // values read from one call's arguments and result
	maxKept   = 2_000_000 // values kept from all calls: past it, no more $from is looked for
	maxDepth  = 16        // depth of those values, and of arguments generalised
	maxText   = 1 << 20
)

// A pat is the expectation of one argument value (rule 5).
type pat struct {
	lit   any
	isLit bool
	op    string // an operator, with arg
	arg   any
	keys  []string
	obj   map[string]*pat // an object, key by key
	why   string
}

// An obs is one call of an item: step j of run r.
type obs struct{ run, step int }

// A leaf is a value found in an earlier call, and the $from path to it.
type leaf struct {
	path string
	v    any
}

// args returns the expected arguments of an item: nil when they are not
// expected, and whether they compare exactly.
func (m *miner) args(it *item, lv level) (p *pat, exact bool, note string) {
	if lv >= levelNames {
		return nil, false, ""
	}
	var vals []any
	var at []obs
	for _, s := range it.segs {
		for j := s.start; j < s.start+s.count; j++ {
			a := m.runs[s.run][j].Args
			if a == nil {
				a = map[string]any{}
			}
			if _, ok := a.(map[string]any); !ok {
				return nil, false, fmt.Sprintf("%s: arguments that are not an object are not expected", it.name)
			}
			vals = append(vals, a)
			at = append(at, obs{s.run, j})
		}
	}
	exact = true
	p = m.general(vals, at, nil, lv, 0, &exact)
	return p, exact, ""
}

// general returns the pattern that every one of vals matches; at are the
// calls they came from, path where in the arguments they are.
func (m *miner) general(vals []any, at []obs, path argmatch.Path, lv level, depth int, exact *bool) *pat {
	if len(vals) == 1 && lv == levelFull {
		// One call says nothing of what varies; a value an earlier call
		// returned will differ in the next run.
		if o, ok := vals[0].(map[string]any); ok && len(o) > 0 && depth < maxDepth {
			if p := m.object(vals, at, path, lv, depth, exact); slices.ContainsFunc(p.keys, func(k string) bool { return !p.obj[k].isLit }) {
				return p
			}
		}
		if f := m.from(vals, at, path); f != "" {
			return &pat{op: "$from", arg: f, why: "seen once, and was what " + fromText(f)}
		}
	}
	if allEqual(vals) {
		why := "the same in every call"
		if len(vals) == 1 {
			why = "as recorded (seen once)"
		}
		return &pat{lit: vals[0], isLit: true, why: why}
	}
	kinds := map[string]int{}
	ints := true
	for _, v := range vals {
		k := jsonv.Kind(v)
		kinds[k]++
		if n, ok := v.(json.Number); ok && !jsonv.IsInteger(n) {
			ints = false
		}
	}
	if len(kinds) == 1 {
		switch {
		case kinds["object"] > 0 && depth < maxDepth:
			return m.object(vals, at, path, lv, depth, exact)
		case kinds["number"] > 0 || kinds["string"] > 0:
			if lv == levelFull {
				if f := m.from(vals, at, path); f != "" {
					return &pat{op: "$from", arg: f, why: "varied, and was always what " + fromText(f)}
				}
			}
		}
		if kinds["number"] > 0 && lv == levelFull {
			return numberRange(vals, ints)
		}
		if kinds["string"] > 0 && lv == levelFull {
			if p := fewStrings(vals); p != nil {
				return p
			}
		}
	}
	var types []string
	for k := range kinds {
		if k == "number" && ints {
			k = "integer"
		}
		types = append(types, k)
	}
	slices.Sort(types)
	if len(types) == 1 {
		return &pat{op: "$type", arg: types[0], why: "varied: always of this type"}
	}
	arg := make([]any, len(types))
	for i, t := range types {
		arg[i] = t
	}
	return &pat{op: "$type", arg: arg, why: "varied: always of one of these types"}
}

func allEqual(vals []any) bool {
	for _, v := range vals[1:] {
		if !jsonv.Equal(vals[0], v) {
			return false
		}
	}
	return true
}

// object generalises objects key by key; a key some lack makes the
// arguments compare as a subset.
func (m *miner) object(vals []any, at []obs, path argmatch.Path, lv level, depth int, exact *bool) *pat {
	p := &pat{obj: map[string]*pat{}}
	count := map[string]int{}
	for _, v := range vals {
		for k := range v.(map[string]any) {
			count[k]++
		}
	}
	for k := range count {
		p.keys = append(p.keys, k)
	}
	slices.Sort(p.keys)
	for _, k := range p.keys {
		var sub []any
		var subAt []obs
		for i, v := range vals {
			if x, ok := v.(map[string]any)[k]; ok {
				sub = append(sub, x)
				subAt = append(subAt, at[i])
			}
		}
		q := m.general(sub, subAt, append(slices.Clip(path), argmatch.Seg{Key: k, Index: -1}), lv, depth+1, exact)
		if count[k] < len(vals) {
			*exact = false
			q.why = fmt.Sprintf("in %d of %d calls; %s", count[k], len(vals), q.why)
		}
		p.obj[k] = q
	}
	p.why = "varied key by key"
	return p
}

// numberRange is a range around the numbers seen: $approx, centred, with
// a tolerance a little wider than half the range so that rounding cannot
// shut out the ends.
func numberRange(vals []any, ints bool) *pat {
	lo, hi := vals[0].(json.Number), vals[0].(json.Number)
	for _, v := range vals[1:] {
		n := v.(json.Number)
		if jsonv.CompareNumbers(n, lo) < 0 {
			lo = n
		}
		if jsonv.CompareNumbers(n, hi) > 0 {
			hi = n
		}
	}
	l, _ := jsonv.Float(lo)
	h, _ := jsonv.Float(hi)
	mid := l/2 + h/2
	half := h/2 - l/2
	if !ints || math.Abs(l) > 1<<52 || math.Abs(h) > 1<<52 {
		half += (math.Abs(mid) + half) * 1e-12 // integers this small are exact
	}
	kind := "numbers"
	if ints {
		kind = "integers"
	}
	return &pat{op: "$approx", arg: map[string]any{"value": num(mid), "abs": num(half)},
		why: fmt.Sprintf("varied: %s from %s to %s", kind, lo, hi)}
}

func num(f float64) json.Number { return json.Number(strconv.FormatFloat(f, 'g', -1, 64)) }

// fewStrings is a $oneOf of the strings seen, when there were few of them
// and each came back: a choice among values, not free text.
func fewStrings(vals []any) *pat {
	seen := map[string]int{}
	for _, v := range vals {
		seen[v.(string)]++
	}
	if len(seen) > 4 {
		return nil
	}
	var list []string
	for s, c := range seen {
		if c < 2 {
			return nil
		}
		list = append(list, s)
	}
	slices.Sort(list)
	arg := make([]any, len(list))
	for i, s := range list {
		arg[i] = s
	}
	return &pat{op: "$oneOf", arg: arg, why: fmt.Sprintf("varied among %d values, each seen at least twice", len(list))}
}

// from returns a $from path at which, for every call, an earlier call of
// one tool held the call's value; "" when there is none. Paths into a
// result win over paths into arguments, then shorter paths.
func (m *miner) from(vals []any, at []obs, path argmatch.Path) string {
	var common map[string]bool
	for i, v := range vals {
		if s, ok := v.(string); ok && s == "" {
			return "" // an empty string is found anywhere and proves nothing
		}
		here := map[string]bool{}
		o := at[i]
		steps := m.runs[o.run]
		for k := 0; k < o.step; k++ {
			if !argmatch.Earlier(steps, k, o.step) {
				continue
			}
			for _, l := range m.leavesOf(o.run, k) {
				if (common == nil || common[l.path]) && jsonv.Equal(l.v, v) {
					here[l.path] = true
				}
			}
		}
		common = here
		if len(common) == 0 {
			return ""
		}
	}
	var paths []string
	for p := range common {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int {
		ra, rb := strings.Contains(a, ".result"), strings.Contains(b, ".result")
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		case len(a) != len(b):
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return paths[0]
}

// leavesOf returns the numbers and strings in the arguments and result of
// step k of run r, each with its $from path (indexes written [*]).
func (m *miner) leavesOf(r, k int) []leaf {
	if m.leaves == nil {
		m.leaves = make([][][]leaf, m.n)
	}
	if m.leaves[r] == nil {
		m.leaves[r] = make([][]leaf, len(m.runs[r]))
	}
	if m.leaves[r][k] != nil {
		return m.leaves[r][k]
	}
	if m.kept >= maxKept {
		// Memory is bounded: a $from is then not found, never a wrong one
		// (every call must show the value at the path).
		return nil
	}
	s := m.runs[r][k]
	out := []leaf{}
	for _, part := range []struct {
		key string
		v   any
	}{{"result", s.Result}, {"args", s.Args}} {
		p := argmatch.Path{{Key: s.Name, Index: -1}, {Key: part.key, Index: -1}}
		walk(part.v, p, 0, &out)
	}
	m.leaves[r][k] = out
	m.kept += len(out)
	return out
}

func walk(v any, p argmatch.Path, depth int, out *[]leaf) {
	if len(*out) >= maxLeaves || depth > maxDepth {
		return
	}
	switch x := v.(type) {
	case string:
		if len(x) <= maxText {
			if d, ok := jsonv.ParseMaybeJSON(x); ok {
				walk(d, p, depth+1, out)
				return
			}
		}
		*out = append(*out, leaf{p.String(), x})
	case json.Number:
		*out = append(*out, leaf{p.String(), x})
	case []any:
		sub := append(slices.Clip(p), argmatch.Seg{Index: -1, Any: true})
		for _, e := range x {
			walk(e, sub, depth+1, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			walk(x[k], append(slices.Clip(p), argmatch.Seg{Key: k, Index: -1}), depth+1, out)
		}
	}
}

// fromText says where a $from path looks, in words.
func fromText(path string) string {
	p, err := argmatch.ParsePath(path)
	if err != nil || len(p) < 2 {
		return "an earlier call held"
	}
	what := "returned"
	if p[1].Key == "args" {
		what = "was given"
	}
	return fmt.Sprintf("an earlier %s call %s", p[0].Key, what)
}
