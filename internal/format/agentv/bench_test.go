package agentv_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/agentv"
)

// benchRecord is a record shaped as the bench's traces (bench/suitegen):
// a user message, 20 calls of one message each, with times, and a final
// answer.
func benchRecord(i int) string {
	tools := []string{"search", "grep", "grep", "grep", "fetch", "filter", "write_file", "write_file", "filter", "fetch"}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"id":"case-%07d","output":[{"role":"user","content":"Research the history of Python"}`, i)
	at := time.Date(2026, 1, 1, 0, i%60, 0, 0, time.UTC)
	for k := range 20 {
		ms := 20 + (i*7+k*31)%200
		end := at.Add(time.Duration(ms) * time.Millisecond)
		input := fmt.Sprintf(`{"id":"doc-%d"}`, k)
		if k == 0 {
			input = `{"limit":10,"query":"python history"}`
		}
		fmt.Fprintf(&b, `,{"role":"assistant","tool_calls":[{"tool":%q,"id":"call_%d","input":%s,"output":{"ok":true},"status":"ok","start_time":%q,"end_time":%q,"duration_ms":%d}]}`,
			tools[k%len(tools)], k, input, at.Format("2006-01-02T15:04:05.000Z"), end.Format("2006-01-02T15:04:05.000Z"), ms)
		at = end.Add(5 * time.Millisecond)
	}
	b.WriteString(`,{"role":"assistant","content":"Python was created by Guido van Rossum."}],"token_usage":{"input":1193,"output":200},"cost_usd":0.01,"duration_ms":3000}` + "\n")
	return b.String()
}

// BenchmarkRead reads about 4 MB of JSON Lines shaped as the bench's
// traces: go test ./internal/format/agentv -run XXX -bench Read -cpu 1.
func BenchmarkRead(b *testing.B) {
	var data bytes.Buffer
	for i := 0; data.Len() < 4<<20; i++ {
		data.WriteString(benchRecord(i))
	}
	ctx := context.Background()
	b.SetBytes(int64(data.Len()))
	b.ReportAllocs()
	for b.Loop() {
		steps := 0
		in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data.Bytes()), Warn: func(trajeval.Warning) {}}
		err := agentv.Format.Read(ctx, in, func(t *trajeval.Trajectory) error {
			steps += len(t.Steps)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if steps == 0 {
			b.Fatal("no step read")
		}
	}
}

// TestRead_allocations bounds what reading a record of the bench's shape
// allocates: its 40 argument and result maps take two allocations each
// (the map and its group), its trajectory, steps and turns a few, its
// numbers, times and call ids none of their own (read from the line, or
// boxed once for the records after). 173 a record before the times were
// read in place.
func TestRead_allocations(t *testing.T) {
	var data bytes.Buffer
	const records = 200
	for i := range records {
		data.WriteString(benchRecord(i))
	}
	ctx := context.Background()
	read := func() {
		in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data.Bytes()), Warn: func(trajeval.Warning) {}}
		if err := agentv.Format.Read(ctx, in, func(*trajeval.Trajectory) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(3, read) / records; n > 100 {
		t.Errorf("%.1f allocations a record, want at most 100", n)
	}
}
