package jsonl_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
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
