package calls_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/align"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
)

var tools = []string{"search", "read", "list", "fetch", "serch"}

// randomItems are a few expected calls (now and then many, in more
// classes than are looked through one by one), some with an argument
// rule.
func randomItems(t *testing.T, rng *rand.Rand) []calls.Item {
	var items []calls.Item
	n := rng.IntN(6)
	if rng.IntN(10) == 0 {
		n = 20 + rng.IntN(10)
	}
	for range n {
		items = append(items, randomArgs(t, rng, tools[rng.IntN(len(tools)-1)], 3))
	}
	return items
}

// randomArgs is an item of tool that, one time in two, wants the id
// argument to be one below ids (partial), else any arguments.
func randomArgs(t *testing.T, rng *rand.Rand, tool string, ids int) calls.Item {
	var args any
	if rng.IntN(2) == 0 {
		args = map[string]any{"id": fmt.Sprint(rng.IntN(ids))}
	}
	m, err := argmatch.New(args, trajeval.ArgsMatch{Mode: trajeval.ArgsPartial}, argmatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return calls.Args(tool, m)
}

// randomSteps are steps among the tools with ids 0..2, some in parallel
// groups.
func randomSteps(rng *rand.Rand) []trajeval.Step {
	steps := make([]trajeval.Step, rng.IntN(12))
	for j := range steps {
		steps[j] = trajeval.Step{Name: tools[rng.IntN(len(tools))], Args: map[string]any{"id": fmt.Sprint(rng.IntN(3))}}
		if rng.IntN(4) == 0 {
			steps[j].ParallelGroup = 1 + j/3
		}
	}
	return steps
}

// TestScratch_Explain checks that aligning and explaining trajectory
// after trajectory in one Scratch gives the details Align and Explain
// give afresh, in every order, near misses included.
func TestScratch_Explain(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for n := range 300 {
		items := randomItems(t, rng)
		cl := calls.Prepare(items)
		for _, o := range []calls.Order{calls.Unordered, calls.Ordered, calls.Positional} {
			sc := cl.Scratch()
			for k := range 10 {
				steps := randomSteps(rng)
				var want trajeval.Details
				calls.Explain(&want, items, steps, calls.Align(o, items, steps), o)
				var got trajeval.Details
				trail := argmatch.NewTrail(steps)
				sc.Explain(&got, items, trail, sc.Align(o, trail), o)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("items %d, trajectory %d, order %d: the scratch explains %+v, afresh %+v", n, k, o, got, want)
				}
			}
			sc.Release()
		}
	}
}

// TestScratch_Allocs checks that a Scratch, once grown, aligns and
// explains a 20-step trajectory that has every expected call in two
// allocations: the details' matched and extra lists.
func TestScratch_Allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	items := calls.Names([]string{"search", "read", "summarize"})
	steps := make([]trajeval.Step, 20)
	for j := range steps {
		steps[j].Name = tools[j%4]
	}
	steps[2].Name = "summarize" // every call matched, in every order
	cl := calls.Prepare(items)
	sc := cl.Scratch()
	trail := argmatch.NewTrail(steps)
	for _, o := range []calls.Order{calls.Unordered, calls.Ordered, calls.Positional} {
		run := func() {
			var d trajeval.Details
			sc.Explain(&d, items, trail, sc.Align(o, trail), o)
		}
		run()
		if n := testing.AllocsPerRun(100, run); n > 2 {
			t.Errorf("order %d: %v allocations, want at most 2", o, n)
		}
	}
}

// TestExplain_manyMissing checks that a missing call's near misses do not
// depend on how many other calls are missing: a few missing calls look
// for their tool's steps one by one, many through an index of the steps,
// and both must find the same steps, close names included.
func TestExplain_manyMissing(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	absent := calls.Names([]string{"zq1", "zq2", "zq3", "zq4", "zq5", "zq6", "zq7", "zq8"})
	for n := range 2000 {
		x := randomItems(t, rng)
		if len(x) == 0 {
			continue
		}
		steps := randomSteps(rng)
		for _, o := range []calls.Order{calls.Unordered, calls.Ordered, calls.Positional} {
			one := x[:1]
			many := append(x[:1:1], absent...)
			var d1, dn trajeval.Details
			calls.Explain(&d1, one, steps, calls.Align(o, one, steps), o)
			calls.Explain(&dn, many, steps, calls.Align(o, many, steps), o)
			if len(d1.Missing) == 0 {
				continue
			}
			if len(dn.Missing) != len(absent)+1 || !reflect.DeepEqual(dn.Missing[0], d1.Missing[0]) {
				t.Fatalf("case %d, order %d: alone, call 1 misses with %+v; among %d missing, with %+v", n, o, d1.Missing[0], len(dn.Missing), dn.Missing[0])
			}
		}
	}
}

// TestClasses_Relate checks the relation of items against steps with a
// plain scan of every item for every step: a step lists, in ascending
// order, the class of each item whose tool has its name and whose rule
// accepts it. Names of every length (an empty name, names past 32 bytes,
// names of one length that differ) and class counts on both sides of
// fewClasses, the one-by-one look-up's limit.
func TestClasses_Relate(t *testing.T) {
	long := "a_tool_name_well_past_thirty_two_bytes"
	// "3earch" has search's length, and a first byte equal to its
	// modulo 64: candidates keeps both.
	names := []string{"", "s", "search", "serch", "3earch", "fetch", "read", long, long + "_2", long[:32], long[:33]}
	tests := []struct {
		name   string
		items  int
		reason string
	}{
		{"few", 5, "at most 8 classes: steps ruled out by their name's length and first byte"},
		{"many", 24, "often more classes than 8: then steps look their name up in a map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(13, uint64(tt.items)))
			for n := range 2000 {
				items := make([]calls.Item, 1+rng.IntN(tt.items))
				for i := range items {
					items[i] = calls.Item{Tool: names[rng.IntN(len(names))]}
					if rng.IntN(2) == 0 {
						id := fmt.Sprint(rng.IntN(2))
						items[i].Key = id
						items[i].Match = func(s *trajeval.Step) bool { return s.Args.(map[string]any)["id"] == id }
					}
				}
				steps := make([]trajeval.Step, rng.IntN(20))
				for j := range steps {
					steps[j] = trajeval.Step{Name: names[rng.IntN(len(names))], Args: map[string]any{"id": fmt.Sprint(rng.IntN(2))}}
				}
				r := calls.Relate(items, steps)
				// Classes by first appearance of tool and key.
				var keys [][2]string
				class := make([]int32, len(items))
				for i, it := range items {
					k := [2]string{it.Tool, it.Key}
					c := slices.Index(keys, k)
					if c < 0 {
						c = len(keys)
						keys = append(keys, k)
					}
					class[i] = int32(c)
				}
				if !slices.Equal(r.ItemClass, class) {
					t.Fatalf("case %d (%s): item classes %v, want %v", n, tt.reason, r.ItemClass, class)
				}
				for j := range steps {
					var want []int32
					for i, it := range items {
						if it.Tool == steps[j].Name && (it.Match == nil || it.Match(&steps[j])) && !slices.Contains(want, class[i]) {
							want = append(want, class[i])
						}
					}
					slices.Sort(want)
					if !slices.Equal(r.Steps[j], want) {
						t.Fatalf("case %d (%s): step %d %q relates to %v, want %v", n, tt.reason, j, steps[j].Name, r.Steps[j], want)
					}
				}
			}
		})
	}
}

// TestScratch_Align checks the alignments that find each step's items
// without a Relation against the aligners on the relation Relate builds:
// the same pairs. In order, align.InOrder; in any order, align.AnyOrder,
// whose flow the scratch skips while no step matches two classes (an item
// with an argument rule and one without, of one tool, make such steps).
// Items of names that share a length and a first byte modulo 64, with
// argument rules on text and on values; steps now and then in parallel
// groups, consecutive or not (in order, a group of two steps or more
// takes the relation); lists of up to 70 items (past 64, the relation
// too).
func TestScratch_Align(t *testing.T) {
	names := []string{"search", "serch", "3earch", "fetch", "read", "", "summarize"}
	tests := []struct {
		name          string
		items, steps  int
		groups, texts bool
		reason        string
	}{
		{"names", 6, 20, false, false, "names alone and decoded arguments"},
		{"text", 6, 20, false, true, "arguments kept as text, read by the scratch's Parser"},
		{"groups", 5, 12, true, true, "parallel groups: consecutive ones take the relation in order"},
		{"long", 70, 80, false, false, "more than 64 items now and then"},
	}
	orders := []struct {
		name  string
		order calls.Order
		align func(*align.Relation) align.Alignment
	}{
		{"in order", calls.Ordered, align.InOrder},
		{"any order", calls.Unordered, align.AnyOrder},
	}
	for _, tt := range tests {
		for _, o := range orders {
			t.Run(tt.name+"/"+o.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(15, uint64(tt.items)))
				for n := range 1500 {
					items := make([]calls.Item, 1+rng.IntN(tt.items))
					for i := range items {
						items[i] = randomArgs(t, rng, names[rng.IntN(len(names))], 2)
					}
					steps := make([]trajeval.Step, rng.IntN(tt.steps+1))
					for j := range steps {
						id := rng.IntN(2)
						var args any = map[string]any{"id": fmt.Sprint(id)}
						if tt.texts && rng.IntN(2) == 0 {
							args = json.RawMessage(fmt.Sprintf(`{"id":"%d","n":[1,{"k":null}]}`, id))
						}
						steps[j] = trajeval.Step{Name: names[rng.IntN(len(names))], Args: args}
						if tt.groups && rng.IntN(3) == 0 {
							steps[j].ParallelGroup = 1 + j/2 // pairs now and then
						}
					}
					want := o.align(calls.Relate(items, steps))
					sc := calls.Prepare(items).Scratch()
					got := sc.Align(o.order, argmatch.NewTrail(steps))
					if !slices.Equal(got.Pairs, want.Pairs) || got.Bonus != want.Bonus {
						t.Fatalf("case %d (%s): pairs %v, want %v", n, tt.reason, got.Pairs, want.Pairs)
					}
					sc.Release()
				}
			})
		}
	}
}

// TestScratch_argsMemo checks the answers a Scratch remembers of argument
// rules on text, and their differences, against a relation and an
// explanation made afresh for each trajectory: the texts of every
// trajectory are in one buffer, written over for the next one, as a
// reader may reuse its memory; a few texts repeat, of one length and not;
// a rule with a $from looks at the steps before, whose text alone does
// not give its answer; two evaluators take turns with the pooled
// scratches, with rules that answer one text differently; and the near
// misses' differences each explanation gives are written over, as their
// owner may.
func TestScratch_argsMemo(t *testing.T) {
	texts := []string{`{"id":"0"}`, `{"id":"1"}`, `{"id":"2"}`, `{"id":"0","n":1}`, `{"id":"1","n":1}`, `{"id": "0"}`}
	rule := func(args any) *argmatch.Matcher {
		m, err := argmatch.New(args, trajeval.ArgsMatch{Mode: trajeval.ArgsPartial}, argmatch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	evaluators := [][]calls.Item{
		{calls.Args("read", rule(map[string]any{"id": "0"})), calls.Args("fetch", rule(map[string]any{"id": map[string]any{"$from": "read.args.id"}}))},
		{calls.Args("read", rule(map[string]any{"id": "1"})), calls.Args("fetch", rule(map[string]any{"id": "0"}))},
	}
	prepared := []*calls.Classes{calls.Prepare(evaluators[0]), calls.Prepare(evaluators[1])}
	rng := rand.New(rand.NewPCG(17, 18))
	buf := make([]byte, 0, 4096)
	for n := range 3000 {
		e := rng.IntN(2)
		steps := make([]trajeval.Step, rng.IntN(12))
		buf = buf[:0]
		for j := range steps {
			start := len(buf)
			buf = append(buf, texts[rng.IntN(len(texts))]...)
			steps[j] = trajeval.Step{Name: []string{"read", "fetch"}[rng.IntN(2)], Args: json.RawMessage(buf[start:len(buf):len(buf)])}
		}
		want := calls.Relate(evaluators[e], steps)
		sc := prepared[e].Scratch()
		got := sc.Relate(argmatch.NewTrail(steps))
		for j := range steps {
			if !slices.Equal(got.Steps[j], want.Steps[j]) {
				t.Fatalf("trajectory %d, evaluator %d: step %d %s %s relates to %v, afresh to %v", n, e, j, steps[j].Name, steps[j].Args, got.Steps[j], want.Steps[j])
			}
		}
		var dw, dg trajeval.Details
		calls.Explain(&dw, evaluators[e], steps, calls.Align(calls.Ordered, evaluators[e], steps), calls.Ordered)
		trail := argmatch.NewTrail(steps)
		sc.Explain(&dg, evaluators[e], trail, sc.Align(calls.Ordered, trail), calls.Ordered)
		if !reflect.DeepEqual(dg, dw) {
			t.Fatalf("trajectory %d, evaluator %d: the scratch explains %+v, afresh %+v", n, e, dg, dw)
		}
		for _, m := range dg.Missing {
			for _, nm := range m.Near {
				for k := range nm.Diffs {
					nm.Diffs[k] = trajeval.ArgDiff{Path: "written over"}
				}
			}
		}
		sc.Release()
	}
}
