// Package pyrepr reads the Python repr of JSON-like values: what str(dict)
// prints, which some tracers record instead of JSON.
package pyrepr

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse reads the Python repr of a JSON-like value — what str(dict)
// prints — into the JSON data model: dicts, lists and tuples, strings in
// either quote, ints of any size, floats, True, False and None. Dict keys
// that are not strings become their JSON text, as json.dumps writes them.
// Anything else (a set, a datetime(...), a trailing token) is an error.
func Parse(s string) (any, error) {
	p := &reprParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, errors.New("unexpected text after the value")
	}
	return v, nil
}

type reprParser struct {
	s string
	i int
}

var errRepr = errors.New("not a Python literal")

func (p *reprParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *reprParser) value(depth int) (any, error) {
	if depth > 1000 {
		return nil, errors.New("nested too deep")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errRepr
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return m, nil
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, errRepr
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			switch k := k.(type) {
			case string:
				m[k] = v
			case json.Number:
				m[string(k)] = v
			case bool:
				m[strconv.FormatBool(k)] = v
			case nil:
				m["null"] = v
			default:
				return nil, errRepr
			}
			if !p.sep('}') {
				return nil, errRepr
			}
		}
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.i++
		l := []any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				return l, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
			if !p.sep(end) {
				return nil, errRepr
			}
		}
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		j := p.i + 1
		for j < len(p.s) && strings.IndexByte("0123456789.eE+-_", p.s[j]) >= 0 {
			j++
		}
		t := strings.ReplaceAll(p.s[p.i:j], "_", "")
		t = strings.TrimPrefix(t, "+")
		if strings.HasPrefix(t, ".") || strings.HasPrefix(t, "-.") {
			t = strings.Replace(t, ".", "0.", 1)
		}
		if strings.HasSuffix(t, ".") {
			t += "0"
		}
		if !json.Valid([]byte(t)) {
			return nil, errRepr
		}
		p.i = j
		return json.Number(t), nil
	}
	for _, w := range []struct {
		word string
		v    any
	}{{"True", true}, {"False", false}, {"None", nil}} {
		if strings.HasPrefix(p.s[p.i:], w.word) {
			p.i += len(w.word)
			return w.v, nil
		}
	}
	return nil, errRepr
}

// sep reads a comma, or sees the closing bracket.
func (p *reprParser) sep(end byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ',' {
		p.i++
		return true
	}
	return p.i < len(p.s) && p.s[p.i] == end
}

func (p *reprParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return "", errRepr
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "", errRepr
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case c == '\n':
			return "", errRepr
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", errRepr
}
