package serve_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trajeval/trajeval/internal/serve"
)

// field is the length-delimited protobuf field num holding parts.
func field(num protowire.Number, parts ...[]byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendBytes(b, bytes.Join(parts, nil))
}

// deepRequest is an ExportTraceServiceRequest whose one span has an
// attribute whose value is an array nested depth levels. The headers are
// written outside in, from lengths worked out inside out, so that a
// million levels take linear time.
func deepRequest(depth int) []byte {
	lens := make([]int, 2*depth+1)
	for i := 1; i < len(lens); i++ {
		lens[i] = 1 + protowire.SizeVarint(uint64(lens[i-1])) + lens[i-1]
	}
	var v []byte
	for i := len(lens) - 1; i > 0; i-- {
		num := protowire.Number(1) // ArrayValue.values
		if i%2 == 0 {
			num = 5 // AnyValue.array_value
		}
		v = protowire.AppendTag(v, num, protowire.BytesType)
		v = protowire.AppendVarint(v, uint64(lens[i-1]))
	}
	span := field(2, field(1, make([]byte, 16)), field(2, make([]byte, 8)), field(5, []byte("chat")),
		field(9, field(1, []byte("k")), field(2, v)))
	return field(1, field(2, span))
}

// emptySpans is a request of n spans with nothing in them: two bytes of
// protobuf each, a few hundred once decoded.
func emptySpans(n int) []byte { return field(1, field(2, bytes.Repeat([]byte{2<<3 | 2, 0}, n))) }

// rawCodec sends and receives protobuf messages as bytes.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// exportRaw sends body as a TraceService.Export request.
func exportRaw(ctx context.Context, cc *grpc.ClientConn, body []byte) error {
	var resp []byte
	return cc.Invoke(ctx, "/opentelemetry.proto.collector.trace.v1.TraceService/Export", &body, &resp, grpc.ForceCodecV2(rawCodec{}))
}

func TestServer_deepValues(t *testing.T) {
	s := start(t, policy, serve.Config{})
	for _, depth := range []int{129, 1_400_000} {
		body := deepRequest(depth)
		resp, msg := s.post(t, body, "application/x-protobuf", nil)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(msg, "128 levels") {
			t.Errorf("HTTP, %d levels: %d %q; want 400 and the limit", depth, resp.StatusCode, msg)
		}
		resp, msg = s.post(t, gzipped(body), "application/x-protobuf", map[string]string{"Content-Encoding": "gzip"})
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("HTTP gzip, %d levels: %d %q; want 400", depth, resp.StatusCode, msg)
		}
		if err := exportRaw(t.Context(), s.cc, body); status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "128 levels") {
			t.Errorf("gRPC, %d levels: %v; want INVALID_ARGUMENT and the limit", depth, err)
		}
	}
	// 128 levels are taken, and the server still serves.
	sendOK(t, s, deepRequest(128), "application/x-protobuf", nil)
	if err := exportRaw(t.Context(), s.cc, deepRequest(128)); err != nil {
		t.Errorf("gRPC, 128 levels: %v", err)
	}
}

func TestServer_tokenBeforeDecoding(t *testing.T) {
	s := start(t, policy, serve.Config{Token: "s3cret"})
	tests := []struct {
		name   string
		body   []byte
		reason string
	}{
		{"not protobuf", []byte("\x0a\xff\xff\xff"), "a body that would fail to decode is refused for its token, so it was not decoded"},
		{"too deep", deepRequest(1_400_000), "a body that would overflow the decoder's stack is never decoded without the token"},
		{"costly", emptySpans(1 << 20), "a body that would take gigabytes to decode is never decoded without the token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if resp, msg := s.post(t, tt.body, "application/x-protobuf", nil); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("HTTP: %d %q, want 401 (%s)", resp.StatusCode, msg, tt.reason)
			}
			if err := exportRaw(t.Context(), s.cc, tt.body); status.Code(err) != codes.Unauthenticated {
				t.Errorf("gRPC: %v, want UNAUTHENTICATED (%s)", err, tt.reason)
			}
			ctx := metadata.AppendToOutgoingContext(t.Context(), "authorization", "Bearer wrong")
			if err := exportRaw(ctx, s.cc, tt.body); status.Code(err) != codes.Unauthenticated {
				t.Errorf("gRPC, wrong token: %v, want UNAUTHENTICATED (%s)", err, tt.reason)
			}
		})
	}
}

func TestServer_decodeBudget(t *testing.T) {
	tests := []struct {
		name     string
		maxBytes int64
		body     []byte
		http     int
		grpc     codes.Code
		reason   string
	}{
		{"empty spans", 64 << 20, emptySpans(500_000), http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
			"1 MB of empty spans would take hundreds of MB decoded: refused before decoding, for good"},
		{"deep at the limit", 1 << 20, bytes.Repeat(deepRequest(128), 64), http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
			"values nested within the limit are charged level by level"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, policy, serve.Config{MaxBytes: tt.maxBytes})
			resp, msg := s.post(t, tt.body, "application/x-protobuf", nil)
			if resp.StatusCode != tt.http || !strings.Contains(msg, "--max-bytes") {
				t.Errorf("HTTP: %d %q, want %d naming --max-bytes (%s)", resp.StatusCode, msg, tt.http, tt.reason)
			}
			resp, msg = s.post(t, gzipped(tt.body), "application/x-protobuf", map[string]string{"Content-Encoding": "gzip"})
			if resp.StatusCode != tt.http {
				t.Errorf("HTTP gzip: %d %q, want %d (%s)", resp.StatusCode, msg, tt.http, tt.reason)
			}
			if err := exportRaw(t.Context(), s.cc, tt.body); status.Code(err) != tt.grpc {
				t.Errorf("gRPC: %v, want %v (%s)", err, tt.grpc, tt.reason)
			}
			// Nothing is held, nothing stays charged: a request that fits
			// is taken.
			if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held != 0 {
				t.Errorf("bytes held %v after refusals, want 0", held)
			}
			sendOK(t, s, protoOf(traceN(t, 1)), "application/x-protobuf", nil)
			if err := exportRaw(t.Context(), s.cc, protoOf(traceN(t, 2))); err != nil {
				t.Errorf("gRPC, a request that fits: %v", err)
			}
		})
	}
}

func TestNew_requestLimit(t *testing.T) {
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = serve.New(serve.Config{Policy: pol, MaxBytes: 1 << 20, MaxRequestBytes: 1<<19 + 1})
	if err == nil || !strings.Contains(err.Error(), "half") {
		t.Errorf("New: %v; want an error: a compressed gRPC request, charged twice its size, would never fit", err)
	}
	s, err := serve.New(serve.Config{Policy: pol, MaxBytes: 1 << 20, MaxRequestBytes: 1 << 19})
	if err != nil {
		t.Fatal(err)
	}
	s.Shutdown(context.Background())
}

// jsonValue is an OTLP/JSON attribute value nested depth levels of
// arrays, or of key-value lists.
func jsonValue(depth int, kvlist bool) string {
	v := `{"stringValue":"x"}`
	for range depth {
		if kvlist {
			v = `{"kvlistValue":{"values":[{"key":"k","value":` + v + `}]}}`
		} else {
			v = `{"arrayValue":{"values":[` + v + `]}}`
		}
	}
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"chat","attributes":[{"key":"k","value":` + v + `}]}]}]}]}`
}

func TestServer_deepJSON(t *testing.T) {
	s := start(t, policy, serve.Config{})
	for _, kvlist := range []bool{false, true} {
		sendOK(t, s, []byte(jsonValue(128, kvlist)), "application/json", nil)
		resp, msg := s.post(t, []byte(jsonValue(600, kvlist)), "application/json", nil)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(msg, "deeper") {
			t.Errorf("kvlist %v, 600 levels: %d %q; want 400 and the reason", kvlist, resp.StatusCode, msg)
		}
	}
}
