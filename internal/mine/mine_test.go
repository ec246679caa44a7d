package mine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/mine"
)

// runOf makes a run from "a b c" shorthand: each word a call; a word
// "a{json}" carries arguments, "a|b" calls issued together.
func runOf(t testing.TB, s string) *trajeval.Trajectory {
	t.Helper()
	tr := &trajeval.Trajectory{}
	group := 0
	for _, w := range strings.Fields(s) {
		parts := strings.Split(w, "|")
		g := 0
		if len(parts) > 1 {
			group++
			g = group
		}
		for _, p := range parts {
			st := trajeval.Step{Index: len(tr.Steps) + 1, ParallelGroup: g}
			name, args, ok := strings.Cut(p, "{")
			st.Name = name
			if ok {
				d := json.NewDecoder(strings.NewReader("{" + args))
				d.UseNumber()
				var v any
				if err := d.Decode(&v); err != nil {
					t.Fatalf("bad args in %q: %v", p, err)
				}
				st.Args = v
			}
			if r, ok2 := st.Args.(map[string]any); ok2 {
				if res, has := r["_result"]; has {
					delete(r, "_result")
					st.Result = res
				}
			}
			tr.Steps = append(tr.Steps, st)
		}
	}
	return tr
}

func runsOf(t testing.TB, ss ...string) []*trajeval.Trajectory {
	var out []*trajeval.Trajectory
	for _, s := range ss {
		out = append(out, runOf(t, s))
	}
	return out
}

func TestMine(t *testing.T) {
	tests := []struct {
		name       string
		runs       []string
		pass, fail []string // runs outside the family that must pass, must fail
		has        []string // in the YAML
		reason     string
	}{
		{"unordered pair", []string{"a b c d", "a c b d"},
			[]string{"a b c d"},
			[]string{"a d", "a b d", "b a c d", "a b c x d", "a b c d d"},
			[]string{"any_order:", "mode: exact"},
			"b and c came in either order; a, the pair, then d, and nothing else"},
		{"unordered triple", []string{"s a b c e", "s c a b e", "s b c a e"},
			[]string{"s c b a e"},
			[]string{"s a b e", "a s b c e", "s a b c"},
			[]string{"any_order:"},
			"any order of the three is the family; s first and e last held in every run"},
		{"optional call", []string{"a b c", "a c", "a b c"},
			nil,
			[]string{"a b", "b a c", "a b b c"},
			[]string{"optional: called in 2 of 3 runs"},
			"b may be left out, but c may not, and b is called once"},
		{"loop", []string{"a b c", "a b b b c"},
			[]string{"a b b c"},
			[]string{"a c", "a b b b b c", "a c b"},
			[]string{"repeat: 1 to 3 times in a row", "min: 1", "max: 3"},
			"b runs 1 to 3 times, between a and c"},
		{"loop of several calls", []string{"q s r a", "q s r s r a", "q s r s r s r a"},
			nil,
			[]string{"q s a", "q s r s a", "q s r s r s r s r a", "q r s a"},
			[]string{"repeat: the loop s, r, 1 to 3 times in a row", "min: 1", "max: 3"},
			"s then r, one to three passes: a pass cut short fails, and so does a fourth"},
		{"loop with arguments", []string{`s{"p":1} r{"id":"x"}`, `s{"p":1} r{"id":"x"} s{"p":2} r{"id":"x"}`},
			[]string{`s{"p":2} r{"id":"x"}`},
			[]string{`s{"p":3} r{"id":"x"}`, `s{"p":1} r{"id":"y"}`},
			[]string{"varied: integers from 1 to 2"},
			"the arguments of a loop's calls are generalised over every pass"},
		{"alternatives", []string{"s book e", "s hold pay e", "s book e"},
			nil,
			[]string{"s book hold pay e", "s e", "s hold e", "s pay hold e"},
			[]string{"one_of:", "in_order:"},
			"book, or hold then pay: one of them, never both, never neither"},
		{"constant argument", []string{`get{"city":"Paris","units":"metric"}`, `get{"city":"Paris","units":"metric"}`},
			nil,
			[]string{`get{"city":"London","units":"metric"}`, `get{"city":"Paris"}`, `get{"city":"Paris","units":"metric","x":1}`},
			[]string{`args: {"city": "Paris", "units": "metric"}`},
			"a value the same in every run is kept, and the keys are exact"},
		{"varying number", []string{`page{"n":1,"size":20}`, `page{"n":3,"size":20}`, `page{"n":2,"size":20}`},
			[]string{`page{"n":2.5,"size":20}`},
			[]string{`page{"n":4,"size":20}`, `page{"n":0,"size":20}`, `page{"n":"2","size":20}`, `page{"n":2,"size":10}`},
			[]string{"varied: integers from 1 to 3"},
			"a number that varied is kept within the range seen; the constant size stays"},
		{"varying string", []string{`search{"q":"python"}`, `search{"q":"go"}`, `search{"q":"rust"}`},
			[]string{`search{"q":"zig"}`},
			[]string{`search{"q":5}`, `search{}`},
			[]string{"{$type: string}"},
			"free text that varied is checked by type"},
		{"string choice", []string{`f{"m":"a"}`, `f{"m":"b"}`, `f{"m":"a"}`, `f{"m":"b"}`},
			nil,
			[]string{`f{"m":"c"}`},
			[]string{"$oneOf"},
			"two values, each seen twice: a choice"},
		{"value from an earlier result", []string{
			`search{"q":"a","_result":{"items":[{"id":"X1"},{"id":"X2"}]}} read{"id":"X2"}`,
			`search{"q":"b","_result":{"items":[{"id":"Y1"}]}} read{"id":"Y1"}`},
			[]string{`search{"q":"c","_result":{"items":[{"id":"Z1"}]}} read{"id":"Z1"}`},
			[]string{`search{"q":"c","_result":{"items":[{"id":"Z1"}]}} read{"id":"Z9"}`},
			[]string{`{$from: "search.result.items[*].id"}`},
			"an id that varied but always came from the search is a $from"},
		{"seen once, from an earlier result", []string{`a{"_result":{"id":"K1"}} b{"id":"K1"}`, `a{"_result":{"id":"K2"}}`},
			[]string{`a{"_result":{"id":"K3"}} b{"id":"K3"}`},
			[]string{`a{"_result":{"id":"K3"}} b{"id":"K1"}`},
			[]string{`{$from: "a.result.id"}`, "seen once"},
			"a value of a call seen once that an earlier call returned will differ next time: a $from, not the literal"},
		{"keys that vary", []string{`f{"a":1}`, `f{"a":1,"b":true}`},
			[]string{`f{"b":true}`},
			[]string{`f{"a":1,"c":1}`, `f{"a":2}`},
			[]string{"args_match: subset", "in 1 of 2 calls"},
			"no key the runs never had; each key as it was"},
		{"parallel calls", []string{"a|b c", "b|a c"},
			nil,
			[]string{"a c b", "c a b"},
			nil,
			"calls issued together are unordered already: no any_order needed"},
		{"no calls", []string{"", ""},
			nil,
			[]string{"a"},
			[]string{"expected: []"},
			"runs that call nothing expect nothing"},
		{"too many to order", []string{
			"a b c d e f g h i j k l m z",
			"m l k j i h g f e d c a b z"},
			[]string{"a m b l c k d j e i f h g z"},
			[]string{"a b c d e f g h i j k l m x z", "z a b c d e f g h i j k l m", "a a b c d e f g h i j k l m z", "b a c d e f g h i j k l m z"},
			[]string{"one_of:", "type: tool_rules", "before: [a, b]", "at_most: {a: 1}"},
			"13 calls in any order are more than any_order takes: any of them, 13 calls, with the rules that held"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs := runsOf(t, tt.runs...)
			r, err := mine.Mine(ctx, runs, mine.Options{})
			if err != nil {
				t.Fatalf("Mine: %v (%s)", err, tt.reason)
			}
			if len(r.Notes) > 0 {
				t.Errorf("notes %q: the expectation was loosened (%s)", r.Notes, tt.reason)
			}
			for _, h := range tt.has {
				if !strings.Contains(string(r.YAML), h) {
					t.Errorf("the YAML lacks %q (%s):\n%s", h, tt.reason, r.YAML)
				}
			}
			all := append(slices.Clone(tt.runs), tt.pass...)
			for _, s := range all {
				c, err := mine.Check(ctx, r.YAML, []*trajeval.Trajectory{runOf(t, s)})
				if err != nil || c.Failed != 0 {
					t.Errorf("run %q does not pass: %v %s (%s)\n%s", s, err, c.First, tt.reason, r.YAML)
				}
			}
			for _, s := range tt.fail {
				c, err := mine.Check(ctx, r.YAML, []*trajeval.Trajectory{runOf(t, s)})
				if err != nil || c.Passed != 0 {
					t.Errorf("run %q passes, it breaks the family (%s): %v\n%s", s, tt.reason, err, r.YAML)
				}
			}
		})
	}
}

func TestMine_errors(t *testing.T) {
	if _, err := mine.Mine(context.Background(), nil, mine.Options{}); !errors.Is(err, mine.ErrNoRuns) {
		t.Errorf("no runs: got %v, want ErrNoRuns", err)
	}
}

func TestMine_nameless(t *testing.T) {
	runs := runsOf(t, "a b", "a b")
	runs[1].Steps = append(runs[1].Steps, trajeval.Step{Index: 3})
	r, err := mine.Mine(context.Background(), runs, mine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.YAML), "mode: in_order") || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "no tool name") {
		t.Errorf("a call without a name must make the mode in_order, with a note; got notes %q:\n%s", r.Notes, r.YAML)
	}
}

func TestHoldout(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		frac     float64
		wantHeld int
		reason   string
	}{
		{"none", 10, 0, 0, "no share, nothing held back"},
		{"a fifth", 10, 0.2, 2, "rounded share"},
		{"at least one", 3, 0.1, 1, "a share above 0 holds back at least one run"},
		{"never all", 4, 1, 3, "one run is always left to mine"},
		{"one run", 1, 0.5, 0, "a single run cannot be split"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m1, h1 := mine.Holdout(tt.n, tt.frac, 7)
			m2, h2 := mine.Holdout(tt.n, tt.frac, 7)
			if len(h1) != tt.wantHeld || len(m1)+len(h1) != tt.n {
				t.Errorf("held %d of %d, want %d (%s)", len(h1), tt.n, tt.wantHeld, tt.reason)
			}
			if !slices.Equal(m1, m2) || !slices.Equal(h1, h2) {
				t.Errorf("the same seed held back %v then %v", h1, h2)
			}
		})
	}
}

func TestMine_tooLarge(t *testing.T) {
	// 3,000 calls of distinct tools, in two runs: 4.5 million distinct
	// pairs, past the bound on memory.
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "t%d ", i)
		fmt.Fprintf(&b, "t%d ", 2999-i)
	}
	_, err := mine.Mine(context.Background(), runsOf(t, a.String(), b.String()), mine.Options{})
	if !errors.Is(err, mine.ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge: the order graph must be bounded before it is built", err)
	}
}
