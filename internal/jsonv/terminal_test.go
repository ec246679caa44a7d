package jsonv_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// terminalRanges are the characters trajeval's JSON never writes raw, as
// docs/security.md lists them, written here apart from the code.
var terminalRanges = []struct {
	lo, hi rune
	reason string
}{
	{0x80, 0x9f, "C1 controls: U+009B is a CSI on terminals that read 8 bits"},
	{0x2028, 0x2029, "line and paragraph separators, as encoding/json escapes them"},
	{0x202a, 0x202e, "bidi embeddings and overrides"},
	{0x2066, 0x2069, "bidi isolates"},
}

func terminalRune(r rune) bool {
	for _, g := range terminalRanges {
		if g.lo <= r && r <= g.hi {
			return true
		}
	}
	return false
}

// rawTerminal returns the first character of b that must not be written
// raw, and whether there is one: a character of the ranges, or the # of
// ##[, a CI runner's command anywhere in a line.
func rawTerminal(b []byte) (rune, bool) {
	if bytes.Contains(b, []byte("##[")) {
		return '#', true
	}
	for _, r := range string(b) {
		if terminalRune(r) {
			return r, true
		}
	}
	return 0, false
}

// written returns s as encoding/json writes it, and as each of the rule's
// writers does, by name: AppendString, AppendEscaped and Escape on
// encoding/json's text, and the Writer under an Encoder.
func written(t *testing.T, s string) (std []byte, outs map[string][]byte) {
	t.Helper()
	std, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if err := json.NewEncoder(jsonv.NewWriter(&w)).Encode(s); err != nil {
		t.Fatal(err)
	}
	return std, map[string][]byte{
		"AppendString":  jsonv.AppendString(nil, s, false),
		"AppendEscaped": jsonv.AppendEscaped(nil, std),
		"Escape":        jsonv.Escape(std),
		"Writer":        bytes.TrimSuffix(w.Bytes(), []byte("\n")),
	}
}

// TestEscaped checks every character of the ranges and the one on each
// side: escaped by AppendString, by AppendEscaped on encoding/json's text
// and by the Writer, and read back by encoding/json as the same string;
// the neighbours are written as they are.
func TestEscaped(t *testing.T) {
	var runes []rune
	for _, g := range terminalRanges {
		for r := g.lo - 1; r <= g.hi+1; r++ {
			runes = append(runes, r)
		}
	}
	for _, r := range runes {
		escaped := terminalRune(r)
		t.Run(fmt.Sprintf("%U", r), func(t *testing.T) {
			if jsonv.Escaped(r) != escaped {
				t.Fatalf("Escaped(%U) = %v, want %v", r, !escaped, escaped)
			}
			s := "a" + string(r) + "b" + string(r)
			std, outs := written(t, s)
			for name, out := range outs {
				if _, raw := rawTerminal(out); raw {
					t.Errorf("%s wrote %U raw: %q", name, r, out)
				}
				if want := fmt.Sprintf(`\u%04x`, r); escaped != bytes.Contains(out, []byte(want)) {
					t.Errorf("%s wrote %q: escaped %v, want %v", name, out, !escaped, escaped)
				}
				var back string
				if err := json.Unmarshal(out, &back); err != nil || back != s {
					t.Errorf("%s wrote %q, read back %q (%v), want %q", name, out, back, err, s)
				}
			}
			// encoding/json escapes U+2028 and U+2029 itself.
			if want := escaped && r != 0x2028 && r != 0x2029; jsonv.NeedsEscape(std) != want {
				t.Errorf("NeedsEscape(%q) = %v, want %v", std, !want, want)
			}
		})
	}
}

// TestAppendEscaped_places puts a character to escape at each place
// of a text longer than a word (the scan looks at eight bytes at once),
// cut at each place too: whole sequences are escaped, cut ones left.
func TestAppendEscaped_places(t *testing.T) {
	for _, c := range []string{"\u009b", "\u202e", "\u2069", "\u2028"} {
		for n := 0; n < 20; n++ {
			s := strings.Repeat("x", n) + c + strings.Repeat("é", n%3) + c
			out := jsonv.AppendEscaped(nil, []byte(`"`+s+`"`))
			var back string
			if err := json.Unmarshal(out, &back); err != nil || back != s {
				t.Fatalf("%q written %q, read back %q (%v)", s, out, back, err)
			}
			if r, raw := rawTerminal(out); raw {
				t.Fatalf("%q written %q: %U raw", s, out, r)
			}
			for cut := 0; cut <= len(s); cut++ {
				text := []byte(s[:cut])
				got := jsonv.AppendEscaped(nil, text)
				if jsonv.NeedsEscape(text) != !bytes.Equal(got, text) {
					t.Fatalf("NeedsEscape(%q) disagrees with AppendEscaped: %q", text, got)
				}
			}
		}
	}
}

// TestEscaped_command puts ##[ (a CI runner's command, read anywhere in
// a line) at each place of a text longer than a word, after more #s and
// near the end: every writer escapes the first # of each as \u0023, so
// that no ##[ is left, writes any other # as it is, and the text reads
// back the same.
func TestEscaped_command(t *testing.T) {
	for _, c := range []string{"##[", "###[", "##[##[", "# #[", "##", "#["} {
		for n := 0; n < 20; n++ {
			s := strings.Repeat("x", n) + c + strings.Repeat("y", n%9)
			std, outs := written(t, s)
			for name, out := range outs {
				if bytes.Contains(out, []byte("##[")) {
					t.Errorf("%s wrote %q: ##[ raw", name, out)
				}
				if want := strings.Contains(s, "##["); want != bytes.Contains(out, []byte(`\u0023`)) {
					t.Errorf("%s wrote %q: escaped %v, want %v", name, out, !want, want)
				}
				var back string
				if err := json.Unmarshal(out, &back); err != nil || back != s {
					t.Errorf("%s wrote %q, read back %q (%v), want %q", name, out, back, err, s)
				}
			}
			if want := strings.Contains(s, "##["); jsonv.NeedsEscape(std) != want {
				t.Errorf("NeedsEscape(%q) = %v, want %v", std, !want, want)
			}
		}
	}
}

// FuzzAppendEscaped: for any string, AppendString and encoding/json's
// text through AppendEscaped hold no character of the ranges raw, are the
// same bytes, and read back as encoding/json reads its own text. Its seed
// corpus is in testdata/fuzz/FuzzAppendEscaped.
func FuzzAppendEscaped(f *testing.F) {
	for _, s := range []string{"", "plain", "x\u009b2J", "\u202egnp", "\u2066i\u2069", "a\u2028b", "\xc2\xe2\x80", "<&>\u0085\u00a0", "##[add-mask]x", "###[#[##"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var std bytes.Buffer
		enc := json.NewEncoder(&std)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		text := bytes.TrimSuffix(std.Bytes(), []byte("\n"))
		got := jsonv.AppendString(nil, s, false)
		if esc := jsonv.AppendEscaped(nil, text); !bytes.Equal(got, esc) {
			t.Fatalf("AppendString wrote %q, encoding/json and AppendEscaped %q", got, esc)
		}
		if r, raw := rawTerminal(got); raw {
			t.Fatalf("%U raw in %q", r, got)
		}
		var back, want string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		_ = json.Unmarshal(text, &want)
		if back != want || utf8.ValidString(s) && back != s {
			t.Fatalf("%q read back %q, want %q", got, back, want)
		}
	})
}

// BenchmarkNeedsEscape scans a row of ASCII JSON and one of UTF-8 text
// (é, ✓: lead bytes C3 and E2, the second a near miss) for characters to
// escape.
func BenchmarkNeedsEscape(b *testing.B) {
	for _, bb := range []struct{ name, unit string }{
		{"ascii", `{"id":"case-0000001","tool":"read_document","score":0.5},`},
		{"utf-8", `{"ключ":"é ✓ café — naïve","n":1},`},
	} {
		row := []byte(strings.Repeat(bb.unit, 2048/len(bb.unit)))
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(row)))
			for b.Loop() {
				if jsonv.NeedsEscape(row) {
					b.Fatal("nothing to escape")
				}
			}
		})
	}
}
