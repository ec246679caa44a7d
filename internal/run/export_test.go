package run

import (
	"reflect"

	"github.com/trajeval/trajeval"
)

// SetKeepText sets whether the trace readers may keep arguments and
// results as JSON text, and returns a function that restores it.
func SetKeepText(keep bool) (restore func()) {
	old := keepText
	keepText = keep
	return func() { keepText = old }
}

// EntryType is the type of what a run holds for each case a traces file
// supplies.
var EntryType = reflect.TypeFor[entry]()

// SetRecycleSteps sets whether a run gives the step slices of the
// trajectories it has scored back to its readers, and returns a function
// that restores it.
func SetRecycleSteps(recycle bool) (restore func()) {
	old := RecycleSteps
	RecycleSteps = recycle
	return func() { RecycleSteps = old }
}

// Ordered hands the jobs to an ordered of n workers, in order, and
// waits for every result to be emitted to out.
func Ordered(n int, jobs []func(warn func(trajeval.Warning), r *trajeval.CaseResult), warn func(trajeval.Warning), out func(*trajeval.CaseResult) error) error {
	o := newOrdered(n, warn, out)
	for _, j := range jobs {
		if err := o.Submit(j); err != nil {
			return err
		}
	}
	return o.Close()
}
