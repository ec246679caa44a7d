package serve_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

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
