package pylit

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDepth bounds nesting, as Python's parser does (it stops at 200
// parentheses).
const maxDepth = 200

type parser struct {
	s     string
	i     int
	calls bool // BFCL's argument rules (see ParseCalls)
}

func newParser(src string, calls bool) (*parser, error) {
	p := &parser{s: src, calls: calls}
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return nil, p.errAt(i, "the text is not UTF-8", "")
	}
	return p, nil
}

func (p *parser) errAt(off int, msg, hint string) *SyntaxError {
	line, col := Locate(p.s, off)
	return &SyntaxError{Line: line, Col: col, Offset: off, Msg: msg, Hint: hint}
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// space skips whitespace, newlines, comments and backslash continuations.
func (p *parser) space() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case c == '\\' && (strings.HasPrefix(p.s[p.i+1:], "\n") || strings.HasPrefix(p.s[p.i+1:], "\r\n")):
			p.i += 2
		default:
			return
		}
	}
}

// end checks that nothing but space follows.
func (p *parser) end() error {
	p.space()
	if p.i < len(p.s) {
		return p.errAt(p.i, "unexpected "+p.describe()+" after the end", "")
	}
	return nil
}

// describe names what is at p.i, for messages.
func (p *parser) describe() string {
	if p.i >= len(p.s) {
		return "the end of the text"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	if name, ok := p.peekIdent(); ok {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%q", r)
}

// seq reads elements separated by commas up to end (a trailing comma is
// allowed); the opening bracket is just before p.i.
func (p *parser) seq(end byte, what string, elem func() error) error {
	open := p.i - 1
	for {
		p.space()
		if p.i >= len(p.s) {
			return p.errAt(open, fmt.Sprintf("%q is never closed", p.s[open]), fmt.Sprintf("add %q at the end", end))
		}
		if p.peek() == end {
			p.i++
			return nil
		}
		if err := elem(); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case end:
			p.i++
			return nil
		default:
			if p.i >= len(p.s) {
				return p.errAt(open, fmt.Sprintf("%q is never closed", p.s[open]), fmt.Sprintf("add %q at the end", end))
			}
			return p.errAt(p.i, fmt.Sprintf("expected ',' or %q after the %s, found %s", end, what, p.describe()), "separate the elements with commas")
		}
	}
}

// value reads one value and refuses an operator after it.
func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errAt(p.i, "nested too deep", "")
	}
	p.space()
	v, err := p.atom(depth)
	if err != nil {
		return nil, err
	}
	p.space()
	if c := p.peek(); c != 0 && strings.IndexByte("+-*/%@<>=!&|^~[.(", c) >= 0 {
		hint := "only literals are read: write the value itself"
		if c == '=' && !strings.HasPrefix(p.s[p.i:], "==") {
			hint = "a keyword argument's name is a plain name"
		}
		return nil, p.errAt(p.i, fmt.Sprintf("%q after a value: expressions are not evaluated", c), hint)
	}
	return v, nil
}

func (p *parser) atom(depth int) (any, error) {
	start := p.i
	switch c := p.peek(); {
	case c == 0:
		return nil, p.errAt(p.i, "expected a value, found the end of the text", "")
	case c == '[':
		p.i++
		l := []any{}
		err := p.seq(']', "list element", func() error {
			v, err := p.value(depth + 1)
			l = append(l, v)
			return err
		})
		return l, err
	case c == '(':
		return p.paren(depth)
	case c == '{':
		return p.brace(depth)
	case c == '\'' || c == '"':
		return p.strings()
	case strings.HasPrefix(p.s[p.i:], "..."):
		if !p.calls {
			return nil, p.errAt(p.i, "... (Ellipsis) has no JSON form", "")
		}
		p.i += 3
		return "...", nil
	case c >= '0' && c <= '9' || c == '.' && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]):
		return p.number("")
	case c == '-' || c == '+':
		if c == '+' && p.calls {
			return nil, p.errAt(p.i, "a unary + is not read", "BFCL's decoder reads +5 as -5: write 5")
		}
		p.i++
		p.space()
		if d := p.peek(); !(d >= '0' && d <= '9' || d == '.' && p.i+1 < len(p.s) && isDigit(p.s[p.i+1])) {
			return nil, p.errAt(start, fmt.Sprintf("a sign before %s: only a number takes one", p.describe()), "")
		}
		sign := ""
		if c == '-' {
			sign = "-"
		}
		return p.number(sign)
	}
	name, ok := p.peekIdent()
	if !ok {
		return nil, p.errAt(p.i, "expected a value, found "+p.describe(), "")
	}
	if len(name) <= 2 && p.i+len(name) < len(p.s) && (p.s[p.i+len(name)] == '\'' || p.s[p.i+len(name)] == '"') {
		return p.strings()
	}
	switch name {
	case "True", "False", "None":
		p.i += len(name)
		return map[string]any{"True": true, "False": false, "None": nil}[name], nil
	}
	if slices.Contains(keywords, name) {
		return nil, p.errAt(p.i, fmt.Sprintf("%q is a Python keyword, not a value", name), "")
	}
	if !p.calls {
		return nil, p.errAt(p.i, fmt.Sprintf("%s is a name, not a literal", name), fmt.Sprintf("quote it: '%s'", name))
	}
	dotted, _ := p.dotted()
	p.space()
	if p.peek() == '(' {
		c, err := p.arguments(dotted, start, depth+1)
		if err != nil {
			return nil, err
		}
		if len(c.Args) == 0 {
			return p.s[start:p.i], nil
		}
		return map[string]any{c.Name: c.Args}, nil
	}
	if strings.Contains(dotted, ".") {
		return nil, p.errAt(start, fmt.Sprintf("an attribute (%s) is not read", dotted), fmt.Sprintf("quote it: '%s'", dotted))
	}
	return name, nil
}

// paren reads a tuple, or a value in parentheses.
func (p *parser) paren(depth int) (any, error) {
	p.i++
	p.space()
	if p.peek() == ')' {
		p.i++
		return p.tuple([]any{}), nil
	}
	first, err := p.value(depth + 1)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.peek() == ')' {
		p.i++
		return first, nil
	}
	if p.peek() != ',' {
		if p.i >= len(p.s) {
			return nil, p.errAt(p.i, "'(' is never closed", "add ')' at the end")
		}
		return nil, p.errAt(p.i, "expected ',' or ')' after the tuple element, found "+p.describe(), "separate the elements with commas")
	}
	p.i++
	l := []any{first}
	err = p.seq(')', "tuple element", func() error {
		v, err := p.value(depth + 1)
		l = append(l, v)
		return err
	})
	return p.tuple(l), err
}

// tuple is a tuple's value: a list, or under BFCL's rules a [Tuple].
func (p *parser) tuple(l []any) any {
	if p.calls {
		return Tuple(l)
	}
	return l
}

// brace reads a dict, and refuses a set.
func (p *parser) brace(depth int) (any, error) {
	open := p.i
	p.i++
	m := map[string]any{}
	p.space()
	if p.peek() == '}' {
		p.i++
		return m, nil
	}
	p.i = open + 1
	err := p.seq('}', "dict item", func() error {
		if strings.HasPrefix(p.s[p.i:], "**") {
			return p.errAt(p.i, "**mapping in a dict is not read", "write the items")
		}
		at := p.i
		k, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		p.space()
		if p.peek() != ':' {
			if p.peek() == ',' || p.peek() == '}' {
				return p.errAt(open, "a set has no JSON form", "write a list [...] instead")
			}
			return p.errAt(p.i, "expected ':' after the dict key, found "+p.describe(), "")
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		key, err := p.key(at, k)
		if err != nil {
			return err
		}
		m[key] = v
		return nil
	})
	return m, err
}

// key turns a dict key into an object key, as json.dumps does.
func (p *parser) key(at int, k any) (string, error) {
	switch k := k.(type) {
	case string:
		return k, nil
	case bool:
		return fmt.Sprint(k), nil
	case nil:
		return "null", nil
	case fmt.Stringer: // json.Number
		return k.String(), nil
	}
	return "", p.errAt(at, "a dict key must be a string, a number, a boolean or None", "")
}

// keywords are Python's reserved words other than True, False and None.
var keywords = []string{"and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"}

// peekIdent returns the identifier at p.i, if any, without reading it.
func (p *parser) peekIdent() (string, bool) {
	j := p.i
	for j < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[j:])
		if !(r == '_' || unicode.IsLetter(r) || j > p.i && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc))) {
			break
		}
		j += n
	}
	return p.s[p.i:j], j > p.i
}

// ident reads an identifier that is not a keyword.
func (p *parser) ident() (string, bool) {
	name, ok := p.peekIdent()
	if !ok || slices.Contains(keywords, name) || name == "True" || name == "False" || name == "None" {
		return "", false
	}
	p.i += len(name)
	return name, true
}

// dotted reads a name or a dotted path of names.
func (p *parser) dotted() (string, bool) {
	name, ok := p.ident()
	if !ok {
		return "", false
	}
	for {
		save := p.i
		p.space()
		if p.peek() != '.' {
			p.i = save
			return name, true
		}
		p.i++
		p.space()
		next, ok := p.ident()
		if !ok {
			p.i = save
			return name, true
		}
		name += "." + next
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
