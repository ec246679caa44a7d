// Package calls lines expected tool calls up with actual steps for the
// evaluators translated from other tools (UiPath, Dokimos, Google
// ADK), and explains the result the way tool_trajectory does.
//
// An [Item] is one expected call:
//  1. it matches a step when the names are equal (case-sensitive) and its
//     Match function, if any, accepts the step;
//  2. items with the same tool and the same Key are interchangeable, so a
//     long list of repeated calls stays a small matching problem;
//  3. every alignment is computed by package align, optimally: never a
//     greedy first fit, which loses matches when the relation is not an
//     equivalence (UiPath's and Dokimos's bug).
//
// An evaluator prepares its items once ([Prepare]) and, for each
// trajectory, aligns and explains it in a [Scratch] from a pool, so that
// scoring case after case reuses the same memory; the results are those
// of [Align] and [Explain].
package calls

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/suggest"
)

// An Item is one expected call.
type Item struct {
	Tool string
	// Key identifies the rule of Args and Match: two items with the same
	// Tool and Key accept the same steps. "" with nil Args and Match
	// accepts any step of the tool.
	Key string
	// Args, when set, must accept the arguments of a step with the item's
	// name, read on the trail (so that a $from looks at the steps before
	// it), and gives its differences first.
	Args *argmatch.Matcher
	// Match, when set, must accept a step with the item's name as well.
	Match func(s *trajeval.Step) bool
	// Diff explains why a step with the item's name did not match, after
	// Args' differences; nil gives no more.
	Diff func(s *trajeval.Step) []trajeval.ArgDiff
	// MaxDurationMS, when set, is a latency limit: among the largest
	// alignments, those that pair the item with a step that ran within it
	// win.
	MaxDurationMS *float64
}

// Names returns items that match by name alone.
func Names(names []string) []Item {
	out := make([]Item, len(names))
	for i, n := range names {
		out[i] = Item{Tool: n}
	}
	return out
}

// Args returns an item that matches a call by name and arguments.
func Args(tool string, m *argmatch.Matcher) Item {
	if m == nil || m.AcceptsAll() {
		return Item{Tool: tool}
	}
	return Item{Tool: tool, Key: m.Key(), Args: m}
}

// Relate builds the match relation of items against steps. Steps of one
// parallel group keep their group, so exact and in-order alignments may
// permute them.
func Relate(items []Item, steps []trajeval.Step) *align.Relation {
	return Prepare(items).Relate(argmatch.NewTrail(steps))
}

// Classes are items grouped into classes of interchangeable items, ready
// to be related to the steps of any number of trajectories: an evaluator
// prepares them once. They are only read, so goroutines may share them.
type Classes struct {
	itemClass []int32
	classes   []Item
	tools     []string           // each class's Tool, side by side for Relate's scan
	byTool    map[string][]int32 // ascending: classes are numbered in order
	// byLen[n], with few classes, has bit c set when class c's tool is n
	// bytes long (the last entry: that long or longer), and byFirst[b]
	// when its first byte is b modulo 64, so that a step compares its name
	// only with the tools of its name's length and first byte (see
	// candidates).
	byLen   [33]uint8
	byFirst [64]uint8
	// items[c], with few classes and at most 64 items, has bit i set
	// when item i is of class c: the items a step of class c matches,
	// for the in-order alignment of steps without a Relation.
	items   [fewClasses]uint64
	limited bool // some item has a latency limit
	// textOnly has bit c set, with few classes, when class c's argument
	// rule reads a step's arguments and nothing else (no $from looks back
	// along the trail): its answer for arguments kept as JSON text is
	// that text's, whichever step holds it (see Scratch.argsMatch).
	textOnly uint8
}

// A Scratch is the working memory of relating and aligning one
// trajectory, kept from one trajectory to the next so that scoring many
// stops allocating once it has grown. One goroutine at a time uses a
// Scratch, from [Classes.Scratch] to its Release; the Relation and the
// Pairs of the Alignment it returns are its own, valid until its next
// use.
type Scratch struct {
	cl    *Classes
	rel   align.Relation
	steps [][]int32
	group []int32
	buf   []int32
	at    []int32  // the steps that match some item, in order
	match []uint64 // and the items each matches
	pairs []align.Pair
	used  []bool
	align align.Scratch
	// parser reads the arguments kept as text, in a scratch from the
	// pool (nil: each match takes one from argmatch's pool).
	parser *jsonv.Parser
	// memo holds, for each class with textOnly set, the last argument
	// texts its rule answered and the answers (see argsMatch).
	memo [fewClasses]textMemo
	// names remembers the distances of a missing call's tool to the
	// trajectory's names (see near): the close names of the same tools,
	// trajectory after trajectory.
	names suggest.Memo
}

// A textMemo is the last few argument texts a rule answered, each in
// memory of its own (a reader may reuse the memory of the text it kept),
// with its answer. The scratches of every evaluator share one pool: the
// texts are the rule's, and another rule starts the memo afresh.
type textMemo struct {
	rule  *argmatch.Matcher
	text  [memoTexts][]byte
	match [memoTexts]bool
	// diffs are the rule's differences with the text, once asked (see
	// Scratch.diff): a missing call's near misses, in trajectory after
	// trajectory.
	diffs  [memoTexts][]trajeval.ArgDiff
	diffed [memoTexts]bool
	n      uint8 // entries in use
	next   uint8 // the entry the next answer takes
}

// memoTexts is how many argument texts a class remembers: the steps of
// one tool in a run's trajectories mostly repeat a few argument values,
// and each text not among them costs a comparison with each.
const memoTexts = 4

// maxMemoText bounds the argument texts remembered: a longer one is
// matched each time, as its comparison would cost a good part of a match.
const maxMemoText = 256

// scratchPool holds the released scratches of every Classes.
var scratchPool sync.Pool // of *Scratch

// Scratch returns working memory for aligning the classes, from a pool.
func (cl *Classes) Scratch() *Scratch {
	if s, ok := scratchPool.Get().(*Scratch); ok {
		s.cl = cl
		return s
	}
	return &Scratch{cl: cl, parser: new(jsonv.Parser)}
}

// Release gives the scratch back to the pool; neither it nor what it
// returned may be used after.
func (s *Scratch) Release() {
	// A scratch grown by a huge trajectory is not kept.
	if cap(s.buf) > 1<<16 || cap(s.steps) > 1<<16 || cap(s.at) > 1<<16 {
		return
	}
	s.cl, s.rel = nil, align.Relation{}
	scratchPool.Put(s)
}

// Prepare groups items into classes.
func Prepare(items []Item) *Classes {
	type classKey struct {
		tool, key string
		max       float64
		limited   bool
	}
	// A few items find their class one by one; more, through a map.
	var classOf map[classKey]int32
	var keys []classKey
	if len(items) > 2*fewClasses {
		classOf = map[classKey]int32{}
	}
	cl := &Classes{itemClass: make([]int32, len(items))}
	for i, it := range items {
		k := classKey{tool: it.Tool, key: it.Key}
		if it.MaxDurationMS != nil {
			k.max, k.limited, cl.limited = *it.MaxDurationMS, true, true
		}
		var c int32
		var ok bool
		if classOf != nil {
			c, ok = classOf[k]
		} else if x := slices.Index(keys, k); x >= 0 {
			c, ok = int32(x), true
		}
		if !ok {
			c = int32(len(cl.classes))
			if classOf != nil {
				classOf[k] = c
			} else {
				keys = append(keys, k)
			}
			cl.classes = append(cl.classes, it)
			cl.tools = append(cl.tools, it.Tool)
		}
		cl.itemClass[i] = c
	}
	if len(cl.classes) > fewClasses {
		cl.byTool = map[string][]int32{}
		for c, it := range cl.classes {
			cl.byTool[it.Tool] = append(cl.byTool[it.Tool], int32(c))
		}
		return cl
	}
	for c, tool := range cl.tools {
		cl.byLen[min(len(tool), len(cl.byLen)-1)] |= 1 << c
		if tool != "" {
			cl.byFirst[tool[0]%64] |= 1 << c
		}
		if m := cl.classes[c].Args; m != nil && !m.LooksBack() {
			cl.textOnly |= 1 << c
		}
	}
	if len(items) <= 64 {
		for i, c := range cl.itemClass {
			cl.items[c] |= 1 << i
		}
	}
	return cl
}

// candidates returns the classes, with few classes, whose tool may be
// name (bit c: class c): those of its length and first byte. Most steps
// are of no class's tool, and one or two look-ups rule them out.
func (cl *Classes) candidates(name string) uint8 {
	m := cl.byLen[min(len(name), len(cl.byLen)-1)]
	if len(name) > 0 {
		m &= cl.byFirst[name[0]%64]
	}
	return m
}

// fewClasses is the most classes a step's name is looked for among one
// by one; more are found through a map. It is the width of byLen's masks.
const fewClasses = 8

// Relate builds the match relation of the items against the steps of
// trail (a $from looks back along the trail: see [argmatch.ScopedTrail]).
func (cl *Classes) Relate(trail *argmatch.Trail) *align.Relation {
	return (&Scratch{cl: cl}).Relate(trail)
}

// Relate is [Classes.Relate] in the scratch's memory.
func (sc *Scratch) Relate(trail *argmatch.Trail) *align.Relation {
	cl := sc.cl
	steps := trail.Steps()
	sc.steps, sc.group = grow(sc.steps, len(steps)), grow(sc.group, len(steps))
	sc.rel = align.Relation{ItemClass: cl.itemClass, Steps: sc.steps, Group: sc.group}
	r := &sc.rel
	// The classes of every step share one array.
	buf := sc.buf[:0]
	relSteps, group, tools := r.Steps[:len(steps)], r.Group[:len(steps)], cl.tools
	clear(relSteps) // at once: most steps stay of no class
	few := cl.byTool == nil
	var groups int32 // every step's group, or-ed: 0 when none has one
	for j := range steps {
		s := &steps[j]
		g := int32(s.ParallelGroup)
		group[j] = g
		groups |= g
		var m uint8
		if few {
			if m = cl.candidates(s.Name); m == 0 {
				continue
			}
		}
		start := len(buf)
		if few {
			for ; m != 0; m &= m - 1 {
				c := int32(bits.TrailingZeros8(m))
				if tools[c] == s.Name && sc.matches(c, trail, j) {
					buf = append(buf, c)
				}
			}
		} else {
			for _, c := range cl.byTool[s.Name] {
				if sc.matches(c, trail, j) {
					buf = append(buf, c)
				}
			}
		}
		if len(buf) > start {
			relSteps[j] = buf[start:len(buf):len(buf)]
		}
	}
	sc.buf = buf
	if groups == 0 {
		// No step has a group: the aligners need not look for one.
		r.Group = nil
	}
	if cl.limited {
		classes := cl.classes
		r.Bonus = func(c int32, j int) bool {
			max := classes[c].MaxDurationMS
			if max == nil {
				return false
			}
			d, ok := steps[j].Duration()
			return ok && d <= *max
		}
	}
	return r
}

// matches reports whether class c, of step j's tool, matches step j.
func (sc *Scratch) matches(c int32, trail *argmatch.Trail, j int) bool {
	it := &sc.cl.classes[c]
	if it.Args != nil && !sc.argsMatch(c, it.Args, trail, j) {
		return false
	}
	return it.Match == nil || it.Match(&trail.Steps()[j])
}

// argsMatch reports whether m, class c's argument rule, accepts the
// arguments of step j of trail. The answer of a rule that reads the
// arguments alone (textOnly) to arguments kept as JSON text is a function
// of the text's bytes: it is remembered for the next steps with the same
// text, in this trajectory and the next ones (a run's steps of one tool
// mostly repeat a few argument values), and found again by a comparison
// of bytes where a match reads the text's members.
func (sc *Scratch) argsMatch(c int32, m *argmatch.Matcher, trail *argmatch.Trail, j int) bool {
	if sc.cl.textOnly&(1<<c) == 0 {
		return m.MatchWith(sc.parser, trail, j)
	}
	text, kept := trajeval.KeptText(trail.Steps()[j].Args)
	if !kept || len(text) > maxMemoText {
		return m.MatchWith(sc.parser, trail, j)
	}
	mt := &sc.memo[c]
	if mt.rule != m {
		mt.rule, mt.n, mt.next = m, 0, 0
	}
	for k := range mt.n {
		if string(mt.text[k]) == string(text) {
			return mt.match[k]
		}
	}
	match := m.MatchWith(sc.parser, trail, j)
	k := mt.next
	mt.text[k], mt.match[k] = append(mt.text[k][:0], text...), match
	mt.diffs[k], mt.diffed[k] = nil, false
	mt.next = (k + 1) % memoTexts
	mt.n = max(mt.n, k+1)
	return match
}

// Order says how an alignment treated order, for the words of its
// explanation.
type Order int

// The orders of the alignments in package align.
const (
	Unordered  Order = iota // AnyOrder
	Ordered                 // InOrder
	Positional              // Exact
)

// Explain fills d with the alignment a of items against steps: the
// matched pairs, the missing items with the steps that came closest, and
// the extra steps. Indexes in d are 1-based; Step numbers are the steps'
// own indexes when set.
func Explain(d *trajeval.Details, items []Item, steps []trajeval.Step, a align.Alignment, order Order) {
	ExplainTrail(d, items, argmatch.NewTrail(steps), a, order)
}

// ExplainTrail is [Explain] for the steps of trail, whose $from near
// misses look back along it (see [argmatch.ScopedTrail]).
func ExplainTrail(d *trajeval.Details, items []Item, trail *argmatch.Trail, a align.Alignment, order Order) {
	explain(d, items, trail, a, order, nil)
}

// Explain is [ExplainTrail] in the scratch's memory, near misses' argument
// differences with the answers its argument rules remember.
func (sc *Scratch) Explain(d *trajeval.Details, items []Item, trail *argmatch.Trail, a align.Alignment, order Order) {
	explain(d, items, trail, a, order, sc)
}

// explain is ExplainTrail, in the memory of sc when it is not nil.
func explain(d *trajeval.Details, items []Item, trail *argmatch.Trail, a align.Alignment, order Order, sc *Scratch) {
	steps := trail.Steps()
	var used []bool // which items and steps the alignment used
	if sc != nil {
		used = sc.used
	}
	used = grow(used, len(items)+len(steps))
	if sc != nil {
		sc.used = used
	}
	clear(used)
	usedItem, usedStep := used[:len(items)], used[len(items):]
	d.Hits = len(a.Pairs)
	d.Expected, d.Actual = len(items), len(steps)
	d.Matched = slices.Grow(d.Matched, len(a.Pairs))
	for _, p := range a.Pairs {
		usedItem[p.Item], usedStep[p.Step] = true, true
		d.Matched = append(d.Matched, trajeval.Pair{Item: p.Item + 1, Step: stepNo(steps, p.Step), Tool: items[p.Item].Tool})
	}
	if len(a.Pairs) < len(items) {
		// Steps by name, so a missing item looks only at its own tool's
		// steps.
		byName := &stepsByName{steps: steps}
		if len(items)-len(a.Pairs) > fewMissing {
			byName.index()
		}
		for i, it := range items {
			if usedItem[i] {
				continue
			}
			d.Missing = append(d.Missing, trajeval.Missing{Item: i + 1, Tool: it.Tool, Near: near(i, it, trail, usedStep, byName, order, sc)})
		}
	}
	// Each pair used a step of its own: the others are extra. The list
	// grows in a local slice, not in d.
	extra := slices.Grow(d.Extra, len(steps)-len(a.Pairs))
	for j, used := range usedStep {
		if !used {
			// By pointer: a range value would copy every step.
			s := &steps[j]
			no := j + 1
			if s.Index > 0 {
				no = s.Index
			}
			extra = append(extra, trajeval.Extra{Step: no, Tool: s.Name})
		}
	}
	d.Extra = extra
}

// grow returns s with length n, its contents undefined.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// maxNear bounds the near misses shown for one missing item.
const maxNear = 3

// fewMissing is the most missing items whose tool's steps are found by
// scanning the steps; with more, the steps are indexed by name once.
const fewMissing = 4

// stepsByName finds the steps of a name, in order.
type stepsByName struct {
	steps  []trajeval.Step
	byName map[string][]int // nil: scan the steps
	scan   []int            // the last scan's steps
	names  []string         // the distinct names, in order of first step, once asked
}

// index indexes the steps by name, for many look-ups.
func (b *stepsByName) index() {
	b.byName, b.names = map[string][]int{}, nil
	for j, s := range b.steps {
		if b.byName[s.Name] == nil {
			b.names = append(b.names, s.Name)
		}
		b.byName[s.Name] = append(b.byName[s.Name], j)
	}
}

// of returns the steps named tool, valid until the next call.
func (b *stepsByName) of(tool string) []int {
	if b.byName != nil {
		return b.byName[tool]
	}
	b.scan = b.scan[:0]
	for j := range b.steps {
		if b.steps[j].Name == tool {
			b.scan = append(b.scan, j)
		}
	}
	return b.scan
}

// distinct returns the names of the steps, each once, in order of their
// first step. The steps of a short trajectory are not indexed for it: a
// scan finds its few names.
func (b *stepsByName) distinct() []string {
	if b.byName != nil || b.names != nil {
		return b.names
	}
	if len(b.steps) > fewSteps {
		b.index()
		return b.names
	}
	for j := range b.steps {
		if name := b.steps[j].Name; !slices.Contains(b.names, name) {
			b.names = append(b.names, name)
		}
	}
	return b.names
}

// fewSteps is the most steps whose distinct names are found by a scan;
// more are indexed.
const fewSteps = 32

func near(i int, it Item, trail *argmatch.Trail, used []bool, byName *stepsByName, order Order, sc *Scratch) []trajeval.NearMiss {
	steps := trail.Steps()
	var out []trajeval.NearMiss
	// In a positional alignment the step at the item's own position comes
	// first: it is the one the item was compared with.
	if order == Positional && i < len(steps) {
		s := &steps[i]
		nm := trajeval.NearMiss{Step: stepNo(steps, i), Tool: s.Name}
		if s.Name != it.Tool {
			nm.Why = fmt.Sprintf("position %d holds %s", i+1, s.Name)
		} else {
			nm.Diffs = sc.diff(&it, trail, i)
		}
		out = addNear(out, nm)
	}
	// Unused steps first: they are the likely intended ones.
	for pass := 0; pass < 2 && len(out) < maxNear; pass++ {
		for _, j := range byName.of(it.Tool) {
			if len(out) >= maxNear {
				break
			}
			s := &steps[j]
			if used[j] != (pass == 1) || (order == Positional && j == i) {
				continue
			}
			nm := trajeval.NearMiss{Step: stepNo(steps, j), Tool: s.Name, Diffs: sc.diff(&it, trail, j)}
			switch {
			case len(nm.Diffs) > 0:
			case used[j]:
				nm.Why = "matched another expected call"
			case !it.Matches(trail, j):
				nm.Why = "same tool, did not match"
			case order == Positional:
				nm.Why = fmt.Sprintf("matches, but at position %d", j+1)
			case order == Ordered:
				nm.Why = "matches, but out of order"
			default:
				nm.Why = "matches"
			}
			out = addNear(out, nm)
		}
	}
	if len(out) > 0 {
		return out
	}
	var closeNames []string
	if sc != nil {
		closeNames = sc.names.Near(it.Tool, byName.distinct())
	} else {
		closeNames = suggest.Near(it.Tool, byName.distinct())
	}
	for _, n := range closeNames {
		out = addNear(out, trajeval.NearMiss{Step: stepNo(steps, byName.of(n)[0]), Tool: n, Why: "close name"})
		if len(out) >= maxNear {
			break
		}
	}
	return out
}

// addNear appends nm to out, a missing item's near misses, made with
// room for maxNear of them (an append from nothing grew the list twice).
func addNear(out []trajeval.NearMiss, nm trajeval.NearMiss) []trajeval.NearMiss {
	if out == nil {
		out = make([]trajeval.NearMiss, 0, maxNear)
	}
	return append(out, nm)
}

// diff is it.diff, the differences of its argument rule found again
// where sc remembers them with the rule's answer for the text of step j's
// arguments (see argsMatch), each time a copy of their list; sc may be
// nil.
func (sc *Scratch) diff(it *Item, trail *argmatch.Trail, j int) []trajeval.ArgDiff {
	if sc == nil || it.Args == nil {
		return it.diff(trail, j)
	}
	text, kept := trajeval.KeptText(trail.Steps()[j].Args)
	if !kept {
		return it.diff(trail, j)
	}
	for c := range sc.memo {
		mt := &sc.memo[c]
		if mt.rule != it.Args {
			continue
		}
		for k := range mt.n {
			if string(mt.text[k]) != string(text) {
				continue
			}
			if !mt.diffed[k] {
				mt.diffs[k], mt.diffed[k] = it.Args.DiffAt(trail, j), true
			}
			diffs := slices.Clone(mt.diffs[k])
			if it.Diff != nil {
				diffs = append(diffs, it.Diff(&trail.Steps()[j])...)
			}
			return diffs
		}
		break
	}
	return it.diff(trail, j)
}

func stepNo(steps []trajeval.Step, j int) int {
	if steps[j].Index > 0 {
		return steps[j].Index
	}
	return j + 1
}

// LCS returns the names of the longest common subsequence of want in got
// (by name), in order, and the alignment that gives it.
func LCS(want, got []string) ([]string, align.Alignment) {
	steps := make([]trajeval.Step, len(got))
	for j, n := range got {
		steps[j] = trajeval.Step{Name: n}
	}
	return Subsequence(want, Names(want), steps)
}

// Subsequence returns the longest order-preserving alignment of items
// against steps and the names of the matched items, in order. names[i]
// names items[i].
func Subsequence(names []string, items []Item, steps []trajeval.Step) ([]string, align.Alignment) {
	a := Align(Ordered, items, steps)
	out := make([]string, len(a.Pairs))
	for k, p := range a.Pairs {
		out[k] = names[p.Item]
	}
	return out, a
}

// Align returns the largest alignment of items against steps that keeps
// the order o asks for: position by position (Positional), order
// preserving (Ordered, the longest common subsequence under the match
// rule) or one-to-one in any order (Unordered).
func Align(o Order, items []Item, steps []trajeval.Step) align.Alignment {
	return Prepare(items).Align(o, argmatch.NewTrail(steps))
}

// Align is [Align] for classes prepared once, against the steps of trail.
func (cl *Classes) Align(o Order, trail *argmatch.Trail) align.Alignment {
	sc := cl.Scratch()
	defer sc.Release()
	a := sc.Align(o, trail)
	a.Pairs = slices.Clone(a.Pairs)
	return a
}

// Align is [Classes.Align] in the scratch's memory.
func (sc *Scratch) Align(o Order, trail *argmatch.Trail) align.Alignment {
	if o == Ordered {
		if a, ok := sc.inOrder(trail); ok {
			return a
		}
	}
	if o == Unordered {
		if a, ok := sc.anyOrder(trail); ok {
			return a
		}
	}
	r := sc.Relate(trail)
	switch o {
	case Positional:
		return sc.align.Exact(r)
	case Ordered:
		return sc.align.InOrder(r)
	}
	return sc.align.AnyOrder(r)
}

// inOrder is the in-order alignment of the classes against the steps of
// trail, without a Relation, when it can be: at most 64 items in few
// classes, no latency limit (no bonus) and no two consecutive steps of one
// parallel group (no block to permute). Each step's items are found as
// Relate finds its classes, and [align.Scratch.InOrderSteps] takes the
// pairs InOrder takes on the relation. ok is false otherwise.
func (sc *Scratch) inOrder(trail *argmatch.Trail) (a align.Alignment, ok bool) {
	cl := sc.cl
	if cl.byTool != nil || cl.limited || len(cl.itemClass) > 64 || len(cl.itemClass) == 0 {
		return align.Alignment{}, false
	}
	steps := trail.Steps()
	at, match := sc.at[:0], sc.match[:0]
	for j := 0; ; j++ {
		var m uint8
		if j, m = cl.scan(steps, j); j < 0 {
			return align.Alignment{}, false
		}
		if j == len(steps) {
			break
		}
		if items := sc.stepItems(m, trail, j); items != 0 {
			at, match = append(at, int32(j)), append(match, items)
		}
	}
	sc.at, sc.match = at, match
	return sc.align.InOrderSteps(len(cl.itemClass), at, match), true
}

// anyOrder is the any-order alignment of the classes against the steps
// of trail, without a Relation, when it can be: at most 64 items in few
// classes, no latency limit (no bonus), and no step that matches two
// classes. Then the largest matching needs no flow: each class's items,
// in order, take its steps, in order, as [align.Scratch.AnyOrder] pairs
// them when every step matches at most one class. ok is false otherwise
// (from the first step that matches two classes).
func (sc *Scratch) anyOrder(trail *argmatch.Trail) (a align.Alignment, ok bool) {
	cl := sc.cl
	if cl.byTool != nil || cl.limited || len(cl.itemClass) > 64 || len(cl.itemClass) == 0 {
		return align.Alignment{}, false
	}
	steps := trail.Steps()
	if len(steps) == 0 {
		return align.Alignment{}, true
	}
	rest := cl.items // each class's items not yet paired
	pairs := sc.pairs[:0]
	for j := range steps {
		name := steps[j].Name
		m := cl.candidates(name)
		if m == 0 {
			continue
		}
		of := -1 // the class step j matches
		for ; m != 0; m &= m - 1 {
			c := int32(bits.TrailingZeros8(m))
			if cl.tools[c] != name || !sc.matches(c, trail, j) {
				continue
			}
			if of >= 0 {
				return align.Alignment{}, false
			}
			of = int(c)
		}
		if of >= 0 && rest[of] != 0 {
			pairs = append(pairs, align.Pair{Item: bits.TrailingZeros64(rest[of]), Step: j})
			rest[of] &= rest[of] - 1
		}
	}
	// By item, as the aligners give them: the pairs came by step.
	for i := 1; i < len(pairs); i++ {
		for k := i; k > 0 && pairs[k].Item < pairs[k-1].Item; k-- {
			pairs[k], pairs[k-1] = pairs[k-1], pairs[k]
		}
	}
	sc.pairs = pairs
	return align.Alignment{Pairs: pairs}, true
}

// scan returns the first of steps from j on whose name may be a class's
// tool, with its candidates; len(steps) when there is none, and -1 when a
// step from j on shares the parallel group of the step before it. Most
// steps are passed over here, in a loop of few values, all in registers.
func (cl *Classes) scan(steps []trajeval.Step, j int) (int, uint8) {
	var last int32 // the previous step's group
	if j > 0 && j <= len(steps) {
		last = int32(steps[j-1].ParallelGroup)
	}
	for ; j < len(steps); j++ {
		s := &steps[j]
		// Relate keeps a group as an int32, and the aligners compare those.
		g := int32(s.ParallelGroup)
		if g != 0 && g == last {
			return -1, 0
		}
		last = g
		if m := cl.candidates(s.Name); m != 0 {
			return j, m
		}
	}
	return len(steps), 0
}

// stepItems returns the items that step j of trail matches, among those
// of the classes in m, its candidates. Out of inOrder's loop, which so
// keeps its values in registers.
func (sc *Scratch) stepItems(m uint8, trail *argmatch.Trail, j int) uint64 {
	cl := sc.cl
	name := trail.Steps()[j].Name
	var items uint64
	for ; m != 0; m &= m - 1 {
		c := int32(bits.TrailingZeros8(m))
		if cl.tools[c] == name && sc.matches(c, trail, j) {
			items |= cl.items[c]
		}
	}
	return items
}
