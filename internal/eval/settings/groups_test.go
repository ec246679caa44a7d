package settings_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/eval/settings"
	"github.com/trajeval/trajeval/internal/eval/trajectory"
)

// FuzzCallsOrGroups reads any YAML as an expected list with groups:
//  1. an error is a SpecError placed in the file (line and column ≥ 1);
//  2. a list it reads either builds in_order and exact evaluators or is
//     refused by New with an ErrOption error, never a panic;
//  3. an evaluator it builds scores a small trajectory between 0 and 1, or
//     returns an error (an alignment too large), and explains as many
//     calls as it says it expected.
func FuzzCallsOrGroups(f *testing.F) {
	for _, s := range []string{
		"[a, {any_order: [b, c]}, d]",
		"- one_of: [a, {in_order: [b, c]}]\n- optional: d\n- repeat: e\n  min: 1\n  max: 2\n",
		"- repeat: {any_order: [a, {optional: b}]}\n  min: 0\n",
		"[{optional: {tool: a, args: {x: {$regex: '^a'}}, max_duration_ms: 10}}]",
		"[{any_order: []}]", "[{repeat: a, min: 3, max: 2}]", "[[a]]", "[{any_ordr: [a]}]",
	} {
		f.Add(s)
	}
	tr := &trajeval.Trajectory{Steps: []trajeval.Step{
		{Name: "a", Args: map[string]any{"x": "ab"}, DurationMS: new(5.0)}, {Name: "c", ParallelGroup: 1}, {Name: "b", ParallelGroup: 1}, {Name: "d"}, {Name: "e"}, {Name: "e"},
	}}
	tr.Finish()
	f.Fuzz(func(t *testing.T, text string) {
		n, err := config.Parse("fuzz.yaml", []byte(text))
		if err != nil {
			return
		}
		var x settings.CallsOrGroups
		if err := x.UnmarshalConfig(n); err != nil {
			var se *trajeval.SpecError
			if !errors.As(err, &se) || se.File != "fuzz.yaml" || se.Line < 1 || se.Col < 1 {
				t.Fatalf("error %v (%T) is not placed in fuzz.yaml", err, err)
			}
			return
		}
		for _, mode := range []trajectory.Mode{trajectory.InOrder, trajectory.Exact} {
			e, err := trajectory.New(trajectory.Options{Mode: mode, Groups: x.Entries})
			if err != nil {
				if !errors.Is(err, trajectory.ErrOption) {
					t.Fatalf("New: %v is not an ErrOption", err)
				}
				return
			}
			out, err := e.Evaluate(context.Background(), tr)
			if err != nil {
				continue
			}
			if math.IsNaN(out.Score) || out.Score < 0 || out.Score > 1 {
				t.Fatalf("%s: score %v outside [0, 1]", mode, out.Score)
			}
			d := out.Details
			if d.Hits != len(d.Matched) || d.Hits+len(d.Missing) != d.Expected {
				t.Fatalf("%s: details %+v: hits and missing do not add up to the expected calls", mode, d)
			}
		}
	})
}
