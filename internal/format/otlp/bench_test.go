package otlp_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/otlp"
)

// BenchmarkReadFile reads the file named by $OTLP_BENCH_FILE (for example
// one written by bench/otlpgen) and discards the trajectories.
func BenchmarkReadFile(b *testing.B) {
	path := os.Getenv("OTLP_BENCH_FILE")
	if path == "" {
		b.Skip("set OTLP_BENCH_FILE to an OTLP JSON Lines file")
	}
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		in := trajeval.Input{Name: path, R: f, Warn: func(trajeval.Warning) {}}
		err = otlp.JSON.Read(context.Background(), in, func(t *trajeval.Trajectory) error {
			return json.NewEncoder(io.Discard).Encode(t)
		})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
