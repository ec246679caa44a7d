package trajevalconnector_test

import (
	"bytes"
	"context"
	"iter"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/receiver/receivertest"

	"github.com/trajeval/trajeval/internal/serve"
	trajevalconnector "github.com/trajeval/trajeval/otelcol"
	"github.com/trajeval/trajeval/otelcol/internal/otelcoltest"
)

const (
	policy   = "testdata/policy.yaml"
	fixtures = "../internal/format/otlp/testdata"
)

// An instance is one Collector pipeline on loopback: OTLP receiver →
// trajeval connector → a logs sink.
type instance struct {
	url  string
	sink *consumertest.LogsSink
	rcv  receiver.Traces
	conn component.Component
}

func unmarshal(t *testing.T, m map[string]any, cfg component.Config) {
	t.Helper()
	if err := confmap.NewFromStringMap(m).Unmarshal(cfg); err != nil {
		t.Fatal(err)
	}
}

func startInstance(t *testing.T, conf map[string]any) *instance {
	t.Helper()
	ctx := context.Background()
	in := &instance{sink: new(consumertest.LogsSink)}
	cf := trajevalconnector.NewFactory()
	ccfg := cf.CreateDefaultConfig()
	unmarshal(t, conf, ccfg)
	if err := ccfg.(interface{ Validate() error }).Validate(); err != nil {
		t.Fatal(err)
	}
	conn, err := cf.CreateTracesToLogs(ctx, connectortest.NewNopSettings(trajevalconnector.Type), ccfg, in.sink)
	if err != nil {
		t.Fatal(err)
	}
	addr := otelcoltest.FreeAddr(t)
	rf := otlpreceiver.NewFactory()
	rcfg := rf.CreateDefaultConfig()
	unmarshal(t, map[string]any{"protocols": map[string]any{"http": map[string]any{"endpoint": addr}}}, rcfg)
	rcv, err := rf.CreateTraces(ctx, receivertest.NewNopSettings(rf.Type()), rcfg, conn)
	if err != nil {
		t.Fatal(err)
	}
	host := componenttest.NewNopHost()
	if err := conn.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	if err := rcv.Start(ctx, host); err != nil {
		t.Fatal(err)
	}
	in.url, in.rcv, in.conn = "http://"+addr+"/v1/traces", rcv, conn
	t.Cleanup(func() { in.stop(t) })
	return in
}

// stop shuts the receiver, then the connector, which scores what it holds.
func (in *instance) stop(t *testing.T) {
	t.Helper()
	if in.rcv == nil {
		return
	}
	if err := in.rcv.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
	if err := in.conn.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
	in.rcv = nil
}

func (in *instance) send(t *testing.T, td ptrace.Traces) {
	t.Helper()
	if code := in.post(t, td); code != http.StatusOK {
		t.Fatalf("POST %s: %d", in.url, code)
	}
}

// post sends td and returns the receiver's status code.
func (in *instance) post(t *testing.T, td ptrace.Traces) int {
	t.Helper()
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(in.url, "application/x-protobuf", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// events adds, per trace id, the evaluator results the sink received, and
// how many times each trace was scored.
func (in *instance) events(t *testing.T, into map[string][]string, times map[string]int) {
	t.Helper()
	for _, ld := range in.sink.AllLogs() {
		otelcoltest.Events(t, ld, into, times)
	}
}

var conf = map[string]any{"policy": policy, "grace": "50ms", "idle": "5s"}

// TestConnector_sameScoresAsEval sends each fixture through OTLP receiver
// → trajeval connector → logs sink and checks the events carry the scores
// trajeval eval gives with the same policy.
func TestConnector_sameScoresAsEval(t *testing.T) {
	for _, f := range otelcoltest.SameAsEval {
		t.Run(f, func(t *testing.T) {
			path := filepath.Join(fixtures, f)
			want := otelcoltest.EvalVerdicts(t, policy, path)
			in := startInstance(t, conf)
			for _, td := range otelcoltest.ReadTraces(t, path) {
				in.send(t, td)
			}
			in.stop(t)
			per, times := map[string][]string{}, map[string]int{}
			in.events(t, per, times)
			if got := otelcoltest.Verdicts(per); !slices.Equal(got, want) {
				t.Errorf("the connector scored\n%q\neval scored\n%q", got, want)
			}
			for id, n := range times {
				if n != 1 {
					t.Errorf("trace %s scored %d times", id, n)
				}
			}
		})
	}
}

// TestConnector_scaleOut runs two instances and routes every span by its
// trace id, as the loadbalancing exporter (routing_key: traceID) does:
// every trace must be scored exactly once, by one instance, with eval's
// scores.
func TestConnector_scaleOut(t *testing.T) {
	ins := []*instance{startInstance(t, conf), startInstance(t, conf)}
	var want []string
	for _, f := range otelcoltest.Distinct() {
		path := filepath.Join(fixtures, f)
		want = append(want, otelcoltest.EvalVerdicts(t, policy, path)...)
		for _, td := range otelcoltest.ReadTraces(t, path) {
			for i, part := range splitByTrace(td, len(ins)) {
				if part.SpanCount() > 0 {
					ins[i].send(t, part)
				}
			}
		}
	}
	slices.Sort(want)
	per, times := map[string][]string{}, map[string]int{}
	for i, in := range ins {
		in.stop(t)
		before := len(times)
		in.events(t, per, times)
		if len(times) == before {
			t.Errorf("instance %d scored no trace: the routing did not spread the load", i)
		}
	}
	for id, n := range times {
		if n != 1 {
			t.Errorf("trace %s scored %d times across the instances", id, n)
		}
	}
	if got := otelcoltest.Verdicts(per); !slices.Equal(got, want) {
		t.Errorf("the instances scored\n%q\neval scored\n%q", got, want)
	}
}

// splitByTrace splits td into n parts, every span of a trace in the part
// its trace id picks.
func splitByTrace(td ptrace.Traces, n int) []ptrace.Traces {
	parts := make([]ptrace.Traces, n)
	for i := range parts {
		parts[i] = ptrace.NewTraces()
	}
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			ss := sss.At(j)
			spans := ss.Spans()
			dest := map[int]ptrace.SpanSlice{}
			for k := 0; k < spans.Len(); k++ {
				sp := spans.At(k)
				id := sp.TraceID()
				p := int(id[15]) % n
				to, ok := dest[p]
				if !ok {
					nrs := parts[p].ResourceSpans().AppendEmpty()
					rs.Resource().CopyTo(nrs.Resource())
					nss := nrs.ScopeSpans().AppendEmpty()
					ss.Scope().CopyTo(nss.Scope())
					to = nss.Spans()
					dest[p] = to
				}
				sp.CopyTo(to.AppendEmpty())
			}
		}
	}
	return parts
}

// TestConnector_ConsumeTraces_caps checks a batch that would hold more
// than max_spans spans, or max_bytes bytes of spans, is refused whole with
// a status the exporter retries, and that what was taken is still scored.
func TestConnector_ConsumeTraces_caps(t *testing.T) {
	first := otelcoltest.ReadTraces(t, filepath.Join(fixtures, "otlp/genai.json"))[0]
	second := otelcoltest.ReadTraces(t, filepath.Join(fixtures, "otlp/usage-cost.json"))[0]
	tests := []struct {
		name   string
		cap    map[string]any
		reason string
	}{
		{"max_spans", map[string]any{"max_spans": first.SpanCount()},
			"the first batch fills max_spans, the second would pass it"},
		{"max_bytes", map[string]any{"max_bytes": heldBytes(t, first) + heldBytes(t, second) - 1},
			"the first batch fits max_bytes, the second would pass it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A long grace and idle: nothing is scored, so nothing is
			// freed, until the instance stops.
			c := map[string]any{"policy": policy, "grace": "1h", "idle": "1h"}
			maps.Copy(c, tt.cap)
			in := startInstance(t, c)
			in.send(t, first)
			code := in.post(t, second)
			// OTLP/HTTP: 429, 502, 503 and 504 are retried.
			if !slices.Contains([]int{429, 502, 503, 504}, code) {
				t.Fatalf("the second batch got %d, want a retryable refusal (%s)", code, tt.reason)
			}
			in.stop(t)
			per, times := map[string][]string{}, map[string]int{}
			in.events(t, per, times)
			want := map[string]bool{}
			for sp := range spans(first) {
				want[sp.TraceID().String()] = true
			}
			for id := range times {
				if !want[id] {
					t.Errorf("trace %s of the refused batch was scored", id)
				}
				delete(want, id)
			}
			for id := range want {
				t.Errorf("trace %s of the batch taken was not scored", id)
			}
		})
	}
}

// spans yields the spans of td.
func spans(td ptrace.Traces) iter.Seq[ptrace.Span] {
	return func(yield func(ptrace.Span) bool) {
		for _, rs := range td.ResourceSpans().All() {
			for _, ss := range rs.ScopeSpans().All() {
				for _, sp := range ss.Spans().All() {
					if !yield(sp) {
						return
					}
				}
			}
		}
	}
}

func TestConfig_Validate(t *testing.T) {
	tests := []struct {
		name   string
		conf   map[string]any
		errHas string
	}{
		{"no policy is an error", map[string]any{}, "policy: a policy file is required"},
		{"a missing policy file is an error", map[string]any{"policy": "testdata/nope.yaml"}, "nope.yaml"},
		{"a negative grace is an error", map[string]any{"policy": policy, "grace": "-1s"}, "grace: -1s is negative"},
		{"a negative max_bytes is an error", map[string]any{"policy": policy, "max_bytes": -1}, "max_bytes: -1 is negative"},
		{"a policy with cases is an error at its line", map[string]any{"policy": "testdata/with-cases.yaml"}, "with-cases.yaml:"},
		{"a good policy passes", conf, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := trajevalconnector.NewFactory().CreateDefaultConfig()
			unmarshal(t, tt.conf, cfg)
			err := cfg.(interface{ Validate() error }).Validate()
			switch {
			case tt.errHas == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas)):
				t.Fatalf("error %v, want one containing %q", err, tt.errHas)
			}
		})
	}
}

// heldBytes is what holding the spans of td charges to max_bytes, as a
// server with no bound reports it.
func heldBytes(t *testing.T, td ptrace.Traces) int64 {
	t.Helper()
	pol, err := serve.LoadPolicy(policy, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(serve.Config{Policy: pol, Grace: time.Hour, Idle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(context.Background())
	if err := srv.Ingest(td); err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for line := range strings.Lines(w.Body.String()) {
		if v, ok := strings.CutPrefix(line, "trajeval_serve_bytes_held "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no trajeval_serve_bytes_held in the metrics")
	return 0
}
