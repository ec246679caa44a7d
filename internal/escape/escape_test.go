package escape_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/escape"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
		reason         string
	}{
		{"plain", "refund-policy ✓ é", "refund-policy ✓ é", "printable text, ASCII or not, is shown as it is"},
		{"window title", "a\x1b]0;pwned\x07b", `a\x1b]0;pwned\x07b`, "OSC 0 would set the terminal's title"},
		{"clear screen", "\x1b[2J", `\x1b[2J`, "CSI 2J would clear the screen"},
		{"clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", `\x1b]52;c;cm0gLXJmIH4=\x07`, "OSC 52 would write the clipboard"},
		{"lines kept", "one\n\ttwo", "one\n\ttwo", "Text is for fields of several lines"},
		{"carriage return", "ok\rFAIL", `ok\x0dFAIL`, "a carriage return would overwrite what the line showed"},
		{"DEL", "a\x7fb", `a\x7fb`, "DEL is a control character"},
		{"C1", "a\u009b2Jb", `a\u009b2Jb`, "U+009B is the one-character CSI of 8-bit terminals"},
		{"bidi override", "safe\u202egnp.exe", `safe\u202egnp.exe`, "RLO would show the name reversed"},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`, "isolates reorder text as overrides do"},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`, "each invalid byte is shown, never a guessed character"},
		{"replacement character", "a\uFFFDb", "a\uFFFDb", "a real U+FFFD is valid text"},
		{"windows path", `C:\Users\me`, `C:\Users\me`, "a backslash that starts no escape is left alone"},
		{"backslash x", `C:\xyz`, `C:\\xyz`, `\x would read as an escape`},
		{"backslash before escape", "\\\x1b", `\\\x1b`, "the backslash before an escaped character is doubled"},
		{"escape-like text", `\x1b`, `\\x1b`, "text that reads as an escape is told apart from one"},
		{"double backslash", `\\`, `\\\`, "only a backslash followed by one is doubled: the last is alone"},
		{"trailing backslash", `a\`, `a\`, "nothing follows it"},
		{"empty", "", "", ""},
		{"workflow command", "::add-mask::PASS", `\x3a:add-mask::PASS`, "GitHub Actions would hide PASS from the log"},
		{"workflow command on a later line", "ok\n::error file=a.go::fake\n", "ok\n\\x3a:error file=a.go::fake\n", "each line of a field is a line of the log"},
		{"workflow command after spaces", "  \t::stop-commands::x", "  \t\\x3a:stop-commands::x", "the runner trims leading white space"},
		{"workflow command after Unicode spaces", "\u00a0\u2003\u2028\u3000::warning::x", "\u00a0\u2003\u2028\u3000\\x3a:warning::x", "and Unicode's white space too"},
		{"colon alone at the end", "  :", `  \x3a`, "the next field may start with a colon"},
		{"colons mid-line", "std::vector a::b", "std::vector a::b", "only the start of a line reads as a command"},
		{"colon after text", "x\n a::b\n:x", "x\n a::b\n:x", "a single colon starts no command"},
		{"legacy command", "tool ##[add-mask]PASS", `tool \x23#[add-mask]PASS`, "##[command] is read anywhere in a line"},
		{"legacy command, hashes before", "###[error]x", `#\x23#[error]x`, "no ##[ is left"},
		{"hashes", "C# ## #[x]", "C# ## #[x]", "only ##[ reads as a command"},
		{"backslash before a command", `\##[error]`, `\\\x23#[error]`, "the backslash before an escape is doubled"},
		{"backslash before colons", "\\::x", "\\::x", "a line that starts with a backslash starts no command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escape.Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
			}
			if back := unescape(escape.Text(tt.in)); back != tt.in {
				t.Errorf("reading back Text(%q) gives %q", tt.in, back)
			}
		})
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		name, in, want string
		reason         string
	}{
		{"newline", "case\nPASS fake", `case\x0aPASS fake`, "a single-line field cannot start a line of its own"},
		{"tab", "a\tb", `a\x09b`, "a tab would shift the columns after it"},
		{"backslash before newline", "a\\\nb", `a\\\x0ab`, "the newline is escaped, so the backslash before it is doubled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escape.Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
			}
			if back := unescape(escape.Line(tt.in)); back != tt.in {
				t.Errorf("reading back Line(%q) gives %q", tt.in, back)
			}
		})
	}
}

func TestText_everyOffset(t *testing.T) {
	// What is to be escaped is found wherever it stands in a longer text
	// (a faster scan that looks at several bytes at once must keep this);
	// the bytes next to those that are escaped are shown as they are.
	escaped := []struct{ s, reason string }{
		{"\x1b", "a control character"},
		{"\x00", "the lowest control character"},
		{"\x1f", "the highest control character"},
		{"\x7f", "DEL"},
		{`\x`, "a backslash before x"},
		{"\u0080", "a C1 character"},
		{"\u009f", "the last C1 character"},
		{"\u202e", "a bidi override"},
		{"\xff", "a byte that is not UTF-8"},
		{"\xc3", "a truncated character"},
	}
	kept := []struct{ s, reason string }{
		{" ", "0x20, the first printable byte"},
		{"~", "0x7e, the last printable ASCII byte"},
		{"[]", "0x5b and 0x5d, beside the backslash"},
		{"é✓", "valid UTF-8 beyond ASCII"},
		{"\u00a0", "the first character after the C1 block"},
		{"\u202f", "the character after the bidi overrides"},
	}
	for at := range 20 {
		for _, tt := range escaped {
			s := strings.Repeat("a", at) + tt.s + strings.Repeat("b", 20-at)
			if got := escape.Text(s); got == s {
				t.Errorf("Text(%q) left %s at byte %d unescaped", s, tt.reason, at)
			}
		}
		for _, tt := range kept {
			s := strings.Repeat("a", at) + tt.s + strings.Repeat("b", 20-at)
			if got := escape.Text(s); got != s {
				t.Errorf("Text(%q) = %q: %s is shown as it is", s, got, tt.reason)
			}
		}
		s := strings.Repeat("a", at) + "\n\t" + strings.Repeat("b", 20-at)
		if got := escape.Text(s); got != s {
			t.Errorf("Text(%q) = %q: Text keeps newline and tab", s, got)
		}
		if got := escape.Line(s); got == s {
			t.Errorf("Line(%q) kept a newline or tab", s)
		}
	}
}

func TestText_unchanged(t *testing.T) {
	// Text with nothing to escape is the caller's string, not a copy.
	s := strings.Repeat("plain text, nothing to escape ", 100)
	if allocs := testing.AllocsPerRun(10, func() { _ = escape.Text(s) }); allocs != 0 {
		t.Errorf("Text of plain text allocated %v times", allocs)
	}
}

func TestWriter_Write(t *testing.T) {
	var b bytes.Buffer
	w := escape.NewWriter(&b)
	n, err := w.Write([]byte("warning: case \x1b[2J\n"))
	if err != nil || n != len("warning: case \x1b[2J\n") {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got, want := b.String(), "warning: case \\x1b[2J\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	if escape.Raw(w) != &b {
		t.Error("Raw does not return the writer under the Writer")
	}
	if escape.Raw(&b) != &b {
		t.Error("Raw of a plain writer is not that writer")
	}
}

func TestMarkdownCell(t *testing.T) {
	tests := []struct {
		name, in, want string
		reason         string
	}{
		{"pipe", "a|b", `a\|b`, "a pipe would end the cell"},
		{"line break", "a\nb\r\nc", "a b c", "a line break would end the row"},
		{"html", `<img src=x onerror=alert(1)>`, `&lt;img src=x onerror=alert(1)&gt;`, "no tag reaches the page"},
		{"entity", "&amp;", "&amp;amp;", "an entity shows as typed"},
		{"link", "[x](http://evil)", `\[x\](http:&#8203;//evil)`, "no link is made, neither from the brackets nor from the bare address"},
		{"image", "![x](http://evil/t.png)", `!\[x\](http:&#8203;//evil/t.png)`, "an image would be fetched"},
		{"emphasis", "*a* _b_ `c` ~d~", "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~", "markup shows as typed"},
		{"mention", "@org/team", `@&#8203;org/team`, "no one is notified: GitHub finds mentions in the text the Markdown gives, where a backslash is gone"},
		{"e-mail", "a@b.example", `a@&#8203;b.example`, "no mailto link"},
		{"issue", "see #12", `see #&#8203;12`, "no reference recorded on issue 12"},
		{"issue in another repository", "org/repo#12 GH-12 gh-3", `org/repo#&#8203;12 GH&#8203;-12 gh&#8203;-3`, "the other forms of reference"},
		{"bare link", "https://evil.example/p?a=1", `https:&#8203;//evil.example/p?a=1`, "a bare address would be a link"},
		{"www link", "go to WWW.evil.example", `go to WWW&#8203;.evil.example`, "www. makes a link without a scheme"},
		{"formula", "$\\color{red}{FAIL}$", `\$\\color{red}{FAIL}\$`, "GitHub draws $...$ as mathematics"},
		{"heading mark", "# x", `#&#8203; x`, "a # shows as typed"},
		{"workflow command", "##[error]x", `\\x23#&#8203;\[error\]x`, "escaped as Line, then as Markdown"},
		{"control", "a\x1b[2Jb", `a\\x1b\[2Jb`, "escaped as Line, its backslash escaped for Markdown"},
		{"bidi", "a\u202eb", `a\\u202eb`, "escaped as Line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escape.MarkdownCell(tt.in); got != tt.want {
				t.Errorf("MarkdownCell(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

func TestHTML(t *testing.T) {
	tests := []struct {
		name, in, want string
		reason         string
	}{
		{"markup", "<b a=\"1\">'\x1b&", `&lt;b a=&#34;1&#34;&gt;&#39;\x1b&amp;`, "entities; controls escaped as Line"},
		{"mention", "suite @org/team #12 https://x.example", `suite @&#8203;org/team #&#8203;12 https:&#8203;//x.example`, "text in a <summary> is searched for mentions, references and links too"},
		{"markdown", "*a* [b](c)", "*a* [b](c)", "inside HTML, Markdown is not read"},
	}
	for _, tt := range tests {
		if got := escape.HTML(tt.in); got != tt.want {
			t.Errorf("%s: HTML(%q) = %q, want %q (%s)", tt.name, tt.in, got, tt.want, tt.reason)
		}
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"::add-mask::x", " \n\u2028::x", "###[", ":", "\\##[", "", "plain", "eight by\x1b]0;t\x07", "seventeen bytes..\\x", "\x1b]0;t\x07", `\x1b`, "\\\x1b", "\u202e", "\xff\xfe", `C:\u`, "a\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{true, false} {
			got := escape.Line(s)
			if lines {
				got = escape.Text(s)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("escaped %q to invalid UTF-8 %q", s, got)
			}
			for _, r := range got {
				if r == '\n' || r == '\t' {
					if !lines {
						t.Fatalf("Line(%q) = %q keeps a line break or tab", s, got)
					}
					continue
				}
				if r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
					t.Fatalf("escaped %q to %q, which holds %U", s, got, r)
				}
			}
			if back := unescape(got); back != s {
				t.Fatalf("escaped %q to %q, which reads back as %q", s, got, back)
			}
			if workflowCommand(got) || workflowCommand("x"+got) {
				t.Fatalf("escaped %q to %q, which a CI runner reads as a command", s, got)
			}
		}
	})
}

// workflowCommand reports whether a line of s would be read by GitHub's
// runner as a command: ::name after leading white space (.NET's), or
// ##[ anywhere.
func workflowCommand(s string) bool {
	for line := range strings.Lines(s) {
		if strings.HasPrefix(strings.TrimLeftFunc(line, func(r rune) bool { return unicode.IsSpace(r) }), "::") ||
			strings.Contains(line, "##[") {
			return true
		}
	}
	return false
}

// unescape reads escaped text back as the package comment says: \\ is a
// backslash, \xHH a byte, \uHHHH a character, any other backslash itself.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '\\':
			b.WriteByte('\\')
			i++
			continue
		case 'x':
			if n, err := strconv.ParseUint(s[min(i+2, len(s)):min(i+4, len(s))], 16, 8); err == nil && i+4 <= len(s) {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		case 'u':
			if n, err := strconv.ParseUint(s[min(i+2, len(s)):min(i+6, len(s))], 16, 32); err == nil && i+6 <= len(s) {
				b.WriteRune(rune(n))
				i += 5
				continue
			}
		}
		b.WriteByte('\\')
	}
	return b.String()
}

func BenchmarkText(b *testing.B) {
	plain := strings.Repeat("  ✗ flow  tool_trajectory in_order  0.50 < 1.00\n", 40)
	hostile := strings.Repeat("  ✗ flow\x1b[2J  \u202etool\xff  0.50 < 1.00\n", 40)
	for _, in := range []struct{ name, s string }{{"plain", plain}, {"hostile", hostile}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			for b.Loop() {
				_ = escape.Text(in.s)
			}
		})
	}
}
