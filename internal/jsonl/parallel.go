package jsonl

import (
	"context"
	"io"
	"sync"

	"github.com/trajeval/trajeval"
)

// A Decoder turns one line (its bytes, valid during the call only: the
// value must not keep them, and its 1-based number) into a value. It reports problems to warn, not to the
// reader's Warn, so that they are handed on in the file's order.
type Decoder[T any] func(line []byte, n int, warn func(trajeval.Warning)) (T, error)

// Parallel is Each for lines that decode on their own: the lines of r go
// in batches to up to workers goroutines, each with its own decoder from
// newDecoder, and yield gets each value, after the warnings met decoding
// it, in the file's order, from the calling goroutine. It stops at the
// first error, in the file's order, that decoding or yield returns, or
// when ctx ends; what came before it has been yielded, nothing after.
// Memory is bounded by the workers and the longest line, whatever the
// length of the file.
//
// As with Each, a line nested deeper than jsonv.MaxDepth is a
// *jsonv.DepthError at its line, which the decoder never sees; the
// workers check it, not the reading goroutine.
//
// With workers ≤ 1 it decodes on the calling goroutine, line by line.
func Parallel[T any](ctx context.Context, r io.Reader, workers int, newDecoder func() Decoder[T], warn func(trajeval.Warning), yield func(T) error) error {
	return parallel(ctx, r, workers, true, newDecoder, warn, yield)
}

// ParallelBounded is Parallel for a decoder that bounds nesting itself:
// it must refuse a line nested deeper than jsonv.MaxDepth before anything
// decodes it recursively, as a parser that counts its depth does, and
// place the error itself (see CheckDepth). Its lines are not checked
// first, so that no byte is scanned twice.
func ParallelBounded[T any](ctx context.Context, r io.Reader, workers int, newDecoder func() Decoder[T], warn func(trajeval.Warning), yield func(T) error) error {
	return parallel(ctx, r, workers, false, newDecoder, warn, yield)
}

func parallel[T any](ctx context.Context, r io.Reader, workers int, checkDepth bool, newDecoder func() Decoder[T], warn func(trajeval.Warning), yield func(T) error) error {
	if workers <= 1 {
		decode := newDecoder()
		return each(r, checkDepth, func(line []byte, n int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			v, err := decode(line, n, warn)
			if err != nil {
				return err
			}
			return yield(v)
		})
	}
	stop := make(chan struct{})
	order := make(chan *lineBatch[T], workers)
	work := make(chan *lineBatch[T], workers)
	// free holds batches handed on whole, for the reading goroutine to
	// fill again: as many as can be in flight.
	free := make(chan *lineBatch[T], 2*workers+2)
	var readErr error
	go func() {
		defer close(order)
		defer close(work)
		b := newBatch(free)
		send := func() bool {
			select {
			case order <- b:
			case <-stop:
				return false
			}
			work <- b // never blocks for long: as many workers as slots
			b = newBatch(free)
			return true
		}
		readErr = each(r, false, func(line []byte, n int) error {
			b.add(line, n)
			if len(b.n) == batchLines || len(b.data) >= batchBytes {
				if !send() {
					return errStopped
				}
			}
			return nil
		})
		if readErr != errStopped && len(b.n) > 0 {
			send()
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			decode := newDecoder()
			for b := range work {
				b.decode(decode, checkDepth)
			}
		}()
	}
	err := func() error {
		for b := range order {
			<-b.done
			for i := range b.n {
				for _, w := range b.warns[i] {
					warn(w)
				}
				if b.errs[i] != nil {
					return b.errs[i]
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := yield(b.values[i]); err != nil {
					return err
				}
			}
			b.recycle(free)
		}
		return nil
	}()
	// Wait for the goroutines, so that none reads r after the return: a
	// read under way ends with its line, as a sequential reading would.
	close(stop)
	for b := range order {
		<-b.done // let the workers finish what they hold
	}
	wg.Wait()
	if err == nil && readErr != errStopped {
		err = readErr
	}
	return err
}

// Batches hold up to batchLines lines, fewer when they reach batchBytes.
// Some five batches are in flight (one filled, those queued and those
// decoded), each buffer touched fresh once: 128 KiB rather than 256 took
// 1.4 MB off the peak of a run of 10,000 traces (some 27 lines a batch),
// its instructions unchanged.
const (
	batchLines = 64
	batchBytes = 128 << 10
)

type stoppedError struct{}

func (stoppedError) Error() string { return "stopped" }

var errStopped error = stoppedError{}

type lineBatch[T any] struct {
	data   []byte
	ends   []int // end of each line in data
	n      []int // each line's number
	values []T
	errs   []error
	warns  [][]trajeval.Warning
	done   chan struct{}
}

// buffers holds the line buffers of decoded batches, for the next ones:
// a file of gigabytes then reuses a few buffers instead of allocating
// (and faulting in) new ones all the way.
var buffers sync.Pool

// newBatch returns an empty batch, one of free when there is one.
func newBatch[T any](free chan *lineBatch[T]) *lineBatch[T] {
	var b *lineBatch[T]
	select {
	case b = <-free:
		b.done = make(chan struct{})
	default:
		b = &lineBatch[T]{done: make(chan struct{}), ends: make([]int, 0, batchLines), n: make([]int, 0, batchLines)}
	}
	if p, ok := buffers.Get().(*[]byte); ok {
		b.data = (*p)[:0]
	}
	return b
}

// batchRoom is the capacity a new batch's buffer is made with: a batch
// is sent once it holds batchBytes, so it holds that and its last line.
// Grown by append from nothing, a buffer was allocated a dozen times on
// its way there, some four times its size in all.
const batchRoom = batchBytes + batchBytes/4

func (b *lineBatch[T]) add(line []byte, n int) {
	if b.data == nil {
		b.data = make([]byte, 0, max(batchRoom, len(line)))
	}
	b.data = append(b.data, line...)
	b.ends = append(b.ends, len(b.data))
	b.n = append(b.n, n)
}

// recycle clears b, whose values were handed on, and keeps it in free
// for newBatch: a run of thousands of batches then reuses the few in
// flight rather than making (and touching) some 4 KB of slices for each.
func (b *lineBatch[T]) recycle(free chan *lineBatch[T]) {
	clear(b.values)
	clear(b.errs)
	clear(b.warns)
	b.ends, b.n = b.ends[:0], b.n[:0]
	select {
	case free <- b:
	default:
	}
}

// decode decodes the batch's lines, each checked for depth first when
// checkDepth, stopping at the first error: nothing after it is handed on.
// A Decoder's values must not keep the bytes of its line.
func (b *lineBatch[T]) decode(decode Decoder[T], checkDepth bool) {
	defer close(b.done)
	if n := len(b.n); cap(b.values) >= n {
		// Cleared by recycle.
		b.values, b.errs, b.warns = b.values[:n], b.errs[:n], b.warns[:n]
	} else {
		b.values = make([]T, n)
		b.errs = make([]error, n)
		b.warns = make([][]trajeval.Warning, n)
	}
	start, i := 0, 0
	warn := func(w trajeval.Warning) { b.warns[i] = append(b.warns[i], w) } // one for the batch
	for ; i < len(b.ends); i++ {
		end := b.ends[i]
		line := b.data[start:end]
		if checkDepth {
			b.errs[i] = lineDepth(line, b.n[i])
		}
		if b.errs[i] == nil {
			b.values[i], b.errs[i] = decode(line, b.n[i], warn)
		}
		if b.errs[i] != nil {
			break
		}
		start = end
	}
	// Decoded values hold no bytes of the lines: the buffer can go.
	data := b.data
	b.data = nil
	buffers.Put(&data)
}
