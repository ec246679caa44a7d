package config

// An Item is one item of a list, as [Node.EachItem] hands it over: its
// node, or, for an item the one-line reader read (a flow map of plain
// words on one line, see flowLines), its keys and words, whose node is
// built only when asked for. Most items of a generated suite are read for
// their two words and dropped: building their nodes was about a third of
// loading it.
//
// An Item is valid while the walk that handed it over runs; its node and
// its words may be kept.
type Item struct {
	node *Node
	flow *flowRead
	i    int // the item's index in flow
}

// Node returns the item's node. An item read by the one-line reader has
// its node built, with those of its part, on the first ask; the node is the
// one Each hands over.
func (it Item) Node() *Node {
	if it.flow != nil {
		return it.flow.nodes()[it.i]
	}
	return it.node
}

// Pair returns the words of keys k1 and k2 when the item was read by the
// one-line reader and is a map of those two keys and no other, spelt so,
// in either order; ok is false otherwise, and the item's node must be
// asked. The words are plain text (the node of each is a String), never
// empty; they are substrings of their part's text, which a value kept
// past the walk must not hold on to.
func (it Item) Pair(k1, k2 string) (w1, w2 string, ok bool) {
	if it.flow == nil {
		return "", "", false
	}
	l := it.flow.lines[it.i]
	if l.end-l.start != 2 {
		return "", "", false
	}
	t := it.flow.text
	a, b := &it.flow.fields[l.start], &it.flow.fields[l.start+1]
	ka, kb := t[a.k:a.kEnd], t[b.k:b.kEnd]
	switch {
	case ka == k1 && kb == k2:
		return t[a.v:a.vEnd], t[b.v:b.vEnd], true
	case ka == k2 && kb == k1:
		return t[b.v:b.vEnd], t[a.v:a.vEnd], true
	}
	return "", "", false
}

// Place returns what ps.Item returns for the item's node, item i of the
// list at path list, without building the node where the item was read
// by the one-line reader as item i of that list.
func (it Item) Place(ps *Places, list string, i int) Place {
	f := it.flow
	if f == nil || f.list != list || f.first+it.i != i {
		return ps.Item(it.Node(), list, i)
	}
	l := f.lines[it.i]
	return ps.at(f.file, list, f.base+1+int(l.line), int(f.fields[l.start].kcol), i)
}

// part is a part of a list read by ParseList, converted: its items'
// nodes, or the one-line reader's offsets (flow), whose nodes are built on
// first ask.
type part struct {
	items []*Node
	flow  *flowRead
}

// len returns the part's items.
func (p part) len() int {
	if p.flow != nil {
		return len(p.flow.lines)
	}
	return len(p.items)
}

// item returns the part's item k.
func (p part) item(k int) Item {
	if p.flow != nil {
		return Item{flow: p.flow, i: k}
	}
	return Item{node: p.items[k]}
}
