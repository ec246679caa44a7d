package serve_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/encoding/gzip" // the clients compress with gzip
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/serve"
	"github.com/trajeval/trajeval/suite"
)

const fixtures = "../format/otlp/testdata"

// rows is a concurrency-safe --out that the test reads rows from.
type rows struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *rows) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *rows) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

func (r *rows) list(t *testing.T) []trajeval.CaseResult {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []trajeval.CaseResult
	for line := range strings.Lines(r.buf.String()) {
		var c trajeval.CaseResult
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		out = append(out, c)
	}
	return out
}

// waitRows waits until out holds n rows; the test's deadline bounds it.
func waitRows(t *testing.T, out *rows, n int) []trajeval.CaseResult {
	t.Helper()
	for {
		if got := out.list(t); len(got) >= n {
			return got
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// server is a running server with an HTTP and a gRPC listener.
type server struct {
	*serve.Server
	url  string
	grpc ptraceotlp.GRPCClient
	cc   *grpc.ClientConn
	out  *rows
	stop func()
}

func start(t *testing.T, policy string, cfg serve.Config) *server {
	t.Helper()
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &rows{}
	cfg.Policy = pol
	if cfg.Out == nil {
		cfg.Out = out
	}
	cfg.OutName = "rows"
	if cfg.Grace == 0 {
		cfg.Grace = time.Hour // scored at Shutdown unless a test says
	}
	if cfg.Idle == 0 {
		cfg.Idle = time.Hour
	}
	srv, err := serve.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := srv.GRPCServer()
	go gs.Serve(ln)
	cc, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	s := &server{Server: srv, url: hs.URL, grpc: ptraceotlp.NewGRPCClient(cc), cc: cc, out: out}
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			hs.Close()
			cc.Close()
			gs.Close()
			if err := srv.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(s.stop)
	return s
}

// post sends body to /v1/traces and returns the response and its body.
func (s *server) post(t *testing.T, body []byte, contentType string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.url+"/v1/traces", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (s *server) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// readTraces reads an OTLP fixture: JSON (a document, or JSON Lines, one
// request per line) or protobuf.
func readTraces(t testing.TB, path string) []ptrace.Traces {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".pb") {
		td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(data)
		if err != nil {
			t.Fatal(err)
		}
		return []ptrace.Traces{td}
	}
	if strings.HasSuffix(path, ".json") {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(data)
		if err != nil {
			t.Fatal(err)
		}
		return []ptrace.Traces{td}
	}
	var out []ptrace.Traces
	for line := range strings.Lines(string(data)) {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, td)
	}
	return out
}

// evalRows scores the fixture as trajeval eval --traces does.
func evalRows(t *testing.T, policy, traces string) []trajeval.CaseResult {
	t.Helper()
	opts := suite.RunOptions{Traces: traces}
	s, err := opts.Load(policy)
	if err != nil {
		t.Fatal(err)
	}
	var out []trajeval.CaseResult
	for r, err := range s.Run(context.Background(), opts) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// verdict is what must agree between eval and serve.
type verdict struct {
	Status string
	Score  float64
	Evals  string
}

func verdictOf(r trajeval.CaseResult) verdict {
	var b strings.Builder
	for _, e := range r.Evaluators {
		b.WriteString(e.Name + "=" + string(e.Status) + ":" + strings.TrimRight(strings.TrimRight(jsonNum(e.Score), "0"), ".") + " ")
	}
	return verdict{string(r.Status), r.Score, b.String()}
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

func verdicts(rs []trajeval.CaseResult) []verdict {
	var out []verdict
	for _, r := range rs {
		out = append(out, verdictOf(r))
	}
	slices.SortFunc(out, func(a, b verdict) int { return strings.Compare(a.Evals+a.Status, b.Evals+b.Status) })
	return out
}

const policy = "testdata/policy.yaml"

// The fixtures whose trajectories are each one trace: traces that share
// a conversation are joined by eval, and by serve only when the policy
// says conversations: (see conversation_test.go).
var sameAsEval = []string{
	"otlp/genai.json", "otlp/openinference-contents.json", "otlp/openinference-failed.json",
	"otlp/uipath.json", "otlp/uipath-seed.json", "otlp/uipath-python-args.json", "otlp/usage-cost.json",
	"otlp/chat-only.jsonl", "otlp/duplicates.jsonl", "otlp/no-call-ids.jsonl", "otlp-proto/genai.pb",
}

// transports send a request over each transport and encoding.
var transports = []struct {
	name string
	send func(t *testing.T, s *server, td ptrace.Traces)
}{
	{"http-json", func(t *testing.T, s *server, td ptrace.Traces) {
		b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalJSON()
		sendOK(t, s, b, "application/json", nil)
	}},
	{"http-proto", func(t *testing.T, s *server, td ptrace.Traces) {
		b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
		sendOK(t, s, b, "application/x-protobuf", nil)
	}},
	{"http-proto-gzip", func(t *testing.T, s *server, td ptrace.Traces) {
		b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
		sendOK(t, s, gzipped(b), "application/x-protobuf", map[string]string{"Content-Encoding": "gzip"})
	}},
	{"grpc", func(t *testing.T, s *server, td ptrace.Traces) {
		if _, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(td)); err != nil {
			t.Fatal(err)
		}
	}},
	{"grpc-gzip", func(t *testing.T, s *server, td ptrace.Traces) {
		if _, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(td), grpc.UseCompressor("gzip")); err != nil {
			t.Fatal(err)
		}
	}},
}

func TestServer_sameScoresAsEval(t *testing.T) {
	for _, f := range sameAsEval {
		path := filepath.Join(fixtures, f)
		want := verdicts(evalRows(t, policy, path))
		for _, tr := range transports {
			t.Run(f+"/"+tr.name, func(t *testing.T) {
				s := start(t, policy, serve.Config{})
				for _, td := range readTraces(t, path) {
					tr.send(t, s, td)
				}
				s.stop()
				got := s.out.list(t)
				if !slices.Equal(verdicts(got), want) {
					t.Errorf("serve scored\n%v\neval scored\n%v", verdicts(got), want)
				}
				for _, r := range got {
					if len(r.ID) != 32 {
						t.Errorf("row id %q is not a trace id", r.ID)
					}
				}
			})
		}
	}
}

func sendOK(t *testing.T, s *server, body []byte, ct string, h map[string]string) {
	t.Helper()
	resp, msg := s.post(t, body, ct, h)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, msg)
	}
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// spansOf returns each span of td as a request of its own, in reverse
// order.
func spansOf(td ptrace.Traces) []ptrace.Traces {
	var out []ptrace.Traces
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				one := ptrace.NewTraces()
				rs := one.ResourceSpans().AppendEmpty()
				rss.At(i).Resource().CopyTo(rs.Resource())
				ss := rs.ScopeSpans().AppendEmpty()
				sss.At(j).Scope().CopyTo(ss.Scope())
				spans.At(k).CopyTo(ss.Spans().AppendEmpty())
				out = append(out, one)
			}
		}
	}
	slices.Reverse(out)
	return out
}

func TestServer_splitOutOfOrder(t *testing.T) {
	path := filepath.Join(fixtures, "otlp/genai.json")
	want := verdicts(evalRows(t, policy, path))
	s := start(t, policy, serve.Config{})
	for i, one := range spansOf(readTraces(t, path)[0]) {
		// One span per request, the root first, over both transports.
		if i%2 == 0 {
			b, _ := ptraceotlp.NewExportRequestFromTraces(one).MarshalProto()
			sendOK(t, s, b, "application/x-protobuf", nil)
		} else if _, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(one)); err != nil {
			t.Fatal(err)
		}
	}
	s.stop()
	if got := verdicts(s.out.list(t)); !slices.Equal(got, want) {
		t.Errorf("serve scored\n%v\neval scored\n%v", got, want)
	}
}

func TestServer_duplicateSpans(t *testing.T) {
	path := filepath.Join(fixtures, "otlp/genai.json")
	want := verdicts(evalRows(t, policy, path))
	s := start(t, policy, serve.Config{})
	td := readTraces(t, path)[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalJSON()
	sendOK(t, s, b, "application/json", nil)
	sendOK(t, s, b, "application/json", nil) // an exporter's retry
	_, metrics := s.get(t, "/metrics")
	if !strings.Contains(metrics, "trajeval_serve_spans_duplicate_total 13\n") {
		t.Errorf("the 13 repeated spans are not counted:\n%s", metrics)
	}
	s.stop()
	if got := verdicts(s.out.list(t)); !slices.Equal(got, want) {
		t.Errorf("serve scored\n%v\neval scored\n%v", got, want)
	}
}

// withoutRoot returns td without its root span.
func withoutRoot(td ptrace.Traces) ptrace.Traces {
	out := ptrace.NewTraces()
	td.CopyTo(out)
	rss := out.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			sss.At(j).Spans().RemoveIf(func(s ptrace.Span) bool { return s.ParentSpanID().IsEmpty() })
		}
	}
	return out
}

func TestServer_idleIncomplete(t *testing.T) {
	s := start(t, policy, serve.Config{Grace: time.Hour, Idle: 20 * time.Millisecond, Tick: time.Millisecond})
	td := withoutRoot(readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0])
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	sendOK(t, s, b, "application/x-protobuf", nil)
	got := waitRows(t, s.out, 1)
	checkIncomplete(t, got[0])
}

func checkIncomplete(t *testing.T, r trajeval.CaseResult) {
	t.Helper()
	if r.Status != trajeval.StatusError || !r.Partial || !strings.Contains(r.Error, "not assessed") {
		t.Errorf("an incomplete trace gave status %s, partial %v, error %q; want error, partial, not assessed", r.Status, r.Partial, r.Error)
	}
	for _, e := range r.Evaluators {
		if e.Status != trajeval.StatusError {
			t.Errorf("evaluator %s of an incomplete trace: status %s, want error", e.Name, e.Status)
		}
	}
}

func TestServer_graceAfterRoot(t *testing.T) {
	s := start(t, policy, serve.Config{Grace: time.Millisecond, Idle: time.Hour, Tick: time.Millisecond})
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	sendOK(t, s, b, "application/x-protobuf", nil)
	got := waitRows(t, s.out, 1)
	if got[0].Status == trajeval.StatusError {
		t.Errorf("a trace with its root was scored as %s: %s", got[0].Status, got[0].Error)
	}
	_, metrics := s.get(t, "/metrics")
	for _, want := range []string{
		`trajeval_serve_traces_scored_total{status="fail"} 1`,
		`trajeval_serve_results_total{evaluator="weather",status="pass"} 1`,
		`trajeval_serve_result_latency_seconds_count 1`,
		`trajeval_serve_score_bucket{evaluator="weather",le="+Inf"} 1`,
		`trajeval_serve_requests_total{transport="http",outcome="accepted",code="200"} 1`,
	} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("metrics lack %s:\n%s", want, metrics)
		}
	}
}

func TestServer_shutdownScoresWhatIsHeld(t *testing.T) {
	s := start(t, policy, serve.Config{})
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	sendOK(t, s, b, "application/x-protobuf", nil)
	other := withoutRoot(readTraces(t, filepath.Join(fixtures, "otlp/uipath.json"))[0])
	b, _ = ptraceotlp.NewExportRequestFromTraces(other).MarshalProto()
	sendOK(t, s, b, "application/x-protobuf", nil)
	if n := len(s.out.list(t)); n != 0 {
		t.Fatalf("%d rows before shutdown, with an hour of grace", n)
	}
	s.stop()
	got := s.out.list(t)
	if len(got) != 2 {
		t.Fatalf("shutdown wrote %d rows, want 2", len(got))
	}
	for _, r := range got {
		if r.ID == "5b000000000000000000000000000001" || strings.HasPrefix(r.ID, "5b0000") {
			checkIncomplete(t, r)
		} else if r.Status == trajeval.StatusError {
			t.Errorf("trace %s with its root: status error: %s", r.ID, r.Error)
		}
	}
	// After shutdown, nothing more is taken.
	if err := s.Ingest(td); err == nil {
		t.Error("Ingest took spans after Shutdown")
	}
}

// A worker that first looks at the queue while Shutdown is under way, so
// that it sees the server closing before Shutdown queued what it held,
// must still score it: Shutdown once lost such traces now and then.
func TestServer_shutdownRightAfterStart(t *testing.T) {
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		t.Fatal(err)
	}
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	for i := range 200 {
		out := &rows{}
		srv, err := serve.New(serve.Config{Policy: pol, Out: out, OutName: "rows", Grace: time.Hour, Idle: time.Hour, Workers: 4})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Ingest(td); err != nil {
			t.Fatal(err)
		}
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := len(out.list(t)); n != 1 {
			t.Fatalf("round %d: shutdown wrote %d rows, want 1", i, n)
		}
	}
}

func TestServer_malformed(t *testing.T) {
	s := start(t, policy, serve.Config{})
	tests := []struct {
		name, body, ct string
		header         map[string]string
		code           int
		reason         string
	}{
		{"bad JSON", `{"resourceSpans": [`, "application/json", nil, 400, "not valid JSON"},
		{"JSON not OTLP", `{"resourceSpans": 7}`, "application/json", nil, 400, "not an OTLP/JSON"},
		{"bad protobuf", "\x0a\xff\xff\xff", "application/x-protobuf", nil, 400, "not an OTLP protobuf"},
		{"bad gzip", "not gzip", "application/x-protobuf", map[string]string{"Content-Encoding": "gzip"}, 400, "gzip"},
		{"unknown encoding", "{}", "application/json", map[string]string{"Content-Encoding": "br"}, 415, "content encoding"},
		{"unknown content type", "{}", "text/plain", nil, 415, "not OTLP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := s.post(t, []byte(tt.body), tt.ct, tt.header)
			if resp.StatusCode != tt.code || !strings.Contains(body, tt.reason) {
				t.Errorf("got %d %q, want %d and a reason with %q", resp.StatusCode, body, tt.code, tt.reason)
			}
		})
	}
	// The server still serves.
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalJSON()
	sendOK(t, s, b, "application/json", nil)
}

func TestServer_tooLarge(t *testing.T) {
	s := start(t, policy, serve.Config{MaxRequestBytes: 1000})
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalJSON()
	for _, tt := range []struct {
		name   string
		body   []byte
		header map[string]string
	}{
		{"plain", b, nil},
		{"small when compressed", gzipped(b), map[string]string{"Content-Encoding": "gzip"}},
	} {
		resp, msg := s.post(t, tt.body, "application/json", tt.header)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: %d bytes: got %d %s, want 413", tt.name, len(b), resp.StatusCode, msg)
		}
	}
	_, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(td))
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("gRPC: got %v, want RESOURCE_EXHAUSTED", err)
	}
}

func TestServer_maxSpans(t *testing.T) {
	s := start(t, policy, serve.Config{MaxSpans: 12})
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0] // 13 spans
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	resp, _ := s.post(t, b, "application/x-protobuf", nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("got %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	_, err := s.grpc.Export(context.Background(), ptraceotlp.NewExportRequestFromTraces(td))
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("gRPC: got %v, want RESOURCE_EXHAUSTED", err)
	}
	s.stop()
	if n := len(s.out.list(t)); n != 0 {
		t.Errorf("a refused request gave %d rows", n)
	}
}

// blocking is an --out whose writes wait until released.
type blocking struct {
	rows
	release chan struct{}
}

func (b *blocking) Write(p []byte) (int, error) {
	<-b.release
	return b.rows.Write(p)
}

func TestServer_queueFull(t *testing.T) {
	out := &blocking{release: make(chan struct{})}
	s := start(t, policy, serve.Config{Out: out, Workers: 1, Queue: 1, Grace: time.Millisecond, Tick: time.Millisecond})
	traces := []string{"otlp/genai.json", "otlp/uipath.json", "otlp/usage-cost.json", "otlp/uipath-seed.json"}
	// The worker is stuck writing the first row and the queue holds one
	// done trace: a request is refused once the sweeper queued it. The
	// last trace is sent again and again until then (its repeats add
	// nothing).
	var refused *http.Response
	accepted := map[string]bool{}
	for i := 0; refused == nil; i++ {
		f := traces[min(i, len(traces)-1)]
		b, _ := ptraceotlp.NewExportRequestFromTraces(readTraces(t, filepath.Join(fixtures, f))[0]).MarshalProto()
		resp, msg := s.post(t, b, "application/x-protobuf", nil)
		switch resp.StatusCode {
		case http.StatusTooManyRequests:
			refused = resp
		case http.StatusOK:
			accepted[f] = true
		default:
			t.Fatalf("status %d: %s", resp.StatusCode, msg)
		}
		time.Sleep(time.Millisecond)
	}
	if refused.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	close(out.release)
	s.stop()
	if got := out.list(t); len(got) != len(accepted) {
		t.Errorf("%d rows for %d accepted traces", len(got), len(accepted))
	}
}

func TestServer_token(t *testing.T) {
	s := start(t, policy, serve.Config{Token: "s3cret"})
	b, _ := ptraceotlp.NewExportRequestFromTraces(readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]).MarshalProto()
	for _, tt := range []struct {
		auth string
		code int
	}{
		{"", 401}, {"Bearer wrong", 401}, {"s3cret", 401}, {"Bearer s3cret", 200},
	} {
		resp, _ := s.post(t, b, "application/x-protobuf", map[string]string{"Authorization": tt.auth})
		if resp.StatusCode != tt.code {
			t.Errorf("Authorization %q: got %d, want %d", tt.auth, resp.StatusCode, tt.code)
		}
	}
	if code, _ := s.get(t, "/metrics"); code != 401 {
		t.Errorf("/metrics without the token: %d, want 401", code)
	}
	if code, _ := s.get(t, "/healthz"); code != 200 {
		t.Errorf("/healthz without the token: %d, want 200", code)
	}
	td := ptraceotlp.NewExportRequest()
	if _, err := s.grpc.Export(context.Background(), td); status.Code(err) != codes.Unauthenticated {
		t.Errorf("gRPC without a token: %v, want UNAUTHENTICATED", err)
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer s3cret")
	if _, err := s.grpc.Export(ctx, td); err != nil {
		t.Errorf("gRPC with the token: %v", err)
	}
}

func TestServer_selectors(t *testing.T) {
	s := start(t, "testdata/select.yaml", serve.Config{})
	for _, f := range []string{"otlp/genai.json", "otlp/uipath.json", "otlp/openinference-failed.json"} {
		b, _ := ptraceotlp.NewExportRequestFromTraces(readTraces(t, filepath.Join(fixtures, f))[0]).MarshalProto()
		sendOK(t, s, b, "application/x-protobuf", nil)
	}
	s.stop()
	got := map[string][]string{}
	for _, r := range s.out.list(t) {
		for _, e := range r.Evaluators {
			got[r.ID[:4]] = append(got[r.ID[:4]], e.Name)
		}
	}
	want := map[string][]string{"5b8e": {"errors", "travel"}, "5b00": {"errors"}}
	if len(got) != len(want) || !slices.Equal(got["5b8e"], want["5b8e"]) || !slices.Equal(got["5b00"], want["5b00"]) {
		t.Errorf("evaluators by trace: got %v, want %v", got, want)
	}
	if m := s.metricsText(t); !strings.Contains(m, "trajeval_serve_traces_unselected_total 1\n") {
		t.Errorf("the weather-bot trace is not counted as unselected:\n%s", m)
	}
}

// metricsText reads /metrics from the handler, also after the listener
// closed.
func (s *server) metricsText(t *testing.T) string {
	t.Helper()
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}

func TestServer_lateSpans(t *testing.T) {
	var log syncBuffer
	s := start(t, policy, serve.Config{Grace: time.Millisecond, Tick: time.Millisecond, Log: slog.New(slog.NewTextHandler(&log, nil))})
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	sendOK(t, s, b, "application/x-protobuf", nil)
	waitRows(t, s.out, 1)
	sendOK(t, s, b, "application/x-protobuf", nil) // after the trace was scored
	s.stop()
	if n := len(s.out.list(t)); n != 1 {
		t.Errorf("%d rows, want 1: spans after their trace was scored start no trace", n)
	}
	if m := s.metricsText(t); !strings.Contains(m, "trajeval_serve_spans_late_total 13\n") {
		t.Errorf("the late spans are not counted:\n%s", m)
	}
	id := hex.EncodeToString(func() []byte { x := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).TraceID(); return x[:] }())
	for _, want := range []string{
		"msg=scored id=" + id + " status=",                                                 // a line per trace scored
		`msg="trace sent again after it was scored: its spans are dropped" trace_id=` + id, // once, not per span
	} {
		if n := strings.Count(log.String(), want); n != 1 {
			t.Errorf("the log has %d lines with %q, want 1:\n%s", n, want, log.String())
		}
	}
}

// A syncBuffer is a bytes.Buffer that the server's goroutines may write
// while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
