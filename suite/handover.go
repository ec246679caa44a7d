package suite

import (
	"context"
	"sync"

	"github.com/trajeval/trajeval"
)

// An item is what the run hands to the caller's goroutine: a result, or a
// warning (w set).
type item struct {
	r   trajeval.CaseResult
	w   *trajeval.Warning
	ack chan struct{} // closed when the caller has taken r
}

// A handover passes items from the run's goroutine to the caller's, in
// order, at most handoverRoom waiting. An item is there for the caller as
// soon as it is put (a result never waits for the next one), but the
// caller takes all that wait at once: a channel's select and receive for
// each result cost some 700 instructions, more than writing its row, and
// a lock and an append cost about a seventh of that.
type handover struct {
	mu     sync.Mutex
	items  []item
	closed bool
	ready  chan struct{} // a token: items came, or the run ended, since the taker last looked
	room   chan struct{} // a token: the taker took the items
}

// handoverRoom is how many items wait for the caller before the run waits
// for it: a slow loop body holds up the run only then.
const handoverRoom = 256

func newHandover() *handover {
	return &handover{ready: make(chan struct{}, 1), room: make(chan struct{}, 1)}
}

// put hands it over, waiting while the caller has handoverRoom items
// to take; it returns ctx's error if ctx ends first.
func (h *handover) put(ctx context.Context, it *item) error {
	h.mu.Lock()
	for len(h.items) >= handoverRoom {
		h.mu.Unlock()
		select {
		case <-h.room:
		case <-ctx.Done():
			// A break, or the loop body left without returning
			// (t.FailNow, a panic): cancel ends the run.
			return ctx.Err()
		}
		h.mu.Lock()
	}
	h.items = append(h.items, *it)
	first := len(h.items) == 1
	h.mu.Unlock()
	if first {
		signal(h.ready)
	}
	return nil
}

// close tells the taker that no more items come.
func (h *handover) close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	signal(h.ready)
}

// take returns the items that wait, in order, in buf's memory (whose
// items it clears first), waiting for one; none once the run has ended
// and all are taken.
func (h *handover) take(buf []item) []item {
	clear(buf)
	for {
		h.mu.Lock()
		if len(h.items) > 0 {
			buf, h.items = h.items, buf[:0]
			h.mu.Unlock()
			signal(h.room)
			return buf
		}
		closed := h.closed
		h.mu.Unlock()
		if closed {
			return nil
		}
		<-h.ready
	}
}

// signal leaves a token in c, a channel of one, unless one is there.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
