package mine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/mine"
)

// family returns n runs of exactly steps calls each: eight blocks of a
// fetch, an unordered pair whose argument comes from the fetch's result,
// an optional note, a loop of 1 to 2 logs and one of two savers, then
// ticks to fill the run.
func family(n, steps int) []*trajeval.Trajectory {
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []*trajeval.Trajectory
	for r := range n {
		t := &trajeval.Trajectory{ID: fmt.Sprintf("run-%d", r)}
		add := func(name string, args map[string]any, result any) {
			if len(t.Steps) < steps {
				t.Steps = append(t.Steps, trajeval.Step{Index: len(t.Steps) + 1, Name: name, Args: args, Result: result})
			}
		}
		add("start", map[string]any{"session": "S"}, nil)
		for b := range 8 {
			ref := fmt.Sprintf("%d-%d", r, b)
			add(fmt.Sprintf("fetch_%d", b), map[string]any{"page": json.Number(fmt.Sprint(rng.IntN(5)))}, map[string]any{"ref": ref})
			pair := []string{fmt.Sprintf("parse_%d", b), fmt.Sprintf("index_%d", b)}
			if rng.IntN(2) == 0 {
				pair[0], pair[1] = pair[1], pair[0]
			}
			for _, p := range pair {
				add(p, map[string]any{"ref": ref, "mode": "fast"}, nil)
			}
			if rng.IntN(2) == 0 {
				add(fmt.Sprintf("note_%d", b), map[string]any{"text": fmt.Sprint(rng.Int())}, nil)
			}
			for range 1 + rng.IntN(2) {
				add("log", map[string]any{"level": "info"}, nil)
			}
			if rng.IntN(3) == 0 {
				add(fmt.Sprintf("cache_%d", b), nil, nil)
			} else {
				add(fmt.Sprintf("save_%d", b), nil, nil)
			}
		}
		for len(t.Steps) < steps {
			add("tick", nil, nil)
		}
		runs = append(runs, t)
	}
	return runs
}

// BenchmarkMine mines 1,000 runs of 50 calls and checks the suite on
// every one of them (docs/mining.md gives the figures).
func BenchmarkMine(b *testing.B) {
	runs := family(1000, 50)
	b.ReportAllocs()
	for b.Loop() {
		r, err := mine.Mine(context.Background(), runs, mine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Notes) > 0 {
			b.Fatal(r.Notes)
		}
	}
}

func TestMine_family(t *testing.T) {
	runs := family(200, 50)
	r, err := mine.Mine(context.Background(), runs, mine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Notes) > 0 {
		t.Errorf("the expectation was loosened: %q\n%s", r.Notes, r.YAML)
	}
}
