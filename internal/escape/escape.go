// Package escape makes untrusted text (a case id, a tool name, an agent's
// error, a trace's content) safe to show to people: on a terminal, in a
// log, in a CI page. What a terminal would act on rather than show
// (ESC starts the sequences that clear the screen, set the window title or
// write the clipboard), and what reorders the text around it, is written
// as a visible escape instead.
//
// Text and Line write s unchanged but for these:
//  1. the C0 control characters U+0000–U+001F and DEL (U+007F) become
//     \xHH, e.g. ESC as \x1b and a carriage return as \x0d; Text keeps
//     newline and tab (a field of several lines), Line escapes them too
//     (a field that must stay on its line);
//  2. the C1 control characters U+0080–U+009F become \u0080 … \u009f;
//  3. the bidirectional embeddings, overrides and isolates U+202A–U+202E
//     and U+2066–U+2069, which reorder the text that follows them, become
//     \u202a … \u2069;
//  4. each byte that is not part of valid UTF-8 becomes \xHH (80 to ff,
//     so never read as a control character);
//  5. what a CI runner reads as a command rather than a line of its log
//     is broken with an escape of its first character: a colon that
//     starts a line (after nothing but white space) and is followed by
//     another or ends the text becomes \x3a, so that ::add-mask::x shows
//     as \x3a:add-mask::x; the first # of ##[ becomes \x23, wherever it
//     stands (GitHub Actions reads ::command:: after leading white space,
//     and the older ##[command] anywhere in a line);
//  6. a backslash is doubled when what follows it would read as an escape
//     (a backslash, x, u, or a character rule 1 to 5 escapes), so that
//     every escaped text reads back one way; any other backslash is left
//     alone, so that C:\Users\me reads as itself.
//
// Rule 5 looks at the text alone: a field printed at the start of a line,
// or after white space, cannot begin a command, and a colon alone at its
// end cannot make one with the next field's.
//
// Text with nothing to escape is returned as it is, without a copy.
//
// A [Writer] escapes as Text does all that is written through it
// (standard error, where warnings and errors quote traces). [MarkdownCell]
// and [HTML] escape as Line does, then what Markdown and HTML would read
// as markup.
//
// Colours and other sequences trajeval writes itself are added after the
// escaping, or written to the writer under a Writer (see [Raw]).
package escape

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text escapes s for a field of several lines: newline and tab are kept.
func Text(s string) string { return escape(s, true) }

// Line escapes s for a field that must stay on its line: newline and tab
// are escaped too.
func Line(s string) string { return escape(s, false) }

func escape(s string, lines bool) string {
	if !needed(s, lines) {
		return s
	}
	return string(appendEscaped(make([]byte, 0, len(s)+16), s, lines))
}

// needed reports whether s holds anything to escape: a control or bidi
// character, invalid UTF-8, or a backslash (which may need doubling). It
// looks at bytes: C1 characters are C2 80 to C2 9F in UTF-8, the bidi
// ones E2 80 AA to E2 80 AE and E2 81 A6 to E2 81 A9.
func needed(s string, lines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !suspect[c] {
			continue
		}
		switch {
		case c == '\\' || c == 0x7f:
			return true
		case c == ':' || c == '#':
			if command(s, i) {
				return true
			}
		case c < 0x20:
			if !lines || (c != '\n' && c != '\t') {
				return true
			}
		case c == 0xc2:
			if i+1 < len(s) && s[i+1] <= 0x9f {
				return true // 80 to 9f; below 80 is invalid, and escaped too
			}
		case c == 0xe2:
			if i+2 < len(s) && (s[i+1] == 0x80 && s[i+2] >= 0xaa && s[i+2] <= 0xae ||
				s[i+1] == 0x81 && s[i+2] >= 0xa6 && s[i+2] <= 0xa9) {
				return true
			}
		}
	}
	return !utf8.ValidString(s)
}

// suspect marks the bytes needed looks at closer.
var suspect = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['\\'], t[0x7f], t[0xc2], t[0xe2], t[':'], t['#'] = true, true, true, true, true, true
	return t
}()

// command reports whether the ':' or '#' at s[i] starts what a CI runner
// reads as a command (rule 5).
func command(s string, i int) bool {
	if s[i] == '#' {
		return strings.HasPrefix(s[i:], "##[")
	}
	if i+1 < len(s) && s[i+1] != ':' {
		return false
	}
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if r == '\n' {
			return true
		}
		if !blank(r) { // an invalid byte decodes as U+FFFD, not blank
			return false
		}
		i -= n
	}
	return true
}

// blank reports whether r is white space as a runner trims it (.NET's
// Char.IsWhiteSpace), or a character that shows as nothing.
func blank(r rune) bool {
	return unicode.IsSpace(r) || r == 0x180e || r == 0x200b || r == 0xfeff
}

// control reports whether r is escaped by rules 1 to 3.
func control(r rune, lines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !lines
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

const hex = "0123456789abcdef"

// appendEscaped appends s to b, escaped.
func appendEscaped(b []byte, s string, lines bool) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, '\\', 'x', hex[s[i]>>4], hex[s[i]&0xf])
		case r == '\\':
			b = append(b, '\\')
			if escapes(s[i+1:], lines) {
				b = append(b, '\\')
			}
		case r < utf8.RuneSelf && (control(r, lines) || (r == ':' || r == '#') && command(s, i)):
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		case control(r, lines):
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}

// escapes reports whether s, written after a backslash, would make it
// read as the start of an escape (rule 6). A colon after a backslash
// starts no line, and is never escaped.
func escapes(s string, lines bool) bool {
	if s == "" {
		return false
	}
	r, n := utf8.DecodeRuneInString(s)
	return r == '\\' || r == 'x' || r == 'u' || (r == utf8.RuneError && n == 1) || control(r, lines) || r == '#' && command(s, 0)
}

// A Writer escapes what it writes as Text does. Each Write is escaped on
// its own: a character split across two writes is escaped as invalid
// UTF-8, so write whole messages (fmt.Fprintln does).
// It is safe for concurrent use when the writer under it is.
type Writer struct{ w io.Writer }

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p escaped, and returns len(p) when all of it was written.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	if !needed(s, true) {
		return w.w.Write(p)
	}
	if _, err := w.w.Write(appendEscaped(nil, s, true)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Raw returns the writer under w when w is a Writer, else w: for what
// must reach it as it is (the control sequences of the progress bar
// trajeval draws itself, the test for a terminal).
func Raw(w io.Writer) io.Writer {
	if e, ok := w.(*Writer); ok {
		return e.w
	}
	return w
}
