package trajectory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
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

// TestRecycle: details given back are written over by the next
// trajectories' (only a box's: other details are left alone), and a
// trajectory's details are the same whether its box is new or given back,
// with several goroutines scoring and giving back at once.
func TestRecycle(t *testing.T) {
	e, err := trajectory.New(trajectory.Options{Mode: trajectory.InOrder, Expected: []trajeval.ExpectedCall{{Tool: "a"}, {Tool: "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	steps := func(names ...string) *trajeval.Trajectory {
		tr := &trajeval.Trajectory{}
		for _, n := range names {
			tr.Steps = append(tr.Steps, trajeval.Step{Name: n, Turn: 1})
		}
		return tr
	}
	details := func(tr *trajeval.Trajectory) *trajeval.Details {
		out, err := e.Evaluate(context.Background(), tr)
		if err != nil {
			t.Fatal(err)
		}
		return out.Details
	}
	foreign := &trajeval.Details{Matched: make([]trajeval.Pair, 1, 4), Extra: make([]trajeval.Extra, 1, 24)}
	trajectory.Recycle(foreign)
	trajectory.Recycle(nil)
	if d := details(steps("a", "x", "b")); d == foreign {
		t.Fatal("details not made in a box were taken back")
	}
	// Each goroutine's trajectories, with the details each gets from a new
	// box: the same when their boxes were given back by the others.
	trs := []*trajeval.Trajectory{steps("a", "x", "b"), steps("b", "a"), steps("x", "y", "z", "a"), steps()}
	var want [][]byte
	for _, tr := range trs {
		b, err := trajeval.AppendDetailsJSON(nil, details(tr), false)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, b)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Go(func() {
			for n := range 2000 {
				i := (n + g) % len(trs)
				out, err := e.Evaluate(context.Background(), trs[i])
				if err != nil {
					errs <- err.Error()
					return
				}
				got, _ := trajeval.AppendDetailsJSON(nil, out.Details, false)
				if string(got) != string(want[i]) {
					errs <- fmt.Sprintf("trajectory %d: details %s, want %s", i, got, want[i])
					return
				}
				trajectory.Recycle(out.Details)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
