package trajectory

import (
	"sync"
	"unsafe"

	"github.com/trajeval/trajeval"
)

// A detailsBox is the Details of a trajectory of at most boxSteps steps
// against at most boxCalls expected calls, with room for its matched
// pairs and extra steps: one allocation where there were three, for the
// trajectories of most runs.
type detailsBox struct {
	d     trajeval.Details
	pairs [boxCalls]trajeval.Pair
	extra [boxSteps]trajeval.Extra
}

const (
	boxCalls = 4
	boxSteps = 24
)

// boxes holds the detailsBoxes given back by Recycle.
var boxes sync.Pool // of *detailsBox

// newDetails returns the Details of an alignment of ne expected calls
// against na steps, its matched and extra lists empty, with room for
// them when they fit in a detailsBox: one given back by Recycle, else a
// new one.
func newDetails(mode Mode, ne, na int) *trajeval.Details {
	if ne > boxCalls || na > boxSteps {
		return &trajeval.Details{Mode: string(mode), Expected: ne, Actual: na}
	}
	b, _ := boxes.Get().(*detailsBox)
	if b == nil {
		b = new(detailsBox)
	}
	b.d = trajeval.Details{Mode: string(mode), Expected: ne, Actual: na, Matched: b.pairs[:0], Extra: b.extra[:0]}
	return &b.d
}

// settle leaves d's matched and extra lists nil when empty, as they are
// without a detailsBox.
func settle(d *trajeval.Details) {
	if len(d.Matched) == 0 {
		d.Matched = nil
	}
	if len(d.Extra) == 0 {
		d.Extra = nil
	}
}

// Recycle gives the memory of d, the details of an Evaluator's outcome,
// to the details of the trajectories scored next, where it may be written
// over at once. The caller must be the last holder of d: neither d nor a
// list it holds may be used after, by the caller or anyone else (a row
// written at once, and let go; a row the run history has encoded, once
// reported). It may be called from any goroutine. Recycle takes back only
// details made in a detailsBox, which it knows by their lists' addresses
// (one of them, at least, not empty); any other details, nil included, it
// leaves to the collector.
func Recycle(d *trajeval.Details) {
	if d == nil || (d.Matched == nil && d.Extra == nil) {
		return
	}
	// The lists of a box's details are its arrays, at fixed offsets from
	// the details, which are the box's first field: checked on addresses
	// alone, so that nothing but a box is ever read as one.
	at := uintptr(unsafe.Pointer(d))
	if d.Matched != nil && (cap(d.Matched) != boxCalls ||
		uintptr(unsafe.Pointer(unsafe.SliceData(d.Matched))) != at+unsafe.Offsetof(detailsBox{}.pairs)) {
		return
	}
	if d.Extra != nil && (cap(d.Extra) != boxSteps ||
		uintptr(unsafe.Pointer(unsafe.SliceData(d.Extra))) != at+unsafe.Offsetof(detailsBox{}.extra)) {
		return
	}
	b := (*detailsBox)(unsafe.Pointer(d))
	b.d = trajeval.Details{} // its missing calls and notes go now
	boxes.Put(b)
}
