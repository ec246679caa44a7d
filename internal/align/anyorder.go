package align

import (
	"math"
	"slices"
)

// AnyOrder returns the largest one-to-one matching of items to steps, with
// the most bonuses among the largest.
//
// Interchangeable items (one class) and steps that match the same classes
// with the same bonuses collapse into single nodes with capacities, so the
// flow network is as small as the relation's variety, not its length: ten
// thousand calls of a few tools is a graph of a few nodes. The flow is a
// min-cost maximum flow (successive shortest paths) where an edge without
// bonus costs 1 and one with bonus costs 0.
func AnyOrder(r *Relation) Alignment { return new(Scratch).AnyOrder(r) }

// anyScratch is AnyOrder's part of a Scratch.
type anyScratch struct {
	classNode   []int32 // item class → its node + 1, 0 for none
	classes     []int32
	members     [][]int
	sigNode     map[string]*sigNode
	use         int // AnyOrder calls so far
	key         []byte
	sig         []int
	stepSig     [][]int // per step class: item-class nodes, negated when with bonus
	stepMembers [][]int
	links       []link
	nextItem    []int
	nextStep    []int
	g           flow
}

type link struct{ edge, itemClass, stepClass int }

// A sigNode is the step class of a signature in one use of the scratch.
type sigNode struct{ node, use int }

// AnyOrder is [AnyOrder] in the scratch's memory.
func (s *Scratch) AnyOrder(r *Relation) Alignment { return s.anyOrder(r, true) }

// anyOrder is AnyOrder; with shortcut, a relation whose every step
// matches at most one item class, without bonuses, skips the flow: see
// direct.
func (s *Scratch) anyOrder(r *Relation, shortcut bool) Alignment {
	ne, na := len(r.ItemClass), len(r.Steps)
	if ne == 0 || na == 0 {
		return Alignment{}
	}
	a := &s.any
	// Item classes and their members, in item order.
	nc := int32(0)
	for _, c := range r.ItemClass {
		nc = max(nc, c+1)
	}
	a.classNode = grow(a.classNode, int(nc))
	clear(a.classNode)
	node := func(c int32) (int, bool) {
		if c < 0 || c >= nc || a.classNode[c] == 0 {
			return 0, false
		}
		return int(a.classNode[c]) - 1, true
	}
	a.classes, a.members = a.classes[:0], a.members[:0]
	for i, c := range r.ItemClass {
		n, ok := node(c)
		if !ok {
			n = len(a.classes)
			a.classNode[c] = int32(n) + 1
			a.classes = append(a.classes, c)
			a.members = extend(a.members)
		}
		a.members[n] = append(a.members[n], i)
	}
	// Step classes by signature: the item classes present that the step
	// matches, each with its bonus.
	// The signatures of earlier relations stay in the map, marked by the
	// use they belong to, so that a signature seen before costs no new key.
	a.use++
	if a.sigNode == nil || len(a.sigNode) > 1<<12 {
		a.sigNode = map[string]*sigNode{}
	}
	a.stepSig, a.stepMembers = a.stepSig[:0], a.stepMembers[:0]
	single := shortcut && r.Bonus == nil
	for j, cls := range r.Steps {
		a.sig = a.sig[:0]
		for _, c := range cls {
			n, ok := node(c)
			if !ok {
				continue
			}
			e := n + 1
			if r.Bonus != nil && r.Bonus(c, j) {
				e = -e
			}
			a.sig = append(a.sig, e)
		}
		if len(a.sig) == 0 {
			continue
		}
		single = single && len(a.sig) == 1
		a.key = a.key[:0]
		for _, e := range a.sig {
			a.key = append(a.key, byte(e), byte(e>>8), byte(e>>16), byte(e>>24), byte(e>>32), byte(e>>40), byte(e>>48), byte(e>>56))
		}
		sn := a.sigNode[string(a.key)]
		if sn == nil {
			sn = &sigNode{use: -1}
			a.sigNode[string(a.key)] = sn
		}
		n := sn.node
		if sn.use != a.use {
			n = len(a.stepSig)
			sn.node, sn.use = n, a.use
			a.stepSig = extend(a.stepSig)
			a.stepSig[n] = append(a.stepSig[n], a.sig...)
			a.stepMembers = extend(a.stepMembers)
		}
		a.stepMembers[n] = append(a.stepMembers[n], j)
	}
	if single {
		return r.finish(s.direct())
	}
	// Nodes: 0 source, 1 sink, then item classes, then step classes.
	g := &a.g
	g.reset(2 + len(a.classes) + len(a.stepSig))
	itemBase, stepBase := 2, 2+len(a.classes)
	for n, m := range a.members {
		g.add(0, itemBase+n, len(m), 0)
	}
	a.links = a.links[:0]
	for s, sig := range a.stepSig {
		g.add(stepBase+s, 1, len(a.stepMembers[s]), 0)
		for _, e := range sig {
			n, cost := e-1, 1
			if e < 0 {
				n, cost = -e-1, 0
			}
			a.links = append(a.links, link{len(g.edges), n, s})
			g.add(itemBase+n, stepBase+s, math.MaxInt32, cost)
		}
	}
	g.run(0, 1)
	a.nextItem = grow(a.nextItem, len(a.classes))
	clear(a.nextItem)
	a.nextStep = grow(a.nextStep, len(a.stepSig))
	clear(a.nextStep)
	pairs := s.pairs[:0]
	for _, l := range a.links {
		for f := g.edges[l.edge^1].cap; f > 0; f-- {
			i := a.members[l.itemClass][a.nextItem[l.itemClass]]
			j := a.stepMembers[l.stepClass][a.nextStep[l.stepClass]]
			a.nextItem[l.itemClass]++
			a.nextStep[l.stepClass]++
			pairs = append(pairs, Pair{i, j})
		}
	}
	slices.SortFunc(pairs, func(a, b Pair) int { return a.Item - b.Item })
	s.pairs = pairs
	return r.finish(pairs)
}

// direct gives the flow's pairs when every step class matches one item
// class and nothing has a bonus. A signature is then one item class, so
// each item class has at most one step class, apart from every other:
// the maximum flow through it is the smaller of the two sizes, and every
// augmenting path costs the same, so the flow sends exactly that. The
// pairs are taken as after the flow: members in order on both sides.
func (s *Scratch) direct() []Pair {
	a := &s.any
	pairs := s.pairs[:0]
	for st, sig := range a.stepSig {
		items, steps := a.members[sig[0]-1], a.stepMembers[st]
		for k := range min(len(items), len(steps)) {
			pairs = append(pairs, Pair{items[k], steps[k]})
		}
	}
	slices.SortFunc(pairs, func(a, b Pair) int { return a.Item - b.Item })
	s.pairs = pairs
	return pairs
}

// grow returns s with length n, its contents undefined.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

type edge struct {
	to, cap, cost int
}

type flow struct {
	edges []edge
	adj   [][]int
	// run's memory
	dist, prev, queue []int
	inQueue           []bool
}

// reset empties g to n nodes without edges.
func (g *flow) reset(n int) {
	g.edges = g.edges[:0]
	g.adj = g.adj[:0]
	for range n {
		g.adj = extend(g.adj)
	}
}

func (g *flow) add(from, to, capacity, cost int) {
	g.adj[from] = append(g.adj[from], len(g.edges))
	g.edges = append(g.edges, edge{to, capacity, cost})
	g.adj[to] = append(g.adj[to], len(g.edges))
	g.edges = append(g.edges, edge{from, 0, -cost})
}

// run pushes a min-cost maximum flow from s to t along shortest paths
// (Bellman–Ford queue, since residual edges carry negative costs).
func (g *flow) run(s, t int) {
	n := len(g.adj)
	g.dist, g.prev, g.inQueue = grow(g.dist, n), grow(g.prev, n), grow(g.inQueue, n)
	dist, prev, inQueue := g.dist, g.prev, g.inQueue
	clear(inQueue)
	for {
		for i := range dist {
			dist[i], prev[i] = math.MaxInt, -1
		}
		dist[s] = 0
		queue := append(g.queue[:0], s)
		inQueue[s] = true
		for head := 0; head < len(queue); head++ {
			u := queue[head]
			inQueue[u] = false
			for _, ei := range g.adj[u] {
				e := g.edges[ei]
				if e.cap > 0 && dist[u]+e.cost < dist[e.to] {
					dist[e.to], prev[e.to] = dist[u]+e.cost, ei
					if !inQueue[e.to] {
						inQueue[e.to] = true
						queue = append(queue, e.to)
					}
				}
			}
		}
		g.queue = queue
		if dist[t] == math.MaxInt {
			return
		}
		push := math.MaxInt
		for v := t; v != s; v = g.edges[prev[v]^1].to {
			push = min(push, g.edges[prev[v]].cap)
		}
		for v := t; v != s; v = g.edges[prev[v]^1].to {
			g.edges[prev[v]].cap -= push
			g.edges[prev[v]^1].cap += push
		}
	}
}
