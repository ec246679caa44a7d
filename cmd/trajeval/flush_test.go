package main

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the flusher and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFlushWriter: what is written reaches the file by the next timed
// flush, without waiting for the end; Close writes the rest and may be
// called twice.
func TestFlushWriter(t *testing.T) {
	var out syncBuffer
	f := newFlushWriter(&out, time.Millisecond)
	if _, err := f.Write([]byte("one\n")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); out.String() == "" && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if out.String() != "one\n" {
		t.Fatalf("got %q before Close: a timed flush must write what is buffered", out.String())
	}
	f2 := newFlushWriter(&out, time.Hour)
	if _, err := f2.Write([]byte("two\n")); err != nil {
		t.Fatal(err)
	}
	if err := f2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f2.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "one\ntwo\n" {
		t.Errorf("got %q, want every line after Close", out.String())
	}
}
