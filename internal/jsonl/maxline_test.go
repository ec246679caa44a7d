package jsonl_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/target"
)

// endless is a file of one line that never ends, as /dev/zero given as a
// trace is; it counts the bytes it gave.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

// TestEach_maxLine checks that a line longer than MaxLine is an error at
// its line, found before more than MaxLine bytes of it are held, in Each
// and in Parallel with one worker or several; a line as long as MaxLine is
// read.
func TestEach_maxLine(t *testing.T) {
	const limit = 200 << 10 // longer than Each's buffer of 64 KiB
	defer jsonl.SetMaxLine(limit)()
	// A line of limit bytes, its newline included.
	atLimit := `"` + strings.Repeat("a", limit-3) + `"` + "\n"
	tests := []struct {
		name   string
		r      func() io.Reader
		line   int // the line too long, 0 when none is
		reason string
	}{
		{"endless line", func() io.Reader { return &endless{} }, 1, "/dev/zero, or a binary without a newline, never ends"},
		{"long line among short ones", func() io.Reader {
			return io.MultiReader(strings.NewReader("1\n2\n"), io.LimitReader(&endless{}, 10*limit), strings.NewReader("\n3\n"))
		}, 3, "the line is named"},
		{"one byte over", func() io.Reader { return strings.NewReader("1\n" + "1" + atLimit) }, 2, "the limit is exact"},
		{"at the limit", func() io.Reader { return strings.NewReader("1\n" + atLimit + "2\n") }, 0, "a line of MaxLine bytes is read"},
		{"last line at the limit", func() io.Reader { return strings.NewReader("1\n" + atLimit[:limit-1]) }, 0, "without its newline"},
	}
	reads := map[string]func(io.Reader) error{
		"Each": func(r io.Reader) error { return jsonl.Each(r, func([]byte, int) error { return nil }) },
		"Parallel, 1 worker": func(r io.Reader) error {
			return jsonl.Parallel(context.Background(), r, 1, decodeAny, func(trajeval.Warning) {}, func(int) error { return nil })
		},
		"Parallel, 4 workers": func(r io.Reader) error {
			return jsonl.Parallel(context.Background(), r, 4, decodeAny, func(trajeval.Warning) {}, func(int) error { return nil })
		},
		"ParallelBounded": func(r io.Reader) error {
			return jsonl.ParallelBounded(context.Background(), r, 4, decodeAny, func(trajeval.Warning) {}, func(int) error { return nil })
		},
	}
	for _, tt := range tests {
		for name, read := range reads {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				r := tt.r()
				err := read(r)
				var le *jsonl.LineTooLongError
				if tt.line == 0 {
					if err != nil {
						t.Fatalf("err %v, want none (%s)", err, tt.reason)
					}
					return
				}
				if !errors.As(err, &le) || le.Line != tt.line || le.Max != limit || !errors.Is(err, jsonl.ErrLineTooLong) {
					t.Fatalf("err %v, want a *LineTooLongError at line %d (%s)", err, tt.line, tt.reason)
				}
				if e, ok := r.(*endless); ok && e.read > limit+128<<10 {
					t.Errorf("read %d bytes of the endless line, want at most the limit and a buffer", e.read)
				}
			})
		}
	}
}

// TestEach_maxLineBuffered checks the limit on a line that fits in the
// buffer of the *bufio.Reader given, which Each reads with.
func TestEach_maxLineBuffered(t *testing.T) {
	defer jsonl.SetMaxLine(100)()
	r := bufio.NewReaderSize(strings.NewReader("1\n"+strings.Repeat("2", 100)+"\n"), 4<<10)
	var le *jsonl.LineTooLongError
	if err := jsonl.Each(r, func([]byte, int) error { return nil }); !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("err %v, want a *LineTooLongError at line 2", err)
	}
}

// TestTooDeep_lineTooLong checks that the error names the file, the line
// and what to do.
func TestTooDeep_lineTooLong(t *testing.T) {
	defer jsonl.SetMaxLine(1 << 10)()
	err := jsonl.Each(&endless{}, func([]byte, int) error { return nil })
	for _, err := range []error{jsonl.TooDeep("big.jsonl", err), jsonl.ReadError("big.jsonl", err)} {
		var te *trajeval.TraceError
		if !errors.As(err, &te) || te.File != "big.jsonl" || te.Line != 1 || te.Hint == "" || !errors.Is(err, jsonl.ErrLineTooLong) {
			t.Errorf("got %#v, want a *trajeval.TraceError at big.jsonl:1 with a hint", err)
		}
		if got, want := err.Error(), "big.jsonl:1: line too long: longer than 1 KiB ("; !strings.HasPrefix(got, want) {
			t.Errorf("message %q, want it to start %q", got, want)
		}
	}
}

// TestMaxLine checks that every trace a target may write is read: the
// limit on a line is no smaller than the limit on a target's output.
func TestMaxLine(t *testing.T) {
	if jsonl.MaxLine < target.DefaultMaxOutput {
		t.Errorf("MaxLine %d is below a target's output limit %d", jsonl.MaxLine, target.DefaultMaxOutput)
	}
}

func decodeAny() jsonl.Decoder[int] {
	return func([]byte, int, func(trajeval.Warning)) (int, error) { return 0, nil }
}

// TestEach_maxLineMemory checks what gathering a line too long costs: its
// copies, as it grows, add up to about twice the limit (growing by a
// quarter at a time, as append does, would make them five times).
func TestEach_maxLineMemory(t *testing.T) {
	const limit = 16 << 20
	defer jsonl.SetMaxLine(limit)()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := jsonl.Each(&endless{}, func([]byte, int) error { return nil })
	runtime.ReadMemStats(&after)
	if !errors.Is(err, jsonl.ErrLineTooLong) {
		t.Fatalf("err %v, want the line too long", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 5*limit/2 {
		t.Errorf("%d MiB allocated gathering a line cut at %d MiB, want at most %d", got>>20, limit>>20, 5*limit/2>>20)
	}
}
