package serve_test

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/serve"
)

func TestLogExporter(t *testing.T) {
	var mu sync.Mutex
	var got []plog.LogRecord
	var auth string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := plogotlp.NewExportRequest()
		if r.URL.Path != "/v1/logs" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("logs sent to %s as %s", r.URL.Path, r.Header.Get("Content-Type"))
		}
		if err := req.UnmarshalProto(body); err != nil {
			t.Errorf("not OTLP logs: %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		auth = r.Header.Get("Authorization")
		got = append(got, records(req.Logs())...)
	}))
	defer collector.Close()

	logs := serve.NewLogExporter(serve.LogConfig{URL: collector.URL + "/v1/logs", Header: http.Header{"Authorization": {"Bearer x"}}})
	s := start(t, policy, serve.Config{Logs: logs})
	td := readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	sendOK(t, s, b, "application/x-protobuf", nil)
	s.stop() // scores the trace and flushes the exporter

	mu.Lock()
	defer mu.Unlock()
	if auth != "Bearer x" {
		t.Errorf("Authorization %q, want the configured header", auth)
	}
	if len(got) != 3 {
		t.Fatalf("%d events, want one per evaluator (3)", len(got))
	}
	byName := map[string]plog.LogRecord{}
	for _, lr := range got {
		if lr.EventName() != "gen_ai.evaluation.result" {
			t.Errorf("event name %q", lr.EventName())
		}
		if lr.TraceID().String() != "5b8efff798038103d269b633813fc60c" || lr.SpanID().String() != "a000000000000001" {
			t.Errorf("event on trace %s span %s, want the trace and its root span", lr.TraceID(), lr.SpanID())
		}
		name, _ := lr.Attributes().Get("gen_ai.evaluation.name")
		byName[name.Str()] = lr
	}
	w := byName["weather"]
	if v, _ := w.Attributes().Get("gen_ai.evaluation.score.value"); v.Double() != 1 {
		t.Errorf("weather score %v, want 1", v.AsRaw())
	}
	if v, _ := w.Attributes().Get("gen_ai.evaluation.score.label"); v.Str() != "pass" {
		t.Errorf("weather label %q, want pass", v.Str())
	}
	e := byName["errors"]
	if v, ok := e.Attributes().Get("gen_ai.evaluation.score.label"); !ok || v.Str() != "fail" {
		t.Errorf("errors label %v, want fail", v.AsRaw())
	}
}

// records returns every log record of logs.
func records(logs plog.Logs) []plog.LogRecord {
	var out []plog.LogRecord
	rls := logs.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			recs := sls.At(j).LogRecords()
			for k := 0; k < recs.Len(); k++ {
				out = append(out, recs.At(k))
			}
		}
	}
	return out
}

// endpoint is a fake OTLP/HTTP logs endpoint: it answers the requests
// with answers in turn, the last one again and again, and counts each
// event of the requests it took (2xx) by trace and evaluator.
type endpoint struct {
	*httptest.Server
	answers []func(w http.ResponseWriter)
	release chan struct{} // when set, requests wait until it is closed

	mu       sync.Mutex
	requests []time.Time
	got      map[string]int
}

func newEndpoint(t *testing.T, answers ...func(w http.ResponseWriter)) *endpoint {
	e := &endpoint{answers: answers, got: map[string]int{}}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e.release != nil {
			<-e.release
		}
		body, _ := io.ReadAll(r.Body)
		req := plogotlp.NewExportRequest()
		if err := req.UnmarshalProto(body); err != nil {
			t.Errorf("not OTLP logs: %v", err)
		}
		e.mu.Lock()
		reply := e.answers[min(len(e.requests), len(e.answers)-1)]
		e.requests = append(e.requests, time.Now())
		e.mu.Unlock()
		rec := httptest.NewRecorder()
		reply(rec)
		if rec.Code/100 == 2 {
			e.mu.Lock()
			for _, lr := range records(req.Logs()) {
				name, _ := lr.Attributes().Get("gen_ai.evaluation.name")
				e.got[lr.TraceID().String()+"/"+name.Str()]++
			}
			e.mu.Unlock()
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *endpoint) attempts() []time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.requests)
}

func answer(code int, header ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
	}
}

// answerStatus answers code with a google.rpc.Status holding msg.
func answerStatus(code int, msg string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		b, _ := proto.Marshal(&spb.Status{Code: 3, Message: msg})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(code)
		w.Write(b)
	}
}

// answerPartial answers 200 with a partial_success rejecting n records.
func answerPartial(n int64, msg string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		resp := plogotlp.NewExportResponse()
		resp.PartialSuccess().SetRejectedLogRecords(n)
		resp.PartialSuccess().SetErrorMessage(msg)
		b, _ := resp.MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	}
}

// answerPartialJSON answers 200 with body, an OTLP/JSON
// ExportLogsServiceResponse.
func answerPartialJSON(body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
}

// genaiEvents are the events of the genai fixture, by trace and evaluator.
var genaiEvents = []string{
	"5b8efff798038103d269b633813fc60c/budget",
	"5b8efff798038103d269b633813fc60c/errors",
	"5b8efff798038103d269b633813fc60c/weather",
}

// scoreGenai scores the genai fixture on a server whose events go to
// logs, shuts it down and returns its metrics.
func scoreGenai(t *testing.T, logs *serve.LogExporter) string {
	t.Helper()
	s := start(t, policy, serve.Config{Logs: logs})
	sendOK(t, s, protoOf(readTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]), "application/x-protobuf", nil)
	s.stop()
	return s.metricsText(t)
}

func TestLogExporter_retries(t *testing.T) {
	ep := newEndpoint(t, answer(503, "Retry-After", "1"), answer(502), answer(200))
	var log rows
	logs := serve.NewLogExporter(serve.LogConfig{URL: ep.URL, Retry: time.Minute, Backoff: time.Millisecond,
		Log: slog.New(slog.NewTextHandler(&log, nil))})
	m := scoreGenai(t, logs)

	if got := slices.Sorted(maps.Keys(ep.got)); !slices.Equal(got, genaiEvents) {
		t.Errorf("events %v, want %v", got, genaiEvents)
	}
	for k, n := range ep.got {
		if n != 1 {
			t.Errorf("event %s arrived %d times, want once", k, n)
		}
	}
	at := ep.attempts()
	if len(at) != 3 {
		t.Fatalf("%d requests, want 3 (two refused, then taken)", len(at))
	}
	if gap := at[1].Sub(at[0]); gap < time.Second {
		t.Errorf("retried %s after a 503 with Retry-After: 1, want at least 1s", gap)
	}
	for _, want := range []string{
		"trajeval_serve_log_records_exported_total 3\n",
		"trajeval_serve_log_export_retries_total 2\n",
		"trajeval_serve_log_export_errors_total 0\n",
		"trajeval_serve_log_backlog_records 0\n",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q:\n%s", want, m)
		}
	}
	if !strings.Contains(log.String(), "503 Service Unavailable") {
		t.Errorf("the retries are not logged:\n%s", log.String())
	}
}

func TestLogExporter_dropped(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	tests := []struct {
		name     string
		answers  []func(w http.ResponseWriter)
		url      string // instead of the endpoint's
		retry    time.Duration
		dropped  string // the metric's line
		exported int
		log      string
		reason   string
	}{
		{"bad request", []func(http.ResponseWriter){answerStatus(400, "attribute too long"), answer(200)}, "", time.Minute,
			`{reason="rejected"} 3`, 0, "attribute too long", "a 400 is not retried; the endpoint's message is logged"},
		{"not found", []func(http.ResponseWriter){answer(404), answer(200)}, "", time.Minute,
			`{reason="rejected"} 3`, 0, "404 Not Found", "other 4xx are not retried"},
		{"partial success", []func(http.ResponseWriter){answerPartial(1, "one record too old")}, "", time.Minute,
			`{reason="partial_success"} 1`, 2, "one record too old", "the records a partial success rejects are counted"},
		{"partial success, JSON", []func(http.ResponseWriter){answerPartialJSON(`{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"two too old"}}`)}, "", time.Minute,
			`{reason="partial_success"} 2`, 1, "two too old", "OTLP/JSON writes an int64 as a string"},
		{"partial success, JSON names of the proto", []func(http.ResponseWriter){answerPartialJSON(`{"partial_success":{"rejected_log_records":1,"error_message":"one too old"}}`)}, "", time.Minute,
			`{reason="partial_success"} 1`, 2, "one too old", "a receiver may use the .proto's field names, and a number"},
		{"retry ends", []func(http.ResponseWriter){answer(503)}, "", 20 * time.Millisecond,
			`{reason="retry_timeout"} 3`, 0, "gave up after", "a retryable failure is retried within --otlp-logs-retry only"},
		{"no retry", []func(http.ResponseWriter){answer(429), answer(200)}, "", 0,
			`{reason="retry_timeout"} 3`, 0, "429 Too Many Requests", "--otlp-logs-retry 0 never retries"},
		{"connection refused", nil, closed.URL, 20 * time.Millisecond,
			`{reason="retry_timeout"} 3`, 0, "connection refused", "a connection error is retried, within --otlp-logs-retry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := tt.url
			var ep *endpoint
			if url == "" {
				ep = newEndpoint(t, tt.answers...)
				url = ep.URL
			}
			var log rows
			logs := serve.NewLogExporter(serve.LogConfig{URL: url, Retry: tt.retry, Backoff: time.Millisecond,
				Log: slog.New(slog.NewTextHandler(&log, nil))})
			m := scoreGenai(t, logs)
			if !strings.Contains(m, "trajeval_serve_log_records_dropped_total"+tt.dropped+"\n") {
				t.Errorf("%s: metrics lack %s:\n%s", tt.reason, tt.dropped, m)
			}
			if want := "trajeval_serve_log_records_exported_total " + strconv.Itoa(tt.exported) + "\n"; !strings.Contains(m, want) {
				t.Errorf("%s: metrics lack %q", tt.reason, want)
			}
			if !strings.Contains(log.String(), "dropped evaluation events") || !strings.Contains(log.String(), tt.log) {
				t.Errorf("%s: the drop is not logged with %q:\n%s", tt.reason, tt.log, log.String())
			}
			if ep != nil && tt.retry == time.Minute && tt.exported == 0 && len(ep.attempts()) != 1 {
				t.Errorf("%s: %d requests, want 1", tt.reason, len(ep.attempts()))
			}
		})
	}
}

func TestLogExporter_backlogFull(t *testing.T) {
	ep := newEndpoint(t, answer(200))
	ep.release = make(chan struct{})
	var log rows
	logs := serve.NewLogExporter(serve.LogConfig{URL: ep.URL, Backlog: 3, Log: slog.New(slog.NewTextHandler(&log, nil))})
	s := start(t, policy, serve.Config{Logs: logs, Grace: time.Millisecond, Tick: time.Millisecond})
	for n := 1; n <= 2; n++ {
		sendOK(t, s, protoOf(traceN(t, n)), "application/x-protobuf", nil)
	}
	// The first trace's events wait (the endpoint holds them): the
	// second's find the backlog full.
	poll(t, "the second trace's events are dropped", func() bool {
		return strings.Contains(s.metricsText(t), `trajeval_serve_log_records_dropped_total{reason="backlog_full"} 3`+"\n")
	})
	close(ep.release)
	s.stop()
	if m := s.metricsText(t); !strings.Contains(m, "trajeval_serve_log_records_exported_total 3\n") {
		t.Errorf("the first trace's events are not exported:\n%s", m)
	}
	if !strings.Contains(log.String(), "backlog") {
		t.Errorf("the drop is not logged:\n%s", log.String())
	}
}

func TestLogExporter_Close(t *testing.T) {
	ep := newEndpoint(t, answer(503))
	var log rows
	logs := serve.NewLogExporter(serve.LogConfig{URL: ep.URL, Retry: time.Hour, Backoff: time.Millisecond,
		Log: slog.New(slog.NewTextHandler(&log, nil))})
	logs.Add(pcommon.TraceID{1}, pcommon.SpanID{1}, trajeval.CaseResult{ID: "01", Evaluators: []trajeval.Result{{Name: "a"}, {Name: "b"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := logs.Close(ctx)
	if err == nil || !strings.Contains(err.Error(), "2 evaluation events could not be sent") {
		t.Errorf("Close: %v, want the count of events not sent", err)
	}
	if len(ep.attempts()) == 0 {
		t.Error("Close did not try to send what was left")
	}
	if !strings.Contains(log.String(), "reason=shutdown") {
		t.Errorf("the drop is not logged:\n%s", log.String())
	}
}
