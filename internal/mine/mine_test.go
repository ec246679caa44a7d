package mine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/mine"
	"github.com/trajeval/trajeval/internal/trajeval"
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

func TestMine_smoke(t *testing.T) {
	runs := runsOf(t, `a b{"x":1} c d e{"q":"p"}`, `a c b{"x":3} e{"q":"p"}`, `a b{"x":2} c d d d e{"q":"p"}`)
	r, err := mine.Mine(context.Background(), runs, mine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s\n%v", r.YAML, r.Notes)
}
