package serve

import (
	"compress/gzip"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// Handler serves, over HTTP:
//   - POST /v1/traces: OTLP/HTTP, protobuf (application/x-protobuf) or
//     JSON (application/json), plain or gzip (Content-Encoding: gzip);
//   - GET /metrics: the server's metrics in Prometheus's text format;
//   - GET /healthz: 200 while the process serves;
//   - GET /readyz: 200 when it takes traces and can write results, else
//     503 and why.
//
// With a token, /v1/traces and /metrics need "Authorization: Bearer
// TOKEN"; the health checks never do.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", s.authorized(s.traces))
	mux.HandleFunc("GET /metrics", s.authorized(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		_ = s.metrics.write(w)
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := s.Ready(); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ready\n")
	})
	return mux
}

func (s *Server) gauges() gaugeValues {
	var outRows int
	if s.out != nil {
		outRows, _ = s.out.state()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return gaugeValues{queue: len(s.ready), pending: len(s.pending), spans: s.held, bytes: s.bytes, outBacklog: outRows}
}

// tokenOK reports whether the Authorization value carries the token, in
// time that does not depend on how much of it is right.
func (s *Server) tokenOK(auth string) bool {
	if s.cfg.Token == "" {
		return true
	}
	got, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) == 1
}

func (s *Server) authorized(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.tokenOK(r.Header.Get("Authorization")) {
			if r.URL.Path == "/v1/traces" {
				s.metrics.request("http", "unauthorized", http.StatusUnauthorized)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="trajeval"`)
			if r.URL.Path == "/v1/traces" {
				ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
				writeStatus(w, ct == "application/json", http.StatusUnauthorized, "a bearer token is required")
				return
			}
			http.Error(w, "a bearer token is required", http.StatusUnauthorized)
			return
		}
		h(w, r)
	}
}

// errTooLarge is a body over the size limit, compressed or not.
var errTooLarge = errors.New("the request body is too large")

// traces serves POST /v1/traces.
func (s *Server) traces(w http.ResponseWriter, r *http.Request) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	asJSON := ct == "application/json"
	fail := func(outcome string, code int, msg string) {
		s.metrics.request("http", outcome, code)
		writeStatus(w, asJSON, code, msg)
	}
	if ct != "application/x-protobuf" && !asJSON {
		fail("malformed", http.StatusUnsupportedMediaType, fmt.Sprintf("content type %q is not OTLP: send application/x-protobuf or application/json", ct))
		return
	}
	body, charged, err := s.readCharged(http.MaxBytesReader(w, r.Body, s.cfg.MaxRequestBytes), r.Header.Get("Content-Encoding"), s.cfg.MaxRequestBytes, r.ContentLength)
	if err != nil {
		s.release(charged)
	} else {
		err = s.take(body, asJSON, charged)
	}
	var mbe *http.MaxBytesError
	switch {
	case err == nil:
	case errors.As(err, &mbe), errors.Is(err, errTooLarge):
		fail("too_large", http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes", s.cfg.MaxRequestBytes))
		return
	case errors.Is(err, errTooCostly):
		fail("too_large", http.StatusRequestEntityTooLarge, err.Error()+"; send smaller requests, or raise --max-bytes")
		return
	case errors.Is(err, errEncoding):
		fail("malformed", http.StatusUnsupportedMediaType, err.Error())
		return
	case errors.Is(err, errQueueFull), errors.Is(err, errSpansFull), errors.Is(err, errBytesFull):
		w.Header().Set("Retry-After", "1")
		fail("refused", http.StatusTooManyRequests, err.Error()+"; retry later")
		return
	case errors.Is(err, errOutFull):
		w.Header().Set("Retry-After", "5")
		fail("refused", http.StatusServiceUnavailable, err.Error()+"; retry later")
		return
	case errors.Is(err, errClosing):
		fail("refused", http.StatusServiceUnavailable, err.Error())
		return
	default:
		fail("malformed", http.StatusBadRequest, strings.TrimPrefix(err.Error(), errBadRequest.Error()+": "))
		return
	}
	s.metrics.request("http", "accepted", http.StatusOK)
	w.Header().Set("Content-Type", ct)
	if asJSON {
		io.WriteString(w, exportResponseJSON)
	} else {
		io.WriteString(w, exportResponse)
	}
}

// errEncoding is a Content-Encoding the server does not read.
var errEncoding = errors.New("unsupported content encoding")

// ReadBody reads a request body sent with the Content-Encoding encoding
// ("", "identity" or "gzip"), and fails with errTooLarge when it holds
// more than limit bytes once decompressed.
func ReadBody(r io.Reader, encoding string, limit int64) ([]byte, error) {
	return readBody(r, encoding, limit, 0, func(int64) error { return nil })
}

// readBody is ReadBody, calling charge with the size of each buffer it
// allocates before it does: a charge that fails stops the read with its
// error.
func readBody(r io.Reader, encoding string, limit, hint int64, charge func(int64) error) ([]byte, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
	case "gzip":
		hint = 0 // the size of what it decompresses to is not known
		if err := charge(gzipWindow); err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("the gzip body is not valid: %w", err)
		}
		defer zr.Close()
		r = zr
	default:
		return nil, fmt.Errorf("%w %q: send it plain or gzip", errEncoding, encoding)
	}
	b := make([]byte, 0)
	for {
		if len(b) == cap(b) {
			// Grow by doubling, up to one byte past the limit (which
			// tells a body over it); a body of known size takes one
			// buffer.
			n := min(max(2*int64(cap(b)), 4<<10), limit+1)
			if cap(b) == 0 && hint > 0 {
				n = min(hint+1, limit+1)
			}
			if n <= int64(cap(b)) {
				return nil, errTooLarge
			}
			if err := charge(n); err != nil {
				return nil, err
			}
			b = append(make([]byte, 0, n), b...)
		}
		k, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		var mbe *http.MaxBytesError
		switch {
		case int64(len(b)) > limit:
			return nil, errTooLarge
		case err == io.EOF:
			return b, nil
		case errors.As(err, &mbe):
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("cannot read the body: %w", err)
		}
	}
}

// DecodeTraces decodes an OTLP ExportTraceServiceRequest, protobuf or
// JSON. The error says what is wrong, for the client.
//
// An ExportTraceServiceRequest has the fields of a TracesData, so pdata's
// Traces decoders read it.
func DecodeTraces(body []byte, asJSON bool) (ptrace.Traces, error) {
	if asJSON {
		if !json.Valid(body) {
			var v any
			err := json.Unmarshal(body, &v)
			return ptrace.Traces{}, fmt.Errorf("the body is not valid JSON: %v", err)
		}
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(body)
		if err != nil {
			return ptrace.Traces{}, fmt.Errorf("the body is not an OTLP/JSON ExportTraceServiceRequest: %v", err)
		}
		return td, nil
	}
	td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(upgradeScopeSpans(body))
	if err != nil {
		return ptrace.Traces{}, fmt.Errorf("the body is not an OTLP protobuf ExportTraceServiceRequest: %v", err)
	}
	return td, nil
}

// writeStatus answers an OTLP/HTTP request that failed with code and a
// google.rpc.Status holding msg, in the request's encoding, as the OTLP
// specification asks.
func writeStatus(w http.ResponseWriter, asJSON bool, code int, msg string) {
	grpcCode := codeInvalidArgument
	switch code {
	case http.StatusTooManyRequests, http.StatusRequestEntityTooLarge:
		grpcCode = codeResourceExhausted
	case http.StatusServiceUnavailable:
		grpcCode = codeUnavailable
	case http.StatusUnauthorized:
		grpcCode = codeUnauthenticated
	}
	if asJSON {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		// msg may quote what a peer sent.
		json.NewEncoder(jsonv.NewWriter(w)).Encode(struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}{grpcCode, msg})
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(code)
	w.Write(appendStatus(nil, grpcCode, msg))
}
