//go:build unix

package target_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/target"
)

// allocated returns the bytes f allocated on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestRun_MaxOutput(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name   string
		tg     target.Target
		is     error  // nil: the run succeeds
		msg    string // what the error holds
		reason string
	}{
		{"stdout over", target.Target{Shell: "head -c 16777216 /dev/zero", MaxOutput: mib}, target.ErrTooMuchOutput,
			"its standard output went over the cap of 1 MiB",
			"an agent that floods standard output is an error naming the stream and the cap"},
		{"stdout endless", target.Target{Argv: []string{"yes"}, MaxOutput: mib, Timeout: time.Minute}, target.ErrTooMuchOutput,
			"its standard output went over the cap of 1 MiB",
			"an agent that never stops writing is killed at the cap, not at its timeout"},
		{"stderr over", target.Target{Shell: `head -c 16777216 /dev/zero >&2; echo '{"output": []}'`, MaxOutput: mib}, target.ErrTooMuchOutput,
			"its standard error went over the cap of 1 MiB",
			"standard error has the same cap"},
		{"output file over", target.Target{Shell: "head -c 4194304 /dev/zero > {OUTPUT_FILE}", MaxOutput: mib}, target.ErrTooMuchOutput,
			"its {OUTPUT_FILE} went over the cap of 1 MiB",
			"the trace file has the same cap, and is not read past it"},
		{"stderr under the default cap", target.Target{Shell: "head -c 16777216 /dev/zero | tr '\\0' x >&2; exit 1"}, target.ErrFailed,
			"its standard error (16 MiB) begins with:",
			"standard error is only quoted: its head and tail are kept, never the whole of it"},
		{"at the cap", target.Target{Shell: `printf '{"output": []}'`, MaxOutput: 14}, nil, "",
			"a trace as large as the cap is read"},
		{"one byte over", target.Target{Shell: `printf '{"output": []}'`, MaxOutput: 13}, target.ErrTooMuchOutput,
			"its standard output went over the cap of 13 B",
			"one byte more than the cap is over it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := tt.tg
			tg.Name, tg.Provider = "agent", target.CLI
			var kept int64
			defer target.SetKeptHook(func(n int64) { kept = n })()
			var err error
			alloc := allocated(func() {
				_, err = target.Run(context.Background(), &tg, target.Request{CaseID: "c1", Attempt: 1})
			})
			switch {
			case tt.is == nil && err != nil:
				t.Fatalf("error %v (%s)", err, tt.reason)
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Fatalf("error %v, want %v (%s)", err, tt.is, tt.reason)
			case err != nil && !strings.Contains(err.Error(), tt.msg):
				t.Errorf("error %q, want it to hold %q (%s)", err, tt.msg, tt.reason)
			}
			if limit := cmp(tg.MaxOutput, target.DefaultMaxOutput); kept > limit {
				t.Errorf("standard output was kept in %d bytes, over the cap of %d (%s)", kept, limit, tt.reason)
			}
			t.Logf("allocated %d bytes; standard output kept in %d bytes", alloc, kept)
			// What a run holds is bounded by the cap and a few buffers,
			// whatever the command writes.
			if limit := min(uint64(cmp(tg.MaxOutput, target.DefaultMaxOutput)), 2*mib) + 2*mib; alloc > limit {
				t.Errorf("the run allocated %d bytes, over %d (%s)", alloc, limit, tt.reason)
			}
		})
	}
}

// cmp returns a, or b when a is 0.
func cmp(a, b int64) int64 {
	if a == 0 {
		return b
	}
	return a
}

func TestRun_StderrQuoted(t *testing.T) {
	tests := []struct {
		name   string
		shell  string
		want   string
		reason string
	}{
		{"short", "seq 1 12 >&2; exit 1", "exit status 1; its standard error ends with:\n  | …\n  | 3\n  | 4\n",
			"the last ten lines of a short standard error"},
		{"long", "seq 1 100000 >&2; exit 1", "exit status 1; its standard error (575.09 KiB) begins with:\n  | 1\n  | 2\n  | 3\n  | 4\n  | 5\nand ends with:\n  | …\n  | 99991\n",
			"a long standard error is quoted by its first and last lines, with its size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := &target.Target{Name: "agent", Provider: target.CLI, Shell: tt.shell}
			_, err := target.Run(context.Background(), tg, target.Request{CaseID: "c1", Attempt: 1})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to hold %q (%s)", err, tt.want, tt.reason)
			}
		})
	}
}
