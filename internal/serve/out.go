package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/report"
)

// An outWriter writes result rows to Config.Out, one JSON line each, in
// the order they come, and loses none to a failed write:
//  1. A row whose write fails is kept, and so is every row after it,
//     while an earlier one waits: rows are written in order.
//  2. The rows kept are written again before each new row and every
//     Config.OutRetry.
//  3. A short write (part of a row, then an error, as on a full disk) is
//     undone when Out can be truncated (a file), so that the file holds
//     whole lines only; otherwise the rest of the row is written next
//     time, after the part already written, never the row again.
//  4. Once the rows kept take Config.OutBacklog bytes, the server takes
//     no more traces (see errOutFull) until they are written; the rows of
//     traces already taken are still kept.
type outWriter struct {
	name  string
	log   *slog.Logger
	count func() // counts a failed write

	mu      sync.Mutex
	w       io.Writer
	enc     *report.JSONL
	buf     bytes.Buffer // what enc writes: the row being encoded
	backlog [][]byte     // rows not written yet, oldest first
	size    int64        // bytes in backlog
	done    int          // bytes of backlog[0] already in w
	limit   int64
	err     error // the last failed write's, while rows wait
	full    atomic.Bool

	// seen is how many rows wait and why, as of the last write: /readyz
	// and /metrics read it without waiting for a write under way, which
	// a slow disk can make long.
	seenMu   sync.Mutex
	seenRows int
	seenErr  error

	stop    chan struct{}
	stopped chan struct{}
}

// truncater is an Out that can undo a short write: an *os.File.
type truncater interface {
	io.Seeker
	Truncate(size int64) error
}

// newOutWriter returns a writer to w, named name in messages, that keeps
// up to limit bytes of rows it could not write and writes them again
// every interval; count counts each failed write.
func newOutWriter(w io.Writer, name string, limit int64, every time.Duration, log *slog.Logger, count func()) *outWriter {
	o := &outWriter{name: name, log: log, count: count, w: w, limit: limit,
		stop: make(chan struct{}), stopped: make(chan struct{})}
	o.enc = report.NewJSONL(&o.buf)
	go o.retry(every)
	return o
}

// retry writes the rows kept every interval until close.
func (o *outWriter) retry(every time.Duration) {
	defer close(o.stopped)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-t.C:
			o.mu.Lock()
			if len(o.backlog) > 0 {
				o.flush()
			}
			o.mu.Unlock()
		}
	}
}

// add writes row r after the rows kept, or keeps it.
func (o *outWriter) add(r trajeval.CaseResult) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Reset()
	if err := o.enc.Case(r); err != nil {
		// Not a write error: the row cannot be encoded, and never will.
		o.count()
		o.log.Error("cannot encode a result row; it is lost", "trace", r.ID, "err", err)
		return
	}
	row := bytes.Clone(o.buf.Bytes())
	o.backlog = append(o.backlog, row)
	o.size += int64(len(row))
	o.flush()
}

// flush writes the rows kept, oldest first, until one fails. o.mu is
// held.
func (o *outWriter) flush() {
	wrote := 0
	for len(o.backlog) > 0 {
		if err := o.write(o.backlog[0]); err != nil {
			o.count()
			if o.err == nil || o.err.Error() != err.Error() {
				o.log.Error("cannot write result rows; they are kept and written again", "out", o.name,
					"rows", len(o.backlog), "err", err)
			}
			o.err = err
			o.full.Store(o.limit > 0 && o.size >= o.limit)
			o.publish()
			return
		}
		o.size -= int64(len(o.backlog[0]))
		o.backlog[0] = nil
		o.backlog = o.backlog[1:]
		wrote++
	}
	o.backlog = nil
	if o.err != nil {
		o.log.Info("result rows written again", "out", o.name, "rows", wrote)
	}
	o.err = nil
	o.full.Store(false)
	o.publish()
}

// publish makes the state of the backlog what state returns. o.mu is
// held.
func (o *outWriter) publish() {
	o.seenMu.Lock()
	o.seenRows, o.seenErr = len(o.backlog), o.err
	o.seenMu.Unlock()
}

// write writes what of row is not in w yet, or fails; on a short write
// it undoes the part written when it can (rule 3).
func (o *outWriter) write(row []byte) error {
	start := int64(-1)
	t, canTruncate := o.w.(truncater)
	if canTruncate && o.done == 0 {
		if off, err := t.Seek(0, io.SeekEnd); err == nil {
			start = off
		}
	}
	n, err := o.w.Write(row[o.done:])
	if err == nil && o.done+n < len(row) {
		err = io.ErrShortWrite
	}
	if err == nil {
		o.done = 0
		return nil
	}
	if n > 0 && start >= 0 && t.Truncate(start) == nil {
		n = 0
	}
	o.done += max(n, 0)
	if o.done >= len(row) {
		o.done = 0
		return nil // all of it is there, whatever Write said
	}
	return err
}

// state returns how many rows wait, and why, as of the last write.
func (o *outWriter) state() (rows int, err error) {
	o.seenMu.Lock()
	defer o.seenMu.Unlock()
	return o.seenRows, o.seenErr
}

// close stops the retries, writes the rows kept one last time and
// returns those it still could not write, and why; they are no longer
// kept.
func (o *outWriter) close() (rows [][]byte, err error) {
	select {
	case <-o.stop:
	default:
		close(o.stop)
	}
	<-o.stopped
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.backlog) > 0 {
		o.flush()
	}
	rows, err = o.backlog, o.err
	if len(rows) > 0 && o.done > 0 {
		// Out could not be truncated: it ends with part of rows[0].
		o.log.Error("the last line of the results ends in the middle of a row", "out", o.name, "bytes", o.done)
	}
	// The caller answers for them now: a second close returns none.
	o.backlog, o.size, o.done = nil, 0, 0
	o.publish()
	return rows, err
}

// errOutFull refuses a request while the rows that could not be written
// fill Config.OutBacklog.
var errOutFull = errors.New("the results that could not be written fill the backlog")

// outError says why the server is not ready while rows wait.
func (o *outWriter) outError() error {
	n, err := o.state()
	if n == 0 {
		return nil
	}
	return fmt.Errorf("cannot write results to %s: %w (%d rows kept, written again when it works)", o.name, err, n)
}
