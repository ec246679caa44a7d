package eval

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// Values gives the arguments and results of a trajectory's steps as
// values, decoding JSON text that a reader kept (see trajeval.Decoded)
// where it is first looked at, and each text at most once: an evaluator
// that compares step j's arguments with several expected calls decodes
// them once, and those of a step it never looks at not at all.
//
// Text a reader kept always decodes; text that does not (put there by
// hand) is nil as a value, and [Values.Err] says so: an evaluator that
// reads through Values returns that error rather than a score.
type Values struct {
	steps []trajeval.Step
	// args and results hold the decoded text of step j, once looked at
	// (made at the first text seen: a trajectory with none allocates
	// nothing).
	args, results []any
	done          []uint8 // bit 1: args decoded, bit 2: result
	err           error
}

// NewValues returns the values of steps, decoded as they are looked at.
func NewValues(steps []trajeval.Step) *Values { return &Values{steps: steps} }

const (
	argsDone   = 1
	resultDone = 2
)

// Args returns the arguments of step j as a value.
func (v *Values) Args(j int) any {
	return v.value(j, v.steps[j].Args, argsDone, &v.args, "arguments")
}

// Result returns the result of step j as a value.
func (v *Values) Result(j int) any {
	return v.value(j, v.steps[j].Result, resultDone, &v.results, "result")
}

func (v *Values) value(j int, x any, bit uint8, cache *[]any, what string) any {
	raw, ok := trajeval.KeptText(x)
	if !ok {
		return x
	}
	if v.done == nil {
		v.done = make([]uint8, len(v.steps))
	}
	if *cache == nil {
		*cache = make([]any, len(v.steps))
	}
	if v.done[j]&bit == 0 {
		val, err := trajeval.Decoded(raw)
		if err != nil && v.err == nil {
			v.err = fmt.Errorf("the trace's arguments or results: step %d's %s: %w", stepNumber(v.steps, j), what, err)
		}
		(*cache)[j] = val
		v.done[j] |= bit
	}
	return (*cache)[j]
}

// Err returns the first error met decoding text, or nil.
func (v *Values) Err() error { return v.err }

// stepNumber is step j's 1-based number in its trajectory.
func stepNumber(steps []trajeval.Step, j int) int {
	if steps[j].Index > 0 {
		return steps[j].Index
	}
	return j + 1
}

// DecodeArgs returns steps with the JSON text of their arguments decoded
// (see trajeval.Decoded), and their results as they are: steps itself
// when no arguments are text, else a copy, so that steps, which other
// evaluators may be reading, is not changed. It is for an evaluator that
// looks at the arguments of nearly every step, and at no result.
func DecodeArgs(steps []trajeval.Step) ([]trajeval.Step, error) {
	var out []trajeval.Step
	for j := range steps {
		raw, ok := trajeval.KeptText(steps[j].Args)
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(steps)
		}
		v, err := trajeval.Decoded(raw)
		if err != nil {
			return nil, fmt.Errorf("the trace's arguments or results: step %d's arguments: %w", stepNumber(steps, j), err)
		}
		out[j].Args = v
	}
	if out == nil {
		return steps, nil
	}
	return out, nil
}

// SameArgs reports whether the arguments of steps j and k are equal
// values (jsonv.Equal). Two texts alike byte for byte are equal without
// being decoded.
func (v *Values) SameArgs(j, k int) bool {
	a, textA := trajeval.KeptText(v.steps[j].Args)
	b, textB := trajeval.KeptText(v.steps[k].Args)
	if textA && textB && bytes.Equal(a, b) {
		return true
	}
	return jsonv.Equal(v.Args(j), v.Args(k))
}
