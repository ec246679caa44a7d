// Package pattern is the language of tool_rules patterns: regular
// expressions whose letters are tool calls, matched against a whole call
// sequence.
//
// The syntax, from tightest binding to loosest:
//  1. an item is a tool name (a run of characters other than white space
//     and ( ) | * + ? { } '), or a name in single quotes ('my tool'), or
//     . for any one call;
//  2. an item or a group may be followed by quantifiers: * (zero or
//     more), + (one or more), ? (zero or one), {n} (exactly n), {m,n}
//     (m to n) and {m,} (m or more); quantifiers stack, a+? being (a+)?;
//  3. items and groups written one after another (separated by white
//     space where they would run together) follow one another;
//  4. | separates alternatives; ( ) groups.
//
// For example "search+ read_document{2,} synthesize" is one or more
// searches, then at least two documents read, then one synthesis, and
// nothing else; ".* delete .*" is any sequence with a delete in it. An
// operator ends a name, so a?b is a? b, but a.b is one name: a dot
// belongs to the names around it.
//
// The rules of the language:
//  1. a pattern matches a sequence when the whole sequence, from its first
//     call to its last, is one of the sequences the expression describes;
//     an empty sequence matches only a pattern that allows nothing;
//  2. what an item accepts is the caller's to decide ([Match] asks a
//     function); the same name always stands for the same item;
//  3. an empty pattern, an empty alternative or group, a quantifier with
//     nothing to repeat, {m,n} with m > n, a count above [MaxCount] and a
//     pattern whose expansion has more than [MaxStates] states are syntax
//     errors, each with its column ([SyntaxError]).
//
// Matching simulates a Thompson automaton: each call advances the set of
// live states once, so a match costs O(calls × states), never the
// exponential time of backtracking.
package pattern

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxCount is the largest count a {m,n} quantifier may give.
const MaxCount = 1000

// MaxStates is the largest automaton a pattern may compile to.
const MaxStates = 10000

// A SyntaxError is a pattern that does not parse: what is wrong, and
// where.
type SyntaxError struct {
	Offset int // byte offset in the pattern
	Col    int // 1-based column, counted in characters
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pattern: %s at column %d", e.Msg, e.Col)
}

// An Item is one distinct letter of a pattern.
type Item struct {
	Name string // the tool name as written; "." for Any
	Any  bool   // the wildcard: any one call
}

// A Pattern is a parsed, compiled pattern. It is only read once built, so
// goroutines may share it.
type Pattern struct {
	src   string
	items []Item
	root  *node
	prog  []inst
	start int32
}

// Items returns the pattern's distinct items, in order of first
// appearance.
func (p *Pattern) Items() []Item { return append([]Item(nil), p.items...) }

// String returns the pattern as written.
func (p *Pattern) String() string { return p.src }

// Canonical returns the pattern in a canonical spelling: items separated
// by single spaces, the groups that were written, and quantifiers in their
// shortest form.
func (p *Pattern) Canonical() string {
	var b strings.Builder
	p.root.write(&b, p.items, false)
	return b.String()
}

// States returns the number of states of the compiled automaton.
func (p *Pattern) States() int { return len(p.prog) }

// Parse parses and compiles a pattern.
func Parse(src string) (*Pattern, error) {
	ps := &parser{src: src, names: map[string]int{}}
	ps.next()
	if ps.err != nil {
		return nil, ps.err
	}
	if ps.tok.kind == tEOF {
		return nil, ps.errAt(ps.tok, "the pattern is empty")
	}
	root, err := ps.alt()
	if err != nil {
		return nil, err
	}
	if ps.tok.kind != tEOF {
		// Only ) can stop alt before the end.
		return nil, ps.errAt(ps.tok, "unexpected ')'")
	}
	p := &Pattern{src: src, items: ps.items, root: root}
	p.compile()
	return p, nil
}

// --- lexer ----------------------------------------------------------------

type tkind int

const (
	tEOF tkind = iota
	tName
	tAny
	tLParen
	tRParen
	tBar
	tStar
	tPlus
	tQuest
	tRepeat // {m,n}
)

type token struct {
	kind     tkind
	off      int
	text     string // a name
	min, max int    // a repeat; max −1: unbounded
}

type parser struct {
	src   string
	pos   int
	tok   token
	err   *SyntaxError
	names map[string]int
	items []Item
	depth int
}

func (ps *parser) col(off int) int { return utf8.RuneCountInString(ps.src[:off]) + 1 }

func (ps *parser) errAt(t token, format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: t.off, Col: ps.col(t.off), Msg: fmt.Sprintf(format, args...)}
}

const special = "()|*+?{}'"

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next reads the next token into ps.tok; a lexical error becomes ps.err
// and an EOF token, so the parser stops.
func (ps *parser) next() {
	for ps.pos < len(ps.src) && isSpace(ps.src[ps.pos]) {
		ps.pos++
	}
	off := ps.pos
	if off >= len(ps.src) {
		ps.tok = token{kind: tEOF, off: off}
		return
	}
	c := ps.src[off]
	single := map[byte]tkind{'(': tLParen, ')': tRParen, '|': tBar, '*': tStar, '+': tPlus, '?': tQuest}
	if k, ok := single[c]; ok {
		ps.pos++
		ps.tok = token{kind: k, off: off}
		return
	}
	switch c {
	case '{':
		ps.repeat(off)
		return
	case '}':
		ps.fail(off, "unexpected '}'")
		return
	case '\'':
		end := strings.IndexByte(ps.src[off+1:], '\'')
		if end < 0 {
			ps.fail(off, "unclosed quote")
			return
		}
		name := ps.src[off+1 : off+1+end]
		if name == "" {
			ps.fail(off, "empty quoted name")
			return
		}
		ps.pos = off + end + 2
		ps.tok = token{kind: tName, off: off, text: name}
		return
	}
	end := off
	for end < len(ps.src) && !isSpace(ps.src[end]) && !strings.ContainsRune(special, rune(ps.src[end])) {
		end++
	}
	ps.pos = end
	if name := ps.src[off:end]; name == "." {
		ps.tok = token{kind: tAny, off: off}
	} else {
		ps.tok = token{kind: tName, off: off, text: name}
	}
}

func (ps *parser) fail(off int, format string, args ...any) {
	ps.err = ps.errAt(token{off: off}, format, args...)
	ps.tok = token{kind: tEOF, off: off}
	ps.pos = len(ps.src)
}

// repeat reads {n}, {m,n} or {m,}.
func (ps *parser) repeat(off int) {
	end := strings.IndexByte(ps.src[off:], '}')
	if end < 0 {
		ps.fail(off, "unclosed '{'")
		return
	}
	body := ps.src[off+1 : off+end]
	lo, hi, comma := strings.Cut(body, ",")
	num := func(s string, at int) (int, bool) {
		s = strings.TrimSpace(s)
		if s == "" || strings.Trim(s, "0123456789") != "" {
			ps.fail(at, "a count in {m,n} must be a whole number, got %q", s)
			return 0, false
		}
		n, err := strconv.Atoi(s)
		if err != nil || n > MaxCount {
			ps.fail(at, "a count in {m,n} must be at most %d, got %s", MaxCount, s)
			return 0, false
		}
		return n, true
	}
	m, ok := num(lo, off+1)
	if !ok {
		return
	}
	n := m
	if comma {
		if strings.TrimSpace(hi) == "" {
			n = -1
		} else if n, ok = num(hi, off+2+len(lo)); !ok {
			return
		}
	}
	if n >= 0 && m > n {
		ps.fail(off, "{%d,%d} repeats at least more times than at most", m, n)
		return
	}
	ps.pos = off + end + 1
	ps.tok = token{kind: tRepeat, off: off, min: m, max: n}
}

// --- parser ---------------------------------------------------------------

type nkind int

const (
	nItem nkind = iota
	nCat
	nAlt
	nRepeat // sub{min,max}; max −1 unbounded
)

type node struct {
	kind     nkind
	item     int
	subs     []*node
	min, max int
	group    bool // written in parentheses
	size     int  // states it compiles to
}

const maxDepth = 200

func (ps *parser) alt() (*node, error) {
	ps.depth++
	defer func() { ps.depth-- }()
	if ps.depth > maxDepth {
		return nil, ps.errAt(ps.tok, "groups nested more than %d deep", maxDepth)
	}
	first := ps.tok
	s, err := ps.seq()
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, ps.emptyAlt(first)
	}
	if ps.tok.kind != tBar {
		return s, nil
	}
	a := &node{kind: nAlt, subs: []*node{s}, size: s.size}
	for ps.tok.kind == tBar {
		ps.next()
		at := ps.tok
		s, err := ps.seq()
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, ps.emptyAlt(at)
		}
		a.subs = append(a.subs, s)
		a.size += s.size + 1 // a split per alternative
		if err := ps.limit(a, at); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// emptyAlt explains why nothing stood where an alternative should.
func (ps *parser) emptyAlt(at token) error {
	if ps.err != nil {
		return ps.err
	}
	switch at.kind {
	case tEOF:
		return ps.errAt(at, "unexpected end of pattern: an item is missing")
	case tBar:
		return ps.errAt(at, "empty alternative before '|'")
	case tRParen:
		return ps.errAt(at, "unexpected ')'")
	}
	return ps.errAt(at, "nothing to repeat")
}

// seq reads items one after another; nil when there is none.
func (ps *parser) seq() (*node, error) {
	var subs []*node
	size := 0
	for {
		switch ps.tok.kind {
		case tEOF, tBar, tRParen:
			if ps.err != nil {
				return nil, ps.err
			}
			switch len(subs) {
			case 0:
				return nil, nil
			case 1:
				return subs[0], nil
			}
			return &node{kind: nCat, subs: subs, size: size}, nil
		case tStar, tPlus, tQuest, tRepeat:
			return nil, ps.errAt(ps.tok, "nothing to repeat before '%s'", ps.quant(ps.tok))
		}
		r, err := ps.repeated()
		if err != nil {
			return nil, err
		}
		subs = append(subs, r)
		if size += r.size; size > MaxStates {
			return nil, ps.errAt(ps.tok, "the pattern is too large: it expands to more than %d states", MaxStates)
		}
	}
}

func (ps *parser) quant(t token) string {
	switch t.kind {
	case tStar:
		return "*"
	case tPlus:
		return "+"
	case tQuest:
		return "?"
	}
	end := strings.IndexByte(ps.src[t.off:], '}')
	return ps.src[t.off : t.off+end+1]
}

// repeated reads an atom and its quantifiers.
func (ps *parser) repeated() (*node, error) {
	n, err := ps.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := ps.tok
		var lo, hi int
		switch t.kind {
		case tStar:
			lo, hi = 0, -1
		case tPlus:
			lo, hi = 1, -1
		case tQuest:
			lo, hi = 0, 1
		case tRepeat:
			lo, hi = t.min, t.max
		default:
			return n, nil
		}
		ps.next()
		r := &node{kind: nRepeat, subs: []*node{n}, min: lo, max: hi}
		// The expansion: lo copies, then max−lo optional copies (a split
		// each), or one more copy in a loop (one split).
		copies, extra := lo+1, 1
		if hi >= 0 {
			copies, extra = hi, hi-lo
		}
		r.size = copies*n.size + extra
		if err := ps.limit(r, t); err != nil {
			return nil, err
		}
		n = r
	}
}

func (ps *parser) limit(n *node, at token) error {
	if n.size > MaxStates {
		return ps.errAt(at, "the pattern is too large: it expands to more than %d states", MaxStates)
	}
	return nil
}

func (ps *parser) atom() (*node, error) {
	t := ps.tok
	switch t.kind {
	case tName, tAny:
		key := t.text
		if t.kind == tAny {
			key = "\x00any"
		}
		i, ok := ps.names[key]
		if !ok {
			i = len(ps.items)
			ps.names[key] = i
			if t.kind == tAny {
				ps.items = append(ps.items, Item{Name: ".", Any: true})
			} else {
				ps.items = append(ps.items, Item{Name: t.text})
			}
		}
		ps.next()
		return &node{kind: nItem, item: i, size: 1}, nil
	case tLParen:
		ps.next()
		if ps.tok.kind == tRParen {
			return nil, ps.errAt(t, "empty group '()'")
		}
		n, err := ps.alt()
		if err != nil {
			return nil, err
		}
		if ps.tok.kind != tRParen {
			if ps.err != nil {
				return nil, ps.err
			}
			return nil, ps.errAt(t, "unclosed '('")
		}
		ps.next()
		g := *n
		g.group = true
		return &g, nil
	}
	return nil, ps.emptyAlt(t)
}

// Quote returns name as a pattern writes it: quoted, 'read file', when it
// holds white space or an operator character, or is ".".
func Quote(name string) string {
	if strings.ContainsAny(name, special+" \t\r\n") || name == "." {
		return "'" + name + "'"
	}
	return name
}

// write prints the node canonically.
func (n *node) write(b *strings.Builder, items []Item, paren bool) {
	if paren || n.group {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch n.kind {
	case nItem:
		it := items[n.item]
		if it.Any {
			b.WriteString(it.Name)
		} else {
			b.WriteString(Quote(it.Name))
		}
	case nCat:
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte(' ')
			}
			s.write(b, items, s.kind == nAlt && !s.group)
		}
	case nAlt:
		for i, s := range n.subs {
			if i > 0 {
				b.WriteString(" | ")
			}
			s.write(b, items, false)
		}
	case nRepeat:
		s := n.subs[0]
		s.write(b, items, (s.kind == nCat || s.kind == nAlt) && !s.group)
		switch {
		case n.min == 0 && n.max == -1:
			b.WriteByte('*')
		case n.min == 1 && n.max == -1:
			b.WriteByte('+')
		case n.min == 0 && n.max == 1:
			b.WriteByte('?')
		case n.max == -1:
			fmt.Fprintf(b, "{%d,}", n.min)
		case n.min == n.max:
			fmt.Fprintf(b, "{%d}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
	}
}
