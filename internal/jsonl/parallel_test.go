package jsonl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// TestParallel checks that values, warnings and the first error come in
// the file's order whatever the number of workers, and that nothing after
// an error is handed on.
func TestParallel(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "%d\n", i)
		if i%300 == 0 {
			b.WriteString("\n") // a blank line keeps the numbering
		}
	}
	data := b.String()
	newDecoder := func() jsonl.Decoder[int] {
		return func(line []byte, n int, warn func(trajeval.Warning)) (int, error) {
			v, err := strconv.Atoi(string(line))
			if err != nil {
				return 0, err
			}
			if v%7 == 0 {
				warn(trajeval.Warning{Line: n, Msg: "seven"})
			}
			if v == 1500 {
				return 0, errors.New("broken at 1500")
			}
			return v, nil
		}
	}
	run := func(workers int) (string, error) {
		var out strings.Builder
		err := jsonl.Parallel(context.Background(), strings.NewReader(data), workers, newDecoder,
			func(w trajeval.Warning) { fmt.Fprintf(&out, "w%d ", w.Line) },
			func(v int) error { fmt.Fprintf(&out, "%d ", v); return nil })
		return out.String(), err
	}
	want, wantErr := run(1)
	if wantErr == nil || !strings.Contains(want, "1499 ") || strings.Contains(want, "1501 ") {
		t.Fatalf("one worker: %v, and the output stops at %q: the decoder's error must stop the reading", wantErr, want[max(0, len(want)-40):])
	}
	for _, workers := range []int{2, 3, 8} {
		got, err := run(workers)
		if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%d workers: a different output or error (%v): the order must not depend on the workers", workers, err)
		}
	}
}

// TestParallel_yieldError: an error of yield stops the reading at once.
func TestParallel_yieldError(t *testing.T) {
	data := strings.Repeat("1\n", 5000)
	n := 0
	stop := errors.New("enough")
	err := jsonl.Parallel(context.Background(), strings.NewReader(data), 4,
		func() jsonl.Decoder[int] {
			return func([]byte, int, func(trajeval.Warning)) (int, error) { return 1, nil }
		}, func(trajeval.Warning) {},
		func(int) error {
			if n++; n == 10 {
				return stop
			}
			return nil
		})
	if !errors.Is(err, stop) || n != 10 {
		t.Errorf("err %v after %d values, want yield's error after 10", err, n)
	}
}

// TestParallel_depth: Parallel refuses a line nested too deep at its line
// before the decoder sees it, with any number of workers; ParallelBounded
// hands it to the decoder, which bounds depth itself.
func TestParallel_depth(t *testing.T) {
	deep := strings.Repeat("[", jsonv.MaxDepth+1) + strings.Repeat("]", jsonv.MaxDepth+1)
	data := strings.Repeat("1\n", 300) + "\n " + deep + "\n1\n"
	tests := []struct {
		name    string
		workers int
		bounded bool
		reason  string
	}{
		{"one worker", 1, false, "as Each does"},
		{"four workers", 4, false, "the workers check, at the same place"},
		{"bounded, one worker", 1, true, "the decoder decides"},
		{"bounded, four workers", 4, true, "the decoder decides"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saw := 0
			newDecoder := func() jsonl.Decoder[int] {
				return func(line []byte, n int, _ func(trajeval.Warning)) (int, error) {
					if line[0] != '1' {
						saw = n
						return 0, errors.New("deep")
					}
					return 1, nil
				}
			}
			read := jsonl.Parallel[int]
			if tt.bounded {
				read = jsonl.ParallelBounded[int]
			}
			values := 0
			err := read(context.Background(), strings.NewReader(data), tt.workers, newDecoder,
				func(trajeval.Warning) {}, func(int) error { values++; return nil })
			if values != 300 {
				t.Errorf("%d values before the deep line, want 300: %s", values, tt.reason)
			}
			var de *jsonv.DepthError
			switch {
			case tt.bounded && (saw != 302 || err == nil || errors.As(err, &de)):
				t.Errorf("decoder saw line %d, err %v; want the decoder's error at line 302: %s", saw, err, tt.reason)
			case !tt.bounded && (saw != 0 || !errors.As(err, &de) || de.Line != 302 || de.Col != jsonv.MaxDepth+2):
				t.Errorf("decoder saw line %d, err %v; want a *jsonv.DepthError at 302:%d first: %s", saw, err, jsonv.MaxDepth+2, tt.reason)
			}
		})
	}
}

// TestParallel_reading: many workers hand on the same lines, numbered
// the same, as one does, however the reader cuts the file: lines across
// batches, a line longer than a batch, CRLF endings, white space lines, a
// last line without its ending, a read error or a reader that gives
// nothing.
func TestParallel_reading(t *testing.T) {
	var b strings.Builder
	for i := range 6000 {
		switch i % 97 {
		case 5:
			b.WriteString("\n")
		case 11:
			b.WriteString(" \t \r\n")
		case 13:
			fmt.Fprintf(&b, "  %d %s\r\n", i, strings.Repeat("y", i%300))
		default:
			fmt.Fprintf(&b, "%d %s\n", i, strings.Repeat("x", i%200))
		}
		if i == 3000 {
			fmt.Fprintf(&b, "long %s\n", strings.Repeat("z", 700<<10))
		}
	}
	b.WriteString("last")
	data := b.String()
	boom := errors.New("boom")
	tests := []struct {
		name   string
		r      func() io.Reader
		err    error
		reason string
	}{
		{"whole", func() io.Reader { return strings.NewReader(data) }, nil, "reads as large as asked"},
		{"halves", func() io.Reader { return iotest.HalfReader(strings.NewReader(data)) }, nil, "short reads"},
		{"data with EOF", func() io.Reader { return iotest.DataErrReader(strings.NewReader(data)) }, nil, "the last read gives data and io.EOF"},
		{"read error", func() io.Reader {
			return io.MultiReader(strings.NewReader(data[:len(data)/2]), iotest.ErrReader(boom))
		}, boom, "the whole lines before the error, then the error"},
		{"no progress", func() io.Reader { return io.MultiReader(strings.NewReader("1\n2\n3"), emptyReader{}) }, io.ErrNoProgress, "a reader that gives nothing forever"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(workers int) (string, error) {
				var out strings.Builder
				err := jsonl.ParallelBounded(context.Background(), tt.r(), workers,
					func() jsonl.Decoder[string] {
						return func(line []byte, n int, _ func(trajeval.Warning)) (string, error) {
							return fmt.Sprintf("%d:%d:%.20q ", n, len(line), line), nil
						}
					}, func(trajeval.Warning) {}, func(s string) error { out.WriteString(s); return nil })
				return out.String(), err
			}
			want, wantErr := run(1)
			got, err := run(4)
			if !errors.Is(wantErr, tt.err) || !errors.Is(err, tt.err) {
				t.Errorf("errors %v (one worker), %v (four); want %v: %s", wantErr, err, tt.err, tt.reason)
			}
			if got != want {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("four workers differ from one at byte %d: %.80q, want %.80q: %s", i, got[i:], want[i:], tt.reason)
			}
			if tt.err == nil && !strings.Contains(got, `"last"`) {
				t.Errorf("the last line, without its ending, is missing: %s", tt.reason)
			}
		})
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// TestParallel_allocs: batches handed on are reused by the batches read
// after them (their line ends, numbers, values, errors and warnings),
// not made anew for every batchLines lines.
func TestParallel_allocs(t *testing.T) {
	data := strings.Repeat("1\n", 64*200)
	newDecoder := func() jsonl.Decoder[int] {
		return func(line []byte, n int, warn func(trajeval.Warning)) (int, error) { return n, nil }
	}
	yield := func(int) error { return nil }
	r := strings.NewReader(data)
	allocs := testing.AllocsPerRun(5, func() {
		r.Reset(data)
		if err := jsonl.Parallel(context.Background(), r, 2, newDecoder, func(trajeval.Warning) {}, yield); err != nil {
			t.Fatal(err)
		}
	})
	// Each batch makes its channel, its decode's warn function and the
	// pointer its buffer goes back to the pool in, and the goroutines'
	// start shares out some more; a batch made anew makes six more.
	if per := allocs / 200; per > 5 {
		t.Errorf("%.0f allocations for 200 batches of lines: %.1f a batch, want at most 5", allocs, per)
	}
}
