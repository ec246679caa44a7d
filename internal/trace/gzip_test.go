package trace_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/trace"
)

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadFrom_gzipDamage(t *testing.T) {
	const traces = `{"id": "a", "output": [{"role": "assistant", "tool_calls": [{"tool": "search"}]}]}` + "\n" +
		`{"id": "b", "output": [{"role": "assistant", "tool_calls": [{"tool": "read"}]}]}` + "\n"
	whole := gzipped(t, traces)
	corrupt := bytes.Clone(whole)
	corrupt[len(corrupt)-5] ^= 0xff // the length in the trailer
	tests := []struct {
		name   string
		data   []byte
		msg    string
		reason string
	}{
		{"trailer cut", whole[:len(whole)-4], "the gzip data is cut off", "the JSON is whole, the stream is not: never a silent pass"},
		{"middle cut", whole[:len(whole)/2], "the gzip data is cut off", "cut in the compressed data"},
		{"corrupt", corrupt, "the gzip data is corrupt", "a trailer that does not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func(lenient bool) ([]*trajeval.Trajectory, []string, error) {
				var ts []*trajeval.Trajectory
				var warns []string
				opts := trace.Options{Lenient: lenient, Warn: func(w trajeval.Warning) { warns = append(warns, w.String()) }}
				err := trace.ReadFrom(context.Background(), "t.jsonl.gz", bytes.NewReader(tt.data), opts, func(tr *trajeval.Trajectory) error {
					ts = append(ts, tr)
					return nil
				})
				return ts, warns, err
			}
			_, _, err := read(false)
			var te *trajeval.TraceError
			if !errors.As(err, &te) || !errors.Is(err, trajeval.ErrCorruptTrace) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("strict: %v, want a TraceError wrapping ErrCorruptTrace saying %q: %s", err, tt.msg, tt.reason)
			}
			ts, warns, err := read(true)
			if err != nil && !errors.Is(err, trajeval.ErrEmptyTrace) {
				t.Fatalf("lenient: %v", err)
			}
			if len(ts) == 0 || !ts[len(ts)-1].Partial {
				t.Errorf("lenient: %d trajectories, the last not partial: %s", len(ts), tt.reason)
			}
			if !strings.Contains(strings.Join(warns, "\n"), tt.msg) {
				t.Errorf("lenient: warnings %q, want %q", warns, tt.msg)
			}
		})
	}
	// The whole stream reads as it is.
	var n int
	err := trace.ReadFrom(context.Background(), "t.jsonl.gz", bytes.NewReader(whole), trace.Options{}, func(tr *trajeval.Trajectory) error {
		if tr.Partial {
			t.Errorf("%s is partial", tr.ID)
		}
		n++
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("whole: %d trajectories, %v", n, err)
	}
}
