package pattern

// The automaton: a Thompson NFA whose letter states test one call each.

type op uint8

const (
	opItem  op = iota // accepts a call that item accepts, then goes to out
	opSplit           // goes to out and out1 without a call
	opMatch           // the end of the pattern
)

type inst struct {
	op   op
	item int32
	out  int32
	out1 int32
}

func (p *Pattern) add(in inst) int32 {
	p.prog = append(p.prog, in)
	return int32(len(p.prog) - 1)
}

func (p *Pattern) compile() {
	end := p.add(inst{op: opMatch})
	p.start = p.emit(p.root, end)
}

// emit compiles n so that it continues at next, and returns its entry.
func (p *Pattern) emit(n *node, next int32) int32 {
	switch n.kind {
	case nItem:
		return p.add(inst{op: opItem, item: int32(n.item), out: next})
	case nCat:
		for i := len(n.subs) - 1; i >= 0; i-- {
			next = p.emit(n.subs[i], next)
		}
		return next
	case nAlt:
		// A chain of splits, each choosing one alternative or the rest.
		entry := p.emit(n.subs[len(n.subs)-1], next)
		for i := len(n.subs) - 2; i >= 0; i-- {
			first := p.emit(n.subs[i], next)
			entry = p.add(inst{op: opSplit, out: first, out1: entry})
		}
		return entry
	}
	// nRepeat: min copies, then max−min optional copies or a loop.
	sub := n.subs[0]
	tail := next
	switch {
	case n.max < 0:
		// A loop: split (body → back to split | next).
		loop := p.add(inst{op: opSplit, out1: next})
		body := p.emit(sub, loop)
		p.prog[loop].out = body
		tail = loop // x{2,} is x x x*
	default:
		for range n.max - n.min {
			body := p.emit(sub, tail)
			tail = p.add(inst{op: opSplit, out: body, out1: next})
		}
	}
	for range n.min {
		tail = p.emit(sub, tail)
	}
	return tail
}

// A Result says how far a sequence fits a pattern.
type Result struct {
	// Matched reports whether the whole sequence matches.
	Matched bool
	// Fit is the length of the longest prefix of the sequence that some
	// sequence of the pattern starts with: the calls the pattern could
	// consume before it went wrong (the whole length when Matched, and
	// also when the sequence ended too soon).
	Fit int
	// Next are the items that could have come after the fitting prefix,
	// in order of first appearance; End reports whether the pattern could
	// also have ended there.
	Next []int
	End  bool
}

// Match runs the pattern over a sequence of n calls; accepts reports
// whether item (an index of [Pattern.Items]) accepts call i (0-based). It
// is asked at most once per item and call.
func (p *Pattern) Match(n int, accepts func(item, i int) bool) Result {
	m := newMatcher(p)
	cur := m.closure(nil, []int32{p.start})
	cache := make([]int8, len(p.items)) // 0 unknown, 1 yes, 2 no
	var next []int32
	for i := range n {
		clear(cache)
		next = next[:0]
		for _, s := range cur {
			in := p.prog[s]
			if in.op != opItem {
				continue
			}
			c := cache[in.item]
			if c == 0 {
				c = 2
				if accepts(int(in.item), i) {
					c = 1
				}
				cache[in.item] = c
			}
			if c == 1 {
				next = append(next, in.out)
			}
		}
		if len(next) == 0 {
			return p.explain(i, cur)
		}
		cur = m.closure(cur[:0], next)
	}
	r := p.explain(n, cur)
	r.Matched = r.End
	return r
}

// explain describes the live states after the first fit calls.
func (p *Pattern) explain(fit int, cur []int32) Result {
	r := Result{Fit: fit}
	seen := make([]bool, len(p.items))
	for _, s := range cur {
		switch in := p.prog[s]; in.op {
		case opMatch:
			r.End = true
		case opItem:
			if !seen[in.item] {
				seen[in.item] = true
				r.Next = append(r.Next, int(in.item))
			}
		}
	}
	// Order of first appearance in the pattern, not of the states.
	out := r.Next[:0:0]
	for i := range p.items {
		if seen[i] {
			out = append(out, i)
		}
	}
	r.Next = out
	return r
}

// A matcher holds the buffers of one match.
type matcher struct {
	p     *Pattern
	mark  []uint32
	gen   uint32
	stack []int32
}

func newMatcher(p *Pattern) *matcher {
	return &matcher{p: p, mark: make([]uint32, len(p.prog))}
}

// closure appends to dst the letter and match states reachable from from
// without a call, each once.
func (m *matcher) closure(dst []int32, from []int32) []int32 {
	m.gen++
	m.stack = append(m.stack[:0], from...)
	// Reverse, so states are visited in the order given (stable output).
	for i, j := 0, len(m.stack)-1; i < j; i, j = i+1, j-1 {
		m.stack[i], m.stack[j] = m.stack[j], m.stack[i]
	}
	for len(m.stack) > 0 {
		s := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if m.mark[s] == m.gen {
			continue
		}
		m.mark[s] = m.gen
		switch in := m.p.prog[s]; in.op {
		case opSplit:
			m.stack = append(m.stack, in.out1, in.out)
		default:
			dst = append(dst, s)
		}
	}
	return dst
}
