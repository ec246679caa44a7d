package dokimos

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/eval"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/score"
)

// Efficiency is tool_efficiency: distinct calls over all calls.
type Efficiency struct{}

// A Loop is a run of consecutive identical calls.
type Loop struct {
	Tool  string `json:"tool"`
	From  int    `json:"from"` // first step, 1-based
	To    int    `json:"to"`   // last step
	Count int    `json:"count"`
}

// ReadsText says that the evaluator is to be handed values, though it
// reads arguments through trajeval.Decoded (see eval.TextReader): it
// compares the arguments of every tool called more than once, on most
// traces nearly all of them, which the reader decodes at less cost than
// it scans them as text to be decoded after.
func (Efficiency) ReadsText() bool { return false }

// Evaluate scores t.
func (Efficiency) Evaluate(_ context.Context, t *trajeval.Trajectory) (trajeval.Outcome, error) {
	d := &trajeval.Details{Mode: "distinct", Actual: len(t.Steps)}
	vals := eval.NewValues(t.Steps)
	// class[j] is the index of the first call equal to step j. Calls are
	// bucketed by name, then compared by JSON value within the bucket.
	class := make([]int, len(t.Steps))
	firsts := map[string][]int{}
	for j := range t.Steps {
		s := &t.Steps[j]
		class[j] = j
		for _, k := range firsts[s.Name] {
			if jsonv.Equal(normArgs(vals.Args(k)), normArgs(vals.Args(j))) {
				class[j] = k
				break
			}
		}
		if class[j] == j {
			firsts[s.Name] = append(firsts[s.Name], j)
			d.Hits++
		} else {
			d.Extra = append(d.Extra, trajeval.Extra{Step: stepNo(t, j), Tool: s.Name})
		}
	}
	var loops []Loop
	for j := 1; j < len(t.Steps); j++ {
		if class[j] != class[j-1] {
			continue
		}
		if n := len(loops); n > 0 && loops[n-1].To == stepNo(t, j-1) {
			loops[n-1].To, loops[n-1].Count = stepNo(t, j), loops[n-1].Count+1
			continue
		}
		loops = append(loops, Loop{Tool: t.Steps[j].Name, From: stepNo(t, j-1), To: stepNo(t, j), Count: 2})
	}
	if err := vals.Err(); err != nil {
		return trajeval.Outcome{}, err
	}
	if len(loops) > 0 {
		d.Notes = map[string]any{"loops": loops}
		for _, l := range loops {
			d.Warnings = append(d.Warnings, fmt.Sprintf("loop: %s called %d times in a row with the same arguments (steps %d–%d)", l.Tool, l.Count, l.From, l.To))
		}
	}
	return trajeval.Outcome{Score: score.Ratio(d.Hits, len(t.Steps), 1), Details: d}, nil
}

// normArgs treats a call without arguments like one with the empty object.
func normArgs(a any) any {
	if a == nil {
		return map[string]any{}
	}
	return a
}

func stepNo(t *trajeval.Trajectory, j int) int {
	if t.Steps[j].Index > 0 {
		return t.Steps[j].Index
	}
	return j + 1
}
