package serve_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

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
		rls := req.Logs().ResourceLogs()
		for i := 0; i < rls.Len(); i++ {
			sls := rls.At(i).ScopeLogs()
			for j := 0; j < sls.Len(); j++ {
				recs := sls.At(j).LogRecords()
				for k := 0; k < recs.Len(); k++ {
					got = append(got, recs.At(k))
				}
			}
		}
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
