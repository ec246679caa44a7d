package check_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/check"
)

// runOfCalls makes a run of calls, each a tool name and its arguments.
func runOfCalls(id string, steps ...any) *trajeval.Trajectory {
	t := &trajeval.Trajectory{ID: id}
	for i := 0; i < len(steps); i += 2 {
		t.Steps = append(t.Steps, trajeval.Step{Index: i/2 + 1, Name: steps[i].(string), Args: steps[i+1]})
	}
	return t
}

func ExampleMine() {
	ctx := context.Background()
	good := []*trajeval.Trajectory{
		runOfCalls("1", "search", map[string]any{"q": "python"}, "read", map[string]any{"id": "a"}, "read", map[string]any{"id": "b"}, "answer", nil),
		runOfCalls("2", "search", map[string]any{"q": "go"}, "read", map[string]any{"id": "a"}, "answer", nil),
		runOfCalls("3", "search", map[string]any{"q": "rust"}, "ask_user", nil, "read", map[string]any{"id": "c"}, "answer", nil),
	}
	m, err := check.Mine(ctx, good...)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(string(m.YAML), "\n") {
		if strings.Contains(line, "- ") || strings.Contains(line, "repeat:") || strings.Contains(line, "optional:") {
			fmt.Println(strings.TrimRight(line, " "))
		}
	}
	later := runOfCalls("4", "search", map[string]any{"q": "zig"}, "answer", nil)
	r := check.Evaluate(ctx, later, m.Evaluators...)
	fmt.Println("a run that reads nothing:", r.Status)
	// Output:
	// - name: trajectory
	//         - tool: search             # called in every run (3 of 3)
	//         - optional:                # optional: called in 1 of 3 runs
	//         - repeat:                  # repeat: 1 to 2 times in a row in every run (3)
	//         - tool: answer             # called in every run (3 of 3)
	// a run that reads nothing: fail
}

func TestMine(t *testing.T) {
	ctx := context.Background()
	good := []*trajeval.Trajectory{
		runOfCalls("1", "a", nil, "b", map[string]any{"x": "k"}, "c", nil),
		runOfCalls("2", "a", nil, "c", nil, "b", map[string]any{"x": "k"}),
	}
	m, err := check.Mine(ctx, good...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		run    *trajeval.Trajectory
		want   trajeval.Status
		reason string
	}{
		{"given run", good[1], trajeval.StatusPass, "every given run passes"},
		{"other order of the unordered pair", runOfCalls("3", "a", nil, "c", nil, "b", map[string]any{"x": "k"}), trajeval.StatusPass, "b and c came in either order"},
		{"required call dropped", runOfCalls("4", "a", nil, "c", nil), trajeval.StatusFail, "b was in every run"},
		{"ordered calls swapped", runOfCalls("5", "b", map[string]any{"x": "k"}, "a", nil, "c", nil), trajeval.StatusFail, "a came first in every run"},
		{"constant argument changed", runOfCalls("6", "a", nil, "b", map[string]any{"x": "z"}, "c", nil), trajeval.StatusFail, "x was k in every run"},
		{"tool never seen", runOfCalls("7", "a", nil, "b", map[string]any{"x": "k"}, "c", nil, "d", nil), trajeval.StatusFail, "no run called d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := check.Evaluate(ctx, tt.run, m.Evaluators...); r.Status != tt.want {
				t.Errorf("status %s, want %s (%s)", r.Status, tt.want, tt.reason)
			}
		})
	}
	if _, err := check.Mine(ctx); !errors.Is(err, check.ErrNoRuns) {
		t.Errorf("no runs: %v, want ErrNoRuns", err)
	}
}

func TestMine_goValues(t *testing.T) {
	// Runs built in Go: no step numbers, arguments as Go ints, floats and
	// typed maps, a nil run. They are mined as a reader would give them.
	type query struct {
		Q string `json:"q"`
	}
	run := func(n int, f float64) *trajeval.Trajectory {
		return &trajeval.Trajectory{Steps: []trajeval.Step{
			{Name: "search", Args: query{Q: "x"}},
			{Name: "page", Args: map[string]any{"n": n, "f": f}},
			{Name: "tag", Args: map[string]string{"k": "v"}},
		}}
	}
	ctx := context.Background()
	m, err := check.Mine(ctx, run(1, 0.5), run(3, 1.5))
	if err != nil {
		t.Fatal(err)
	}
	// Later runs as a trace reader gives them: JSON values.
	later := func(n string) *trajeval.Trajectory {
		return &trajeval.Trajectory{Steps: []trajeval.Step{
			{Name: "search", Args: map[string]any{"q": "x"}},
			{Name: "page", Args: map[string]any{"n": json.Number(n), "f": json.Number("1")}},
			{Name: "tag", Args: map[string]any{"k": "v"}},
		}}
	}
	if r := check.Evaluate(ctx, later("2"), m.Evaluators...); r.Status != trajeval.StatusPass {
		t.Errorf("a run inside the ranges seen: %s, want pass\n%s", r.Status, m.YAML)
	}
	if r := check.Evaluate(ctx, later("9"), m.Evaluators...); r.Status != trajeval.StatusFail {
		t.Errorf("n out of the range seen: %s, want fail\n%s", r.Status, m.YAML)
	}
	if _, err := check.Mine(ctx, nil, &trajeval.Trajectory{}); err != nil {
		t.Errorf("runs without calls (one nil): %v", err)
	}
}
