package mine

import (
	"container/heap"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
)

// maxAnyOrder is the most entries an any_order group takes.
const maxAnyOrder = 12

// A miner holds the runs, read for mining (rule 1), and what was found in
// them.
type miner struct {
	whole   []*trajeval.Trajectory
	runs    [][]trajeval.Step // each run's named calls, parallel groups in name order
	n       int
	inOrder bool // some call had no name: other calls may sit between
	notes   []string
	items   []*item
	plan    []*node    // the top-level entries
	loose   []*node    // the groups too large for any_order
	tools   []string   // every tool called, sorted
	counts  [][2]int   // fewest and most calls of all runs: [0] fewest, [1] most
	seq     [][]int    // each run's segments, as item ids, in order
	leaves  [][][]leaf // the values of each call, for $from, read when needed
	kept    int        // values in leaves
}

// A seg is one segment (rule 2): count calls of one tool from start on,
// in run r.
type seg struct{ run, start, count int }

// An item is one entry of the expectation (rule 2).
type item struct {
	id   int
	name string
	k    int
	segs []seg // one per run that has it, in run order
	pos  float64
	runs set
}

// A set of runs.
type set []uint64

func newSet(n int) set         { return make(set, (n+63)/64) }
func (s set) add(i int)        { s[i/64] |= 1 << (i % 64) }
func (s set) has(i int) bool   { return s[i/64]&(1<<(i%64)) != 0 }
func (s set) equal(t set) bool { return slices.Equal(s, t) }
func (s set) len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}
func (s set) meets(t set) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}
func (s set) union(t set) set {
	u := slices.Clone(s)
	for i := range t {
		u[i] |= t[i]
	}
	return u
}

// A node is one entry of the expectation: a call of an item, or a group.
type node struct {
	kind     string // "call", "any_order", "in_order", "one_of", "optional", "repeat", "loose"
	item     *item
	kids     []*node
	min, max int
	why      string
	runs     set
}

func newMiner(runs []*trajeval.Trajectory) (*miner, error) {
	m := &miner{whole: runs, n: len(runs)}
	nameless := 0
	fewest, most := -1, 0
	tools := map[string]bool{}
	for _, t := range runs {
		var steps []trajeval.Step
		if t != nil {
			steps = canonical(t.Steps)
		}
		kept := steps[:0:0]
		for _, s := range steps {
			if s.Name == "" {
				nameless++
				continue
			}
			tools[s.Name] = true
			kept = append(kept, s)
		}
		m.runs = append(m.runs, kept)
		if fewest < 0 || len(kept) < fewest {
			fewest = len(kept)
		}
		most = max(most, len(kept))
	}
	m.counts = [][2]int{{fewest, most}}
	for k := range tools {
		m.tools = append(m.tools, k)
	}
	slices.Sort(m.tools)
	if nameless > 0 {
		m.inOrder = true
		m.notes = append(m.notes, fmt.Sprintf("%d calls record no tool name: they cannot be expected, so the mode is in_order (other calls may sit between the expected ones)", nameless))
	}
	if err := m.findItems(); err != nil {
		return nil, err
	}
	if err := m.order(); err != nil {
		return nil, err
	}
	return m, nil
}

// canonical returns the steps with each run of calls issued together in
// name order (rule 1).
func canonical(steps []trajeval.Step) []trajeval.Step {
	out := slices.Clone(steps)
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[i].ParallelGroup != 0 && out[j].ParallelGroup == out[i].ParallelGroup {
			j++
		}
		slices.SortStableFunc(out[i:j], func(a, b trajeval.Step) int { return strings.Compare(a.Name, b.Name) })
		i = j
	}
	return out
}

// findItems cuts each run into segments and labels them (rule 2).
func (m *miner) findItems() error {
	byKey := map[string]*item{}
	pairs := 0
	m.seq = make([][]int, m.n)
	for r, steps := range m.runs {
		nth := map[string]int{}
		segs := 0
		for i := 0; i < len(steps); {
			j := i + 1
			for j < len(steps) && steps[j].Name == steps[i].Name {
				j++
			}
			name := steps[i].Name
			nth[name]++
			key := fmt.Sprintf("%d\x00%s", nth[name], name)
			it := byKey[key]
			if it == nil {
				it = &item{id: len(m.items), name: name, k: nth[name], runs: newSet(m.n)}
				byKey[key] = it
				m.items = append(m.items, it)
			}
			it.segs = append(it.segs, seg{run: r, start: i, count: j - i})
			m.seq[r] = append(m.seq[r], it.id)
			it.pos += float64(segs)
			it.runs.add(r)
			segs++
			i = j
		}
		pairs += segs * segs / 2
		if pairs > maxPairs {
			return fmt.Errorf("%w: more than %d pairs of calls to compare by run %d (shorten or split the runs)", ErrTooLarge, maxPairs, r+1)
		}
	}
	for _, it := range m.items {
		it.pos /= float64(len(it.segs))
	}
	return nil
}

// order finds the order of the items and builds the plan (rules 3 and 4).
func (m *miner) order() error {
	seq := m.seq
	// before[u] holds v when u came before v in some run.
	before := make([]map[int]bool, len(m.items))
	for i := range before {
		before[i] = map[int]bool{}
	}
	distinct := 0
	for r, s := range seq {
		for i, u := range s {
			for _, v := range s[i+1:] {
				if !before[u][v] {
					before[u][v] = true
					distinct++
				}
			}
		}
		if distinct > maxDistinct {
			return fmt.Errorf("%w: more than %d distinct pairs of calls by run %d (shorten or split the runs)", ErrTooLarge, maxDistinct, r+1)
		}
	}
	comps := scc(len(m.items), before)
	for _, c := range topo(comps, before, m.items) {
		members := make([]*item, len(c))
		for i, id := range c {
			members[i] = m.items[id]
		}
		slices.SortFunc(members, func(a, b *item) int { return cmpPos(a, b) })
		switch {
		case len(members) == 1:
			m.plan = append(m.plan, m.itemNode(members[0]))
		case len(members) <= maxAnyOrder:
			g := &node{kind: "any_order", runs: newSet(m.n),
				why: "any_order: the order of these calls varied between runs"}
			for _, it := range members {
				g.kids = append(g.kids, m.wrap(m.itemNode(it)))
				g.runs = g.runs.union(it.runs)
			}
			m.plan = append(m.plan, g)
		default:
			m.plan = append(m.plan, m.looseNode(members))
		}
	}
	m.plan = m.group(m.plan)
	for i, e := range m.plan {
		m.plan[i] = m.wrap(e)
	}
	m.plan = m.loops(m.plan)
	return nil
}

// maxLoop is the most calls in one pass of a loop that loops finds.
const maxLoop = 8

// loops finds loops of several calls (rule 4): calls made in every run,
// followed by optional entries that repeat their tools in the same order
// (the later passes of the loop, made in fewer runs), become one repeat of
// the calls, from 1 to as many passes as seen. Each call of the loop is
// then one item over every pass, so its arguments are generalised over
// all of them.
func (m *miner) loops(plan []*node) []*node {
	var out []*node
	for i := 0; i < len(plan); {
		bestLen, bestPasses := 0, 0
		for l := 2; l <= maxLoop && i+l <= len(plan); l++ {
			base := plan[i : i+l]
			if !plainCalls(base, m.n) {
				break
			}
			k := 0
			for i+l+k < len(plan) && samePass(plan[i+l+k], base) {
				k++
			}
			if k > 0 && k*l > bestPasses*bestLen {
				bestLen, bestPasses = l, k
			}
		}
		if bestLen == 0 {
			out = append(out, plan[i])
			i++
			continue
		}
		base := plan[i : i+bestLen]
		seq := &node{kind: "in_order", runs: base[0].runs}
		for p, c := range base {
			merged := &item{id: c.item.id, name: c.item.name, k: c.item.k, runs: c.item.runs, segs: slices.Clone(c.item.segs)}
			for _, pass := range plan[i+bestLen : i+bestLen+bestPasses] {
				merged.segs = append(merged.segs, passCalls(pass)[p].item.segs...)
			}
			seq.kids = append(seq.kids, &node{kind: "call", item: merged, runs: merged.runs})
		}
		names := make([]string, bestLen)
		for p, c := range base {
			names[p] = c.item.name
		}
		out = append(out, &node{kind: "repeat", kids: []*node{seq}, min: 1, max: 1 + bestPasses, runs: seq.runs,
			why: fmt.Sprintf("repeat: the loop %s, 1 to %d times in a row", strings.Join(names, ", "), 1+bestPasses)})
		i += bestLen + bestPasses
	}
	return out
}

// plainCalls reports whether the entries are calls, once each, made in
// every run.
func plainCalls(es []*node, n int) bool {
	for _, e := range es {
		if e.kind != "call" || e.runs.len() != n {
			return false
		}
	}
	return true
}

// passCalls returns the calls of an optional pass of a loop, nil if it is
// not one: an optional in_order of single calls.
func passCalls(e *node) []*node {
	if e.kind != "optional" || e.kids[0].kind != "in_order" {
		return nil
	}
	for _, c := range e.kids[0].kids {
		if c.kind != "call" {
			return nil
		}
	}
	return e.kids[0].kids
}

// samePass reports whether e is an optional pass of the loop base: the
// same tools in the same order.
func samePass(e *node, base []*node) bool {
	calls := passCalls(e)
	if len(calls) != len(base) {
		return false
	}
	for p, c := range calls {
		if c.item.name != base[p].item.name {
			return false
		}
	}
	return true
}

func cmpPos(a, b *item) int {
	switch {
	case a.pos < b.pos:
		return -1
	case a.pos > b.pos:
		return 1
	}
	return a.id - b.id
}

// itemNode is the entry of one item, without optional: a call, or a
// repeat of it.
func (m *miner) itemNode(it *item) *node {
	c := &node{kind: "call", item: it, runs: it.runs}
	lo, hi := -1, 0
	for _, s := range it.segs {
		if lo < 0 || s.count < lo {
			lo = s.count
		}
		hi = max(hi, s.count)
	}
	if hi == 1 {
		c.why = presence(len(it.segs), m.n)
		return c
	}
	r := &node{kind: "repeat", kids: []*node{c}, min: lo, max: hi, runs: it.runs}
	if lo == hi {
		r.why = fmt.Sprintf("repeat: %d times in a row in each of %s", lo, runsText(len(it.segs), m.n))
	} else {
		r.why = fmt.Sprintf("repeat: %d to %d times in a row in %s", lo, hi, runsText(len(it.segs), m.n))
	}
	return r
}

func presence(k, n int) string {
	if k == n {
		if n == 1 {
			return "called in the run"
		}
		return fmt.Sprintf("called in every run (%d of %d)", k, n)
	}
	return fmt.Sprintf("called in %d of %d runs", k, n)
}

func runsText(k, n int) string {
	if k == n {
		if n == 1 {
			return "the run"
		}
		return fmt.Sprintf("every run (%d)", n)
	}
	return fmt.Sprintf("the %d of %d runs that call it", k, n)
}

// wrap makes e optional when some runs lack it.
func (m *miner) wrap(e *node) *node {
	k := e.runs.len()
	if k == m.n {
		return e
	}
	if e.kind == "call" {
		e.why = "" // the optional says it
	}
	why := fmt.Sprintf("optional: called in %d of %d runs", k, m.n)
	if e.kind != "call" && e.kind != "repeat" {
		why = fmt.Sprintf("optional: made in %d of %d runs", k, m.n)
	}
	return &node{kind: "optional", kids: []*node{e}, runs: e.runs, why: why}
}

// group joins neighbouring optional entries present in the same runs into
// one in_order entry, then neighbouring optional entries no run has two
// of into one one_of (rule 4).
func (m *miner) group(plan []*node) []*node {
	full := func(e *node) bool { return e.runs.len() == m.n }
	var out []*node
	for i := 0; i < len(plan); {
		j := i + 1
		for j < len(plan) && !full(plan[i]) && plan[j].kind != "loose" && plan[i].kind != "loose" && plan[j].runs.equal(plan[i].runs) {
			j++
		}
		if j-i == 1 {
			out = append(out, plan[i])
		} else {
			out = append(out, &node{kind: "in_order", kids: slices.Clone(plan[i:j]), runs: plan[i].runs,
				why: fmt.Sprintf("in_order: these calls came together, in this order, in the same %d of %d runs", plan[i].runs.len(), m.n)})
		}
		i = j
	}
	plan, out = out, nil
	for i := 0; i < len(plan); {
		runs := plan[i].runs
		j := i + 1
		for j < len(plan) && !full(plan[i]) && plan[i].kind != "loose" && plan[j].kind != "loose" && !full(plan[j]) && !plan[j].runs.meets(runs) {
			runs = runs.union(plan[j].runs)
			j++
		}
		if j-i == 1 {
			out = append(out, plan[i])
		} else {
			out = append(out, &node{kind: "one_of", kids: slices.Clone(plan[i:j]), runs: runs,
				why: fmt.Sprintf("one_of: alternatives, no run made more than one of them (%d runs made one)", runs.len())})
		}
		i = j
	}
	return out
}

// looseNode is a group whose order varied too much for any_order: any of
// its tools, as many calls as the runs made (rule 3).
func (m *miner) looseNode(members []*item) *node {
	g := &node{kind: "loose", runs: newSet(m.n)}
	per := make([]int, m.n)
	tools := map[string]bool{}
	for _, it := range members {
		g.runs = g.runs.union(it.runs)
		tools[it.name] = true
		for _, s := range it.segs {
			per[s.run] += s.count
		}
	}
	g.min, g.max = per[0], per[0]
	for _, c := range per {
		g.min, g.max = min(g.min, c), max(g.max, c)
	}
	for _, it := range members {
		if tools[it.name] {
			g.kids = append(g.kids, &node{kind: "call", item: it})
			delete(tools, it.name)
		}
	}
	slices.SortFunc(g.kids, func(a, b *node) int { return strings.Compare(a.item.name, b.item.name) })
	g.why = fmt.Sprintf("the order of %d calls varied too much for any_order (at most %d entries): any of these tools, %d to %d calls; tool_rules keeps what held", len(members), maxAnyOrder, g.min, g.max)
	m.loose = append(m.loose, g)
	return g
}

// scc returns the strongly connected components of the graph (Tarjan's
// algorithm, without recursion so that a long chain cannot exhaust the
// stack).
func scc(n int, next []map[int]bool) [][]int {
	adj := make([][]int, n)
	for u := range next {
		for v := range next[u] {
			adj[u] = append(adj[u], v)
		}
		slices.Sort(adj[u])
	}
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var comps [][]int
	counter := 0
	type frame struct{ v, i int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		on[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.i < len(adj[f.v]) {
				w := adj[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					on[w] = true
					calls = append(calls, frame{w, 0})
				} else if on[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var c []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					c = append(c, w)
					if w == v {
						break
					}
				}
				comps = append(comps, c)
			}
		}
	}
	return comps
}

// topo orders the components so that every edge goes forward, taking
// among the components free to come next the one of least mean position.
func topo(comps [][]int, next []map[int]bool, items []*item) [][]int {
	of := make([]int, len(items))
	pos := make([]float64, len(comps))
	for c, members := range comps {
		for _, id := range members {
			of[id] = c
			pos[c] += items[id].pos
		}
		pos[c] /= float64(len(members))
	}
	succ := make([]map[int]bool, len(comps))
	indeg := make([]int, len(comps))
	for c := range succ {
		succ[c] = map[int]bool{}
	}
	for u := range next {
		for v := range next[u] {
			a, b := of[u], of[v]
			if a != b && !succ[a][b] {
				succ[a][b] = true
				indeg[b]++
			}
		}
	}
	h := &ready{pos: pos, first: make([]int, len(comps))}
	for c, members := range comps {
		h.first[c] = slices.Min(members)
		if indeg[c] == 0 {
			h.c = append(h.c, c)
		}
	}
	heap.Init(h)
	var out [][]int
	for h.Len() > 0 {
		c := heap.Pop(h).(int)
		out = append(out, comps[c])
		for d := range succ[c] {
			indeg[d]--
			if indeg[d] == 0 {
				heap.Push(h, d)
			}
		}
	}
	return out
}

// ready is a heap of components, least mean position first.
type ready struct {
	c     []int
	pos   []float64
	first []int
}

func (h *ready) Len() int { return len(h.c) }
func (h *ready) Less(i, j int) bool {
	a, b := h.c[i], h.c[j]
	if h.pos[a] != h.pos[b] {
		return h.pos[a] < h.pos[b]
	}
	return h.first[a] < h.first[b]
}
func (h *ready) Swap(i, j int) { h.c[i], h.c[j] = h.c[j], h.c[i] }
func (h *ready) Push(x any)    { h.c = append(h.c, x.(int)) }
func (h *ready) Pop() any {
	x := h.c[len(h.c)-1]
	h.c = h.c[:len(h.c)-1]
	return x
}
