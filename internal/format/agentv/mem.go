package agentv

import (
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
)

// A recordMem is what one record's trajectory points at, but for its
// steps and their flags, in one allocation rather than one each: the
// trajectory itself, the record's numbers (made by the fast path for its
// first number, see get), the count of model calls, the first two turns,
// and the first user text and final response given as strings. A run
// reads thousands of records, each of which had these in five or six
// allocations of their own.
//
// A record is built once (see build): its trajectory is its recordMem's.
type recordMem struct {
	t     trajeval.Trajectory
	nums  recordNumbers
	llm   int64
	turns [2]trajeval.Turn
	user  string // the first user text, when a string
	final string // the first final response, when a string
}

// memOf returns the recordMem of r, made if the fast path made none.
func memOf(r *record) *recordMem {
	if r.mem == nil {
		return new(recordMem)
	}
	return r.mem
}

// text is msglog.Text of a message's content c, a string kept in *slot
// rather than in an allocation of its own; slot nil once it is taken.
func text(c any, slot **string) *string {
	if s, ok := c.(string); ok && *slot != nil {
		p := *slot
		*p, *slot = s, nil
		return p
	}
	return msglog.Text(c)
}
