package trajectory_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval/calls"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

// TestEvaluator_Evaluate_details compares the details of random
// trajectories, of up to 30 steps against up to 6 expected calls (short
// ones have their details made with room for their lists), with those
// package calls explains into empty details: the same pairs, missing
// calls and extra steps, and a list left nil when it is empty.
func TestEvaluator_Evaluate_details(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	names := []string{"a", "b", "c", "d"}
	modes := map[trajectory.Mode]calls.Order{trajectory.InOrder: calls.Ordered, trajectory.AnyOrder: calls.Unordered, trajectory.Exact: calls.Positional}
	for n := range 3000 {
		want := make([]string, rng.IntN(7))
		for i := range want {
			want[i] = names[rng.IntN(len(names))]
		}
		tr := &trajeval.Trajectory{Steps: make([]trajeval.Step, rng.IntN(31))}
		for j := range tr.Steps {
			tr.Steps[j] = trajeval.Step{Name: names[rng.IntN(len(names))], Turn: 1}
		}
		for mode, order := range modes {
			o := trajectory.Options{Mode: mode}
			for _, w := range want {
				o.Expected = append(o.Expected, trajeval.ExpectedCall{Tool: w})
			}
			e, err := trajectory.New(o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Evaluate(context.Background(), tr)
			if err != nil {
				t.Fatal(err)
			}
			d := trajeval.Details{Actual: len(tr.Steps)} // with nothing expected, nothing is explained
			if len(want) > 0 {
				calls.Explain(&d, calls.Names(want), tr.Steps, calls.Align(order, calls.Names(want), tr.Steps), order)
			}
			g := got.Details
			for _, c := range []struct {
				name      string
				got, want any
			}{{"matched", g.Matched, d.Matched}, {"missing", g.Missing, d.Missing}, {"extra", g.Extra, d.Extra},
				{"counts", [3]int{g.Hits, g.Expected, g.Actual}, [3]int{d.Hits, d.Expected, d.Actual}}} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Fatalf("case %d, %s, %d steps against %v: %s %#v, want %#v", n, mode, len(tr.Steps), want, c.name, c.got, c.want)
				}
			}
		}
	}
}
