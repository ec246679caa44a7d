package serve_test

import (
	"net/http"
	"runtime"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/trajeval/trajeval/internal/serve"
)

// TestServer_compressionBombs sends bodies a thousand times smaller
// compressed than decompressed, and encodings the server does not read:
// each is refused before it is decompressed past the request limit, or at
// all, nothing stays charged, and the server takes the next request.
func TestServer_compressionBombs(t *testing.T) {
	const limit = 1 << 20
	s := start(t, policy, serve.Config{MaxRequestBytes: limit})
	bomb := make([]byte, 32<<20) // zeros: 32 MiB, 32 KiB gzipped
	zipped := gzipped(bomb)
	if len(zipped) > limit/16 {
		t.Fatalf("the bomb is %d bytes compressed: not a bomb", len(zipped))
	}
	tests := []struct {
		name     string
		body     []byte
		encoding string
		want     int
		reason   string
	}{
		{"gzip bomb", zipped, "gzip", http.StatusRequestEntityTooLarge, "the limit holds for the decompressed body"},
		{"zstd", zipped, "zstd", http.StatusUnsupportedMediaType, "an encoding the server does not read is refused, never guessed"},
		{"gzip twice", gzipped(zipped), "gzip, gzip", http.StatusUnsupportedMediaType, "one encoding only: no body is decompressed twice"},
		{"br", zipped, "br", http.StatusUnsupportedMediaType, "an encoding the server does not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp, msg := s.post(t, tt.body, "application/x-protobuf", map[string]string{"Content-Encoding": tt.encoding})
			runtime.ReadMemStats(&after)
			if resp.StatusCode != tt.want {
				t.Errorf("HTTP: %d %q, want %d (%s)", resp.StatusCode, msg, tt.want, tt.reason)
			}
			// The client and the server share the process: what both
			// allocated is far below what the bomb holds.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("HTTP: %d bytes allocated for a %d-byte body (%s)", alloc, len(tt.body), tt.reason)
			}
		})
	}
	t.Run("gRPC gzip bomb", func(t *testing.T) {
		err := s.cc.Invoke(t.Context(), "/opentelemetry.proto.collector.trace.v1.TraceService/Export", &bomb, new([]byte),
			grpc.ForceCodecV2(rawCodec{}), grpc.UseCompressor("gzip"))
		if status.Code(err) != codes.ResourceExhausted {
			t.Errorf("gRPC: %v, want RESOURCE_EXHAUSTED: the receive limit holds once decompressed", err)
		}
	})
	if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held != 0 {
		t.Errorf("bytes held %v after refusals, want 0", held)
	}
	sendOK(t, s, protoOf(traceN(t, 1)), "application/x-protobuf", nil)
	if err := exportRaw(t.Context(), s.cc, protoOf(traceN(t, 2))); err != nil {
		t.Errorf("gRPC, a request that fits: %v", err)
	}
}
