package trajevalconnector_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/receiver/receivertest"

	"github.com/trajeval/trajeval"
	trajevalconnector "github.com/trajeval/trajeval/otelcol"
)

const (
	policy   = "testdata/policy.yaml"
	fixtures = "../internal/format/otlp/testdata"
)

// The fixtures whose trajectories are each one trace (traces that share a
// conversation are joined by eval, never by the connector).
var sameAsEval = []string{
	"otlp/genai.json", "otlp/openinference-contents.json", "otlp/openinference-failed.json",
	"otlp/uipath.json", "otlp/uipath-seed.json", "otlp/uipath-python-args.json", "otlp/usage-cost.json",
	"otlp/chat-only.jsonl", "otlp/duplicates.jsonl", "otlp/no-call-ids.jsonl", "otlp-proto/genai.pb",
}

// An instance is one Collector pipeline on loopback: OTLP receiver →
// trajeval connector → a logs sink.
type instance struct {
	url  string
	sink *consumertest.LogsSink
	rcv  receiver.Traces
	conn component.Component
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
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
	addr := freeAddr(t)
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
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(in.url, "application/x-protobuf", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", in.url, resp.Status)
	}
}

// events gives, per trace id, the evaluator results the sink received, as
// "name=label:score" sorted; and how many times each trace was scored.
func (in *instance) events(t *testing.T, into map[string][]string, times map[string]int) {
	t.Helper()
	for _, ld := range in.sink.AllLogs() {
		seen := map[string]bool{}
		rls := ld.ResourceLogs()
		for i := 0; i < rls.Len(); i++ {
			sls := rls.At(i).ScopeLogs()
			for j := 0; j < sls.Len(); j++ {
				recs := sls.At(j).LogRecords()
				for k := 0; k < recs.Len(); k++ {
					lr := recs.At(k)
					if lr.EventName() != "gen_ai.evaluation.result" {
						t.Errorf("event name %q", lr.EventName())
					}
					a := lr.Attributes()
					get := func(k string) pcommon.Value { v, _ := a.Get(k); return v }
					id := lr.TraceID().String()
					into[id] = append(into[id], fmt.Sprintf("%s=%s:%s", get("gen_ai.evaluation.name").Str(),
						get("gen_ai.evaluation.score.label").Str(), num(get("gen_ai.evaluation.score.value").Double())))
					seen[id] = true
				}
			}
		}
		// One plog.Logs per scored trace.
		for id := range seen {
			times[id]++
		}
	}
}

func num(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// verdicts gives the sorted evaluator results of each trace, sorted.
func verdicts(per map[string][]string) []string {
	var out []string
	for _, evs := range per {
		slices.Sort(evs)
		out = append(out, strings.Join(evs, " "))
	}
	slices.Sort(out)
	return out
}

// evalVerdicts scores the fixture as trajeval eval --traces does.
func evalVerdicts(t *testing.T, traces string) []string {
	t.Helper()
	opts := trajeval.RunOptions{Traces: traces}
	s, err := opts.Load(policy)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string][]string{}
	for r, err := range s.Run(context.Background(), opts) {
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Evaluators {
			per[r.ID] = append(per[r.ID], fmt.Sprintf("%s=%s:%s", e.Name, e.Status, num(e.Score)))
		}
	}
	return verdicts(per)
}

// readTraces reads an OTLP fixture: JSON (a document, or JSON Lines, one
// request per line) or protobuf.
func readTraces(t *testing.T, path string) []ptrace.Traces {
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
	lines := []string{string(data)}
	if strings.HasSuffix(path, ".jsonl") {
		lines = slices.Collect(strings.Lines(string(data)))
	}
	var out []ptrace.Traces
	for _, line := range lines {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, td)
	}
	return out
}

var conf = map[string]any{"policy": policy, "grace": "50ms", "idle": "5s"}

// TestConnector_sameScoresAsEval sends each fixture through OTLP receiver
// → trajeval connector → logs sink and checks the events carry the scores
// trajeval eval gives with the same policy.
func TestConnector_sameScoresAsEval(t *testing.T) {
	for _, f := range sameAsEval {
		t.Run(f, func(t *testing.T) {
			path := filepath.Join(fixtures, f)
			want := evalVerdicts(t, path)
			in := startInstance(t, conf)
			for _, td := range readTraces(t, path) {
				in.send(t, td)
			}
			in.stop(t)
			per, times := map[string][]string{}, map[string]int{}
			in.events(t, per, times)
			if got := verdicts(per); !slices.Equal(got, want) {
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
	for _, f := range sameAsEval {
		if f == "otlp-proto/genai.pb" {
			continue // the traces of otlp/genai.json again: one run holds each trace once
		}
		path := filepath.Join(fixtures, f)
		want = append(want, evalVerdicts(t, path)...)
		for _, td := range readTraces(t, path) {
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
	if got := verdicts(per); !slices.Equal(got, want) {
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

func TestConfig_Validate(t *testing.T) {
	tests := []struct {
		name   string
		conf   map[string]any
		errHas string
	}{
		{"no policy is an error", map[string]any{}, "policy: a policy file is required"},
		{"a missing policy file is an error", map[string]any{"policy": "testdata/nope.yaml"}, "nope.yaml"},
		{"a negative grace is an error", map[string]any{"policy": policy, "grace": "-1s"}, "grace: -1s is negative"},
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
