package run

import "reflect"

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
	old := recycleSteps
	recycleSteps = recycle
	return func() { recycleSteps = old }
}
