package config

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/goccy/go-yaml/ast"

	"github.com/trajeval/trajeval/internal/sniff"
)

// chunkBytes is about how much of a long list ParseList converts at a time:
// small enough that the YAML parser's tree of one part is a few hundred
// kilobytes, large enough that the parser's cost per call stays negligible.
const chunkBytes = 64 << 10

// ParseList is Parse for a document whose top-level map holds one long
// block list under one of keys (a suite's evalcases): the list's items
// are converted a part at a time while [Node.Each] walks them, so the
// whole document never sits in memory as a tree; the rest of the
// document is parsed at once.
//
// The result is the same as Parse's: the same values, places and errors.
// A document this reading cannot split (the list is not a block list at
// the key's own line, an item uses an anchor defined outside its part, the
// list's last part does not convert on its own, the file is JSON) is
// parsed whole by Parse, and so is a part that does not parse, so that
// every error is the one Parse reports for the document.
func ParseList(file string, data []byte, keys ...string) (*Node, error) {
	data = sniff.TrimBOM(data) // as Parse does, once
	sp, ok := splitList(data, keys)
	if !ok || bytes.IndexByte(data, 0) >= 0 {
		return whole(file, data)
	}
	// The list's lines are blanked, not removed: the rest keeps its lines.
	head := make([]byte, 0, sp.start+(sp.end-sp.start)/16+len(data)-sp.end)
	head = append(head, data[:sp.start]...)
	// A blank line is a \n, or a \r after a \r: a \n would join it to
	// make one break.
	blank := byte('\n')
	if sp.start > 0 && data[sp.start-1] == '\r' {
		blank = '\r'
	}
	if sp.end < len(data) {
		// Only what follows the list needs its lines kept: a list at the
		// end (most suites) leaves the YAML parser no blank lines to read.
		head = append(head, bytes.Repeat([]byte{blank}, lineBreaks(data[sp.start:sp.end]))...)
		head = append(head, data[sp.end:]...)
	}
	root, err := whole(file, head)
	if err != nil {
		return whole(file, data)
	}
	// The key's value in the head must be the null written as nothing on
	// its own line: the YAML parser also takes a value below a key at the
	// key's own column ("~" after the list) for the key's, which the list
	// must not hide.
	var entry *Entry
	for i := range root.Entries {
		if e := &root.Entries[i]; e.Key == sp.key && e.KeyLine == sp.keyLine && e.KeyCol == 1 && e.Value.Kind == Null && e.Value.Line == sp.keyLine {
			entry = e
		}
	}
	if root.Kind != Map || entry == nil {
		return whole(file, data)
	}
	lazy := &lazyList{data: data, split: sp}
	// The line after the list ends its last item only if that item is
	// closed: a flow map or a quoted text left open goes on below, where
	// the head read the lines as its own. The last part must convert on
	// its own, or the document is parsed whole. It is kept for Each: a
	// list of one long item (a case of 50,000 expected calls) is one part,
	// which would be converted twice.
	last, ok := lazy.convert(file, sp.lastPart(), len(sp.items))
	if !ok {
		return whole(file, data)
	}
	lazy.last = last
	entry.Value = &Node{Kind: List, File: file, Line: sp.items[0].line, Col: sp.indent + 1, Path: sp.key, size: 1, lazy: lazy}
	return root, nil
}

// whole is Parse for data whose byte order mark, if any, is dropped.
func whole(file string, data []byte) (*Node, error) {
	return parse(file, data, maxDepth, maxParseDepth)
}

// lineBreaks counts the line breaks of b as YAML does: \n, \r\n and a
// lone \r each end a line.
func lineBreaks(b []byte) int {
	return bytes.Count(b, []byte{'\n'}) + bytes.Count(b, []byte{'\r'}) - bytes.Count(b, []byte("\r\n"))
}

// A lazyList is a block list not yet converted: its items are read a part
// at a time by Node.Each.
type lazyList struct {
	data  []byte // the whole document
	split listSplit
	last  part // the last part, converted
	// scratch is the one-line reader's, reused from part to part.
	scratch flowPart
}

// listSplit is where a top-level block list lies in a document.
type listSplit struct {
	key        string
	keyLine    int
	start, end int // the list's bytes: from the line after the key to the next key
	indent     int // the column of the items' dashes, less one
	items      []itemStart
}

type itemStart struct {
	off, line int // the offset of the item's first line; its line number
}

// splitList finds the block list under the first of keys written as
// "key:" at the start of a line, with nothing after it but a comment. Its
// items are the lines that start with a dash at the first item's
// indentation; it ends at the first other line (not blank, not a comment)
// indented no deeper than the dashes. An item whose value does not start
// on its dash's line (openItem) makes it give up (false), as the block
// structure then depends on the parser.
func splitList(data []byte, keys []string) (listSplit, bool) {
	var sp listSplit
	line, off := 0, 0
	inList := false
	cr := bytes.IndexByte(data, '\r') >= 0
	for off < len(data) {
		line++
		end := off + lineEnd(data[off:], cr)
		text := data[off:end]
		next := end
		if next < len(data) && data[next] == '\r' {
			next++
		}
		if next < len(data) && data[next] == '\n' {
			next++
		}
		switch {
		case !inList:
			if k := listKey(text, keys); k != "" && sp.key == "" {
				sp.key, sp.keyLine, sp.start, inList = k, line, next, true
			}
		default:
			ind := 0 // a loop, not TrimLeft: most lines are indented a few spaces
			for ind < len(text) && text[ind] == ' ' {
				ind++
			}
			t := text[ind:]
			if len(t) == 0 || t[0] == '#' {
				break
			}
			isItem := t[0] == '-' && (len(t) == 1 || t[1] == ' ')
			if isItem && openItem(t[1:]) {
				// An item whose value does not start on its line: what
				// the lines below belong to is the YAML parser's to say,
				// so the document is parsed whole.
				return sp, false
			}
			if len(sp.items) == 0 {
				if !isItem {
					return sp, false
				}
				sp.indent = ind
			}
			switch {
			case ind == sp.indent && isItem:
				sp.items = append(sp.items, itemStart{off: off, line: line})
			case ind <= sp.indent:
				sp.end = off
				return sp, len(sp.items) > 0
			}
		}
		if next == off {
			break
		}
		off = next
	}
	sp.end = len(data)
	return sp, inList && len(sp.items) > 0
}

// openItem says whether the text after an item's dash leaves its value to
// the lines below: nothing, a comment, or only a tag (!), an anchor (&) or
// a complex key (?) to start it.
func openItem(rest []byte) bool {
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return len(rest) == 0 || rest[0] == '#' || rest[0] == '!' || rest[0] == '&' || rest[0] == '?'
}

// lineEnd returns the length of the first line of b, its line break
// excluded; as in YAML, a line ends at \n, \r\n or a lone \r. cr says
// whether b may hold a \r: most files hold none, and their lines are
// found with one scan.
func lineEnd(b []byte, cr bool) int {
	// Scans for one byte when b holds no \r: IndexAny of two bytes goes
	// a byte at a time.
	if cr {
		// Not a scan for \n first: in a file of lines broken by a lone
		// \r, it runs to the end of the file at every line (quadratic).
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
			return i
		}
		return len(b)
	}
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b)
}

// listKey returns which of keys the line is, written "key:" from its first
// column with nothing after but spaces and a comment; else "".
func listKey(line []byte, keys []string) string {
	for _, k := range keys {
		rest, ok := bytes.CutPrefix(line, []byte(k+":"))
		if !ok {
			continue
		}
		rest = bytes.TrimLeft(rest, " \t")
		if len(rest) == 0 || rest[0] == '#' {
			return k
		}
	}
	return ""
}

// Each calls f with each item of the list n in order, and returns f's
// first error. A list read by ParseList is converted a part at a time, so
// items f does not keep are freed as the walk goes on; a part that does
// not convert on its own is converted with the whole document, and its
// error (if the whole document has one) returned. The parts after the one
// f walks are converted on other goroutines, a few ahead (see
// partsAhead), which have returned when Each returns.
func (n *Node) Each(f func(item *Node) error) error {
	return n.EachItem(func(it Item) error { return f(it.Node()) })
}

// EachItem is Each handing over each item as an Item: an item the one-line
// reader read has its node built only when f asks for it.
func (n *Node) EachItem(f func(it Item) error) error {
	if n.Kind != List {
		return n.Errorf("expected a list, got %s", n.describe())
	}
	if n.lazy == nil {
		for _, it := range n.Items {
			if err := f(Item{node: it}); err != nil {
				return err
			}
		}
		return nil
	}
	ahead := n.lazy.ahead(n.File)
	defer ahead.stop()
	for i, p := 0, 0; i < len(n.lazy.split.items); p++ {
		j := n.lazy.split.part(i)
		converted, ok := n.lazy.last, true
		switch {
		case j == len(n.lazy.split.items):
		case ahead != nil:
			converted, ok = ahead.take(p)
		default:
			converted, ok = n.lazy.convert(n.File, i, j)
		}
		if !ok {
			ahead.stop()
			return n.eachWhole(i, f)
		}
		for k := range converted.len() {
			if err := f(converted.item(k)); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}

// part returns the end j of the part of the list that starts at item i:
// items i to j-1, about chunkBytes of them.
func (sp *listSplit) part(i int) (j int) {
	j = i + 1
	for j < len(sp.items) && sp.items[j].off-sp.items[i].off < chunkBytes {
		j++
	}
	return j
}

// lastPart returns the first item of the list's last part.
func (sp *listSplit) lastPart() int {
	i := 0
	for j := sp.part(0); j < len(sp.items); j = sp.part(j) {
		i = j
	}
	return i
}

// convert converts items i to j-1 of the list, a part (see part); it
// reports false when they do not convert on their own.
func (l *lazyList) convert(file string, i, j int) (part, bool) {
	return l.convertWith(&l.scratch, file, i, j)
}

// convertWith is convert with the one-line reader's scratch space fp.
func (l *lazyList) convertWith(fp *flowPart, file string, i, j int) (part, bool) {
	sp := &l.split
	end := sp.end
	if j < len(sp.items) {
		end = sp.items[j].off
	}
	text := l.data[sp.items[i].off:end]
	if fr, ok := readFlow(fp, file, text, sp.items[i].line-1, sp.indent, sp.key, i, j-i); ok {
		return part{flow: fr}, true
	}
	items, ok := convertPart(file, text, end < len(l.data), *sp, i, j-i)
	return part{items: items}, ok
}

// eachWhole parses the whole document and walks its list on from item i.
// The parts before it were read right: a line that the split takes for an
// item's start while it is not (a dash in a quoted text over several
// lines) leaves the part before it unclosed or with the wrong number of
// items, so it is the first part to fail. Items are skipped by their
// index, not their line: an alias's node has its anchor's place, which
// may come before the list.
func (n *Node) eachWhole(i int, f func(it Item) error) error {
	root, err := whole(n.File, n.lazy.data)
	if err != nil {
		return err
	}
	list := root.Get(n.lazy.split.key)
	if list == nil || list.Kind != List {
		return n.Errorf("the list is not a list when the document is read whole") // not reached: Parse read the head alike
	}
	for _, it := range list.Items[min(i, len(list.Items)):] {
		if err := f(Item{node: it}); err != nil {
			return err
		}
	}
	return nil
}

// convertPart converts part, a run of want items of the list sp starting
// at item first. It reports false when the part does not parse or convert
// on its own.
//
// When more of the document follows the part (followed), the part is
// parsed with one more item after it, which is dropped: in the whole
// document a line no deeper than the dashes ends the part's last item, and
// the YAML parser places some values by what ends them (a plain text over
// several lines whose last line starts with a dash is placed at its last
// line when the input ends there, at its first line when a line follows).
func convertPart(file string, part []byte, followed bool, sp listSplit, first, want int) (items []*Node, ok bool) {
	defer func() {
		if recover() != nil {
			items, ok = nil, false
		}
	}()
	parsed, values := part, want
	if followed && (part[len(part)-1] == '\n' || part[len(part)-1] == '\r') {
		br := part[len(part)-1:]
		if len(part) > 1 && br[0] == '\n' && part[len(part)-2] == '\r' {
			br = part[len(part)-2:]
		}
		parsed = make([]byte, 0, len(part)+sp.indent+3+len(br))
		parsed = append(parsed, part...)
		parsed = append(parsed, bytes.Repeat([]byte{' '}, sp.indent)...)
		parsed = append(parsed, "- 0"...)
		parsed = append(parsed, br...)
		values++
	}
	f, err := parseYAML(parsed, maxParseDepth, maxDepth)
	if err != nil || len(f.Docs) != 1 || f.Docs[0] == nil {
		return nil, false
	}
	seq, isSeq := f.Docs[0].Body.(*ast.SequenceNode)
	if !isSeq || len(seq.Values) != values {
		return nil, false
	}
	c := converter{file: file, anchors: map[string]*Node{}, lineLen: lineLengths(parsed), base: sp.items[first].line - 1, limit: maxNodes + len(part), data: parsed, maxDepth: maxDepth}
	size := 0
	for i, v := range seq.Values[:want] {
		it, err := c.convert(v, fmt.Sprintf("%s[%d]", sp.key, first+i), 2)
		if err != nil {
			return nil, false
		}
		if size += it.size; size > c.limit {
			return nil, false
		}
		items = append(items, it)
	}
	return items, true
}

// Materialize converts a list read by ParseList, anywhere under n, into
// an ordinary one, for readers that walk Items.
func (n *Node) Materialize() error {
	if n == nil {
		return nil
	}
	if n.lazy != nil {
		var items []*Node
		if err := n.Each(func(it *Node) error { items = append(items, it); return nil }); err != nil {
			return err
		}
		n.Items, n.lazy = slices.Clip(items), nil
		return nil
	}
	for _, e := range n.Entries {
		if err := e.Value.Materialize(); err != nil {
			return err
		}
	}
	return nil
}

// Len returns the number of items of the list n, without converting a
// list read by ParseList.
func (n *Node) Len() int {
	if n.lazy != nil {
		return len(n.lazy.split.items)
	}
	return len(n.Items)
}
