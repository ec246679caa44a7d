package distro_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/trajeval/trajeval/otelcol/distro"
	"github.com/trajeval/trajeval/otelcol/internal/otelcoltest"
)

const (
	policy   = "../testdata/policy.yaml"
	fixtures = "../../internal/format/otlp/testdata"
	// patience bounds every wait for the Collectors; no test relies on
	// timing, only on this being long enough.
	patience = 2 * time.Minute
)

// A collector is one Collector in this process, started from a
// configuration file of testdata. Its ${env:NAME} references read env,
// not the process's environment, which Collectors in one process share.
type collector struct {
	t    *testing.T
	name string
	path string
	env  map[string]string
	col  *otelcol.Collector
	done chan error
}

func newCollector(t *testing.T, name string, env map[string]string) *collector {
	t.Helper()
	c := &collector{t: t, name: name, path: filepath.Join("testdata", name+".yaml"), env: env}
	c.start()
	t.Cleanup(c.stop)
	return c
}

// envProvider is the Collector's env: provider reading a map: env:NAME,
// or env:NAME:-default when the map has no NAME.
type envProvider map[string]string

func (e envProvider) Retrieve(_ context.Context, uri string, _ confmap.WatcherFunc) (*confmap.Retrieved, error) {
	name, def, hasDef := strings.Cut(strings.TrimPrefix(uri, "env:"), ":-")
	v, ok := e[name]
	switch {
	case ok:
	case hasDef:
		v = def
	default:
		return nil, fmt.Errorf("%s: not set in the test", uri)
	}
	return confmap.NewRetrievedFromYAML([]byte(v))
}

func (envProvider) Scheme() string                 { return "env" }
func (envProvider) Shutdown(context.Context) error { return nil }

// start runs the Collector and waits until it runs.
func (c *collector) start() {
	c.t.Helper()
	set := distro.Settings("test", false, c.path)
	set.SkipSettingGRPCLogger = true
	set.ConfigProviderSettings.ResolverSettings.ProviderFactories = []confmap.ProviderFactory{
		fileprovider.NewFactory(),
		confmap.NewProviderFactory(func(confmap.ProviderSettings) confmap.Provider { return envProvider(c.env) }),
	}
	col, err := otelcol.NewCollector(set)
	if err != nil {
		c.t.Fatal(err)
	}
	c.col, c.done = col, make(chan error, 1)
	go func() { c.done <- col.Run(context.Background()) }()
	deadline := time.Now().Add(patience)
	for col.GetState() != otelcol.StateRunning {
		select {
		case err := <-c.done:
			c.col = nil
			c.t.Fatalf("%s: the Collector stopped while starting: %v", c.name, err)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: the Collector did not start in %v", c.name, patience)
		}
	}
}

// stop shuts the Collector down (a scorer scores what it holds first) and
// waits until it has stopped.
func (c *collector) stop() {
	c.t.Helper()
	if c.col == nil {
		return
	}
	c.col.Shutdown()
	if err := <-c.done; err != nil {
		c.t.Errorf("%s: %v", c.name, err)
	}
	c.col = nil
}

// A sink is an OTLP/HTTP logs server: the results of scorer i come to
// /i/v1/logs.
type sink struct {
	srv  *httptest.Server
	mu   sync.Mutex
	logs map[string][]plog.Logs // by scorer
}

func newSink(t *testing.T) *sink {
	s := &sink{logs: map[string][]plog.Logs{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *sink) serve(w http.ResponseWriter, r *http.Request) {
	scorer, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/v1/logs")
	if !ok || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	data, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := plogotlp.NewExportRequest()
	if err := req.UnmarshalProto(data); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.logs[scorer] = append(s.logs[scorer], req.Logs())
	s.mu.Unlock()
	resp, _ := plogotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(resp)
}

func (s *sink) endpoint(scorer string) string { return s.srv.URL + "/" + scorer + "/v1/logs" }

// results gives, per trace id, the evaluator results received, and per
// scorer, how many times it scored each trace.
func (s *sink) results(t *testing.T) (per map[string][]string, times map[string]map[string]int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	per, times = map[string][]string{}, map[string]map[string]int{}
	for scorer, lds := range s.logs {
		times[scorer] = map[string]int{}
		for _, ld := range lds {
			otelcoltest.Events(t, ld, per, times[scorer])
		}
	}
	return per, times
}

// waitFor polls until every trace of ids has results, or patience runs
// out.
func (s *sink) waitFor(t *testing.T, ids []string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		per, _ := s.results(t)
		missing := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return per[id] != nil })
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v, %d of %d traces have no results, e.g. %s", patience, len(missing), len(ids), missing[0])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A tier is the front Collector and the two scoring Collectors behind it.
type tier struct {
	front   *collector
	scorers [2]*collector
	sink    *sink
	url     string // the front's OTLP/HTTP traces endpoint
}

func newTier(t *testing.T) *tier {
	t.Helper()
	abs, err := filepath.Abs(policy)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tier{sink: newSink(t)}
	var addrs [2]string
	for i := range tr.scorers {
		addrs[i] = otelcoltest.FreeAddr(t)
		name := string(rune('1' + i))
		tr.scorers[i] = newCollector(t, "scorer", map[string]string{"SCORER_ENDPOINT": addrs[i],
			"TRAJEVAL_POLICY": abs, "RESULTS_ENDPOINT": tr.sink.endpoint(name)})
		tr.scorers[i].name = "scorer " + name
	}
	front := otelcoltest.FreeAddr(t)
	tr.front = newCollector(t, "front", map[string]string{"FRONT_ENDPOINT": front,
		"QUEUE_DIR": t.TempDir(), "SCORER_1": addrs[0], "SCORER_2": addrs[1]})
	tr.url = "http://" + front + "/v1/traces"
	return tr
}

// send posts the traces of every fixture to the front, their spans
// shuffled and split three to a request, so that a request mixes traces
// and a trace's spans come in several requests, out of order. Every
// trace id gets second byte round (the first tells the fixtures apart),
// so that each round's traces are new.
// It returns the trace ids sent and the verdicts trajeval eval gives.
func (tr *tier) send(t *testing.T, round byte) (ids, want []string) {
	t.Helper()
	type item struct {
		rs ptrace.ResourceSpans
		ss ptrace.ScopeSpans
		sp ptrace.Span
	}
	var items []item
	seen := map[string]bool{}
	for _, f := range otelcoltest.Distinct() {
		path := filepath.Join(fixtures, f)
		want = append(want, otelcoltest.EvalVerdicts(t, policy, path)...)
		for _, td := range otelcoltest.ReadTraces(t, path) {
			rss := td.ResourceSpans()
			for i := 0; i < rss.Len(); i++ {
				sss := rss.At(i).ScopeSpans()
				for j := 0; j < sss.Len(); j++ {
					spans := sss.At(j).Spans()
					for k := 0; k < spans.Len(); k++ {
						sp := spans.At(k)
						id := sp.TraceID()
						id[1] = round
						sp.SetTraceID(id)
						if !seen[id.String()] {
							seen[id.String()] = true
							ids = append(ids, id.String())
						}
						items = append(items, item{rss.At(i), sss.At(j), sp})
					}
				}
			}
		}
	}
	rand.New(rand.NewPCG(uint64(round), 1)).Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	for len(items) > 0 {
		n := min(3, len(items))
		td := ptrace.NewTraces()
		for _, it := range items[:n] {
			rs := td.ResourceSpans().AppendEmpty()
			it.rs.Resource().CopyTo(rs.Resource())
			ss := rs.ScopeSpans().AppendEmpty()
			it.ss.Scope().CopyTo(ss.Scope())
			it.sp.CopyTo(ss.Spans().AppendEmpty())
		}
		items = items[n:]
		post(t, tr.url, td)
	}
	if len(ids) != len(want) {
		t.Fatalf("%d trace ids sent, eval scored %d trajectories: a fixture is not one trace per trajectory", len(ids), len(want))
	}
	return ids, want
}

func post(t *testing.T, url string, td ptrace.Traces) {
	t.Helper()
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/x-protobuf", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", url, resp.Status)
	}
}

// check asserts every trace of ids was scored exactly once, by one
// scorer, with eval's verdicts, and that scorers scored some of them.
func (tr *tier) check(t *testing.T, ids, want []string, scorers ...string) {
	t.Helper()
	per, times := tr.sink.results(t)
	got := map[string][]string{}
	for _, id := range ids {
		n := 0
		for scorer := range times {
			n += times[scorer][id]
		}
		if n != 1 {
			t.Errorf("trace %s scored %d times", id, n)
		}
		got[id] = per[id]
	}
	if g := otelcoltest.Verdicts(got); !slices.Equal(g, slices.Sorted(slices.Values(want))) {
		t.Errorf("the scorers scored\n%q\neval scored\n%q", g, want)
	}
	for _, scorer := range scorers {
		if !slices.ContainsFunc(ids, func(id string) bool { return times[scorer][id] > 0 }) {
			t.Errorf("scorer %s scored none of the traces", scorer)
		}
	}
}

// TestScaleOut runs three Collectors from testdata's configurations: a
// front with the loadbalancing exporter (routing_key traceID) and two
// scorers with the trajeval connector. Every trace sent to the front must
// be scored exactly once, with the scores trajeval eval gives, and both
// scorers must take a share.
func TestScaleOut(t *testing.T) {
	tr := newTier(t)
	ids, want := tr.send(t, 1)
	tr.sink.waitFor(t, ids)
	tr.front.stop()
	tr.scorers[0].stop()
	tr.scorers[1].stop()
	tr.check(t, ids, want, "1", "2")
}

// TestScaleOut_restart stops a scorer while traces come: the front keeps
// its share in the sending queue on disk until the scorer is back. Then
// the same with the front restarted too while it holds that share. No
// trace may be lost or scored twice.
func TestScaleOut_restart(t *testing.T) {
	tr := newTier(t)

	tr.scorers[1].stop()
	ids, want := tr.send(t, 1)
	tr.scorers[1].start()
	tr.sink.waitFor(t, ids)

	tr.scorers[1].stop()
	ids2, want2 := tr.send(t, 2)
	tr.front.stop()
	tr.front.start()
	tr.scorers[1].start()
	tr.sink.waitFor(t, ids2)

	tr.front.stop()
	tr.scorers[0].stop()
	tr.scorers[1].stop()
	tr.check(t, append(ids, ids2...), append(want, want2...), "1", "2")
	_, times := tr.sink.results(t)
	if !slices.ContainsFunc(ids2, func(id string) bool { return times["2"][id] > 0 }) {
		t.Error("scorer 2 scored none of the traces sent while it was down and the front restarted")
	}
}
