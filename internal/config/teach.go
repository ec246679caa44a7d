package config

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// A lesson is what a YAML syntax error means, in the words of the person
// who must fix it, at the place to fix.
type lesson struct {
	line, col int
	msg, hint string
}

// teach explains the YAML parser's error msg, reported at line:col of
// data, when it is one of the common mistakes; nil otherwise. The parser
// says "value is not allowed in this context" for most of them, and
// places it where it noticed the problem, which is not always the line to
// fix. So the mistakes are found in the text itself:
//  1. a tab in a line's indentation (YAML allows only spaces);
//  2. a key with no space after its colon ("threshold:0.5"), which YAML
//     reads as one word;
//  3. a line indented more than the key above it, whose value is already
//     given (it cannot be nested there);
//  4. a line indented less than the line above it but more than the key it
//     would line up with (between two levels);
//  5. a key lined up with the "-" of a list item, where only another item
//     can start;
//  6. a list item at the column of a key whose value is already given.
//
// A finding is used only when it is at or just after the place the parser
// reported: the parser has read everything before that place as valid.
func teach(data []byte, line, col int, msg string) *lesson {
	lines := splitLines(data)
	if strings.Contains(msg, "\t") || strings.Contains(msg, "tab") {
		if l := tabLesson(lines, line); l != nil {
			return l
		}
	}
	if strings.Contains(msg, "unexpected key name") {
		if l := colonLesson(lines, line); l != nil {
			return l
		}
	}
	if strings.Contains(msg, "not allowed in this context") || strings.Contains(msg, "non-map value") || strings.Contains(msg, "unexpected key name") {
		if l := indentLesson(lines); l != nil && l.line <= line+1 {
			return l
		}
	}
	return nil
}

// splitLines splits data into lines as YAML does: at \n, \r\n or a lone
// \r, the breaks dropped.
func splitLines(data []byte) []string {
	var out []string
	s := string(data)
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
}

// tabLesson finds the first tab in the indentation of a line up to the one
// after line (a "- " counts as indentation), else the first tab on line.
func tabLesson(lines []string, line int) *lesson {
	at := func(n, c int) *lesson {
		return &lesson{line: n, col: c, msg: fmt.Sprintf("YAML does not allow tabs for indentation; replace the tab at line %d col %d with spaces", n, c)}
	}
	for n := 1; n <= min(line+1, len(lines)); n++ {
		s := lines[n-1]
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c == '\t' {
				return at(n, i+1)
			}
			if c != ' ' && !(c == '-' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t')) {
				break
			}
		}
	}
	if line >= 1 && line <= len(lines) {
		if i := strings.IndexByte(lines[line-1], '\t'); i >= 0 {
			return at(line, i+1)
		}
	}
	return nil
}

// noSpace is compiled on first use: only a file that does not parse asks.
var noSpace = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(- +)?([A-Za-z_][A-Za-z0-9_.\-]*):([^\s:/].*)$`)
})

// colonLesson finds "key:value" on line.
func colonLesson(lines []string, line int) *lesson {
	if line < 1 || line > len(lines) {
		return nil
	}
	s := lines[line-1]
	rest := strings.TrimLeft(s, " ")
	m := noSpace().FindStringSubmatch(rest)
	if m == nil {
		return nil
	}
	col := len(s) - len(rest) + len(m[1]) + 1
	return &lesson{line: line, col: col,
		msg:  fmt.Sprintf("`%s:%s` has no space after its colon, so YAML reads it as one word, not as a key and its value", m[2], m[3]),
		hint: fmt.Sprintf("write `%s: %s`", m[2], m[3])}
}

// A level is an open block of the document: a mapping whose keys start at
// col, or a list whose "-" are at col (0-based).
type level struct {
	col  int
	list bool
	line int    // the line of its last key or item
	key  string // its last key (a mapping)
	// open says that its last key or item has no value on its line: the
	// next, deeper line gives it.
	open bool
}

func (l level) name() string {
	if l.list {
		return fmt.Sprintf("the `-` of the list item on line %d", l.line)
	}
	return fmt.Sprintf("`%s` (line %d)", l.key, l.line)
}

// A yamlLine is what a line of block YAML starts with.
type yamlLine struct {
	indent int
	dash   bool   // a list item
	keyCol int    // where its key starts, -1 without a key
	key    string // its key
	value  string // what follows the key's colon, or the item's "- "
}

// plainKey is compiled on first use, as noSpace.
var plainKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([^\s#'"\[\]{}&*!|>%@,?` + "`" + `-][^#]*?|-[^\s#]*?|"[^"]*"|'[^']*'):(?:\s+|$)`)
})

// readLine reads the start of a line's text after its indentation.
func readLine(indent int, s string) yamlLine {
	l := yamlLine{indent: indent, keyCol: -1, value: s}
	col := indent
	if s == "-" || strings.HasPrefix(s, "- ") {
		l.dash = true
		rest := strings.TrimLeft(s[1:], " ")
		col += len(s) - len(rest)
		s, l.value = rest, rest
	}
	if m := plainKey().FindStringSubmatch(s); m != nil {
		l.keyCol, l.key = col, strings.Trim(m[1], `"'`)
		l.value = strings.TrimSpace(s[len(m[0]):])
	}
	return l
}

// opens says whether a value leaves its key or item to the next lines.
func opens(v string) bool { return v == "" || strings.HasPrefix(v, "#") }

// indentLesson finds the first line whose indentation breaks the block
// structure of the lines above it (rules 3 to 6 of teach); nil when it
// finds none, or meets what it does not follow (flow collections or quoted
// text over several lines, complex keys, several documents).
func indentLesson(lines []string) *lesson {
	w := &indentWalk{lines: lines, scalarIndent: -1}
	for n := 1; n <= len(lines); n++ {
		raw := lines[n-1]
		text := strings.TrimLeft(raw, " ")
		indent := len(raw) - len(text)
		if w.skip(text, indent) {
			continue
		}
		if unfollowed(text) {
			return nil
		}
		l := readLine(indent, text)
		if v := l.value; strings.HasPrefix(v, "[") || strings.HasPrefix(v, "{") || strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'") {
			if !closed(v) {
				return nil // flow or quoted text over several lines
			}
		}
		ln := placed{n: n, indent: indent, text: text, line: l, popped: w.pop(indent)}
		var les *lesson
		var v verdict
		switch {
		case len(w.stack) == 0:
			les, v = ln.atStart()
		case w.top().col == indent:
			les, v = w.atLevel(ln)
		default:
			les, v = w.deeper(ln)
		}
		switch v {
		case stop:
			return les
		case inPlace:
			w.record(ln)
		}
	}
	return nil
}

// An indentWalk is the block structure of the lines read so far.
type indentWalk struct {
	lines        []string
	stack        []level
	scalarIndent int // a block scalar's lines are deeper than this; -1 outside one
}

// A placed line is one line of the walk: its number, indentation and text,
// what it holds, and the innermost level it closed (nil if none).
type placed struct {
	n, indent int
	text      string
	line      yamlLine
	popped    *level
}

// at returns the lesson msg with hint about the line.
func (p placed) at(msg, hint string) *lesson {
	return &lesson{line: p.n, col: p.indent + 1, msg: msg, hint: hint}
}

// A verdict says what a line does to the walk.
type verdict int

const (
	inPlace verdict = iota // the line fits: record it
	scalar                 // the line is part of a value: nothing to record
	stop                   // stop the walk with a lesson, or nil to give up
)

func (w *indentWalk) top() *level { return &w.stack[len(w.stack)-1] }

// skip says whether a line at indent holding text is blank, a comment, or
// part of the block scalar above it.
func (w *indentWalk) skip(text string, indent int) bool {
	if text == "" || strings.HasPrefix(text, "#") {
		return true
	}
	if w.scalarIndent >= 0 {
		if indent > w.scalarIndent {
			return true
		}
		w.scalarIndent = -1
	}
	return false
}

// unfollowed says whether text starts with what the walk does not follow:
// a tab, a document marker, a complex key or a list in a list on one line.
func unfollowed(text string) bool {
	return strings.HasPrefix(text, "\t") || strings.HasPrefix(text, "---") || strings.HasPrefix(text, "...") ||
		strings.HasPrefix(text, "? ") || strings.HasPrefix(text, "- -")
}

// pop closes the levels deeper than indent and returns the innermost of
// them, nil if none.
func (w *indentWalk) pop(indent int) *level {
	var popped *level
	for len(w.stack) > 0 && w.top().col > indent {
		p := *w.top()
		popped = &p
		w.stack = w.stack[:len(w.stack)-1]
	}
	return popped
}

// atStart judges a line when no level is open: only a line indented less
// than the file's first is wrong.
func (p placed) atStart() (*lesson, verdict) {
	if p.popped != nil {
		return p.at("this line is indented less than the first line of the file",
			fmt.Sprintf("line it up with %s at column %d", p.popped.name(), p.popped.col+1)), stop
	}
	return nil, inPlace
}

// atLevel judges a line at the column of the innermost level.
func (w *indentWalk) atLevel(p placed) (*lesson, verdict) {
	top := w.top()
	l := p.line
	switch {
	case l.dash && top.list:
	case l.dash && top.open:
		top.open = false // a list lined up with its key
		w.stack = append(w.stack, level{col: p.indent, list: true, line: p.n})
	case l.dash:
		return w.itemAtKey(p), stop
	case l.keyCol < 0:
		if lc := colonLesson(w.lines, p.n); lc != nil {
			return lc, stop
		}
		if top.list && len(p.text) > 1 && p.text[0] == '-' {
			return p.at(fmt.Sprintf("`%s` has no space after its `-`, so YAML reads it as one word, not as a list item", p.text),
				fmt.Sprintf("write `- %s`", p.text[1:])), stop
		}
		return nil, stop
	case !top.list:
	case len(w.stack) > 1 && w.stack[len(w.stack)-2].col == p.indent && !w.stack[len(w.stack)-2].list:
		w.stack = w.stack[:len(w.stack)-1] // the key after a list lined up with its key
	default:
		return w.keyAtList(p), stop
	}
	return nil, inPlace
}

// itemAtKey explains a list item at the column of a key whose value is
// already given.
func (w *indentWalk) itemAtKey(p placed) *lesson {
	top := w.top()
	hint := fmt.Sprintf("a list goes on the lines below a key that ends its line (`%s:`)", top.key)
	for i := len(w.stack) - 2; i >= 0; i-- {
		if w.stack[i].list {
			hint = fmt.Sprintf("for another item of the list on line %d, line its `-` up with column %d", w.stack[i].line, w.stack[i].col+1)
			break
		}
	}
	return p.at(fmt.Sprintf("this list item starts at the column of `%s` (line %d), a key whose value is already given", top.key, top.line), hint)
}

// keyAtList explains a key at the column of a list's `-`.
func (w *indentWalk) keyAtList(p placed) *lesson {
	hint := ""
	if p.popped != nil && !p.popped.list {
		hint = fmt.Sprintf("to give the item another key, line it up with `%s` at column %d", p.popped.key, p.popped.col+1)
	}
	for i := len(w.stack) - 2; i >= 0; i-- {
		if !w.stack[i].list {
			if hint != "" {
				hint += "; "
			}
			hint += fmt.Sprintf("for a key beside `%s`, line it up with it at column %d", w.stack[i].key, w.stack[i].col+1)
			break
		}
	}
	if hint == "" {
		hint = "a list cannot be beside keys at one level: indent it under a key that ends its line"
	}
	return p.at(fmt.Sprintf("this key is lined up with %s, where only another `- ` item can start", w.top().name()), hint)
}

// deeper judges a line deeper than the innermost level.
func (w *indentWalk) deeper(p placed) (*lesson, verdict) {
	top := w.top()
	l := p.line
	switch {
	case p.popped != nil:
		return p.at(fmt.Sprintf("this line is indented less than %s above it, and more than %s", p.popped.name(), top.name()),
			fmt.Sprintf("line it up with one of them: column %d or column %d", p.popped.col+1, top.col+1)), stop
	case top.open:
		top.open = false
		if l.keyCol < 0 && !l.dash {
			return nil, scalar // a scalar value on the lines below its key
		}
	case l.keyCol < 0 || l.dash:
		return nil, scalar // a plain scalar over several lines
	case top.list:
		return p.at(fmt.Sprintf("this line is indented more than %s above it, whose value is already given", top.name()),
			"to give the item keys, write the first after its `- ` and line the others up with it"), stop
	default:
		return p.at(fmt.Sprintf("this line is indented more than the key above it, `%s` (line %d), whose value is already given", top.key, top.line),
			fmt.Sprintf("did you mean to nest it under `%s`, whose value must then move below it, or to line it up with `%s` at column %d?", top.key, top.key, top.col+1)), stop
	}
	return nil, inPlace
}

// record adds a line that is in place to the structure: a level for a new
// column, its key or item, and the start of a block scalar.
func (w *indentWalk) record(p placed) {
	l := p.line
	if len(w.stack) == 0 || w.top().col < p.indent {
		w.stack = append(w.stack, level{col: p.indent, list: l.dash})
	}
	top := w.top()
	top.line = p.n
	if l.dash {
		top.open = l.keyCol < 0 && opens(l.value)
		if l.keyCol >= 0 {
			w.stack = append(w.stack, level{col: l.keyCol, line: p.n, key: l.key, open: opens(l.value)})
		}
	} else {
		top.key, top.open = l.key, opens(l.value)
	}
	if strings.HasPrefix(l.value, "|") || strings.HasPrefix(l.value, ">") {
		w.scalarIndent = p.indent
		if l.dash && l.keyCol >= 0 {
			w.scalarIndent = l.keyCol
		}
	}
}

// closed says whether a flow collection or a quoted string that starts v
// ends on the line.
func closed(v string) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				if quote == '\'' && i+1 < len(v) && v[i+1] == '\'' {
					i++
					continue
				}
				quote = 0
				if depth == 0 {
					return true
				}
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return true
			}
		}
	}
	return false
}
