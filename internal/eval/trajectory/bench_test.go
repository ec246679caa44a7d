package trajectory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/eval/builtin"
	"github.com/trajeval/trajeval/internal/eval/spec"
)

// benchCase makes n expected calls (args: any) and n actual steps drawn
// from 20 tool names; the actual sequence is the expected one with a tenth
// of its calls replaced, so the matching is large but not trivial.
func benchCase(b *testing.B, mode string, n int, withArgs bool) (*eval.Configured, *trajeval.Trajectory) {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	names := make([]string, n)
	var yaml strings.Builder
	fmt.Fprintf(&yaml, "type: tool_trajectory\nmode: %s\nexpected:\n", mode)
	for i := range names {
		names[i] = fmt.Sprintf("tool_%02d", rng.IntN(20))
		if withArgs {
			fmt.Fprintf(&yaml, "  - {tool: %s, args: {k: %d}}\n", names[i], i%7)
		} else {
			fmt.Fprintf(&yaml, "  - {tool: %s}\n", names[i])
		}
	}
	node, err := config.Parse("bench.yaml", []byte(yaml.String()))
	if err != nil {
		b.Fatal(err)
	}
	c, err := spec.Build(node, &spec.Env{Types: builtin.Types()})
	if err != nil {
		b.Fatal(err)
	}
	t := &trajeval.Trajectory{}
	for i, name := range names {
		if rng.IntN(10) == 0 {
			name = fmt.Sprintf("tool_%02d", rng.IntN(20))
		}
		t.Steps = append(t.Steps, trajeval.Step{Name: name, Args: map[string]any{"k": json.Number(fmt.Sprint(i % 7))}})
	}
	t.Finish()
	return c, t
}

func benchMode(b *testing.B, mode string, withArgs bool) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c, t := benchCase(b, mode, n, withArgs)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if r := c.Run(ctx, t); r.Status == trajeval.StatusError {
					b.Fatal(r.Error)
				}
			}
		})
	}
}

func BenchmarkInOrder(b *testing.B)  { benchMode(b, "in_order", false) }
func BenchmarkAnyOrder(b *testing.B) { benchMode(b, "any_order", false) }
func BenchmarkExact(b *testing.B)    { benchMode(b, "exact", false) }

func BenchmarkInOrderArgs(b *testing.B)  { benchMode(b, "in_order", true) }
func BenchmarkAnyOrderArgs(b *testing.B) { benchMode(b, "any_order", true) }

// BenchmarkInOrder100k matches 100,000 expected calls against 100,000
// steps (a tenth of them replaced) in in_order mode, the size the
// alignment is meant to handle in under a second.
func BenchmarkInOrder100k(b *testing.B) {
	c, t := benchCase(b, "in_order", 100_000, false)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := c.Run(ctx, t); r.Status == trajeval.StatusError {
			b.Fatal(r.Error)
		}
	}
}

// BenchmarkGroups scores a suite's list with groups (a call with
// arguments, an any_order group of four, a one_of of a call and a
// sequence, an optional call, an unbounded repeat) against 1,000 steps of
// those tools, end to end: relation, alignment and explanation.
func BenchmarkGroups(b *testing.B) {
	const yaml = `type: tool_trajectory
mode: in_order
expected:
  - {tool: plan, args: {k: 1}}
  - any_order: [read, grep, list, stat]
  - one_of: [answer, {in_order: [draft, review]}]
  - optional: ask
  - repeat: search
  - done
`
	node, err := config.Parse("bench.yaml", []byte(yaml))
	if err != nil {
		b.Fatal(err)
	}
	c, err := spec.Build(node, &spec.Env{Types: builtin.Types()})
	if err != nil {
		b.Fatal(err)
	}
	tools := []string{"plan", "read", "grep", "list", "stat", "answer", "draft", "review", "ask", "search", "done", "other"}
	rng := rand.New(rand.NewPCG(7, 1000))
	t := &trajeval.Trajectory{}
	for i := range 1000 {
		t.Steps = append(t.Steps, trajeval.Step{Name: tools[rng.IntN(len(tools))], Args: map[string]any{"k": json.Number(fmt.Sprint(i % 3))}})
	}
	t.Finish()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := c.Run(ctx, t); r.Status == trajeval.StatusError || r.Score < 0.9 {
			b.Fatalf("%s %v: 1,000 random steps of these tools hold the list", r.Error, r.Score)
		}
	}
}
