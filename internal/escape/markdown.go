package escape

import (
	"strings"
	"unicode/utf8"
)

// MarkdownCell makes s safe in a cell of a Markdown table (GitHub, GitLab
// and Gitea job summaries and comments), as plain text:
//  1. line breaks become spaces, so the row stays one line;
//  2. the rest is escaped as Line does;
//  3. <, > and & become &lt;, &gt; and &amp;, so no HTML tag, comment
//     or entity is read;
//  4. a backslash and each character that ends the cell or starts markup
//     (| ` * _ [ ] ~ $) is escaped with a backslash, so no link, image,
//     emphasis, code span or formula is made;
//  5. what GitHub turns into a link or a notification after the Markdown
//     is read, and a backslash cannot stop, is broken by a zero-width
//     space, written &#8203;: after @ (a mention, which notifies the
//     person or team, and an e-mail address), after # and before the -
//     of GH-123 (a reference to an issue, which the issue records), after
//     the colon of :// and after www (a link made of a bare address).
func MarkdownCell(s string) string {
	s = Line(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
	return string(appendMarkup(make([]byte, 0, len(s)+8), s, false))
}

// HTML makes s safe as text inside HTML in Markdown (a <summary> of a job
// summary): escaped as Line does, then <, >, &, ', " and $ as entities,
// and rule 5 of MarkdownCell.
func HTML(s string) string {
	s = Line(s)
	return string(appendMarkup(make([]byte, 0, len(s)+8), s, true))
}

const zeroWidth = "&#8203;"

// appendMarkup appends s, escaped as MarkdownCell (html false) or HTML
// (html true) says.
func appendMarkup(b []byte, s string, html bool) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '<':
			b = append(b, "&lt;"...)
		case r == '>':
			b = append(b, "&gt;"...)
		case r == '&':
			b = append(b, "&amp;"...)
		case html && r == '\'':
			b = append(b, "&#39;"...)
		case html && r == '"':
			b = append(b, "&#34;"...)
		case html && r == '$':
			b = append(b, "&#36;"...) // a formula, should the page read one here
		case r == '@' || r == '#':
			b = append(b, byte(r))
			b = append(b, zeroWidth...)
		case r == ':' && strings.HasPrefix(s[i+1:], "//"):
			b = append(b, ':')
			b = append(b, zeroWidth...)
		case (r == 'w' || r == 'W') && len(s)-i >= 4 && strings.EqualFold(s[i:i+4], "www."):
			b = append(b, s[i:i+3]...)
			b = append(b, zeroWidth...)
			n = 3
		case (r == 'g' || r == 'G') && len(s)-i >= 4 && strings.EqualFold(s[i:i+3], "gh-") && s[i+3] >= '0' && s[i+3] <= '9':
			b = append(b, s[i:i+2]...)
			b = append(b, zeroWidth...)
			n = 2
		case !html && strings.ContainsRune("|\\`*_[]~$", r):
			b = append(b, '\\', byte(r))
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}
