package adk

import (
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/argmatch"
	"github.com/trajeval/trajeval/internal/eval/calls"
)

// An Invocation is what one turn should do.
type Invocation struct {
	Calls         []Call
	FinalResponse *string // nil: no expectation
	// Rubrics are the invocation's own rubrics and its case's, judged by
	// the rubric metrics beside their criterion's.
	Rubrics []Rubric
}

// A Call is one expected tool call; Args is a JSON value ({} when none).
type Call struct {
	Name string
	Args any
}

// items compiles the calls of an invocation into exact matchers.
func (inv Invocation) items(ignoreArgs bool) ([]calls.Item, error) {
	out := make([]calls.Item, len(inv.Calls))
	for i, c := range inv.Calls {
		if ignoreArgs {
			out[i] = calls.Item{Tool: c.Name}
			continue
		}
		args := c.Args
		if args == nil {
			args = map[string]any{}
		}
		m, err := argmatch.New(literal(args), trajeval.ArgsMatch{Mode: trajeval.ArgsExact}, argmatch.Options{})
		if err != nil {
			return nil, fmt.Errorf("call %d (%s): %w", i+1, c.Name, err)
		}
		out[i] = calls.Args(c.Name, m)
	}
	return out, nil
}

// literal escapes keys that argmatch would read as operators: ADK's
// expected arguments are plain values, so {"$regex": "x"} is a literal.
func literal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if len(k) > 0 && k[0] == '$' {
				k = "$" + k
			}
			out[k] = literal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = literal(e)
		}
		return out
	}
	return v
}

// turns splits the trajectory's steps by turn: a step whose turn is
// unknown belongs to turn 1.
func turns(t *trajeval.Trajectory) [][]trajeval.Step {
	n := len(t.Turns)
	for _, s := range t.Steps {
		n = max(n, s.Turn, 1)
	}
	// Every turn's steps in one array, each turn's part cut to its size.
	at := make([]int, n+1)
	for _, s := range t.Steps {
		at[max(s.Turn, 1)]++
	}
	for k := range n {
		at[k+1] += at[k]
	}
	all := make([]trajeval.Step, len(t.Steps))
	out := make([][]trajeval.Step, n)
	for k := range out {
		out[k] = all[at[k]:at[k]:at[k+1]]
	}
	for _, s := range t.Steps {
		k := max(s.Turn, 1) - 1
		out[k] = append(out[k], s)
	}
	for k := range out {
		if len(out[k]) == 0 {
			out[k] = nil // as before: a turn without steps has none
		}
	}
	return out
}

func countWarning(expected, actual int) string {
	if expected == actual {
		return ""
	}
	head := fmt.Sprintf("the eval case has %s but the trace has %s", plural(expected, "invocation"), plural(actual, "turn"))
	if actual < expected {
		if actual+1 == expected {
			return fmt.Sprintf("%s: invocation %d has no turn and scores 0", head, expected)
		}
		return fmt.Sprintf("%s: invocations %d–%d have no turn and score 0", head, actual+1, expected)
	}
	if expected+1 == actual {
		return fmt.Sprintf("%s: turn %d is not scored", head, actual)
	}
	return fmt.Sprintf("%s: turns %d–%d are not scored", head, expected+1, actual)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
