package trajectory_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

func TestToolTrajectory_Groups(t *testing.T) {
	const abcd = "mode: in_order\nexpected: [A, {any_order: [B, C]}, D]"
	tests := []struct {
		name   string
		yaml   string
		actual string
		score  float64
		reason string
	}{
		{"any_order as written", abcd, "A B C D", 1, "the group's calls in the order listed"},
		{"any_order swapped", abcd, "A C B D", 1, "the group's calls in the other order"},
		{"any_order before A", abcd, "B A C D", 0.75, "B must come after A: the best alignment leaves one of the group out"},
		{"any_order after D", abcd, "A B D C", 0.75, "C must come before D"},
		{"any_order missing", abcd, "A C D", 0.75, "B is missing: 3 of 4"},
		{"any_order extras", abcd, "x A y C z B D w", 1, "other calls may sit between, as in in_order"},
		{"any_order of sequences", "mode: in_order\nexpected: [{any_order: [{in_order: [a, b]}, c]}]", "c a b", 1, "an entry of several calls is taken whole"},
		{"any_order does not interleave", "mode: in_order\nexpected: [{any_order: [{in_order: [a, b]}, c]}]", "a c b", 2.0 / 3, "a, c, b splits the sequence a, b"},
		{"one_of first", "mode: in_order\nexpected: [{one_of: [search, lookup]}, answer]", "search answer", 1, "either alternative is enough"},
		{"one_of second", "mode: in_order\nexpected: [{one_of: [search, lookup]}, answer]", "lookup answer", 1, "either alternative is enough"},
		{"one_of neither", "mode: in_order\nexpected: [{one_of: [search, lookup]}, answer]", "answer", 0.5, "the one_of counts as one call, missing"},
		{"one_of best ratio", "mode: in_order\nexpected: [{one_of: [{in_order: [a, b, c, d, e]}, k]}]", "a b k", 1, "k alone completes an alternative; 2 of 5 of the long one would score less"},
		{"one_of long alternative", "mode: in_order\nexpected: [{one_of: [{in_order: [a, b, c, d]}, k]}]", "a b c", 0.75, "the closest alternative counts: 3 of 4"},
		{"optional absent", "mode: in_order\nexpected: [a, {optional: b}, c]", "a c", 1, "an absent optional call costs nothing"},
		{"optional present", "mode: in_order\nexpected: [a, {optional: b}, c]", "a b c", 1, "present, it is matched"},
		{"optional helps a failing run", "mode: in_order\nexpected: [a, {optional: b}, c]", "a b", 2.0 / 3, "a and b matched of a, b, c: better than 1 of a, c"},
		{"repeat default", "mode: in_order\nexpected: [{repeat: search}, answer]", "search search search answer", 1, "min 1, no max: every search is matched"},
		{"repeat below min", "mode: in_order\nexpected: [{repeat: search, min: 3}, answer]", "search answer", 0.5, "min 3 counts three calls: 2 of 4"},
		{"repeat zero", "mode: in_order\nexpected: [{repeat: search, min: 0}, answer]", "answer", 1, "min 0: none is fine"},
		{"repeat above max", "mode: in_order\nscore: precision\nexpected: [{repeat: search, max: 2}]", "search search search", 2.0 / 3, "the third search is extra: precision counts it"},
		{"repeat of a group", "mode: in_order\nexpected: [{repeat: {in_order: [fetch, parse]}, min: 2}]", "fetch parse fetch parse", 1, "each repetition is the whole sequence"},
		{"nested", "mode: in_order\nexpected: [plan, {repeat: {one_of: [search, {any_order: [read, grep]}]}}, answer]", "plan grep read search answer", 1, "groups nest: (grep read) then search"},
		{"parallel steps", abcd, "A [D B] C", 0.75, "a parallel group is unordered among itself, not with the steps after it"},
		{"parallel steps in the group", abcd, "A [C B] D", 1, "B and C issued together"},
		{"latency inside a group", "mode: in_order\nexpected: [{any_order: [{tool: a, max_duration_ms: 10}, b]}]", "b a@20", 2.0 / 3, "2 hits + 0 passes of 2 calls + 1 check"},
		{"latency decides the one_of", "mode: in_order\nexpected: [{one_of: [{tool: a, max_duration_ms: 10}, b]}]", "a@20 b", 1, "b completes the one_of without a failing latency check"},
		{"exact any_order", "mode: exact\nexpected: [A, {any_order: [B, C]}, D]", "A C B D", 1, "position by position, the group's calls in either order"},
		{"exact extra call", "mode: exact\nexpected: [A, {any_order: [B, C]}, D]", "A C B D E", 0.8, "max(|w|, |A|) = 5: an extra call counts"},
		{"exact gap", "mode: exact\nexpected: [A, {any_order: [B, C]}, D]", "A C X B D", 0.4, "positions 2 and 5 hold C and D: the rest is off by one"},
		{"exact optional", "mode: exact\nexpected: [A, {optional: B}, C]", "A C", 1, "the list without B fits exactly"},
		{"exact repeat", "mode: exact\nexpected: [{repeat: A, max: 2}, B]", "A A A B", 0.5, "at most two A: position 3 holds A where B is expected, and B at 4 is extra: 2 of 4"},
		{"exact one_of", "mode: exact\nexpected: [{one_of: [A, {in_order: [B, C]}]}, D]", "B C D", 1, "the alternative of two calls"},
		{"strict one_of", "mode: strict\nexpected: [{one_of: [A, B]}, D]", "B D", 1, "Dokimos STRICT is exact scored binary"},
		{"exact empty word", "mode: exact\nexpected: [{optional: A}]", "B", 0, "the empty list against a call: 0, as exact with nothing expected"},
		{"exact empty both", "mode: exact\nexpected: [{optional: A}]", "", 1, "nothing expected, nothing done"},
		{"exact parallel", "mode: exact\nexpected: [A, {any_order: [B, C]}, D]", "A [C B] D", 1, "a parallel group in any permutation"},
		{"only optional", "mode: in_order\nexpected: [{optional: a}]", "b", 1, "nothing is required: nothing is missing"},
		{"one_of recall", "mode: in_order\nexpected: [{one_of: [a, {in_order: [b, c, d]}]}]", "a b c", 1, "a alone completes an alternative"},
		{"one_of precision", "mode: in_order\nscore: precision\nexpected: [{one_of: [a, {in_order: [b, c, d]}]}]", "a b c", 2.0 / 3, "b c d matches two of the three calls; a only one"},
		{"one_of f1", "mode: in_order\nscore: f1\nexpected: [{one_of: [a, {in_order: [b, c, d]}]}]", "a b c", 2.0 / 3, "2·2 / (3 + 3) for b c d; 2·1 / (1 + 3) for a"},
		{"one_of max", "mode: in_order\nscore: max\nexpected: [{one_of: [a, {in_order: [b, c, d]}]}]", "a b c", 2.0 / 3, "2 / max(3, 3) for b c d; 1 / 3 for a"},
		{"one_of binary", "mode: in_order\nscore: binary\nexpected: [{one_of: [a, {in_order: [b, c, d]}]}]", "a b c", 1, "binary is 1 when the recall is"},
		{"exact one_of precision", "mode: exact\nscore: precision\nexpected: [{one_of: [a, {in_order: [a, b, c]}]}]", "a b c", 1, "position by position a b c matches all three steps"},
		{"max longer than the steps", "mode: in_order\nscore: max\nexpected: [{one_of: [{in_order: [a, x, y, z]}, {in_order: [a, b, c, w]}, b]}]", "a b c", 0.75, "a b c w: 3 of max(4, 3) beats b alone (1 of 3) and a x y z (1 of 4)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "type: tool_trajectory\n"+tc.yaml, tc.actual)
			if r.Status == trajeval.StatusError {
				t.Fatal(r.Error)
			}
			if !near(r.Score, tc.score) {
				t.Errorf("score %v, want %v: %s (details %+v)", r.Score, tc.score, tc.reason, r.Details)
			}
		})
	}
}

// The chosen word explains itself: its calls are the rows, each with its
// place in expected.
func TestToolTrajectory_GroupsExplain(t *testing.T) {
	r := run(t, `
type: tool_trajectory
mode: in_order
expected:
  - A
  - any_order: [B, C]
  - optional: E
  - repeat: {tool: F}
    min: 2
  - D`, "A C B F D")
	d := r.Details
	if d.Expected != 6 || d.Hits != 5 {
		t.Fatalf("expected %d hits %d, want 6 calls chosen (A C B F F D), 5 matched", d.Expected, d.Hits)
	}
	want := []any{"1 A: expected[0]", "2 C: expected[1].any_order[1]", "3 B: expected[1].any_order[0]",
		"4-5 F: expected[3].repeat", "6 D: expected[4]"}
	if got := fmt.Sprint(d.Notes["chosen"]); got != fmt.Sprint(want) {
		t.Errorf("chosen %v, want %v", got, want)
	}
	if len(d.Missing) != 1 || d.Missing[0].Tool != "F" {
		t.Errorf("missing %+v, want one F", d.Missing)
	}
	if len(d.Extra) != 0 {
		t.Errorf("extra %+v, want none", d.Extra)
	}
	text := r.Explain()
	for _, s := range []string{"expected 6, actual 5, matched 5", " 2 C ", "✓ step 2 C", " 5 F ", "✗ missing", "chosen: "} {
		if !strings.Contains(text, s) {
			t.Errorf("explanation lacks %q:\n%s", s, text)
		}
	}
}

func TestToolTrajectory_GroupErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want, reason string
	}{
		{"any_order mode", "mode: any_order\nexpected: [a, {optional: b}]", "s.yaml:3:16: expected[1]: groups in expected are only scored in modes in_order and exact, not any_order", "under any_order the list has no order to group"},
		{"subset mode", "mode: subset\nexpected: [{repeat: a}]", "not subset", "an allow-list has no order nor count"},
		{"dokimos mode", "mode: superset\nexpected: [{repeat: a}]", "not superset", "the mode as written"},
		{"default mode", "expected: [{repeat: a}]", "not any_order", "the default mode is any_order"},
		{"min above max", "mode: in_order\nexpected:\n  - repeat: a\n    min: 3\n    max: 2", "s.yaml:6:10: expected[0].max: max 2 is below min 3", "no count satisfies both"},
		{"negative min", "mode: in_order\nexpected:\n  - repeat: a\n    min: -1", "s.yaml:5:10: expected[0].min: min must be at least 0", "a count is never negative"},
		{"max zero", "mode: in_order\nexpected:\n  - repeat: a\n    max: 0", "max must be at least 1", "repeating at most zero times expects nothing"},
		{"min not a number", "mode: in_order\nexpected:\n  - repeat: a\n    min: two", "whole number", "min is a count"},
		{"empty any_order", "mode: in_order\nexpected: [{any_order: []}]", "s.yaml:3:24: expected[0].any_order: an empty any_order group expects nothing", "a group of nothing is a mistake"},
		{"empty one_of", "mode: in_order\nexpected: [{one_of: []}]", "an empty one_of group", "no alternative"},
		{"unknown group key", "mode: in_order\nexpected: [{any_ordr: [a]}]", `did you mean "any_order"`, "a misspelt group"},
		{"two group keys", "mode: in_order\nexpected: [{any_order: [a], one_of: [b]}]", `unknown key "one_of"`, "one group per entry"},
		{"tool beside a group", "mode: in_order\nexpected: [{optional: a, tool: b}]", `unknown key "tool"`, "a group is not a call"},
		{"min beside optional", "mode: in_order\nexpected: [{optional: a, min: 1}]", `unknown key "min"`, "min and max belong to repeat"},
		{"optional of a list", "mode: in_order\nexpected: [{optional: [a, b]}]", "optional takes one entry, not a list", "a sequence is in_order: [...]"},
		{"list entry", "mode: in_order\nexpected: [a, [b, c]]", "not a list", "a nested list is ambiguous"},
		{"bad call inside", "mode: in_order\nexpected: [{one_of: [a, {tool: b, arg: {}}]}]", `did you mean "args"`, "calls inside groups are checked as everywhere"},
		{"bad operator inside", "mode: in_order\nexpected: [{optional: {tool: a, args: {x: {$regexp: a}}}}]", "did you mean $regex", "operators inside groups compile at their place"},
		{"too large", "mode: in_order\nexpected: [{any_order: [a, b, c, d, e, f, g, h, i, j, k, l, m]}]", "s.yaml:3:13: expected[0]: 13 entries: an any_order group takes at most 12", "2^13 orders: use mode: any_order"},
		{"empty tool inside", "mode: in_order\nexpected: [a, {optional: {tool: ''}}]", "s.yaml:3:27: expected[1].optional: the tool name is empty", "placed at the call"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := config.Parse("s.yaml", []byte("type: tool_trajectory\n"+tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			_, err = spec.Build(n, &spec.Env{Types: builtin.Types()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q: %s", err, tc.want, tc.reason)
			}
			if !strings.HasPrefix(err.Error(), "s.yaml:") {
				t.Errorf("error %q does not start with its file and line", err)
			}
		})
	}
}

func TestNew_Groups(t *testing.T) {
	call := func(tool string) trajectory.Expect { return trajectory.Expect{Call: trajeval.ExpectedCall{Tool: tool}} }
	tests := []struct {
		name   string
		o      trajectory.Options
		want   string
		reason string
	}{
		{"any_order mode", trajectory.Options{Groups: []trajectory.Expect{{Group: trajectory.GroupOptional, Items: []trajectory.Expect{call("a")}}}}, "only scored in in_order and exact modes", "the default mode is any_order"},
		{"both lists", trajectory.Options{Mode: trajectory.InOrder, Expected: []trajeval.ExpectedCall{{Tool: "a"}}, Groups: []trajectory.Expect{call("b")}}, "both set", "one list of calls"},
		{"repeat of two", trajectory.Options{Mode: trajectory.InOrder, Groups: []trajectory.Expect{{Group: trajectory.GroupRepeat, Items: []trajectory.Expect{call("a"), call("b")}, Min: 1, Max: trajectory.Unbounded}}}, "expected[0].repeat: repeat takes exactly one entry", "a repeat of a sequence is repeat: {in_order: ...}"},
		{"max zero", trajectory.Options{Mode: trajectory.InOrder, Groups: []trajectory.Expect{{Group: trajectory.GroupRepeat, Items: []trajectory.Expect{call("a")}}}}, "max must be at least 1", "the zero Expect's Max is not unbounded"},
		{"unknown group", trajectory.Options{Mode: trajectory.InOrder, Groups: []trajectory.Expect{{Group: "some_of", Items: []trajectory.Expect{call("a")}}}}, `unknown group "some_of"`, "a group New does not know"},
		{"a group with a tool", trajectory.Options{Mode: trajectory.InOrder, Groups: []trajectory.Expect{{Group: trajectory.GroupOptional, Call: trajeval.ExpectedCall{Tool: "x"}, Items: []trajectory.Expect{call("a")}}}}, "a group is not a call", "the call would be ignored"},
		{"empty tool", trajectory.Options{Mode: trajectory.InOrder, Groups: []trajectory.Expect{{Group: trajectory.GroupOptional, Items: []trajectory.Expect{call("")}}}}, "the tool name is empty", "checked as for plain lists"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trajectory.New(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, trajectory.ErrOption) {
				t.Fatalf("New: %v, want an ErrOption containing %q: %s", err, tc.want, tc.reason)
			}
		})
	}
	// Entries without a group are a plain list, scored as before.
	e, err := trajectory.New(trajectory.Options{Groups: []trajectory.Expect{call("a"), call("b")}})
	if err != nil || len(e.Calls) != 2 || e.Groups != nil {
		t.Fatalf("plain entries: %v %+v, want an any_order evaluator of two calls", err, e)
	}
}

// A slow optional call is left out of the chosen list rather than fail
// its latency check: it shows as an extra step.
func TestToolTrajectory_GroupsSlowOptional(t *testing.T) {
	r := run(t, "type: tool_trajectory\nmode: in_order\nexpected: [a, {optional: {tool: b, max_duration_ms: 10}}]", "a b@20")
	if r.Score != 1 || len(r.Details.Extra) != 1 || r.Details.Extra[0].Tool != "b" {
		t.Fatalf("score %v extra %+v, want 1 with b extra: the list without the optional call scores best", r.Score, r.Details.Extra)
	}
}

// TestToolTrajectory_absentOptional checks, on random lists with latency
// limits, that adding an optional call that is absent from the steps
// changes no score, in in_order mode and for every score. (In exact mode
// an optional call holds a position when taken, so it can line the
// calls after it up with their steps: a placeholder, not a tie.)
func TestToolTrajectory_absentOptional(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tools := []string{"a", "b", "c"}
	for n := range 300 {
		var calls []string
		for range 1 + rng.IntN(4) {
			c := tools[rng.IntN(len(tools))]
			if rng.IntN(2) == 0 {
				c = fmt.Sprintf("{tool: %s, max_duration_ms: 100}", c)
			}
			calls = append(calls, c)
		}
		var acts []string
		for range rng.IntN(6) {
			a := append(tools, "x")[rng.IntN(4)]
			switch rng.IntN(3) {
			case 0:
				a += "@50"
			case 1:
				a += "@200"
			}
			acts = append(acts, a)
		}
		actual := strings.Join(acts, " ")
		at := rng.IntN(len(calls) + 1)
		with := append(append(slices.Clone(calls[:at]), "{optional: {tool: z, max_duration_ms: 100}}"), calls[at:]...)
		for _, mode := range []string{"in_order"} {
			for _, sc := range []string{"recall", "precision", "f1", "max", "binary"} {
				yaml := func(list []string) string {
					return fmt.Sprintf("type: tool_trajectory\nmode: %s\nscore: %s\nexpected: [%s]", mode, sc, strings.Join(list, ", "))
				}
				plain, grouped := run(t, yaml(calls), actual), run(t, yaml(with), actual)
				if plain.Status == trajeval.StatusError || grouped.Status == trajeval.StatusError {
					t.Fatalf("case %d: %v %v", n, plain.Error, grouped.Error)
				}
				if !near(plain.Score, grouped.Score) {
					t.Fatalf("case %d %s %s: [%s] against %q scores %v, %v with an absent optional call",
						n, mode, sc, strings.Join(calls, ", "), actual, plain.Score, grouped.Score)
				}
			}
		}
	}
}
