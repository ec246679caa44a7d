package deepeval_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/deepeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// call is one call in shorthand: name, JSON input, JSON output ("" none).
type call struct{ name, in, out string }

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonv.Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func expected(t *testing.T, cs []call) []deepeval.Call {
	var out []deepeval.Call
	for _, c := range cs {
		e := deepeval.Call{Name: c.name}
		if c.in != "" {
			e.InputParameters = decode(t, c.in).(map[string]any)
		}
		if c.out != "" {
			e.Output, e.HasOutput = decode(t, c.out), true
		}
		out = append(out, e)
	}
	return out
}

func traj(t *testing.T, cs []call) *trajeval.Trajectory {
	tr := &trajeval.Trajectory{}
	for _, c := range cs {
		s := trajeval.Step{Name: c.name}
		if c.in != "" {
			s.Args = decode(t, c.in)
		}
		if c.out != "" {
			s.Result = decode(t, c.out)
		}
		tr.Steps = append(tr.Steps, s)
	}
	tr.Finish()
	return tr
}

func names(s string) []call {
	var out []call
	for _, n := range strings.Fields(s) {
		out = append(out, call{name: n})
	}
	return out
}

func TestCorrectness_Evaluate(t *testing.T) {
	q := func(in string) call { return call{name: "s", in: in} }
	tests := []struct {
		name     string
		o        deepeval.Options
		exp, got []call
		want     float64
		deepeval float64 // DeepEval's own value when it differs; -1 when the same
		reason   string
	}{
		{"names, one missing", deepeval.Options{}, names("a b"), names("a"), 0.5, -1, "half the expected tools were called"},
		{"names, extras are free", deepeval.Options{}, names("a b"), names("c b a"), 1, -1, "extra calls cost nothing in DeepEval's default"},
		{"input partial credit", deepeval.Options{InputParameters: true}, []call{q(`{"q":"x","n":1}`)}, []call{q(`{"q":"x","n":2}`)}, 0.5, -1, "one of two keys equal"},
		{"input extra key", deepeval.Options{InputParameters: true}, []call{q(`{"q":"x","n":1}`)}, []call{q(`{"q":"x","n":1,"e":true}`)}, 2.0 / 3, -1, "two of the three keys either has are equal"},
		{"nested input", deepeval.Options{InputParameters: true}, []call{q(`{"f":{"a":1,"b":2}}`)}, []call{q(`{"f":{"a":1,"b":3}}`)}, 0.5, -1, "the nested object is half equal"},
		{"numbers by value", deepeval.Options{InputParameters: true}, []call{q(`{"n":1}`)}, []call{q(`{"n":1.0}`)}, 1, -1, "1 = 1.0"},
		{"no input on either side", deepeval.Options{InputParameters: true}, names("a"), names("a"), 1, -1, "two empty inputs are equal"},
		{"repeated identical calls (#3141)", deepeval.Options{InputParameters: true}, []call{q(`{"q":"x"}`), q(`{"q":"x"}`)}, []call{q(`{"q":"x"}`), q(`{"q":"x"}`)}, 1, 0.5,
			"both calls were made; DeepEval counts the second as already taken"},
		{"greedy pairing", deepeval.Options{InputParameters: true}, []call{q(`{"a":1,"b":1}`), q(`{"a":1,"b":2}`)}, []call{q(`{"a":1,"b":2}`), q(`{"a":1,"b":9}`)}, 0.75, 0.5,
			"the first expected call must leave step 1 to the second, which matches it fully"},
		{"ordering, swapped", deepeval.Options{ConsiderOrdering: true}, names("a b c"), names("b a c"), 2.0 / 3, -1, "the longest common subsequence has two"},
		{"ordering, weighted", deepeval.Options{ConsiderOrdering: true, InputParameters: true}, []call{q(`{"q":1}`), {name: "t"}}, []call{{name: "t"}, q(`{"q":1}`)}, 0.5, -1, "only one of the two can be in order"},
		{"exact, same", deepeval.Options{ExactMatch: true}, names("a b"), names("a b"), 1, -1, "position by position"},
		{"exact, extra", deepeval.Options{ExactMatch: true}, names("a b"), names("a b c"), 0, -1, "lengths differ"},
		{"exact, input differs", deepeval.Options{ExactMatch: true, InputParameters: true}, []call{q(`{"q":1,"r":2}`)}, []call{q(`{"q":1,"r":3}`)}, 0, -1, "exact match wants equal inputs, no partial credit"},
		{"output equal", deepeval.Options{Output: true}, []call{{name: "s", out: `"ok"`}}, []call{{name: "s", out: `"ok"`}}, 1, -1, "same result"},
		{"output differs", deepeval.Options{Output: true}, []call{{name: "s", out: `"ok"`}}, []call{{name: "s", out: `"no"`}}, 0, -1, "a different result makes the pair worth nothing"},
		{"output as JSON text", deepeval.Options{Output: true}, []call{{name: "s", out: `{"n":1}`}}, []call{{name: "s", out: `"{\"n\": 1.0}"`}}, 1, -1, "a result that is JSON text is decoded"},
		{"both empty", deepeval.Options{}, nil, nil, 1, -1, "nothing expected, nothing called"},
		{"nothing expected", deepeval.Options{}, nil, names("a"), 0, -1, "a call where none was expected"},
		{"nothing called", deepeval.Options{}, names("a"), nil, 0, -1, "the expected tool is missing"},
		{"strict", deepeval.Options{Strict: true}, names("a b"), names("a"), 0, -1, "strict mode is all or nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Expected = expected(t, tt.exp)
			c, err := deepeval.New(tt.o)
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Evaluate(context.Background(), traj(t, tt.got))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(out.Score-tt.want) > 1e-9 {
				t.Errorf("score %v, want %v: %s", out.Score, tt.want, tt.reason)
			}
			peer, has := out.Details.Notes["deepeval_score"]
			switch {
			case tt.deepeval < 0 && has:
				t.Errorf("deepeval_score %v noted, but DeepEval agrees here", peer)
			case tt.deepeval >= 0 && (!has || math.Abs(peer.(float64)-tt.deepeval) > 1e-9):
				t.Errorf("deepeval_score %v, want %v: %s", peer, tt.deepeval, tt.reason)
			case tt.deepeval >= 0 && len(out.Details.Warnings) == 0:
				t.Errorf("no warning that DeepEval's own value differs")
			}
		})
	}
}

func TestCorrectness_reason(t *testing.T) {
	c, _ := deepeval.New(deepeval.Options{Expected: expected(t, names("a b")), Reason: true})
	out, _ := c.Evaluate(context.Background(), traj(t, names("a")))
	if r, _ := out.Details.Notes["reason"].(string); !strings.Contains(r, `missing or out-of-order tools [b]; expected [a, b], called [a]`) {
		t.Errorf("reason %q does not name the missing tool", r)
	}
	c, _ = deepeval.New(deepeval.Options{Expected: expected(t, names("a b"))})
	out, _ = c.Evaluate(context.Background(), traj(t, names("a")))
	if _, has := out.Details.Notes["reason"]; has {
		t.Errorf("a reason without include_reason")
	}
	if len(out.Details.Missing) != 1 || out.Details.Missing[0].Tool != "b" {
		t.Errorf("missing %v, want b", out.Details.Missing)
	}
}

func TestNew_errors(t *testing.T) {
	if _, err := deepeval.New(deepeval.Options{Expected: []deepeval.Call{{}}}); err == nil || !strings.Contains(err.Error(), "name is empty") {
		t.Errorf("an expected tool with no name: %v", err)
	}
	if _, err := deepeval.New(deepeval.Options{Output: true, Expected: []deepeval.Call{{Name: "a"}}}); err == nil || !strings.Contains(err.Error(), "output is compared") {
		t.Errorf("output compared but not given: %v", err)
	}
}

func ExampleSimilarity() {
	want := map[string]any{"city": "Paris", "unit": "C"}
	got := map[string]any{"city": "Paris", "unit": "F", "lang": "fr"}
	fmt.Printf("%.3f\n", deepeval.Similarity(want, got))
	// Output: 0.333
}
