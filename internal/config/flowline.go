package config

import (
	"bytes"
	"strconv"
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
// give (FuzzParseList holds the two to each other).
func flowLines(file string, part []byte, base, indent int, key string, first, want int) ([]*Node, bool) {
	items := make([]*Node, 0, want)
	var keys flowKeys
	line := base
	for len(part) > 0 {
		line++
		end := bytes.IndexByte(part, '\n')
		if end < 0 {
			end = len(part)
		}
		text := part[:end]
		part = part[min(end+1, len(part)):]
		if len(items) == want {
			return nil, false
		}
		n, ok := flowLine(file, text, line, indent, key, first+len(items), &keys)
		if !ok {
			return nil, false
		}
		items = append(items, n)
	}
	return items, len(items) == want
}

// flowKeys are the keys met so far, so that the items of a part share
// their key strings: every case of a list spells the same few keys.
type flowKeys []string

// get returns k as a string, one met before if there is one.
func (ks *flowKeys) get(k []byte) string {
	for _, s := range *ks {
		if s == string(k) {
			return s
		}
	}
	s := string(k)
	if len(*ks) < 16 {
		*ks = append(*ks, s)
	}
	return s
}

// flowLine converts one line "- {k: v, ...}", item i of the list at path
// list, at the given indentation. The item's nodes are one allocation and
// their paths one string: most items are read, placed and dropped.
func flowLine(file string, text []byte, line, indent int, list string, i int, keys *flowKeys) (*Node, bool) {
	for i := range indent {
		if i >= len(text) || text[i] != ' ' {
			return nil, false
		}
	}
	rest, ok := bytes.CutPrefix(text[indent:], []byte("- {"))
	if !ok {
		return nil, false
	}
	rest = bytes.TrimRight(rest, " ")
	inner, ok := bytes.CutSuffix(rest, []byte("}"))
	if !ok || len(inner) == 0 {
		return nil, false
	}
	// The fields, checked before anything is allocated.
	type field struct {
		k, v       []byte
		kcol, vcol int
	}
	var buf [8]field
	fields := buf[:0]
	col := indent + 4 // the column of inner's first byte
	for len(inner) > 0 {
		f := inner
		next := len(inner)
		if i := bytes.IndexByte(inner, ','); i >= 0 {
			f, next = inner[:i], i+1
			if len(bytes.TrimLeft(inner[next:], " ")) == 0 {
				return nil, false // a trailing comma: the parser's to judge
			}
		}
		lead := len(f) - len(bytes.TrimLeft(f, " "))
		f = bytes.TrimRight(f[lead:], " ")
		k, v, ok := bytes.Cut(f, []byte(": "))
		if !ok || !isFlowKey(k) {
			return nil, false
		}
		vlead := len(v) - len(bytes.TrimLeft(v, " "))
		v = v[vlead:]
		if !isFlowWord(v) {
			return nil, false
		}
		for _, g := range fields {
			if bytes.Equal(g.k, k) {
				return nil, false // the parser's error, not ours
			}
		}
		kcol := col + lead
		fields = append(fields, field{k: k, v: v, kcol: kcol, vcol: kcol + len(k) + 2 + vlead})
		col += next
		inner = inner[next:]
	}
	if len(fields) == 0 {
		return nil, false
	}
	// The paths: the item's, then each value's, in one string.
	var pb strings.Builder
	idx := strconv.Itoa(i)
	size := (len(list) + len(idx) + 2) * (1 + len(fields))
	for _, f := range fields {
		size += 1 + len(f.k)
	}
	pb.Grow(size)
	item := func() { pb.WriteString(list); pb.WriteByte('['); pb.WriteString(idx); pb.WriteByte(']') }
	item()
	ends := make([]int, 0, len(buf)+1)
	ends = append(ends, pb.Len())
	for _, f := range fields {
		item()
		pb.WriteByte('.')
		pb.Write(f.k)
		ends = append(ends, pb.Len())
	}
	paths := pb.String()
	nodes := make([]Node, 1+len(fields))
	n := &nodes[0]
	*n = Node{Kind: Map, File: file, Line: line, Col: fields[0].kcol, Path: paths[:ends[0]], size: 1 + len(fields), Entries: make([]Entry, len(fields))}
	for j, f := range fields {
		v := &nodes[1+j]
		*v = Node{Kind: String, Text: string(f.v), File: file, Line: line, Col: f.vcol, Path: paths[ends[j]:ends[j+1]], size: 1, TextCol: f.vcol}
		n.Entries[j] = Entry{Key: keys.get(f.k), KeyLine: line, KeyCol: f.kcol, Value: v}
	}
	return n, true
}

// isFlowKey reports whether k is a plain key of letters, digits and
// underscores, not starting with a digit.
func isFlowKey(k []byte) bool {
	if len(k) == 0 || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isFlowWord reports whether v is plain text that YAML reads as a string:
// it starts with a letter, holds only letters, digits, spaces and _ . -,
// and is none of YAML's words for booleans and null.
func isFlowWord(v []byte) bool {
	if len(v) == 0 || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') || v[len(v)-1] == ' ' {
		return false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	if len(v) > 5 {
		return true // longer than any of YAML's words
	}
	for _, w := range yamlWords {
		if bytes.EqualFold(v, []byte(w)) {
			return false
		}
	}
	return true
}

// yamlWords are the plain words YAML reads as booleans and null, in any case.
var yamlWords = [...]string{"true", "false", "null", "yes", "no", "on", "off", "y", "n", "inf", "nan"}
