package config

import (
	"bytes"
	"strconv"
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
		n, ok := flowLine(file, text, line, indent, key+"["+strconv.Itoa(first+len(items))+"]")
		if !ok {
			return nil, false
		}
		items = append(items, n)
	}
	return items, len(items) == want
}

// flowLine converts one line "- {k: v, ...}" at the given indentation.
func flowLine(file string, text []byte, line, indent int, path string) (*Node, bool) {
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
	col := indent + 4 // the column of inner's first byte
	n := &Node{Kind: Map, File: file, Line: line, Path: path, size: 1}
	for len(inner) > 0 {
		field := inner
		next := len(inner)
		if i := bytes.IndexByte(inner, ','); i >= 0 {
			field, next = inner[:i], i+1
			if len(bytes.TrimLeft(inner[next:], " ")) == 0 {
				return nil, false // a trailing comma: the parser's to judge
			}
		}
		lead := len(field) - len(bytes.TrimLeft(field, " "))
		field = bytes.TrimRight(field[lead:], " ")
		k, v, ok := bytes.Cut(field, []byte(": "))
		if !ok || !isFlowKey(k) {
			return nil, false
		}
		vlead := len(v) - len(bytes.TrimLeft(v, " "))
		v = v[vlead:]
		if !isFlowWord(v) {
			return nil, false
		}
		key := string(k)
		for _, e := range n.Entries {
			if e.Key == key {
				return nil, false // the parser's error, not ours
			}
		}
		kcol := col + lead
		vcol := kcol + len(k) + 2 + vlead
		if len(n.Entries) == 0 {
			n.Col = kcol
		}
		n.Entries = append(n.Entries, Entry{Key: key, KeyLine: line, KeyCol: kcol,
			Value: &Node{Kind: String, Text: string(v), File: file, Line: line, Col: vcol, Path: join(path, key), size: 1, TextCol: vcol}})
		n.size++
		col += next
		inner = inner[next:]
	}
	return n, len(n.Entries) > 0
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
	switch string(bytes.ToLower(v)) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n", "inf", "nan":
		return false
	}
	return true
}
