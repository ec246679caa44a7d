package escape

import "strings"

// MarkdownCell makes s safe in a cell of a Markdown table (GitHub, GitLab
// and Gitea job summaries and comments), as plain text:
//  1. line breaks become spaces, so the row stays one line;
//  2. the rest is escaped as Line does;
//  3. <, > and & become &lt;, &gt; and &amp;, so no HTML tag, comment
//     or entity is read;
//  4. a backslash and each character that ends the cell or starts markup
//     (| ` * _ [ ] # ~ and @) is escaped with a backslash, so no link,
//     image, emphasis, code span or mention is made.
func MarkdownCell(s string) string {
	s = Line(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '|', '\\', '`', '*', '_', '[', ']', '#', '~', '@':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// HTML makes s safe as text inside HTML (a <summary> of a job summary):
// escaped as Line does, then <, >, &, ' and " as entities.
func HTML(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;", "'", "&#39;", `"`, "&#34;").Replace(Line(s))
}
