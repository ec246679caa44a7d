package serve_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval/internal/serve"
)

// benchTraces returns n copies of the genai fixture, each a trace of its
// own.
func benchTraces(b *testing.B, n int) []ptrace.Traces {
	out := make([]ptrace.Traces, n)
	for i := range out {
		out[i] = traceN(b, i)
	}
	return out
}

func newBenchServer(b *testing.B) *serve.Server {
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := serve.New(serve.Config{Policy: pol, Grace: time.Hour, Idle: time.Hour, MaxSpans: 1 << 30, MaxBytes: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkServer_Ingest is the cost of taking one request of 13 spans,
// sizes and copy included.
func BenchmarkServer_Ingest(b *testing.B) {
	const batch = 2000
	traces := benchTraces(b, batch)
	s := newBenchServer(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 && i%batch == 0 {
			b.StopTimer()
			s.Shutdown(context.Background())
			s = newBenchServer(b)
			b.StartTimer()
		}
		if err := s.Ingest(traces[i%batch]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	s.Shutdown(context.Background())
}

// BenchmarkTracesSize is the cost of the size estimate alone, for the
// same request: the protobuf size of its spans.
func BenchmarkTracesSize(b *testing.B) {
	td := benchTraces(b, 1)[0]
	var m ptrace.ProtoMarshaler
	b.ReportAllocs()
	for b.Loop() {
		_ = m.TracesSize(td)
	}
}

// BenchmarkServer_heldMemory reports how much heap the spans held take
// per byte counted against Config.MaxBytes.
func BenchmarkServer_heldMemory(b *testing.B) {
	const n = 2000
	for b.Loop() {
		b.StopTimer()
		s := newBenchServer(b)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		traces := benchTraces(b, n) // freed before after is read
		b.StartTimer()
		for _, td := range traces {
			if err := s.Ingest(td); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		traces = nil
		runtime.GC()
		runtime.ReadMemStats(&after)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		m := regexp.MustCompile(`(?m)^trajeval_serve_bytes_held (\d+)$`).FindStringSubmatch(rec.Body.String())
		held, _ := strconv.ParseFloat(m[1], 64)
		b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/held, "heap/held-byte")
		b.ReportMetric(held/n, "held-bytes/trace")
		s.Shutdown(context.Background())
		b.StartTimer()
	}
}
