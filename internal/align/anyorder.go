package align

import (
	"math"
	"slices"
	"strconv"
	"strings"
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
func AnyOrder(r *Relation) Alignment {
	ne, na := len(r.ItemClass), len(r.Steps)
	if ne == 0 || na == 0 {
		return Alignment{}
	}
	// Item classes and their members, in item order.
	classNode := map[int32]int{}
	var classes []int32
	var members [][]int
	for i, c := range r.ItemClass {
		n, ok := classNode[c]
		if !ok {
			n = len(classes)
			classNode[c] = n
			classes = append(classes, c)
			members = append(members, nil)
		}
		members[n] = append(members[n], i)
	}
	// Step classes by signature: the item classes present that the step
	// matches, each with its bonus.
	sigNode := map[string]int{}
	var stepSig [][]int // per step class: item-class nodes, negated when with bonus
	var stepMembers [][]int
	var sb strings.Builder
	var sig []int
	for j, cls := range r.Steps {
		sig = sig[:0]
		for _, c := range cls {
			n, ok := classNode[c]
			if !ok {
				continue
			}
			e := n + 1
			if r.Bonus != nil && r.Bonus(c, j) {
				e = -e
			}
			sig = append(sig, e)
		}
		if len(sig) == 0 {
			continue
		}
		sb.Reset()
		for _, e := range sig {
			sb.WriteString(strconv.Itoa(e))
			sb.WriteByte(',')
		}
		key := sb.String()
		n, ok := sigNode[key]
		if !ok {
			n = len(stepSig)
			sigNode[key] = n
			stepSig = append(stepSig, slices.Clone(sig))
			stepMembers = append(stepMembers, nil)
		}
		stepMembers[n] = append(stepMembers[n], j)
	}
	// Nodes: 0 source, 1 sink, then item classes, then step classes.
	g := newFlow(2 + len(classes) + len(stepSig))
	itemBase, stepBase := 2, 2+len(classes)
	for n, m := range members {
		g.add(0, itemBase+n, len(m), 0)
	}
	type link struct{ edge, itemClass, stepClass int }
	var links []link
	for s, sig := range stepSig {
		g.add(stepBase+s, 1, len(stepMembers[s]), 0)
		for _, e := range sig {
			n, cost := e-1, 1
			if e < 0 {
				n, cost = -e-1, 0
			}
			links = append(links, link{len(g.edges), n, s})
			g.add(itemBase+n, stepBase+s, math.MaxInt32, cost)
		}
	}
	g.run(0, 1)
	nextItem := make([]int, len(classes))
	nextStep := make([]int, len(stepSig))
	var pairs []Pair
	for _, l := range links {
		for f := g.edges[l.edge^1].cap; f > 0; f-- {
			i := members[l.itemClass][nextItem[l.itemClass]]
			j := stepMembers[l.stepClass][nextStep[l.stepClass]]
			nextItem[l.itemClass]++
			nextStep[l.stepClass]++
			pairs = append(pairs, Pair{i, j})
		}
	}
	slices.SortFunc(pairs, func(a, b Pair) int { return a.Item - b.Item })
	return r.finish(pairs)
}

type edge struct {
	to, cap, cost int
}

type flow struct {
	edges []edge
	adj   [][]int
}

func newFlow(n int) *flow { return &flow{adj: make([][]int, n)} }

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
	dist := make([]int, n)
	prev := make([]int, n)
	inQueue := make([]bool, n)
	for {
		for i := range dist {
			dist[i], prev[i] = math.MaxInt, -1
		}
		dist[s] = 0
		queue := []int{s}
		inQueue[s] = true
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
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
