package serve_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trajeval/trajeval/internal/serve"
)

// frame is a gRPC message: its 5-byte prefix (the compressed flag, the
// length) and msg.
func frame(compressed byte, msg []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{compressed}, uint32(len(msg))), msg...)
}

// h2c is an HTTP/2 client without TLS, as gRPC clients speak it, which
// lets a test send what a gRPC client library never would.
var h2c = func() *http.Client {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{Protocols: &p}}
}()

// A grpcAnswer is what a raw gRPC request got back.
type grpcAnswer struct {
	httpStatus      int
	status, message string // grpc-status and grpc-message, raw
	body            []byte
	header          http.Header
}

// rawGRPC sends a request to the server's gRPC listener, at path, with
// header and body, and reads the answer; its grpc-status is in the
// headers (Trailers-Only) or in the trailers.
func rawGRPC(t *testing.T, s *server, ctx context.Context, path string, header map[string]string, body io.Reader) grpcAnswer {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+s.cc.Target()+path, body)
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("Te", "trailers")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := h2c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := grpcAnswer{httpStatus: resp.StatusCode, body: b, header: resp.Header}
	a.status, a.message = resp.Header.Get("Grpc-Status"), resp.Header.Get("Grpc-Message")
	if a.status == "" {
		a.status, a.message = resp.Trailer.Get("Grpc-Status"), resp.Trailer.Get("Grpc-Message")
	}
	return a
}

const exportPath = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"

// TestServer_grpcFraming sends requests that only a hand-made client
// sends, and checks the server's answer to each, as a gRPC server gives
// it: the HTTP status, grpc-status, and grpc-message.
func TestServer_grpcFraming(t *testing.T) {
	s := start(t, policy, serve.Config{MaxRequestBytes: 1 << 20, ReadTimeout: time.Minute})
	valid := protoOf(traceN(t, 1))
	tests := []struct {
		name       string
		path       string
		header     map[string]string
		body       []byte
		httpStatus int
		status     string
		message    string // a part of grpc-message
		reason     string
	}{
		{"empty message", exportPath, nil, frame(0, nil), 200, "0", "",
			"an empty ExportTraceServiceRequest is valid OTLP"},
		{"not gRPC", exportPath, map[string]string{"Content-Type": "application/json"}, frame(0, nil), 415, "13", "content-type",
			"a request that is not gRPC is refused as gRPC servers refuse it"},
		{"unknown method", "/opentelemetry.proto.collector.trace.v1.TraceService/Nope", nil, frame(0, nil), 200, "12", "unknown method Nope",
			"the service has one method"},
		{"unknown service", "/h%C3%A9llo%25/Export", nil, frame(0, nil), 200, "12", "unknown service h%C3%A9llo%25",
			"grpc-message is percent-encoded: bytes outside printable ASCII, and %"},
		{"zstd", exportPath, map[string]string{"Grpc-Encoding": "zstd"}, frame(1, []byte("x")), 200, "12", "zstd",
			"an encoding the server does not read is refused, never guessed"},
		{"compressed flag, no encoding", exportPath, nil, frame(1, valid), 200, "13", "compressed flag",
			"a compressed message needs its encoding"},
		{"flag 2", exportPath, nil, frame(2, valid), 200, "13", "compressed flag",
			"the compressed flag is 0 or 1"},
		{"not gzip", exportPath, map[string]string{"Grpc-Encoding": "gzip"}, frame(1, valid), 200, "13", "decompress",
			"a message said to be gzip that is not is an error, not a score"},
		{"cut short", exportPath, nil, frame(0, valid)[:100], 200, "13", "cut short",
			"a truncated message is an error, never decoded as far as it goes"},
		{"no message", exportPath, nil, nil, 200, "13", "no message",
			"a unary request carries one message"},
		{"cut prefix", exportPath, nil, []byte{0, 0}, 200, "13", "no message",
			"a truncated prefix is an error"},
		{"two messages", exportPath, nil, append(frame(0, nil), frame(0, valid)...), 200, "13", "more than one message",
			"a second message is an error, not dropped"},
		{"over the limit", exportPath, nil, frame(0, make([]byte, 1<<20+1)), 200, "8", "larger than max",
			"the length prefix passes MaxRequestBytes"},
		{"not OTLP", exportPath, nil, frame(0, []byte("\x0a\xff\xff\xff")), 200, "3", "not an OTLP protobuf",
			"a message that is not OTLP is INVALID_ARGUMENT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := rawGRPC(t, s, t.Context(), tt.path, tt.header, bytes.NewReader(tt.body))
			if a.httpStatus != tt.httpStatus || a.status != tt.status || !strings.Contains(a.message, tt.message) {
				t.Errorf("HTTP %d, grpc-status %s, grpc-message %q; want %d, %s, with %q (%s)",
					a.httpStatus, a.status, a.message, tt.httpStatus, tt.status, tt.message, tt.reason)
			}
			if a.status == "0" && string(a.body) != "\x00\x00\x00\x00\x02\x0a\x00" {
				t.Errorf("the answer's message %q, want an ExportTraceServiceResponse with an empty partial_success, as pdata writes it", a.body)
			}
			if tt.name == "zstd" && a.header.Get("Grpc-Accept-Encoding") == "" {
				t.Errorf("no grpc-accept-encoding with UNIMPLEMENTED for an encoding")
			}
		})
	}
	if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held != 0 {
		t.Errorf("bytes held %v after requests that hold no span, want 0: a refusal released its charge", held)
	}
}

// TestServer_grpcRefusedBeforeReading sends the prefix of a message too
// large, or sends it slowly, and never the rest, nor the end of the
// request: the server answers at once, or at the client's grpc-timeout,
// not at its own read timeout of a minute.
func TestServer_grpcRefusedBeforeReading(t *testing.T) {
	s := start(t, policy, serve.Config{MaxRequestBytes: 1 << 20, ReadTimeout: time.Minute})
	tests := []struct {
		name    string
		header  map[string]string
		prefix  []byte
		status  string
		message string
		reason  string
	}{
		{"1 GiB", nil, frame(0, nil)[:1], "8", "larger than max",
			"a length over MaxRequestBytes is refused from the prefix, before the message is read"},
		{"grpc-timeout", map[string]string{"Grpc-Timeout": "50m"}, frame(0, make([]byte, 10))[:7], "4", "deadline",
			"the client's deadline, shorter than the server's, ends the read"},
	}
	tests[0].prefix = binary.BigEndian.AppendUint32(tests[0].prefix, 1<<30)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			pr, pw := io.Pipe()
			defer pw.Close()
			go pw.Write(tt.prefix)
			a := rawGRPC(t, s, ctx, exportPath, tt.header, pr)
			if a.status != tt.status || !strings.Contains(a.message, tt.message) {
				t.Errorf("grpc-status %s, grpc-message %q; want %s with %q (%s)", a.status, a.message, tt.status, tt.message, tt.reason)
			}
		})
	}
	if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held != 0 {
		t.Errorf("bytes held %v after the requests, want 0", held)
	}
}

// retryDelay is the delay of the RetryInfo in the status of err, as a
// gRPC client reads it from grpc-status-details-bin; 0 when there is none.
func retryDelay(t *testing.T, err error) time.Duration {
	t.Helper()
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok {
			return ri.GetRetryDelay().AsDuration()
		}
	}
	return 0
}

// deprecatedOf is the protobuf request req with each ResourceSpans's
// scope_spans (field 2) renamed instrumentation_library_spans (field
// 1000), as OTLP exporters before 0.19 send it.
func deprecatedOf(t *testing.T, req []byte) []byte {
	t.Helper()
	var out []byte
	for len(req) > 0 {
		num, typ, n := protowire.ConsumeTag(req)
		rs, m := protowire.ConsumeBytes(req[n:])
		if num != 1 || typ != protowire.BytesType || m < 0 {
			t.Fatalf("not a request of ResourceSpans")
		}
		req = req[n+m:]
		var upgraded []byte
		for len(rs) > 0 {
			num, typ, n := protowire.ConsumeTag(rs)
			k := protowire.ConsumeFieldValue(num, typ, rs[n:])
			if num == 2 {
				num = 1000
			}
			upgraded = append(protowire.AppendTag(upgraded, num, typ), rs[n:n+k]...)
			rs = rs[n+k:]
		}
		out = protowire.AppendBytes(protowire.AppendTag(out, 1, protowire.BytesType), upgraded)
	}
	return out
}

func TestDecodeTraces_deprecatedScopeSpans(t *testing.T) {
	current := protoOf(traceN(t, 1))
	old := deprecatedOf(t, current)
	tests := []struct {
		name   string
		body   []byte
		spans  int
		reason string
	}{
		{"current", current, traceN(t, 1).SpanCount(), "scope_spans"},
		{"deprecated", old, traceN(t, 1).SpanCount(), "instrumentation_library_spans is read where scope_spans is absent, as pdata's request decoder does"},
		{"both", append(bytes.Clone(current), old...), 2 * traceN(t, 1).SpanCount(), "each ResourceSpans is read on its own"},
		{"deprecated, cut short", old[:len(old)-1], -1, "a truncated request is an error, never read as far as it goes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			td, err := serve.DecodeTraces(tt.body, false)
			switch {
			case tt.spans < 0 && err == nil:
				t.Errorf("no error, want one (%s)", tt.reason)
			case tt.spans >= 0 && err != nil:
				t.Errorf("%v (%s)", err, tt.reason)
			case tt.spans >= 0 && td.SpanCount() != tt.spans:
				t.Errorf("%d spans, want %d (%s)", td.SpanCount(), tt.spans, tt.reason)
			}
		})
	}
}
