package serve_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/trajeval/trajeval/internal/serve"
)

// FuzzDecodeTraces feeds arbitrary request bodies, as JSON or protobuf,
// plain or gzip, through the decoding of POST /v1/traces and, when they
// decode, through the server: nothing may panic, a body over the limit is
// refused, and what decodes survives a protobuf round trip.
func FuzzDecodeTraces(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "otlp", "*.json"))
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
			f.Add(data, true, false)
			f.Add(gzipped(data), true, true)
		}
	}
	if data, err := os.ReadFile(filepath.Join(fixtures, "otlp-proto", "genai.pb")); err == nil {
		f.Add(data, false, false)
		f.Add(gzipped(data), false, true)
	}
	f.Add([]byte("\x0a\x08\x12\x06\x12\x04\x12\x02\x08\x01"), false, false)
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		f.Fatal(err)
	}
	srv, err := serve.New(serve.Config{Policy: pol, Grace: time.Hour, Idle: time.Hour, Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Shutdown(context.Background()) })
	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, body []byte, asJSON, gz bool) {
		enc := ""
		if gz {
			enc = "gzip"
		}
		data, err := serve.ReadBody(bytes.NewReader(body), enc, limit)
		if err != nil {
			return
		}
		if len(data) > limit {
			t.Fatalf("ReadBody returned %d bytes over a limit of %d", len(data), limit)
		}
		td, err := serve.DecodeTraces(data, asJSON)
		if err != nil {
			return
		}
		b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
		if err != nil {
			t.Fatalf("decoded traces do not marshal: %v", err)
		}
		if _, err := serve.DecodeTraces(b, false); err != nil {
			t.Fatalf("decoded traces do not decode again: %v", err)
		}
		srv.Score(context.Background(), td, false)
	})
}

// fuzzSeeds are request bodies to start from: the fixtures, and the
// hostile shapes that once crashed the server or took gigabytes.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	if data, err := os.ReadFile(filepath.Join(fixtures, "otlp-proto", "genai.pb")); err == nil {
		seeds = append(seeds, data)
	}
	return append(seeds, deepRequest(130), deepRequest(128), emptySpans(1000), []byte("\x0a\xff\xff\xff"),
		protoOf(traceN(f, 1)))
}

// FuzzServer_http posts arbitrary bodies to POST /v1/traces, protobuf or
// JSON, plain or gzip, with a token or without: nothing may panic, a
// request without the token is 401 whatever its body, any other is
// answered with a status OTLP exporters know, and the server's budget is
// whole again once the answer is given.
func FuzzServer_http(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b, false, false, true)
		f.Add(gzipped(b), false, true, true)
	}
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{}]}]}]}`), true, false, true)
	f.Add([]byte(`{"resourceSpans":[`), true, false, false)
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		f.Fatal(err)
	}
	srv, err := serve.New(serve.Config{Policy: pol, Grace: time.Hour, Idle: time.Hour, Workers: 1,
		Token: "s3cret", MaxBytes: 64 << 20, MaxRequestBytes: 1 << 20})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Shutdown(context.Background()) })
	h := srv.Handler()
	f.Fuzz(func(t *testing.T, body []byte, asJSON, gz, token bool) {
		req := httptest.NewRequest(http.MethodPost, "/v1/traces", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/x-protobuf")
		if asJSON {
			req.Header.Set("Content-Type", "application/json")
		}
		if gz {
			req.Header.Set("Content-Encoding", "gzip")
		}
		if token {
			req.Header.Set("Authorization", "Bearer s3cret")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch code := w.Code; {
		case !token && code != http.StatusUnauthorized:
			t.Fatalf("without the token: %d, want 401", code)
		case token && !slices.Contains([]int{200, 400, 413, 429}, code):
			t.Fatalf("status %d: %s", code, w.Body)
		}
	})
}

// FuzzServer_grpc sends arbitrary messages to TraceService.Export over
// gRPC, with the token or without: nothing may panic, a request without
// the token is UNAUTHENTICATED whatever its message, any other is OK,
// INVALID_ARGUMENT or RESOURCE_EXHAUSTED.
func FuzzServer_grpc(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b, true)
		f.Add(b, false)
	}
	cc, err := grpc.NewClient(grpcListener(f, "s3cret"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { cc.Close() })
	f.Fuzz(func(t *testing.T, body []byte, token bool) {
		ctx := t.Context()
		if token {
			ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer s3cret")
		}
		err := exportRaw(ctx, cc, body)
		switch code := status.Code(err); {
		case !token && code != codes.Unauthenticated:
			t.Fatalf("without the token: %v, want UNAUTHENTICATED", err)
		case token && !slices.Contains([]codes.Code{codes.OK, codes.InvalidArgument, codes.ResourceExhausted}, code):
			t.Fatalf("%v", err)
		}
	})
}

// FuzzServer_grpcFrames sends arbitrary bytes as the body of a gRPC
// request, plain or said to be gzip, over HTTP/2 by hand: whatever the
// framing (prefixes cut short, lying lengths, flags, several messages),
// nothing may panic, the answer is OK, INVALID_ARGUMENT,
// RESOURCE_EXHAUSTED or INTERNAL.
func FuzzServer_grpcFrames(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(frame(0, b), false)
		f.Add(frame(1, gzipped(b)), true)
		f.Add(frame(0, b)[:len(b)/2], false)
	}
	f.Add(append(frame(0, nil), frame(0, nil)...), false)
	f.Add(binary.BigEndian.AppendUint32([]byte{0}, 1<<31), false)
	addr := grpcListener(f, "")
	f.Fuzz(func(t *testing.T, body []byte, gz bool) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://"+addr+exportPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/grpc")
		if gz {
			req.Header.Set("Grpc-Encoding", "gzip")
		}
		resp, err := h2c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		code := resp.Header.Get("Grpc-Status")
		if code == "" {
			code = resp.Trailer.Get("Grpc-Status")
		}
		if resp.StatusCode != http.StatusOK || !slices.Contains([]string{"0", "3", "8", "13"}, code) {
			t.Fatalf("HTTP %d, grpc-status %q (%s)", resp.StatusCode, code, resp.Header.Get("Grpc-Message"))
		}
	})
}

// grpcListener starts a server of the test policy, with token, and its
// gRPC listener, stopped when f ends; it returns the listener's address.
func grpcListener(f *testing.F, token string) string {
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		f.Fatal(err)
	}
	srv, err := serve.New(serve.Config{Policy: pol, Grace: time.Hour, Idle: time.Hour, Workers: 1,
		Token: token, MaxBytes: 64 << 20, MaxRequestBytes: 1 << 20})
	if err != nil {
		f.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	gs := srv.GRPCServer()
	go gs.Serve(ln)
	f.Cleanup(func() {
		gs.Close()
		srv.Shutdown(context.Background())
	})
	return ln.Addr().String()
}
