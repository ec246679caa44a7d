package ragas_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/ragas"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// calls reads `a{"x":1} b` shorthand: names, each optionally followed by
// its JSON arguments with no spaces.
func calls(t *testing.T, s string) []ragas.Call {
	t.Helper()
	var out []ragas.Call
	for _, f := range strings.Fields(s) {
		name, in, _ := strings.Cut(f, "{")
		c := ragas.Call{Name: name}
		if in != "" {
			v, err := jsonv.Decode([]byte("{" + in))
			if err != nil {
				t.Fatal(err)
			}
			c.Args = v.(map[string]any)
		}
		out = append(out, c)
	}
	return out
}

func traj(t *testing.T, s string) *trajeval.Trajectory {
	tr := &trajeval.Trajectory{}
	for _, c := range calls(t, s) {
		st := trajeval.Step{Name: c.Name}
		if c.Args != nil {
			st.Args = c.Args
		}
		tr.Steps = append(tr.Steps, st)
	}
	tr.Finish()
	return tr
}

func TestAccuracy_Evaluate(t *testing.T) {
	tests := []struct {
		name      string
		ref, pred string
		strict    bool
		want      float64
		ragas     float64 // Ragas's own value when it differs; -1 when the same
		reason    string
	}{
		{"identical", `w{"loc":"NY"} t{"f":75}`, `w{"loc":"NY"} t{"f":75}`, true, 1, -1, "every call in order with its arguments"},
		{"swapped, strict", `w t`, `t w`, true, 0, -1, "the order gate fails"},
		{"swapped, any order", `w t`, `t w`, false, 1, -1, "the names are the same multiset"},
		{"one argument of two", `w{"loc":"NY","unit":"C"}`, `w{"loc":"NY","unit":"F"}`, true, 0.5, -1, "the argument score is the share of equal reference keys"},
		{"extra argument ignored", `w{"loc":"NY"}`, `w{"loc":"NY","x":1}`, true, 1, -1, "only the reference's keys count"},
		{"numbers by value", `t{"f":75}`, `t{"f":75.0}`, true, 1, 0, "75 = 75.0 (Ragas compares text, and would give 0)"},
		{"missing argument", `w{"loc":"NY","unit":"C"}`, `w{"loc":"NY"}`, true, 0.5, -1, "an absent key scores 0"},
		{"extra call", `w`, `w w`, false, 0, -1, "a repeated call fails the gate, as in Ragas"},
		{"missing call", `w t`, `w`, false, 0, -1, "the gate fails"},
		{"repeats on both sides", `s{"q":"a"} s{"q":"a"}`, `s{"q":"a"} s{"q":"a"}`, false, 1, -1, "each repeat pairs with one; never above 1"},
		{"pairing is optimal", `s{"a":"1","b":"9"} s{"a":"2","b":"1"}`, `s{"a":"3","b":"9"} s{"a":"2","b":"1"}`, false, 0.75, 0,
			"Ragas sorts both lists by their argument text and zips them, pairing the calls crosswise for 0"},
		{"no arguments on either side", `a`, `a`, true, 1, -1, "two empty argument objects"},
		{"arguments where none expected", `a`, `a{"x":1}`, true, 0, -1, "Ragas scores a reference with no arguments 0 against any"},
		{"both empty", ``, ``, true, 1, -1, "nothing expected, nothing called"},
		{"reference empty", ``, `a`, true, 0, -1, "a call where none was expected"},
		{"prediction empty", `a`, ``, true, 0, -1, "nothing called"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ragas.NewAccuracy(calls(t, tt.ref), tt.strict)
			if err != nil {
				t.Fatal(err)
			}
			out, err := a.Evaluate(context.Background(), traj(t, tt.pred))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(out.Score-tt.want) > 1e-9 {
				t.Errorf("score %v, want %v: %s (details %+v)", out.Score, tt.want, tt.reason, out.Details)
			}
			peer, has := out.Details.Notes["ragas_score"]
			switch {
			case tt.ragas < 0 && has:
				t.Errorf("ragas_score %v noted, but Ragas agrees here", peer)
			case tt.ragas >= 0 && (!has || math.Abs(peer.(float64)-tt.ragas) > 1e-9):
				t.Errorf("ragas_score %v, want %v: %s", peer, tt.ragas, tt.reason)
			}
		})
	}
}

func TestF1_Evaluate(t *testing.T) {
	tests := []struct {
		name      string
		ref, pred string
		want      float64
		ragas     float64 // Ragas's own value when it differs; -1 when the same
		reason    string
	}{
		{"one of two", `a{"x":1} b`, `a{"x":1}`, 2.0 / 3, -1, "precision 1, recall 1/2"},
		{"extra call", `a`, `a b`, 2.0 / 3, -1, "precision 1/2, recall 1"},
		{"arguments differ", `a{"x":1}`, `a{"x":2}`, 0, -1, "a call is its name and its arguments"},
		{"numbers by value", `a{"x":1}`, `a{"x":1.0}`, 1, -1, "1 = 1.0"},
		{"repeat expected once made", `s{"q":"a"} s{"q":"a"}`, `s{"q":"a"}`, 2.0 / 3, 1, "the second expected call was not made; Ragas's sets collapse the repeat"},
		{"repeat made once expected", `s`, `s s`, 2.0 / 3, 1, "the repeat is an extra call"},
		{"both empty", ``, ``, 1, 0, "nothing expected, nothing called: Ragas scores 0"},
		{"nothing called", `a`, ``, 0, -1, "recall 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ragas.NewF1(calls(t, tt.ref))
			if err != nil {
				t.Fatal(err)
			}
			out, err := f.Evaluate(context.Background(), traj(t, tt.pred))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(out.Score-tt.want) > 1e-9 {
				t.Errorf("score %v, want %v: %s", out.Score, tt.want, tt.reason)
			}
			peer, has := out.Details.Notes["ragas_score"]
			switch {
			case tt.ragas < 0 && has:
				t.Errorf("ragas_score %v noted, but Ragas agrees here", peer)
			case tt.ragas >= 0 && (!has || math.Abs(peer.(float64)-tt.ragas) > 1e-9):
				t.Errorf("ragas_score %v, want %v: %s", peer, tt.ragas, tt.reason)
			}
		})
	}
}

func TestPyStr(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`"NY"`, "NY"}, {`75`, "75"}, {`75.0`, "75.0"}, {`1e2`, "100.0"}, {`0.0001`, "0.0001"}, {`0.00001`, "1e-05"},
		{`1e16`, "1e+16"}, {`123456789012345.5`, "123456789012345.5"}, {`true`, "True"}, {`null`, "None"}, {`9007199254740993`, "9007199254740993"},
	}
	for _, tt := range tests {
		a, err := ragas.NewAccuracy([]ragas.Call{{Name: "f", Args: map[string]any{"x": decode(t, tt.in)}}}, true)
		if err != nil {
			t.Fatal(err)
		}
		// Against the expected text itself, Ragas (comparing text) scores 1
		// where trajeval (comparing values) scores 0, unless both are text.
		out, _ := a.Evaluate(context.Background(), &trajeval.Trajectory{Steps: []trajeval.Step{{Name: "f", Args: map[string]any{"x": tt.want}}}})
		peer, has := out.Details.Notes["ragas_score"]
		switch {
		case tt.in == `"NY"` && has:
			t.Errorf("%s: ragas_score %v, but both compare the text", tt.in, peer)
		case tt.in != `"NY"` && (!has || peer.(float64) != 1):
			t.Errorf("%s: ragas_score %v, want 1: Python's str() of it is %q", tt.in, peer, tt.want)
		}
	}
}

func decode(t *testing.T, s string) any {
	v, err := jsonv.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNew_errors(t *testing.T) {
	if _, err := ragas.NewAccuracy([]ragas.Call{{}}, true); err == nil {
		t.Error("NewAccuracy took a call with no name")
	}
	if _, err := ragas.NewF1([]ragas.Call{{Name: "a"}, {}}); err == nil || !strings.Contains(err.Error(), "call 2") {
		t.Errorf("NewF1: %v, want an error at call 2", err)
	}
}

func ExampleArgScore() {
	ref := map[string]any{"location": "New York", "unit": "C"}
	got := map[string]any{"location": "New York", "unit": "F", "lang": "en"}
	fmt.Println(ragas.ArgScore(ref, got))
	// Output: 0.5
}

// TestAccuracy_Evaluate_pairsEveryNamedCall pins the pairing of calls whose
// arguments all differ: once the names match as multisets, every call pairs
// with a step of its name (scoring 0 on its arguments), so the details list
// the pairs rather than calling them missing and extra.
func TestAccuracy_Evaluate_pairsEveryNamedCall(t *testing.T) {
	tests := []struct {
		name      string
		ref, pred string
		strict    bool
		hits      int
		score     float64
		reason    string
	}{
		{"all arguments differ", `s{"q":"a"} s{"q":"b"}`, `s{"q":"x"} s{"q":"y"}`, false, 2, 0, "both calls pair at argument score 0"},
		{"one of two differs", `s{"q":"a"} s{"q":"b"}`, `s{"q":"y"} s{"q":"a"}`, false, 2, 0.5, "the equal pair and the remaining pair"},
		{"single call, arguments differ", `w{"loc":"NY"}`, `w{"loc":"LA"}`, false, 1, 0, "one call of the name pairs with its one step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ragas.NewAccuracy(calls(t, tt.ref), tt.strict)
			if err != nil {
				t.Fatal(err)
			}
			out, err := a.Evaluate(context.Background(), traj(t, tt.pred))
			if err != nil {
				t.Fatal(err)
			}
			d := out.Details
			if d.Hits != tt.hits || len(d.Matched) != tt.hits || len(d.Missing) != 0 || len(d.Extra) != 0 {
				t.Errorf("hits %d, matched %v, missing %v, extra %v; want %d pairs and nothing missing or extra: %s", d.Hits, d.Matched, d.Missing, d.Extra, tt.hits, tt.reason)
			}
			if math.Abs(out.Score-tt.score) > 1e-9 {
				t.Errorf("score %v, want %v: %s", out.Score, tt.score, tt.reason)
			}
		})
	}
}
