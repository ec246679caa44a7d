package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// A flushWriter buffers a report on its way to a file or a pipe, so that
// a run of many cases makes a few large writes instead of one per case,
// and flushes every interval, so that a reader of a log still sees each
// case soon after it is scored.
type flushWriter struct {
	mu   sync.Mutex
	w    *bufio.Writer
	err  error // the first error a timed flush met
	stop chan struct{}
	done chan struct{}
	once sync.Once
}

func newFlushWriter(w io.Writer, interval time.Duration) *flushWriter {
	f := &flushWriter{w: bufio.NewWriterSize(w, 256<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-f.stop:
				return
			case <-t.C:
				f.mu.Lock()
				if err := f.w.Flush(); err != nil && f.err == nil {
					f.err = err
				}
				f.mu.Unlock()
			}
		}
	}()
	return f
}

func (f *flushWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return 0, f.err
	}
	return f.w.Write(p)
}

// Close stops the timed flushes and writes what is left; it may be
// called again.
func (f *flushWriter) Close() error {
	f.once.Do(func() { close(f.stop) })
	<-f.done
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	return f.w.Flush()
}
