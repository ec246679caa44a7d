package history

import (
	"fmt"

	"github.com/trajeval/trajeval"
)

// appendDetails appends the JSON array of the n details at(0), …,
// at(n-1) (null for a nil one) to b, byte for byte as json.Marshal writes
// it, without reflection: the history writes the details of every
// failing case. On an error b comes back as it was given.
func appendDetails(b []byte, n int, at func(i int) *trajeval.Details) ([]byte, error) {
	out := append(b, '[')
	for i := range n {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = trajeval.AppendDetailsJSON(out, at(i), true); err != nil {
			return b, err
		}
	}
	return append(out, ']'), nil
}

// jsonDetails stores all details as their JSON array, as before schema
// version 10 (see detailcode.go): for the tests, which make histories of
// older versions.
var jsonDetails = false

// appendDetailsOf appends evals' details to b, in the compact encoding
// when it carries them (detailcode.go), else as their JSON array, and
// whether any evaluator has details (if none, b comes back as given).
func appendDetailsOf(b []byte, evals []trajeval.Result) ([]byte, bool, error) {
	some := false
	for _, e := range evals {
		some = some || e.Details != nil
	}
	if !some {
		return b, false, nil
	}
	at := func(i int) *trajeval.Details { return evals[i].Details }
	if !jsonDetails {
		if out, ok := appendDetailsCode(b, len(evals), at); ok {
			return out, true, nil
		}
	}
	out, err := appendDetails(b, len(evals), at)
	if err != nil {
		return b, false, fmt.Errorf("details: %w", err)
	}
	return out, true, nil
}
