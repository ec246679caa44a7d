package config

import (
	"bytes"
	"slices"
	"strings"
)

// flowLines converts part, a run of want list items each written on one
// line as a flow map of names to plain words,
//
//   - {id: case-0000001, input: Research the history of Python}
//
// without the YAML parser, which costs some kilobytes and microseconds an
// item: the shape a generated suite of a million cases has. It reports
// false for anything else (another shape, a comment, a key given twice, a
// word YAML reads as other than text: true, null, a number), which the
// YAML parser then reads; the nodes are the ones the parser and convert
// give (FuzzFlowLines and FuzzParseList hold the two to each other).
func flowLines(fp *flowPart, file string, part []byte, base, indent int, list string, first, want int) ([]*Node, bool) {
	fr, ok := readFlow(fp, file, part, base, indent, list, first, want)
	if !ok {
		return nil, false
	}
	return fr.nodes(), true
}

// readFlow is flowLines without the nodes: the part is checked whole
// before anything is allocated, and then kept as one copy of its text and
// its items' offsets into it. Their nodes are built on first ask (see
// Item), into a few allocations for all the part's items: their words are
// substrings of the text, their paths of one string, their nodes and
// entries one slice each. A walk that asks only an item's words (a case of
// an id and an input) builds none.
//
// fp holds the offsets while the part is read; it is reused from part to
// part.
func readFlow(fp *flowPart, file string, part []byte, base, indent int, list string, first, want int) (*flowRead, bool) {
	if !fp.scan(part, indent, want) {
		return nil, false
	}
	return &flowRead{text: string(part), file: file, list: list, base: base, first: first,
		lines: slices.Clone(fp.lines), fields: slices.Clone(fp.fields)}, true
}

// flowRead is a part the one-line reader has checked: its text, and its
// items as offsets into it.
type flowRead struct {
	text        string
	file, list  string
	base, first int // the line before the part's first; the index of its first item
	lines       []flowItem
	fields      []flowField
	built       []*Node // the items' nodes, once built
}

// nodes returns the nodes of the part's items, built on the first call.
func (fr *flowRead) nodes() []*Node {
	if fr.built == nil {
		fp := flowPart{lines: fr.lines, fields: fr.fields}
		fr.built = fp.build(fr.file, fr.text, fr.base, fr.list, fr.first)
	}
	return fr.built
}

// flowPart is a part's items as offsets into it, checked.
type flowPart struct {
	lines  []flowItem
	fields []flowField
}

// flowItem is one line: its number from the part's first, and its fields.
type flowItem struct {
	line       int32
	start, end int32 // its fields, in flowPart.fields
}

// flowField is one key and its word: their offsets in the part, and their
// columns.
type flowField struct {
	k, kEnd, v, vEnd int32
	kcol, vcol       int32
}

// scan checks that part is want lines of the flow shape at the given
// indentation, and records their fields; it reports false at the first
// thing that is not.
func (fp *flowPart) scan(part []byte, indent, want int) bool {
	if len(part) >= 1<<31-1 {
		return false
	}
	if cap(fp.lines) < want {
		fp.lines = make([]flowItem, 0, want)
		fp.fields = make([]flowField, 0, 2*want)
	}
	fp.lines, fp.fields = fp.lines[:0], fp.fields[:0]
	off := 0
	for line := 0; off < len(part); line++ {
		end := len(part)
		if i := bytes.IndexByte(part[off:], '\n'); i >= 0 {
			end = off + i
		}
		if len(fp.lines) == want {
			return false
		}
		start := len(fp.fields)
		if !fp.line(part, off, end, indent) {
			return false
		}
		fp.lines = append(fp.lines, flowItem{line: int32(line), start: int32(start), end: int32(len(fp.fields))})
		off = end + 1
	}
	return len(fp.lines) == want
}

// line checks part[off:end], one line "- {k: v, ...}" at the given
// indentation, and records its fields.
func (fp *flowPart) line(part []byte, off, end, indent int) bool {
	for end > off && part[end-1] == ' ' {
		end--
	}
	if end-off < indent+5 || part[end-1] != '}' {
		return false
	}
	for i := off; i < off+indent; i++ {
		if part[i] != ' ' {
			return false
		}
	}
	i := off + indent
	if part[i] != '-' || part[i+1] != ' ' || part[i+2] != '{' {
		return false
	}
	i += 3
	close := end - 1 // the }
	// The fields, a slice of close bytes: in[i] needs no bounds check
	// once i < len(in).
	in := part[:close]
	first := len(fp.fields)
	for {
		// A field: blanks, a key, ": ", blanks, a word, blanks, then a
		// comma with more after it, or the }.
		for i < len(in) && in[i] == ' ' {
			i++
		}
		k := i
		if i < close && part[i] >= '0' && part[i] <= '9' {
			return false
		}
		for i < len(in) && flowClass[in[i]]&keyByte != 0 {
			i++
		}
		kEnd := i
		if kEnd == k || i+1 >= close || part[i] != ':' || part[i+1] != ' ' {
			return false
		}
		i += 2
		for i < len(in) && in[i] == ' ' {
			i++
		}
		v := i
		// Eight bytes a test while all eight are word bytes: a case's
		// input is most of its line.
		for i+8 <= len(in) {
			b := in[i : i+8 : i+8]
			if flowClass[b[0]]&flowClass[b[1]]&flowClass[b[2]]&flowClass[b[3]]&
				flowClass[b[4]]&flowClass[b[5]]&flowClass[b[6]]&flowClass[b[7]]&wordByte == 0 {
				break
			}
			i += 8
		}
		for i < len(in) && flowClass[in[i]]&wordByte != 0 {
			i++
		}
		vEnd := i
		for vEnd > v && part[vEnd-1] == ' ' {
			vEnd--
		}
		if !isFlowWord(part[v:vEnd]) {
			return false
		}
		if len(fp.fields)-first >= maxFlowFields {
			return false // the parser's: the check for a key given twice is quadratic
		}
		for _, g := range fp.fields[first:] {
			if string(part[g.k:g.kEnd]) == string(part[k:kEnd]) {
				return false // the parser's error, not ours
			}
		}
		fp.fields = append(fp.fields, flowField{k: int32(k), kEnd: int32(kEnd), v: int32(v), vEnd: int32(vEnd),
			kcol: int32(k - off + 1), vcol: int32(v - off + 1)})
		if i == close {
			return true
		}
		if part[i] != ',' {
			return false
		}
		i++
		j := i
		for j < close && part[j] == ' ' {
			j++
		}
		if j == close {
			return false // a trailing comma, or none between: the parser's to judge
		}
	}
}

// build makes the nodes of a scanned part.
func (fp *flowPart) build(file, text string, base int, list string, first int) []*Node {
	// The paths: each item's, then each of its values', in one string.
	var idx decimal
	idx.set(first)
	size := 0
	for _, it := range fp.lines {
		size += (len(list) + 2 + len(idx.digits())) * int(1+it.end-it.start)
		for _, f := range fp.fields[it.start:it.end] {
			size += 1 + int(f.kEnd-f.k)
		}
		idx.inc()
	}
	idx.set(first)
	var pb strings.Builder
	pb.Grow(size)
	ends := make([]int32, 0, len(fp.lines)+len(fp.fields))
	var ib []byte // the item's path
	for _, it := range fp.lines {
		ib = append(append(append(append(ib[:0], list...), '['), idx.digits()...), ']')
		pb.Write(ib)
		ends = append(ends, int32(pb.Len()))
		for _, f := range fp.fields[it.start:it.end] {
			pb.Write(ib)
			pb.WriteByte('.')
			pb.WriteString(text[f.k:f.kEnd])
			ends = append(ends, int32(pb.Len()))
		}
		idx.inc()
	}
	paths := pb.String()

	var keys flowKeys
	items := make([]*Node, len(fp.lines))
	nodes := make([]Node, len(fp.lines)+len(fp.fields))
	entries := make([]Entry, len(fp.fields))
	// The nodes are new and zero: only their other fields are set. Node
	// nn's path ends at ends[nn], where node nn-1's ends.
	nn, prev := 0, int32(0)
	for n, it := range fp.lines {
		line := base + 1 + int(it.line)
		fields := fp.fields[it.start:it.end]
		m := &nodes[nn]
		es := entries[it.start:it.end:it.end]
		m.Kind, m.File, m.Line, m.Col, m.size, m.Entries = Map, file, line, int(fields[0].kcol), 1+len(fields), es
		m.Path, prev = paths[prev:ends[nn]], ends[nn]
		nn++
		for j, f := range fields {
			v := &nodes[nn]
			v.Kind, v.Text, v.File, v.Line, v.Col, v.size, v.TextCol = String, text[f.v:f.vEnd], file, line, int(f.vcol), 1, int(f.vcol)
			v.Path, prev = paths[prev:ends[nn]], ends[nn]
			nn++
			e := &es[j]
			e.Key, e.KeyLine, e.KeyCol, e.Value = keys.get(text[f.k:f.kEnd]), line, int(f.kcol), v
		}
		items[n] = m
	}
	return items
}

// decimal is a counter kept as its decimal digits, so that the index of
// each item of a part is written without a division a digit.
type decimal struct {
	buf [20]byte
	at  int // the first digit in buf
}

// set makes d hold i ≥ 0.
func (d *decimal) set(i int) {
	d.at = len(d.buf)
	for {
		d.at--
		d.buf[d.at] = byte('0' + i%10)
		if i /= 10; i == 0 {
			return
		}
	}
}

// digits returns d's digits.
func (d *decimal) digits() []byte { return d.buf[d.at:] }

// inc adds one to d.
func (d *decimal) inc() {
	for i := len(d.buf) - 1; i >= d.at; i-- {
		if d.buf[i] != '9' {
			d.buf[i]++
			return
		}
		d.buf[i] = '0'
	}
	d.at--
	d.buf[d.at] = '1'
}

// flowKeys are the keys met so far, so that the items of a part share
// their key strings: every case of a list spells the same few keys.
type flowKeys []string

// get returns k, or an equal key met before: k is a substring of the
// part, which a key kept (a map's) must not hold on to.
func (ks *flowKeys) get(k string) string {
	for _, s := range *ks {
		if s == k {
			return s
		}
	}
	s := strings.Clone(k)
	if len(*ks) < 16 {
		*ks = append(*ks, s)
	}
	return s
}

// maxFlowFields bounds the keys of one line this reader reads; a line of
// more is the YAML parser's.
const maxFlowFields = 32

// The classes of flowClass: the bytes of a plain key, and of a plain word.
const (
	keyByte  = 1 << iota // letters, digits, _
	wordByte             // the key bytes, space . -
)

// flowClass holds the classes of each byte: one look-up a byte where the
// comparisons take a dozen.
var flowClass = func() (t [256]uint8) {
	for c := range 256 {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			t[c] |= keyByte | wordByte
		}
	}
	t[' '] |= wordByte
	t['.'] |= wordByte
	t['-'] |= wordByte
	return t
}()

// isFlowWord reports whether v, made of word bytes with no blank
// at its end, is plain text that YAML reads as a string: it starts with a
// letter and is none of YAML's words for booleans and null.
func isFlowWord(v []byte) bool {
	if len(v) == 0 || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
		return false
	}
	if len(v) > 5 {
		return true // longer than any of YAML's words
	}
	var low [5]byte
	for i, c := range v {
		low[i] = c | 0x20 // letters only matter: the words are letters
	}
	w := string(low[:len(v)])
	for _, y := range yamlWords {
		if w == y {
			return false
		}
	}
	return true
}

// yamlWords are the plain words YAML reads as booleans and null, in any case.
var yamlWords = [...]string{"true", "false", "null", "yes", "no", "on", "off", "y", "n", "inf", "nan"}
