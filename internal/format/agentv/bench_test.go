package agentv_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/agentv"
)

// BenchmarkRead reads JSON Lines shaped as the bench's traces (three
// records of 20 calls each, repeated to about 4 MB): go test
// ./internal/format/agentv -run XXX -bench Read -cpu 1.
func BenchmarkRead(b *testing.B) {
	lines, err := os.ReadFile("testdata/bench.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat(lines, (4<<20)/len(lines))
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		steps := 0
		in := trajeval.Input{Name: "bench.jsonl", R: bytes.NewReader(data), Warn: func(trajeval.Warning) {}}
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
