package serve_test

import (
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/trajeval/trajeval/internal/serve"
)

// TestServer_grpcSlowClient opens gRPC requests that send their headers
// and never their message: each is charged what reading it may take, so
// two of them fill a 2 MiB budget. They end at the read timeout, with
// DEADLINE_EXCEEDED, their charge is released, and the next request is
// taken; without the timeout they held the budget, and every other
// request was refused, for as long as their client liked.
func TestServer_grpcSlowClient(t *testing.T) {
	s := start(t, policy, serve.Config{MaxBytes: 2 << 20, MaxRequestBytes: 1 << 20, ReadTimeout: 100 * time.Millisecond})
	desc := &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}
	ended := make(chan error, 2)
	for range 2 {
		st, err := s.cc.NewStream(t.Context(), desc, "/opentelemetry.proto.collector.trace.v1.TraceService/Export", grpc.ForceCodecV2(rawCodec{}))
		if err != nil {
			t.Fatal(err)
		}
		go func() { ended <- st.RecvMsg(new([]byte)) }()
	}
	for range 2 {
		select {
		case err := <-ended:
			if status.Code(err) != codes.DeadlineExceeded {
				t.Errorf("a request that never sends its message: %v, want DEADLINE_EXCEEDED", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("a request that never sends its message is still open after a minute: no read timeout")
		}
	}
	if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held != 0 {
		t.Errorf("bytes held %v after the requests ended, want 0", held)
	}
	if err := exportRaw(t.Context(), s.cc, protoOf(traceN(t, 1))); err != nil {
		t.Errorf("gRPC, a request that fits: %v", err)
	}
}
