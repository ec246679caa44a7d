package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// GRPCServer returns the server of OTLP/gRPC's TraceService, which takes
// spans as the HTTP /v1/traces does. It speaks gRPC over HTTP/2 without
// TLS (prior knowledge, as gRPC clients do), with net/http's HTTP/2 and
// gRPC's framing done here, by these rules:
//  1. A request that is not a POST, or whose content type is not
//     application/grpc (or application/grpc+proto), is answered with HTTP
//     405 or 415 and INTERNAL, as gRPC servers answer it.
//  2. With a token, the "authorization" metadata must be "Bearer TOKEN"
//     (else UNAUTHENTICATED), before anything else is read.
//  3. A method other than TraceService/Export is UNIMPLEMENTED, as is a
//     grpc-encoding other than identity and gzip.
//  4. What reading the message may take is charged to Config.MaxBytes
//     before it is read: Config.MaxRequestBytes, twice that when the
//     message is compressed (the compressed and the decompressed bytes);
//     a request the budget cannot take is refused as in rule 7.
//  5. The message must arrive within Config.ReadTimeout of the request's
//     headers, or within the client's grpc-timeout when it is sooner:
//     else DEADLINE_EXCEEDED, and its charge is released.
//  6. A message whose length prefix passes Config.MaxRequestBytes is
//     RESOURCE_EXHAUSTED before it is read, as is one that passes it once
//     decompressed (decompression stops there); a message cut short, a
//     compressed flag with no encoding, gzip that is not, or a second
//     message, is INTERNAL.
//  7. The message is refused as HTTP refuses it: RESOURCE_EXHAUSTED when
//     decoding it alone would take more than Config.MaxBytes, or when
//     the queue, the span budget or the byte budget is full (with a
//     google.rpc.RetryInfo of one second in grpc-status-details-bin);
//     UNAVAILABLE while the backlog of rows that could not be written is
//     full (a RetryInfo of five seconds) or the server shuts down;
//     INVALID_ARGUMENT when it is not OTLP, or nests attribute values
//     too deep.
//  8. An accepted message is answered with an empty
//     ExportTraceServiceResponse and OK.
//
// Connections have a fixed 1 MiB flow-control window, for each stream and
// for the connection, so that what a connection buffers before a request
// reads it stays small and known; a connection must open (send HTTP/2's
// preface and settings) within 10 s, and one idle for 5 minutes is
// closed.
func (s *Server) GRPCServer() *http.Server {
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	return &http.Server{
		Handler:           http.HandlerFunc(s.serveGRPC),
		Protocols:         &protocols,
		ReadHeaderTimeout: 10 * time.Second,
		// A backstop: each request sets its own read deadline (rule 5).
		ReadTimeout:    s.cfg.ReadTimeout,
		IdleTimeout:    5 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		HTTP2: &http.HTTP2Config{
			MaxReceiveBufferPerStream:     1 << 20,
			MaxReceiveBufferPerConnection: 1 << 20,
		},
	}
}

// gRPC status codes.
const (
	codeOK                = 0
	codeCanceled          = 1
	codeInvalidArgument   = 3
	codeDeadlineExceeded  = 4
	codeResourceExhausted = 8
	codeUnimplemented     = 12
	codeInternal          = 13
	codeUnavailable       = 14
	codeUnauthenticated   = 16
)

const (
	traceService = "opentelemetry.proto.collector.trace.v1.TraceService"
	exportPath   = "/" + traceService + "/Export"
)

// The ExportTraceServiceResponse of an accepted request, in protobuf and
// in JSON: its partial_success, empty (nothing rejected), as pdata writes
// it.
const (
	exportResponse     = "\x0a\x00"
	exportResponseJSON = `{"partialSuccess":{}}`
	// In gRPC's framing: not compressed, 2 bytes long.
	grpcExportResponse = "\x00\x00\x00\x00\x02" + exportResponse
)

// A grpcStatus is how a gRPC request ends.
type grpcStatus struct {
	code  int
	msg   string
	retry time.Duration // a RetryInfo's delay, if not 0
}

// serveGRPC serves a gRPC request, by the rules of GRPCServer.
func (s *Server) serveGRPC(w http.ResponseWriter, r *http.Request) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case r.Method != http.MethodPost:
		writeGRPCStatus(w, http.StatusMethodNotAllowed, grpcStatus{code: codeInternal, msg: fmt.Sprintf("invalid gRPC request method %q", r.Method)})
		return
	case ct != "application/grpc" && ct != "application/grpc+proto":
		writeGRPCStatus(w, http.StatusUnsupportedMediaType, grpcStatus{code: codeInternal, msg: fmt.Sprintf("invalid gRPC request content-type %q", r.Header.Get("Content-Type"))})
		return
	}
	if !s.tokenOK(r.Header.Get("Authorization")) {
		s.metrics.request("grpc", "unauthorized", codeUnauthenticated)
		writeGRPCStatus(w, http.StatusOK, grpcStatus{code: codeUnauthenticated, msg: "a bearer token is required"})
		return
	}
	if r.URL.Path != exportPath {
		service, method, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		msg := fmt.Sprintf("unknown service %s", service)
		if service == traceService {
			msg = fmt.Sprintf("unknown method %s for service %s", method, service)
		}
		writeGRPCStatus(w, http.StatusOK, grpcStatus{code: codeUnimplemented, msg: msg})
		return
	}
	compressed := false
	switch enc := r.Header.Get("Grpc-Encoding"); enc {
	case "", "identity":
	case "gzip":
		compressed = true
	default:
		w.Header().Set("Grpc-Accept-Encoding", "gzip,identity")
		writeGRPCStatus(w, http.StatusOK, grpcStatus{code: codeUnimplemented, msg: fmt.Sprintf("grpc: Decompressor is not installed for grpc-encoding %q", enc)})
		return
	}
	timeout := s.cfg.ReadTimeout
	if d, ok := grpcTimeout(r.Header.Get("Grpc-Timeout")); ok {
		timeout = min(timeout, d)
	}
	// The read deadline ends a Read that waits, which the context alone
	// would not.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
	writeGRPCStatus(w, http.StatusOK, s.export(r.Body, compressed))
}

// export reads, charges and takes the message of a TraceService.Export
// request from body.
func (s *Server) export(body io.Reader, compressed bool) grpcStatus {
	charge := s.cfg.MaxRequestBytes
	if compressed {
		charge *= 2
	}
	if err := s.reserve(charge); err != nil {
		return s.grpcRefusal(err)
	}
	msg, st := readMessage(body, compressed, s.cfg.MaxRequestBytes)
	if st.code != codeOK {
		s.release(charge)
		if st.code == codeResourceExhausted {
			s.metrics.request("grpc", "too_large", st.code)
		}
		return st
	}
	s.release(charge - int64(len(msg)))
	if err := s.take(msg, false, int64(len(msg))); err != nil {
		return s.grpcRefusal(err)
	}
	s.metrics.request("grpc", "accepted", codeOK)
	return grpcStatus{}
}

// readMessage reads the one message of a unary gRPC request from body:
// its 5-byte prefix (a compressed flag, a big-endian length), then the
// message, decompressed when it is, and no more.
func readMessage(body io.Reader, compressed bool, limit int64) ([]byte, grpcStatus) {
	var prefix [5]byte
	if _, err := io.ReadFull(body, prefix[:]); err != nil {
		return nil, readFailure(err, "the request has no message")
	}
	size := int64(binary.BigEndian.Uint32(prefix[1:]))
	switch {
	case prefix[0] > 1:
		return nil, grpcStatus{code: codeInternal, msg: fmt.Sprintf("grpc: invalid compressed flag %d in the message's prefix", prefix[0])}
	case prefix[0] == 1 && !compressed:
		return nil, grpcStatus{code: codeInternal, msg: "grpc: compressed flag set with identity or empty encoding"}
	case size > limit:
		return nil, grpcStatus{code: codeResourceExhausted, msg: fmt.Sprintf("grpc: received message larger than max (%d vs. %d)", size, limit)}
	}
	msg := make([]byte, size)
	if _, err := io.ReadFull(body, msg); err != nil {
		return nil, readFailure(err, "the message is cut short")
	}
	if prefix[0] == 1 {
		var err error
		msg, err = ReadBody(bytes.NewReader(msg), "gzip", limit)
		switch {
		case errors.Is(err, errTooLarge):
			return nil, grpcStatus{code: codeResourceExhausted, msg: fmt.Sprintf("grpc: received message after decompression larger than max %d", limit)}
		case err != nil:
			return nil, grpcStatus{code: codeInternal, msg: "grpc: failed to decompress the received message: " + err.Error()}
		}
	}
	var more [1]byte
	if n, err := body.Read(more[:]); n > 0 {
		return nil, grpcStatus{code: codeInternal, msg: "grpc: a unary request carries more than one message"}
	} else if err != nil && err != io.EOF {
		return nil, readFailure(err, "")
	}
	return msg, grpcStatus{}
}

// readFailure is the status of a request whose reading failed with err;
// short says what an early end of the body means.
func readFailure(err error, short string) grpcStatus {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return grpcStatus{code: codeDeadlineExceeded, msg: "the message did not arrive before the request's deadline"}
	case short != "" && (err == io.EOF || err == io.ErrUnexpectedEOF):
		return grpcStatus{code: codeInternal, msg: "grpc: " + short}
	}
	return grpcStatus{code: codeCanceled, msg: "the request ended before its message was read: " + err.Error()}
}

// grpcTimeout reads a grpc-timeout header: 1 to 8 digits and a unit.
func grpcTimeout(v string) (time.Duration, bool) {
	if len(v) < 2 || len(v) > 9 {
		return 0, false
	}
	n, err := strconv.ParseInt(v[:len(v)-1], 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	i := strings.IndexByte("HMSmun", v[len(v)-1])
	if i < 0 {
		return 0, false
	}
	unit := [...]time.Duration{time.Hour, time.Minute, time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}[i]
	if n > int64(1<<63-1)/int64(unit) {
		return 1<<63 - 1, true
	}
	return time.Duration(n) * unit, true
}

// grpcRefusal is the status of a request refused with err, counted.
func (s *Server) grpcRefusal(err error) grpcStatus {
	var st grpcStatus
	switch {
	case errors.Is(err, errBadRequest):
		s.metrics.request("grpc", "malformed", codeInvalidArgument)
		return grpcStatus{code: codeInvalidArgument, msg: strings.TrimPrefix(err.Error(), errBadRequest.Error()+": ")}
	case errors.Is(err, errTooCostly):
		st.code = codeResourceExhausted
	case errors.Is(err, errQueueFull), errors.Is(err, errSpansFull), errors.Is(err, errBytesFull):
		st.code, st.retry = codeResourceExhausted, time.Second
	case errors.Is(err, errOutFull):
		st.code, st.retry = codeUnavailable, 5*time.Second
	default:
		st.code = codeUnavailable
	}
	s.metrics.request("grpc", "refused", st.code)
	st.msg = err.Error()
	if st.retry != 0 {
		st.msg += "; retry later"
	}
	return st
}

// writeGRPCStatus ends a gRPC request with st: with OK, the message of
// an ExportTraceServiceResponse that rejects nothing, and the trailers;
// otherwise a response of headers alone ("Trailers-Only"), with the HTTP
// status code.
func writeGRPCStatus(w http.ResponseWriter, code int, st grpcStatus) {
	h := w.Header()
	h.Set("Content-Type", "application/grpc")
	if st.code != codeOK {
		h.Set("Grpc-Status", strconv.Itoa(st.code))
		h.Set("Grpc-Message", percentEncode(st.msg))
		if st.retry != 0 {
			// google.rpc.RetryInfo{retry_delay: google.protobuf.Duration{seconds}}.
			delay := appendBytesField(nil, 1, appendVarintField(nil, 1, uint64(st.retry/time.Second)))
			details := appendStatus(nil, st.code, st.msg, [2]string{"type.googleapis.com/google.rpc.RetryInfo", string(delay)})
			h.Set("Grpc-Status-Details-Bin", base64.RawStdEncoding.EncodeToString(details))
		}
		w.WriteHeader(code)
		return
	}
	w.WriteHeader(code)
	io.WriteString(w, grpcExportResponse)
	h.Set(http.TrailerPrefix+"Grpc-Status", "0")
}

// percentEncode encodes a grpc-message as the gRPC specification asks:
// bytes outside printable ASCII, and '%', as %XX.
func percentEncode(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c < 0x20 || c > 0x7e || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
