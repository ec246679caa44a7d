package pylit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// strings reads one string literal and those adjacent to it, joined.
func (p *parser) strings() (string, error) {
	var b strings.Builder
	for {
		if err := p.str(&b); err != nil {
			return "", err
		}
		save := p.i
		p.space()
		if !p.atString() {
			p.i = save
			return b.String(), nil
		}
	}
}

// atString reports whether a string literal (with any prefix) starts at p.i.
func (p *parser) atString() bool {
	j := p.i
	for j < len(p.s) && j-p.i < 3 && strings.IndexByte("rRuUbBfFtT", p.s[j]) >= 0 {
		j++
	}
	return j < len(p.s) && (p.s[j] == '\'' || p.s[j] == '"')
}

// str reads one string literal, its prefix included, onto b.
func (p *parser) str(b *strings.Builder) error {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != '\'' && p.s[p.i] != '"' {
		p.i++
	}
	prefix := strings.ToLower(p.s[start:p.i])
	raw := false
	switch prefix {
	case "", "u":
	case "r":
		raw = true
	default:
		if strings.ContainsAny(prefix, "b") {
			return p.errAt(start, "bytes ("+p.s[start:p.i]+"'...') have no JSON form", "write a str: drop the b")
		}
		if strings.ContainsAny(prefix, "ft") {
			return p.errAt(start, "an f-string or t-string is not a literal", "write the text it gives")
		}
		return p.errAt(start, fmt.Sprintf("unknown string prefix %s", p.s[start:p.i]), "")
	}
	q := p.s[p.i : p.i+1]
	if strings.HasPrefix(p.s[p.i:], q+q+q) {
		q += q + q
	}
	p.i += len(q)
	for {
		if p.i >= len(p.s) {
			return p.errAt(start, "the string is never closed", "close it with "+q)
		}
		if strings.HasPrefix(p.s[p.i:], q) {
			p.i += len(q)
			return nil
		}
		c := p.s[p.i]
		switch {
		case c == '\n' && len(q) == 1:
			return p.errAt(p.i, "a line break inside a "+q+"...", "write \\n, or use triple quotes")
		case c == '\\' && raw:
			// A raw string keeps the backslash and what follows, and the
			// quote after a backslash does not close it.
			b.WriteByte(c)
			p.i++
			if p.i < len(p.s) {
				_, n := utf8.DecodeRuneInString(p.s[p.i:])
				b.WriteString(p.s[p.i : p.i+n])
				p.i += n
			}
		case c == '\\':
			if err := p.escape(b); err != nil {
				return err
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

// escape reads the escape sequence at p.i (a backslash) onto b.
func (p *parser) escape(b *strings.Builder) error {
	at := p.i
	p.i++
	if p.i >= len(p.s) {
		return p.errAt(at, "the string is never closed", "")
	}
	e := p.s[p.i]
	p.i++
	switch e {
	case '\n':
	case '\r':
		if p.peek() == '\n' {
			p.i++
		}
	case '\\', '\'', '"':
		b.WriteByte(e)
	case 'a':
		b.WriteByte('\a')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j := p.i
		for j < len(p.s) && j-p.i < 2 && p.s[j] >= '0' && p.s[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint(p.s[p.i-1:j], 8, 32)
		p.i = j
		b.WriteRune(rune(n))
	case 'x', 'u', 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		hex := p.s[p.i:min(p.i+n, len(p.s))]
		r, err := strconv.ParseUint(hex, 16, 32)
		if len(hex) < n || err != nil || strings.ContainsAny(hex, "+-_") {
			return p.errAt(at, fmt.Sprintf("truncated \\%c escape: it takes %d hex digits", e, n), "")
		}
		if r > utf8.MaxRune {
			return p.errAt(at, fmt.Sprintf("\\%c%s is not a Unicode character", e, hex), "")
		}
		if r >= 0xD800 && r <= 0xDFFF {
			return p.errAt(at, fmt.Sprintf("\\%c%s is a lone surrogate, which has no UTF-8 form", e, hex), "write the character itself")
		}
		p.i += n
		b.WriteRune(rune(r))
	case 'N':
		return p.errAt(at, "\\N{name} escapes are not read", "write the character itself, or \\u and its code")
	default:
		// Python keeps an unknown escape as it is.
		b.WriteByte('\\')
		p.i--
	}
	return nil
}
