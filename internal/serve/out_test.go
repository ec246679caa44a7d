package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/trajeval/trajeval/internal/format/otlp"
	"github.com/trajeval/trajeval/internal/serve"
)

// traceN is the genai fixture as trace number n: its spans get a trace
// id of their own.
func traceN(t testing.TB, n int) ptrace.Traces {
	t.Helper()
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	id := pcommon.TraceID{0xaa, 12: byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				spans.At(k).SetTraceID(id)
			}
		}
	}
	return td
}

func protoOf(td ptrace.Traces) []byte {
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	return b
}

// diskFull is an --out that, while full is set, writes half of what it is
// given and fails with ENOSPC, as a file on a full disk does. Over a
// file, it has the file's Seek and Truncate; over a buffer, it has not.
type diskFull struct {
	full atomic.Bool
	mu   sync.Mutex
	file *os.File
	buf  bytes.Buffer
}

func (d *diskFull) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var err error
	if d.full.Load() {
		p, err = p[:len(p)/2], syscall.ENOSPC
	}
	var n int
	if d.file != nil {
		n, _ = d.file.Write(p)
	} else {
		n, _ = d.buf.Write(p)
	}
	return n, err
}

func (d *diskFull) contents(t *testing.T) string {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.file == nil {
		return d.buf.String()
	}
	b, err := os.ReadFile(d.file.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// truncatable is a diskFull over a file.
type truncatable struct{ *diskFull }

func (f truncatable) Seek(off int64, whence int) (int64, error) { return f.file.Seek(off, whence) }
func (f truncatable) Truncate(size int64) error                 { return f.file.Truncate(size) }

// rowIDs parses out as JSON Lines and returns the rows' ids, in order.
func rowIDs(t *testing.T, out string) []string {
	t.Helper()
	var got []string
	for line := range strings.Lines(out) {
		var r struct{ ID string }
		if !strings.HasSuffix(line, "\n") || json.Unmarshal([]byte(line), &r) != nil {
			t.Fatalf("not a whole JSON line: %q", line)
		}
		got = append(got, r.ID)
	}
	return got
}

// poll waits until cond holds; the test's deadline bounds it.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if t.Context().Err() != nil {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// gaugeValue reads a metric without labels from /metrics.
func (s *server) gaugeValue(t *testing.T, name string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(s.metricsText(t))
	if m == nil {
		t.Fatalf("no metric %s", name)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func TestServer_outRecovers(t *testing.T) {
	tests := []struct {
		name   string
		out    func(t *testing.T) (*diskFull, serve.Config)
		reason string
	}{
		{"file", func(t *testing.T) (*diskFull, serve.Config) {
			f, err := os.Create(filepath.Join(t.TempDir(), "results.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			d := &diskFull{file: f}
			return d, serve.Config{Out: truncatable{d}}
		}, "a short write to a file is truncated away: the file holds whole rows at all times"},
		{"writer", func(t *testing.T) (*diskFull, serve.Config) {
			d := &diskFull{}
			return d, serve.Config{Out: d}
		}, "a short write that cannot be undone is completed, never written twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, cfg := tt.out(t)
			cfg.Grace, cfg.Tick, cfg.Workers, cfg.OutRetry = time.Millisecond, time.Millisecond, 1, time.Millisecond
			s := start(t, policy, cfg)
			sendOK(t, s, protoOf(traceN(t, 1)), "application/x-protobuf", nil)
			poll(t, "the first row is written", func() bool { return strings.Count(d.contents(t), "\n") == 1 })

			d.full.Store(true)
			var want []string
			for n := 2; n <= 4; n++ {
				sendOK(t, s, protoOf(traceN(t, n)), "application/x-protobuf", nil)
				want = append(want, traceN(t, n).ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID().String())
				// One at a time, so that the order of the rows is known.
				poll(t, "the row is kept", func() bool { return s.gaugeValue(t, "trajeval_serve_out_backlog_rows") == float64(n-1) })
			}
			code, body := s.get(t, "/readyz")
			if code != http.StatusServiceUnavailable || !strings.Contains(body, "no space left on device") || !strings.Contains(body, "3 rows kept") {
				t.Errorf("readyz with rows kept: %d %s", code, body)
			}
			if tt.name == "file" {
				if c := d.contents(t); !strings.HasSuffix(c, "\n") {
					t.Errorf("%s: the file ends with a partial row: %q", tt.reason, c[max(0, len(c)-40):])
				}
			}
			if s.gaugeValue(t, "trajeval_serve_out_errors_total") < 1 {
				t.Error("the failed writes are not counted")
			}

			d.full.Store(false)
			poll(t, "readyz is 200 again", func() bool { code, _ := s.get(t, "/readyz"); return code == http.StatusOK })
			s.stop()
			got := rowIDs(t, d.contents(t))
			if len(got) != 4 || !slices.Equal(got[1:], want) {
				t.Errorf("%s: rows %v, want the first and then %v, each once, in order", tt.reason, got, want)
			}
		})
	}
}

func TestServer_outBacklogFull(t *testing.T) {
	d := &diskFull{}
	d.full.Store(true)
	s := start(t, policy, serve.Config{Out: d, OutBacklog: 1, Grace: time.Millisecond, Tick: time.Millisecond, OutRetry: time.Millisecond})
	sendOK(t, s, protoOf(traceN(t, 1)), "application/x-protobuf", nil)
	poll(t, "the row is kept", func() bool { return s.gaugeValue(t, "trajeval_serve_out_backlog_rows") == 1 })

	resp, body := s.post(t, protoOf(traceN(t, 2)), "application/x-protobuf", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("HTTP with the backlog full: %d, Retry-After %q, %s; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	_, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(traceN(t, 3)))
	if status.Code(err) != codes.Unavailable || retryDelay(t, err) != 5*time.Second {
		t.Errorf("gRPC with the backlog full: %v, RetryInfo %v; want UNAVAILABLE, 5s", err, retryDelay(t, err))
	}

	d.full.Store(false)
	poll(t, "requests are taken again", func() bool {
		resp, _ := s.post(t, protoOf(traceN(t, 2)), "application/x-protobuf", nil)
		return resp.StatusCode == http.StatusOK
	})
	s.stop()
	if got := rowIDs(t, d.contents(t)); len(got) != 2 {
		t.Errorf("rows %v, want the two traces taken", got)
	}
}

func TestServer_outLostAtShutdown(t *testing.T) {
	d := &diskFull{}
	d.full.Store(true)
	var lost bytes.Buffer
	s := start(t, policy, serve.Config{Out: d, OutLost: &lost, Grace: time.Millisecond, Tick: time.Millisecond})
	sendOK(t, s, protoOf(traceN(t, 1)), "application/x-protobuf", nil)
	sendOK(t, s, protoOf(traceN(t, 2)), "application/x-protobuf", nil)
	poll(t, "the rows are kept", func() bool { return s.gaugeValue(t, "trajeval_serve_out_backlog_rows") == 2 })
	err := s.Server.Shutdown(context.Background())
	if err == nil || !strings.Contains(err.Error(), "2 result rows could not be written") {
		t.Errorf("Shutdown: %v, want the count of rows not written", err)
	}
	if got := rowIDs(t, lost.String()); len(got) != 2 {
		t.Errorf("OutLost has rows %v, want both", got)
	}
}

func TestServer_maxBytes(t *testing.T) {
	first := protoOf(traceN(t, 1))
	// Room for one request (its body, and its decoding, which becomes the
	// spans held), not for two.
	s := start(t, policy, serve.Config{MaxBytes: oneRequest(t, first)})
	sendOK(t, s, first, "application/x-protobuf", nil)
	if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held <= float64(len(first)) {
		t.Errorf("bytes held %v, want the memory of the spans (more than their %d bytes of protobuf)", held, len(first))
	}
	resp, body := s.post(t, protoOf(traceN(t, 2)), "application/x-protobuf", nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "bytes") {
		t.Errorf("HTTP over --max-bytes: %d, Retry-After %q, %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	_, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(traceN(t, 3)))
	if status.Code(err) != codes.ResourceExhausted || retryDelay(t, err) != time.Second {
		t.Errorf("gRPC over --max-bytes: %v, RetryInfo %v; want RESOURCE_EXHAUSTED, 1s", err, retryDelay(t, err))
	}
	s.stop()
	if n := len(s.out.list(t)); n != 1 {
		t.Errorf("%d rows, want 1: refused requests keep nothing", n)
	}
	if held := s.gaugeValue(t, "trajeval_serve_bytes_held"); held != 0 {
		t.Errorf("bytes held after shutdown: %v, want 0", held)
	}
}

// oneRequest is the budget that takes the protobuf request body and
// nothing more: its body and what decoding it builds.
func oneRequest(t testing.TB, body []byte) int64 {
	shape, err := otlp.ScanProto(body)
	if err != nil {
		t.Fatal(err)
	}
	return int64(len(body)) + 1 + shape.Memory
}
