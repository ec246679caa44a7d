package argmatch_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
)

func TestParsePath(t *testing.T) {
	tests := []struct {
		in     string
		want   string // the canonical form; "" when an error is expected
		col    int    // the error's column
		reason string
	}{
		{"a", "a", 0, "one key"},
		{"a.b.c", "a.b.c", 0, "dotted keys"},
		{"items[0].id", "items[0].id", 0, "an index"},
		{"items[*].id", "items[*].id", 0, "a wildcard element"},
		{"*.id", "*.id", 0, "a wildcard first"},
		{"a.*", "a[*]", 0, "a wildcard key is written [*]"},
		{"items.0", "items.0", 0, "a key of digits stays a key (it indexes arrays too)"},
		{`["functions.search"].result`, `["functions.search"].result`, 0, "a quoted key with a dot"},
		{`a["*"]`, `a["*"]`, 0, "a quoted * is a key"},
		{`a["x\"y"]`, `a["x\"y"]`, 0, "escapes in a quoted key"},
		{"[0][1]", "[0][1]", 0, "indexes only"},
		{"search query.x", "search query.x", 0, "spaces are part of a key"},
		{"", "", 1, "empty"},
		{"a..b", "", 3, "an empty key"},
		{"a.", "", 3, "a trailing dot"},
		{".a", "", 1, "a leading dot"},
		{"a[", "", 3, "an open bracket at the end"},
		{"a[x]", "", 3, "a bare word in brackets"},
		{"a[0", "", 4, "an unclosed bracket"},
		{"a[*x]", "", 4, "junk after *"},
		{`a["x]`, "", 3, "an unterminated quoted key"},
		{`a"b`, "", 2, "a quote inside a key"},
		{"a]b", "", 2, "a stray bracket"},
		{"a[99999999999999999999]", "", 3, "an index too large"},
		{"é.[", "", 3, "columns count characters, not bytes"},
		{"a\xffb", "", 1, "invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := argmatch.ParsePath(tt.in)
			if tt.want == "" {
				var pe *argmatch.PathError
				if !errors.As(err, &pe) {
					t.Fatalf("ParsePath(%q) = %v, %v; want a *PathError: %s", tt.in, p, err, tt.reason)
				}
				if pe.Col != tt.col {
					t.Errorf("ParsePath(%q) column = %d, want %d (%v): %s", tt.in, pe.Col, tt.col, err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParsePath(%q): %v: %s", tt.in, err, tt.reason)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("ParsePath(%q).String() = %q, want %q: %s", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

func TestSplitPath(t *testing.T) {
	tests := []struct {
		in     string
		want   []string // nil when an error is expected
		col    int
		reason string
	}{
		{"city", []string{"city"}, 0, "one key"},
		{"when.day", []string{"when", "day"}, 0, "dotted keys"},
		{"passengers[0].name", []string{"passengers", "0", "name"}, 0, "an index in brackets, as $from writes it"},
		{"passengers.0.name", []string{"passengers", "0", "name"}, 0, "an index as a key of digits"},
		{`["a.b"].c`, []string{"a.b", "c"}, 0, "a key with a dot, quoted"},
		{"passengers[0.name", nil, 13, "an unclosed bracket is refused, not a key that is never found"},
		{"a..b", nil, 3, "an empty key"},
		{"passengers[*].name", nil, 12, "a wildcard names many places"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := argmatch.SplitPath(tt.in)
			if tt.want == nil {
				var pe *argmatch.PathError
				if !errors.As(err, &pe) || pe.Col != tt.col {
					t.Errorf("SplitPath(%q) = %q, %v; want a *PathError at column %d: %s", tt.in, got, err, tt.col, tt.reason)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("SplitPath(%q) = %q, %v; want %q: %s", tt.in, got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestPath_Covers(t *testing.T) {
	tests := []struct {
		pattern, at string
		want        bool
		reason      string
	}{
		{"search.query", "search.query", true, "the same place"},
		{"search.filters", "search.filters.city", true, "a pattern covers what is below it"},
		{"search.query.x", "search.query", false, "a longer pattern names a place below"},
		{"*.id", "lookup.id", true, "any tool"},
		{"*.id", "lookup.user.id", false, "* is one segment, not any depth"},
		{"book.passengers[*].name", "book.passengers[3].name", true, "any element"},
		{"book.passengers.0.name", "book.passengers[0].name", true, "a key of digits is an index"},
		{"book.passengers[0].name", "book.passengers[1].name", false, "another index"},
		{"book.passengers.00", "book.passengers[0]", false, "00 is not the index 0"},
		{"search.query", "search.queries", false, "whole keys only"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.at, func(t *testing.T) {
			p, err := argmatch.ParsePath(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			at, err := argmatch.ParsePath(tt.at)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Covers(at); got != tt.want {
				t.Errorf("%q covers %q = %v, want %v: %s", tt.pattern, tt.at, got, tt.want, tt.reason)
			}
		})
	}
}

func TestPath_Values(t *testing.T) {
	doc := `{"items":[{"id":"A"},{"id":"B"},{"x":1}],"text":"{\"n\":[7,8]}","m":{"b":2,"a":1}}`
	tests := []struct {
		path, want string
		reason     string
	}{
		{"items[*].id", `"A" "B"`, "every element that has the key"},
		{"items[1].id", `"B"`, "one element"},
		{"items.1.id", `"B"`, "a key of digits indexes"},
		{"items[5].id", ``, "out of range finds nothing"},
		{"text.n[*]", `7 8`, "a string holding JSON is decoded when the path goes into it"},
		{"text", `"{\"n\":[7,8]}"`, "the string itself at the end of the path"},
		{"m[*]", `1 2`, "members in key order"},
		{"nope", ``, "a missing key"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := argmatch.ParsePath(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			p.Values(js(t, doc), func(v any) bool {
				got = append(got, fmt.Sprint(jsonText(v)))
				return true
			})
			if s := strings.Join(got, " "); s != tt.want {
				t.Errorf("values at %s = %s, want %s: %s", tt.path, s, tt.want, tt.reason)
			}
		})
	}
}

// steps builds a trajectory's steps from "name args result" triples, the
// args and results as JSON ("" for none); a name "a@1" is in parallel
// group 1.
func steps(t *testing.T, calls ...[3]string) []trajeval.Step {
	t.Helper()
	var out []trajeval.Step
	for i, c := range calls {
		name, group := c[0], 0
		if n, g, ok := strings.Cut(name, "@"); ok {
			name = n
			fmt.Sscan(g, &group)
		}
		out = append(out, trajeval.Step{Index: i + 1, Name: name, Args: js(t, c[1]), Result: js(t, c[2]), ParallelGroup: group})
	}
	return out
}

func TestMatcher_MatchAt_from(t *testing.T) {
	search := [3]string{"search", `{"q":"shoes"}`, `{"items":[{"id":"P1"},{"id":"P2"}],"total":2}`}
	tests := []struct {
		name   string
		want   string // expected arguments of the last step
		steps  [][3]string
		opt    argmatch.Options
		match  bool
		reason string
	}{
		{"found", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{search, {"get", `{"id":"P2"}`, ""}}, argmatch.Options{}, true, "P2 is one of the ids search returned"},
		{"invented", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{search, {"get", `{"id":"P9"}`, ""}}, argmatch.Options{}, false, "P9 was never returned"},
		{"no earlier call", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{{"get", `{"id":"P1"}`, ""}, search}, argmatch.Options{}, false, "search came after: its result was not known"},
		{"any earlier call", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{
			{"search", `{}`, `{"items":[{"id":"OLD"}]}`}, search, {"get", `{"id":"OLD"}`, ""},
		}, argmatch.Options{}, true, "any earlier call counts, not only the closest"},
		{"parallel sibling", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{
			{"search@1", search[1], search[2]}, {"get@1", `{"id":"P1"}`, ""},
		}, argmatch.Options{}, false, "a call issued together with search could not see its result"},
		{"earlier group", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{
			{"search@1", search[1], search[2]}, {"get@2", `{"id":"P1"}`, ""},
		}, argmatch.Options{}, true, "a later group sees an earlier group's results"},
		{"result as text", `{"id":{"$from":"search.result.items[0].id"}}`, [][3]string{
			{"search", `{}`, `"{\"items\":[{\"id\":\"P1\"}]}"`}, {"get", `{"id":"P1"}`, ""},
		}, argmatch.Options{}, true, "a result that is JSON in a string is decoded"},
		{"nested text", `{"id":{"$from":"search.result.content[0].text.id"}}`, [][3]string{
			{"search", `{}`, `{"content":[{"type":"text","text":"{\"id\":42}"}]}`}, {"get", `{"id":42.0}`, ""},
		}, argmatch.Options{}, true, "JSON text inside a result is decoded on the way; numbers by value"},
		{"number is not text", `{"id":{"$from":"search.result"}}`, [][3]string{
			{"search", `{}`, `"42"`}, {"get", `{"id":42}`, ""},
		}, argmatch.Options{}, false, "a number never equals a string"},
		{"whole result", `{"id":{"$from":"search.result"}}`, [][3]string{
			{"search", `{}`, `"P-7"`}, {"get", `{"id":"P-7"}`, ""},
		}, argmatch.Options{}, true, "a plain text result"},
		{"args of an earlier call", `{"q":{"$from":"search.args.q"}}`, [][3]string{search, {"search", `{"q":"shoes"}`, ""}}, argmatch.Options{}, true, "a retry with the same query"},
		{"object value", `{"item":{"$from":"search.result.items[*]"}}`, [][3]string{search, {"get", `{"item":{"id":"P1"}}`, ""}}, argmatch.Options{}, true, "objects compare as JSON values"},
		{"any tool", `{"id":{"$from":"*.result.items[*].id"}}`, [][3]string{search, {"get", `{"id":"P1"}`, ""}}, argmatch.Options{}, true, "* looks in every tool"},
		{"case", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{search, {"get", `{"id":"p1"}`, ""}}, argmatch.Options{CaseInsensitive: true}, true, "case_insensitive applies"},
		{"case off", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{search, {"get", `{"id":"p1"}`, ""}}, argmatch.Options{}, false, "strings exactly by default"},
		{"in $oneOf", `{"id":{"$oneOf":["X",{"$from":"search.result.items[*].id"}]}}`, [][3]string{search, {"get", `{"id":"P1"}`, ""}}, argmatch.Options{}, true, "$from nests in other operators"},
		{"in $not", `{"id":{"$not":{"$from":"search.result.items[*].id"}}}`, [][3]string{search, {"get", `{"id":"P1"}`, ""}}, argmatch.Options{}, false, "$not of a found value"},
		{"in array", `{"ids":[{"$from":"search.result.items[*].id"}]}`, [][3]string{search, {"get", `{"ids":["P2"]}`, ""}}, argmatch.Options{}, true, "$from inside an array pattern"},
		{"missing key", `{"id":{"$from":"search.result.items[*].id"}}`, [][3]string{search, {"get", `{}`, ""}}, argmatch.Options{}, false, "the key must be present"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := argmatch.New(js(t, tt.want), partial, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !m.LooksBack() {
				t.Fatalf("LooksBack() = false for %s", tt.want)
			}
			st := steps(t, tt.steps...)
			tr := argmatch.NewTrail(st)
			j := len(st) - 1
			if got := m.MatchAt(tr, j); got != tt.match {
				t.Errorf("MatchAt = %v, want %v (diffs %v): %s", got, tt.match, m.DiffAt(tr, j), tt.reason)
			}
			if got := m.DiffAt(tr, j) == nil; got != tt.match {
				t.Errorf("DiffAt is nil = %v, want %v: %s", got, tt.match, tt.reason)
			}
			if m.Match(st[j].Args) && !strings.Contains(tt.want, "$not") {
				t.Errorf("Match without earlier steps = true: $from must not match without a trail")
			}
		})
	}
}

func TestMatcher_DiffAt_from(t *testing.T) {
	tests := []struct {
		name   string
		steps  [][3]string
		want   string
		reason string
	}{
		{"values found", [][3]string{
			{"search", `{}`, `{"items":[{"id":"P1"},{"id":"P2"}]}`}, {"other", `{}`, `{}`}, {"search", `{}`, `{"items":[{"id":"P2"},{"id":"P3"}]}`}, {"get", `{"id":"P9"}`, ""},
		}, `args.id: expected {"$from":"search.result.items[*].id"}: one of "P1", "P2", "P3" (steps 1, 3), got "P9"`, "the distinct values and the steps they came from"},
		{"many values", [][3]string{
			{"search", `{}`, `{"items":[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6},{"id":7}]}`}, {"get", `{"id":9}`, ""},
		}, `args.id: expected {"$from":"search.result.items[*].id"}: one of 1, 2, 3, 4, 5 and 2 more (step 1), got 9`, "a long list is cut"},
		{"nothing at the path", [][3]string{
			{"search", `{}`, `{"results":[]}`}, {"get", `{"id":"P1"}`, ""},
		}, `args.id: expected {"$from":"search.result.items[*].id"}: nothing at the path in step 1, got "P1"`, "the path found nothing"},
		{"no earlier call", [][3]string{
			{"get", `{"id":"P1"}`, ""},
		}, `args.id: expected {"$from":"search.result.items[*].id"}: no earlier calls of search, got "P1"`, "the tool was never called before"},
		{"parallel sibling", [][3]string{
			{"search@2", `{}`, `{"items":[{"id":"P1"}]}`}, {"get@2", `{"id":"P1"}`, ""},
		}, `args.id: expected {"$from":"search.result.items[*].id"}: no earlier calls of search (step 1 was issued together with this call), got "P1"`, "say why a call that came first does not count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := argmatch.New(js(t, `{"id":{"$from":"search.result.items[*].id"}}`), partial, argmatch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := steps(t, tt.steps...)
			var got []string
			for _, d := range m.DiffAt(argmatch.NewTrail(st), len(st)-1) {
				got = append(got, d.String())
			}
			if !reflect.DeepEqual(got, []string{tt.want}) {
				t.Errorf("DiffAt:\n got %q\nwant %q\n%s", got, tt.want, tt.reason)
			}
		})
	}
}

func TestScopedTrail(t *testing.T) {
	// The reads (trace steps 2, 5, 6 and 7) are the scoped agent's, its
	// steps 1–4; the searches another agent's. Step 8 returns what step 7
	// asks for, too late.
	whole := steps(t,
		[3]string{"search", `{}`, `{"items":[{"id":"P1"}]}`},
		[3]string{"get", `{"id":"P1"}`, ""},
		[3]string{"search", `{}`, `{"items":[{"id":"P2"}]}`},
		[3]string{"search@7", `{}`, `{"items":[{"id":"P3"}]}`},
		[3]string{"get@7", `{"id":"P3"}`, ""},
		[3]string{"get", `{"id":"P2"}`, ""},
		[3]string{"get", `{"id":"P5"}`, ""},
		[3]string{"search", `{}`, `{"items":[{"id":"P5"}]}`},
	)
	in := []int{1, 4, 5, 6}
	tests := []struct {
		name   string
		at     int    // the scoped step matched
		want   string // its difference; "" when it matches
		reason string
	}{
		{"another agent's result", 0, "", "P1 came from trace step 1, made by an agent out of scope"},
		{"parallel sibling", 1, `args.id: expected {"$from":"search.result.items[*].id"}: one of "P1", "P2" (trace steps 1, 3), got "P3"`,
			"trace step 4 ran together with it; the sources are named as trace steps"},
		{"an earlier result", 2, "", "P2 came from trace step 3, before the sibling"},
		{"only later", 3, `args.id: expected {"$from":"search.result.items[*].id"}: one of "P1", "P2", "P3" (trace steps 1, 3, 4), got "P5"`,
			"P5 is returned by trace step 8, after the call: every earlier search is listed, whichever agent made it"},
	}
	m, err := argmatch.New(js(t, `{"id":{"$from":"search.result.items[*].id"}}`), partial, argmatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := argmatch.ScopedTrail(whole, in)
	for n, s := range tr.Steps() {
		if s.Index != n+1 || s.Name != "get" {
			t.Fatalf("Steps()[%d] = step %d %s, want step %d get: the scoped steps, numbered afresh", n, s.Index, s.Name, n+1)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.MatchAt(tr, tt.at); got != (tt.want == "") {
				t.Errorf("MatchAt = %v, want %v: %s", got, tt.want == "", tt.reason)
			}
			var got []string
			for _, d := range m.DiffAt(tr, tt.at) {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("DiffAt:\n got %q\nwant %q\n%s", got, tt.want, tt.reason)
			}
		})
	}
	t.Run("sibling named", func(t *testing.T) {
		tr := argmatch.ScopedTrail(whole[3:5], []int{1})
		want := `args.id: expected {"$from":"search.result.items[*].id"}: no earlier calls of search (trace step 4 was issued together with this call), got "P3"`
		if got := m.DiffAt(tr, 0); len(got) != 1 || got[0].String() != want {
			t.Errorf("DiffAt = %q, want %q: a sibling made by another agent is named as a trace step", got, want)
		}
	})
}

func TestNew_fromErrors(t *testing.T) {
	tests := []struct {
		name, args string
		msg        string
		reason     string
	}{
		{"not a string", `{"id":{"$from":1}}`, `args.id.$from: $from needs a path such as search.result.items[*].id, got number`, "the operand is a path"},
		{"no part", `{"id":{"$from":"search"}}`, `path "search", column 7: after the tool name comes .result or .args`, "the tool alone says nothing"},
		{"wrong part", `{"id":{"$from":"search.output.id"}}`, `path "search.output.id", column 7: after the tool name comes .result or .args`, "only result and args"},
		{"bad syntax", `{"id":{"$from":"search.result.items[*.id"}}`, `path "search.result.items[*.id", column 22: expected ] to close the [ at column 20`, "the column in the path"},
		{"index first", `{"id":{"$from":"[0].result"}}`, `column 1: a $from path starts with a tool name`, "the tool comes first"},
		{"typo", `{"id":{"$frm":"a.result"}}`, `unknown operator $frm (did you mean $from?)`, "a close operator is suggested"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := argmatch.New(js(t, tt.args), partial, argmatch.Options{})
			var ce *argmatch.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("New(%s) = %v, want a *CompileError: %s", tt.args, err, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Error() = %q, want it to contain %q: %s", err, tt.msg, tt.reason)
			}
		})
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"a.b", "items[*].id", `["x.y"].result[0]`, "*.id", "a[", "a..b", `a["\u00e9"]`, "é.[0]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := argmatch.ParsePath(s)
		if err != nil {
			var pe *argmatch.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePath(%q) error %v is not a *PathError", s, err)
			}
			if pe.Col < 1 || pe.Col > len([]rune(s))+1 {
				t.Fatalf("ParsePath(%q) column %d is outside the path", s, pe.Col)
			}
			return
		}
		if len(p) == 0 {
			t.Fatalf("ParsePath(%q) = empty path without an error", s)
		}
		// The canonical form parses back to the same path.
		q, err := argmatch.ParsePath(p.String())
		if err != nil {
			t.Fatalf("ParsePath(%q).String() = %q does not parse: %v", s, p.String(), err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip of %q: %#v, then %#v", s, p, q)
		}
		if !p.Covers(p) {
			t.Fatalf("%q does not cover itself", s)
		}
	})
}

func jsonText(v any) string {
	b := strings.Builder{}
	switch x := v.(type) {
	case string:
		fmt.Fprintf(&b, "%q", x)
	default:
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// BenchmarkMatcher_MatchAt_from matches each read of a 1,000-step trace
// (a search, then a read of one id it found, 500 times) against a $from
// over every earlier search: the worst case looks through them all.
func BenchmarkMatcher_MatchAt_from(b *testing.B) {
	var calls [][3]string
	for i := range 500 {
		calls = append(calls,
			[3]string{"search", `{}`, fmt.Sprintf(`"{\"items\":[{\"id\":\"A%d\"},{\"id\":\"B%d\"}]}"`, i, i)},
			[3]string{"read", fmt.Sprintf(`{"id":"B%d"}`, i), `"ok"`})
	}
	st := steps(&testing.T{}, calls...)
	m, err := argmatch.New(map[string]any{"id": map[string]any{"$from": "search.result.items[*].id"}}, partial, argmatch.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tr := argmatch.NewTrail(st)
		for j := 1; j < len(st); j += 2 {
			if !m.MatchAt(tr, j) {
				b.Fatalf("step %d does not match", j+1)
			}
		}
	}
}

func TestPath_Under(t *testing.T) {
	tests := []struct {
		path, root, want string
		reason           string
	}{
		{"a[0].b", "args", "args.a[0].b", "the bracket spelling is already canonical"},
		{"[1]", "args", "args[1]", "an index right below the root"},
		{`["x.y"].z`, "args", `args["x.y"].z`, "a key with a dot stays quoted"},
		{"a", "", "a", "no root: the path alone"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := argmatch.ParsePath(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Under(tt.root); got != tt.want {
				t.Errorf("Under(%q) = %q, want %q: %s", tt.root, got, tt.want, tt.reason)
			}
		})
	}
}

func TestJoinKey(t *testing.T) {
	tests := []struct {
		path, key, want string
		reason          string
	}{
		{"args", "city", "args.city", "a plain key after a dot"},
		{"args", "a.b", `args["a.b"]`, "a key with a dot is quoted"},
		{"args", "*", `args["*"]`, "a key * is not a wildcard"},
		{"", "city", "city", "no path: the key alone"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if got := argmatch.JoinKey(tt.path, tt.key); got != tt.want {
				t.Errorf("JoinKey(%q, %q) = %q, want %q: %s", tt.path, tt.key, got, tt.want, tt.reason)
			}
			if tt.path != "" {
				if _, err := argmatch.ParsePath(argmatch.JoinKey(tt.path, tt.key)); err != nil {
					t.Errorf("JoinKey(%q, %q) does not parse back: %v", tt.path, tt.key, err)
				}
			}
		})
	}
}
