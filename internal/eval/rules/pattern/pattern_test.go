package pattern_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/eval/rules/pattern"
)

// match runs p over calls written as names separated by spaces, an item
// accepting a call of its name (the wildcard any call).
func match(t *testing.T, p *pattern.Pattern, calls string) pattern.Result {
	t.Helper()
	seq := strings.Fields(calls)
	items := p.Items()
	return p.Match(len(seq), func(item, i int) bool {
		return items[item].Any || items[item].Name == seq[i]
	})
}

func TestPattern_Match(t *testing.T) {
	tests := []struct {
		pattern, calls string
		want           bool
		reason         string
	}{
		{"search+ read_document{2,} synthesize", "search read_document read_document synthesize", true, "the brief's example"},
		{"search+ read_document{2,} synthesize", "search search read_document read_document read_document synthesize", true, "+ and {2,} take more"},
		{"search+ read_document{2,} synthesize", "search read_document synthesize", false, "one document is fewer than two"},
		{"search+ read_document{2,} synthesize", "read_document read_document synthesize", false, "+ needs one search"},
		{"search+ read_document{2,} synthesize", "search read_document read_document synthesize answer", false, "the whole sequence must match: nothing may follow"},
		{"a b", "x a b", false, "nothing may come first either"},
		{".* delete .*", "a b delete c", true, "the wildcard makes a containment test"},
		{".* delete .*", "a b c", false, "no delete at all"},
		{"a*", "", true, "the empty sequence matches a pattern that allows nothing"},
		{"a", "", false, "the empty sequence does not match one call"},
		{"a | b c", "b c", true, "| binds loosest"},
		{"a | b c", "a c", false, "the alternative is a, or b c"},
		{"(a | b) c", "a c", true, "a group"},
		{"a{2}", "a a", true, "exactly two"},
		{"a{2}", "a a a", false, "three is not two"},
		{"a{1,3}", "a a a", true, "up to three"},
		{"a{1,3}", "a a a a", false, "four is more than three"},
		{"a{0,0} b", "b", true, "zero copies"},
		{"a?b", "a b", true, "an operator ends a name: a?b is a? b"},
		{"(a?)* b", "b", true, "a loop that can match nothing terminates"},
		{"(a | a a)* b", "a a a a a b", true, "ambiguous alternatives cost no backtracking"},
		{"'read file' .", "read x", false, "a quoted name is one name"},
		{"a+?", "", true, "quantifiers stack: (a+)?"},
		{"mcp.fs.read+", "mcp.fs.read mcp.fs.read", true, "dots inside a name belong to it"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" ~ "+tt.calls, func(t *testing.T) {
			p, err := pattern.Parse(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := match(t, p, tt.calls).Matched; got != tt.want {
				t.Errorf("matched = %v, want %v: %s", got, tt.want, tt.reason)
			}
		})
	}
}

func TestPattern_Match_quotedName(t *testing.T) {
	p, err := pattern.Parse("'read file' .")
	if err != nil {
		t.Fatal(err)
	}
	items := p.Items()
	calls := []string{"read file", "x"}
	r := p.Match(2, func(item, i int) bool { return items[item].Any || items[item].Name == calls[i] })
	if !r.Matched {
		t.Errorf("a quoted name with a space did not match its call: %+v", r)
	}
}

func TestPattern_Match_explains(t *testing.T) {
	tests := []struct {
		pattern, calls string
		fit            int
		next           []string
		end            bool
		reason         string
	}{
		{"search+ read{2,} synthesize", "search read synthesize", 2, []string{"read"}, false, "after one read only another read may come"},
		{"search+ read{2,} synthesize", "search search", 2, []string{"search", "read"}, false, "the calls ended too soon"},
		{"search+ read{2,} synthesize", "read", 0, []string{"search"}, false, "the first call is wrong"},
		{"a b?", "a c", 1, []string{"b"}, true, "after a, b or the end"},
		{"a", "", 0, []string{"a"}, false, "nothing called"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" ~ "+tt.calls, func(t *testing.T) {
			p, err := pattern.Parse(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			r := match(t, p, tt.calls)
			var next []string
			for _, i := range r.Next {
				next = append(next, p.Items()[i].Name)
			}
			if r.Matched || r.Fit != tt.fit || !slices.Equal(next, tt.next) || r.End != tt.end {
				t.Errorf("got fit %d, next %v, end %v (matched %v); want fit %d, next %v, end %v: %s",
					r.Fit, next, r.End, r.Matched, tt.fit, tt.next, tt.end, tt.reason)
			}
		})
	}
}

func TestParse_errors(t *testing.T) {
	tests := []struct {
		pattern string
		msg     string
		col     int
		reason  string
	}{
		{"", "the pattern is empty", 1, "nothing to match"},
		{"   ", "the pattern is empty", 4, "white space only"},
		{"search+ read) x", "unexpected ')'", 13, "a ) with no ("},
		{"(a b", "unclosed '('", 1, "an unclosed group points at its ("},
		{"a (b (c) d", "unclosed '('", 3, "the ( that is not closed, not the inner one"},
		{"a | | b", "empty alternative before '|'", 5, "two bars"},
		{"a |", "unexpected end of pattern: an item is missing", 4, "a bar at the end"},
		{"* a", "nothing to repeat before '*'", 1, "a quantifier first"},
		{"a (+)", "nothing to repeat before '+'", 4, "a quantifier first in a group"},
		{"a ()", "empty group '()'", 3, "an empty group"},
		{"a{3,1}", "{3,1} repeats at least more times than at most", 2, "m > n"},
		{"a{x}", `a count in {m,n} must be a whole number, got "x"`, 3, "not a number"},
		{"a{-1}", `a count in {m,n} must be a whole number, got "-1"`, 3, "a negative count"},
		{"a{1,2000}", "a count in {m,n} must be at most 1000, got 2000", 5, "a count too large"},
		{"a{2", "unclosed '{'", 2, "an unclosed count"},
		{"a }", "unexpected '}'", 3, "a stray }"},
		{"'a b", "unclosed quote", 1, "an unclosed quote"},
		{"é (", "unexpected end of pattern: an item is missing", 4, "columns count characters, not bytes"},
		{"(a{1000}){1000}", "the pattern is too large: it expands to more than 10000 states", 10, "a blow-up by nesting counts"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			_, err := pattern.Parse(tt.pattern)
			var se *pattern.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SyntaxError: %s", err, tt.reason)
			}
			if se.Msg != tt.msg || se.Col != tt.col {
				t.Errorf("got %q at column %d, want %q at column %d: %s", se.Msg, se.Col, tt.msg, tt.col, tt.reason)
			}
			if want := fmt.Sprintf("pattern: %s at column %d", tt.msg, tt.col); err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestPattern_Canonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"search+   read_document{2,}synthesize", "search+ read_document{2,} synthesize"},
		{"a{0,} b{1,} c{0,1} d{2,2}", "a* b+ c? d{2}"},
		{"(a|b)c", "(a | b) c"},
		{"'x y' .", "'x y' ."},
	}
	for _, tt := range tests {
		p, err := pattern.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Canonical(); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if p.String() != tt.in {
			t.Errorf("String() = %q, want the pattern as written", p.String())
		}
	}
}

// TestPattern_Match_linear checks the automaton's size, the bound of the
// work per call: nested quantifiers that make a backtracking matcher
// exponential compile to a handful of states.
func TestPattern_Match_linear(t *testing.T) {
	p, err := pattern.Parse("((a*)*)* b")
	if err != nil {
		t.Fatal(err)
	}
	if p.States() > 10 {
		t.Errorf("%d states for a 2-letter pattern", p.States())
	}
	calls := strings.Repeat("a ", 5000)
	asked := 0
	items := p.Items()
	r := p.Match(5000, func(item, i int) bool {
		asked++
		return items[item].Name == strings.Fields(calls[2*i:])[0]
	})
	if r.Matched || r.Fit != 5000 {
		t.Errorf("got %+v, want no match after 5000 fitting calls", r)
	}
	if asked > 2*5000 {
		t.Errorf("asked %d times for 5000 calls and 2 items: at most once per item and call", asked)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"search+ read_document{2,} synthesize", "(a | b)* c?", ".* delete .*", "a{2,5}", "'x y'+", "((a", "a{1,", "|", "a)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := pattern.Parse(src)
		if err != nil {
			var se *pattern.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Offset < 0 || se.Offset > len(src) || se.Col < 1 || se.Col > utf8.RuneCountInString(src)+1 {
				t.Fatalf("error %v places offset %d, column %d outside %q", err, se.Offset, se.Col, src)
			}
			return
		}
		if p.States() > pattern.MaxStates+1 {
			t.Fatalf("%d states, above the limit", p.States())
		}
		// The canonical spelling means the same and is its own canonical.
		c := p.Canonical()
		q, err := pattern.Parse(c)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", c, src, err)
		}
		if q.Canonical() != c {
			t.Fatalf("canonical of %q is %q, then %q", src, c, q.Canonical())
		}
		items := p.Items()
		seq := []int{0, len(items) - 1, 0}
		r := p.Match(len(seq), func(item, i int) bool { return items[item].Any || item == seq[i] })
		if r.Fit < 0 || r.Fit > len(seq) {
			t.Fatalf("fit %d outside the sequence", r.Fit)
		}
	})
}
