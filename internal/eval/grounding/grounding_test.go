package grounding_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/grounding"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// call is a step in shorthand: "name args result", args and result as
// JSON ("" for none); turn and group as given.
type call struct {
	name, args, result string
	turn, group        int
}

func traj(t testing.TB, users []string, calls ...call) *trajeval.Trajectory {
	t.Helper()
	tr := &trajeval.Trajectory{}
	for i, u := range users {
		u := u
		tr.Turns = append(tr.Turns, trajeval.Turn{Turn: i + 1, User: &u})
	}
	for i, c := range calls {
		s := trajeval.Step{Index: i + 1, Name: c.name, Turn: c.turn, ParallelGroup: c.group}
		s.Args = decode(t, c.args)
		s.Result = decode(t, c.result)
		tr.Steps = append(tr.Steps, s)
	}
	return tr
}

func decode(t testing.TB, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := jsonv.Decode([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func TestEvaluator_Evaluate(t *testing.T) {
	user := []string{"Book the cheapest flight from Paris to  New\u00a0York on 2026-05-01 for Jane Smith, budget $1,200."}
	search := call{name: "search_flights", args: `{"from":"Paris","to":"New York","date":"2026-05-01"}`, result: `{"flights":[{"id":"AF-118","price":980.5},{"id":"DL-44","price":1020}]}`}
	tests := []struct {
		name   string
		opt    grounding.Options
		users  []string
		calls  []call
		score  float64
		fails  []string // the names of the failed checks
		reason string
	}{
		{"grounded in the user and a result", grounding.Options{}, user, []call{
			search, {name: "book", args: `{"flight":"AF-118","passenger":"Jane Smith","max_price":1200}`},
		}, 1, nil, "every value comes from the user's message or the search result"},
		{"invented id", grounding.Options{}, user, []call{
			search, {name: "book", args: `{"flight":"AF-999","passenger":"Jane Smith"}`},
		}, 4.0 / 5, []string{`step 2 book args.flight = "AF-999"`}, "AF-999 appears nowhere"},
		{"result not yet seen", grounding.Options{}, user, []call{
			{name: "book", args: `{"flight":"AF-118"}`}, search,
		}, 3.0 / 4, []string{`step 1 book args.flight = "AF-118"`}, "a later result cannot ground an earlier call"},
		{"parallel sibling", grounding.Options{}, user, []call{
			{name: search.name, args: search.args, result: search.result, group: 1}, {name: "book", args: `{"flight":"AF-118"}`, group: 1},
		}, 3.0 / 4, []string{`step 2 book args.flight = "AF-118"`}, "calls issued together cannot use each other's results"},
		{"parallel group after", grounding.Options{}, user, []call{
			{name: search.name, args: search.args, result: search.result, group: 1}, {name: "book", args: `{"flight":"AF-118"}`, group: 2},
		}, 1, nil, "a later group sees an earlier group's results"},
		{"sibling before an earlier source", grounding.Options{}, []string{"AF-118 please"}, []call{
			{name: search.name, args: `{}`, result: search.result, group: 1}, {name: "book", args: `{"flight":"AF-118"}`, group: 1},
		}, 1, nil, "the sibling's occurrence is skipped and the user's found before it"},
		{"whitespace and NFC", grounding.Options{}, []string{"Meet at Cafe\u0301 de   Flore"}, []call{
			{name: "map", args: `{"place":"Café de Flore"}`},
		}, 1, nil, "a decomposed é and a run of spaces match the composed, single-spaced value"},
		{"case", grounding.Options{}, user, []call{{name: "s", args: `{"q":"new york"}`}}, 0, []string{`step 1 s args.q = "new york"`}, "strings match case-sensitively by default"},
		{"case insensitive", grounding.Options{CaseInsensitive: true}, user, []call{{name: "s", args: `{"q":"NEW YORK"}`}}, 1, nil, "case_insensitive folds both"},
		{"short strings skipped", grounding.Options{}, user, []call{{name: "s", args: `{"unit":"km","q":"Paris"}`}}, 1, nil, "km has 2 characters: not checked"},
		{"min length", grounding.Options{MinLength: 1}, user, []call{{name: "s", args: `{"unit":"km"}`}}, 0, []string{`step 1 s args.unit = "km"`}, "min_length 1 checks it"},
		{"bool and null skipped", grounding.Options{}, user, []call{{name: "s", args: `{"a":true,"b":null}`}}, 1, nil, "nothing to check"},
		{"number from text", grounding.Options{}, user, []call{{name: "s", args: `{"budget":1200.0,"year":2026,"day":1,"month":5}`}}, 1, nil, "1,200 in text is 1200; the date holds 2026, 5 and 1"},
		{"number not a part", grounding.Options{}, []string{"room 415"}, []call{{name: "s", args: `{"room":15}`}}, 0, []string{`step 1 s args.room = 15`}, "15 is not the number 415"},
		{"negative", grounding.Options{}, []string{"set it to -5 degrees, in 2026-05"}, []call{{name: "s", args: `{"t":-5,"m":5}`}}, 1, nil, "-5 is written; 05 in a date is 5, not -5"},
		{"negative not invented", grounding.Options{}, []string{"in 2026-05"}, []call{{name: "s", args: `{"m":-5}`}}, 0, []string{`step 1 s args.m = -5`}, "a hyphen after a digit is not a sign"},
		{"number from result", grounding.Options{}, user, []call{search, {name: "pay", args: `{"amount":980.50}`}}, 1, nil, "980.50 = 980.5 by value"},
		{"exact big numbers", grounding.Options{}, nil, []call{{name: "a", result: `{"n":9007199254740993}`}, {name: "b", args: `{"n":9007199254740992}`}}, 0, []string{`step 2 b args.n = 9007199254740992`}, "numbers compare exactly"},
		{"numbers skipped", grounding.Options{SkipNumbers: true}, nil, []call{{name: "s", args: `{"limit":10}`}}, 1, nil, "numbers off: nothing to check"},
		{"result as JSON text", grounding.Options{}, nil, []call{
			{name: "a", result: `"{\"items\":[{\"id\":\"X-\\u00e9\"}]}"`}, {name: "b", args: `{"id":"X-é"}`},
		}, 1, nil, "a result holding JSON is decoded, escapes and all"},
		{"not across strings", grounding.Options{}, nil, []call{
			{name: "a", result: `["New", "York"]`}, {name: "b", args: `{"c":"New York"}`},
		}, 0, []string{`step 2 b args.c = "New York"`}, "two strings of a result are not one text"},
		{"object keys", grounding.Options{}, nil, []call{
			{name: "a", result: `{"P-77":{"stock":1}}`}, {name: "b", args: `{"id":"P-77"}`},
		}, 1, nil, "a result's keys are text too"},
		{"error message", grounding.Options{}, nil, []call{
			{name: "a", result: `"unknown city; did you mean Lisbon?"`}, {name: "a", args: `{"city":"Lisbon"}`},
		}, 1, nil, "a tool's answer, error or not, is a source"},
		{"earlier args are not a source", grounding.Options{}, nil, []call{
			{name: "a", args: `{"id":"ZZZ"}`}, {name: "b", args: `{"id":"ZZZ"}`},
		}, 0, []string{`step 1 a args.id = "ZZZ"`, `step 2 b args.id = "ZZZ"`}, "repeating an invention does not ground it"},
		{"case input", grounding.Options{Input: "order ORD-5"}, nil, []call{{name: "a", args: `{"id":"ORD-5"}`}}, 1, nil, "the case's input is a source"},
		{"later turn not seen", grounding.Options{}, []string{"hi there", "now for Berlin"}, []call{
			{name: "a", args: `{"city":"Berlin"}`, turn: 1}, {name: "a", args: `{"city":"Berlin"}`, turn: 2},
		}, 0.5, []string{`step 1 a args.city = "Berlin"`}, "turn 2's message comes after turn 1's calls"},
		{"unknown turn sees all", grounding.Options{}, []string{"hi there", "now for Berlin"}, []call{
			{name: "a", args: `{"city":"Berlin"}`},
		}, 1, nil, "a step with no turn sees every user message"},
		{"ignore", grounding.Options{Ignore: []string{"search_flights.date", "*.passenger"}}, nil, []call{
			{name: "search_flights", args: `{"date":"2026-05-01"}`}, {name: "book", args: `{"passenger":"Jane","seat":"12A"}`},
		}, 0, []string{`step 2 book args.seat = "12A"`}, "ignored places are not checked"},
		{"only", grounding.Options{Only: []string{"book.passengers[*].name"}}, nil, []call{
			{name: "book", args: `{"passengers":[{"name":"Jane","seat":"12A"},{"name":"Joe"}],"note":"xyz"}`},
		}, 0, []string{`step 1 book args.passengers[0].name = "Jane"`, `step 1 book args.passengers[1].name = "Joe"`}, "only the listed places are checked"},
		{"only covers below", grounding.Options{Only: []string{"book.filters"}}, []string{"under 300"}, []call{
			{name: "book", args: `{"filters":{"max":300,"tag":"qqq"},"x":"yyy"}`},
		}, 0.5, []string{`step 1 book args.filters.tag = "qqq"`}, "a path covers the values below it"},
		{"nothing to check", grounding.Options{}, nil, []call{{name: "ping"}}, 1, nil, "no values: score 1, said in a skipped check"},
		{"no steps", grounding.Options{}, nil, nil, 1, nil, "no calls: nothing invented"},
	}
	// A long last result (no arguments, seen by no call) makes the index
	// long enough to be searched through its suffix array: the rules
	// must hold either way.
	pad := call{name: "pad", result: `"` + strings.Repeat("x y ", 20000) + `"`}
	for _, tt := range tests {
		for _, long := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/long=%v", tt.name, long), func(t *testing.T) {
				e, err := grounding.New(tt.opt)
				if err != nil {
					t.Fatal(err)
				}
				calls := tt.calls
				if long {
					calls = append(slices.Clone(calls), pad)
				}
				out, err := e.Evaluate(context.Background(), traj(t, tt.users, calls...))
				if err != nil {
					t.Fatal(err)
				}
				var fails []string
				for _, c := range out.Details.Checks {
					if c.Status == trajeval.CheckFail {
						fails = append(fails, c.Name)
					}
				}
				if out.Score != tt.score || !reflect.DeepEqual(fails, tt.fails) {
					t.Errorf("score %v, failed %q; want %v, %q: %s\nchecks: %+v", out.Score, fails, tt.score, tt.fails, tt.reason, out.Details.Checks)
				}
			})
		}
	}
}

func TestEvaluator_Evaluate_explains(t *testing.T) {
	users := []string{"find shoes"}
	tr := traj(t, users,
		call{name: "search", args: `{"q":"shoes"}`, result: `{"items":[{"id":"P1"}]}`, turn: 1},
		call{name: "other", args: `{}`, result: `"ok"`, turn: 1},
		call{name: "stock", args: `{}`, result: `"ok"`, turn: 1, group: 4},
		call{name: "get", args: `{"id":"P-99"}`, turn: 1, group: 4},
	)
	e, err := grounding.New(grounding.Options{Input: "a shop"})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := e.Evaluate(context.Background(), tr)
	var got []string
	for _, c := range out.Details.Checks {
		got = append(got, c.Status+" "+c.Name+": "+c.Message)
	}
	want := []string{`fail step 4 get args.id = "P-99": not in the user's messages (turn 1), the case's input or the results of steps 1, 2; step 3 was issued together with this call, so its result does not count`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("checks:\n got %q\nwant %q", got, want)
	}
	if out.Details.Hits != 1 || out.Details.Expected != 2 {
		t.Errorf("hits %d of %d, want 1 of 2", out.Details.Hits, out.Details.Expected)
	}

	out, _ = e.Evaluate(context.Background(), traj(t, nil, call{name: "a", args: `{"x":"abc"}`}))
	if m := out.Details.Checks[0].Message; !strings.Contains(m, "the case's input") {
		t.Errorf("message %q: want the case's input as the only source", m)
	}
	e, _ = grounding.New(grounding.Options{})
	out, _ = e.Evaluate(context.Background(), traj(t, nil, call{name: "a", args: `{"x":"abc"}`}))
	if m := out.Details.Checks[0].Message; !strings.Contains(m, "no user message, case input or earlier result") {
		t.Errorf("message %q: want it to say there was nothing to look in", m)
	}
}

func TestNew_errors(t *testing.T) {
	tests := []struct {
		name   string
		opt    grounding.Options
		msg    string
		col    int
		reason string
	}{
		{"negative length", grounding.Options{MinLength: -1}, "min_length: must not be negative", 0, "a length is ≥ 0"},
		{"bad ignore", grounding.Options{Ignore: []string{"a.b", "search..q"}}, `ignore[1]: path "search..q", column 8`, 8, "the path's column is named"},
		{"bad only", grounding.Options{Only: []string{"a[x]"}}, `only[0]: path "a[x]", column 3`, 3, "only is checked too"},
		{"index first", grounding.Options{Only: []string{"[0].a"}}, `a path starts with a tool name`, 1, "the tool comes first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := grounding.New(tt.opt)
			var oe *grounding.OptionError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("New = %v, want an *OptionError with %q: %s", err, tt.msg, tt.reason)
			}
			var pe *argmatch.PathError
			if tt.col > 0 && (!errors.As(err, &pe) || pe.Col != tt.col) {
				t.Errorf("New = %v, want a *PathError at column %d: %s", err, tt.col, tt.reason)
			}
		})
	}
}

// bigTrace is a trajectory of n steps, each reading one record found by
// the step before, with results of about 600 bytes, and one ungrounded
// value in ten steps.
func bigTrace(tb testing.TB, n int) *trajeval.Trajectory {
	var calls []call
	for i := range n {
		id := fmt.Sprintf("REC-%06d", i)
		if i%10 == 9 {
			id = fmt.Sprintf("BAD-%06d", i)
		}
		var rows []string
		for k := range 8 {
			rows = append(rows, fmt.Sprintf(`{"id":"REC-%06d","name":"record %d of step %d","score":%d.5}`, i+1, k, i, k))
		}
		calls = append(calls, call{name: "read", args: fmt.Sprintf(`{"id":%q,"limit":8}`, id), result: "[" + strings.Join(rows, ",") + "]"})
	}
	return traj(tb, []string{"start with REC-000000 and read 8 at a time"}, calls...)
}

func TestEvaluator_Evaluate_big(t *testing.T) {
	e, _ := grounding.New(grounding.Options{})
	out, err := e.Evaluate(context.Background(), bigTrace(t, 1000))
	if err != nil {
		t.Fatal(err)
	}
	if out.Details.Expected != 2000 || out.Details.Hits != 1900 {
		t.Errorf("hits %d of %d, want 1900 of 2000", out.Details.Hits, out.Details.Expected)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			tr := bigTrace(b, n)
			e, _ := grounding.New(grounding.Options{})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Evaluate(context.Background(), tr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestEvaluator_Evaluate_unreachedPaths(t *testing.T) {
	tr := traj(t, nil,
		call{name: "search", args: `{"limit":5,"filters":{"city":"Oslo"}}`},
		call{name: "book", args: `{"seats":[{"name":"Ana"}]}`},
	)
	tests := []struct {
		name   string
		opt    grounding.Options
		want   []string
		reason string
	}{
		{"reached", grounding.Options{Ignore: []string{"search.limit", "search.filters", "*.seats[*].name", "book.seats.0"}}, nil, "every path reaches a value"},
		{"tool not called", grounding.Options{Ignore: []string{"pay.args.amount"}}, nil, "a path of a tool this trace does not call says nothing: another trace may call it"},
		{"argument left out", grounding.Options{Ignore: []string{"search.page", "*.nope"}}, nil, "an optional argument absent from this trace's calls is no mistake"},
		{"args. prefix", grounding.Options{Only: []string{"search.args.limit"}, Ignore: []string{"*.args.seats"}}, []string{
			"only path search.args.limit: a path has no args segment (write search.limit)",
			"ignore path *.args.seats: a path has no args segment (write *.seats)",
		}, "the report writes args.limit; the path does not take args."},
		{"an argument named args", grounding.Options{Ignore: []string{"run.args.x"}}, nil, "a tool whose argument is called args is reached"},
	}
	tr2 := traj(t, nil, call{name: "run", args: `{"args":{"x":"abc"}}`})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := grounding.New(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			in := tr
			if tt.name == "an argument named args" {
				in = tr2
			}
			out, err := e.Evaluate(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out.Details.Warnings, tt.want) {
				t.Errorf("warnings = %q, want %q: %s", out.Details.Warnings, tt.want, tt.reason)
			}
		})
	}
}

func TestEvaluator_Evaluate_sharedWithoutUser(t *testing.T) {
	tests := []struct {
		name   string
		opt    grounding.Options
		users  []string
		warned bool
		reason string
	}{
		{"shared, no user message", grounding.Options{Shared: true}, nil, true, "the case's input, not seen, is likely where the value was"},
		{"shared, user messages", grounding.Options{Shared: true}, []string{"hello there"}, false, "the trace's own user messages were looked in"},
		{"a case's own", grounding.Options{}, nil, false, "a case's evaluator sees its input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := grounding.New(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.Evaluate(context.Background(), traj(t, tt.users, call{name: "lookup", args: `{"order":"ORD-77"}`}))
			if err != nil {
				t.Fatal(err)
			}
			warned := slices.ContainsFunc(out.Details.Warnings, func(w string) bool { return strings.Contains(w, "does not see the case's input") })
			if warned != tt.warned {
				t.Errorf("warned = %v (%q), want %v: %s", warned, out.Details.Warnings, tt.warned, tt.reason)
			}
		})
	}
}
