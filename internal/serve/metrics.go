package serve

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/trajeval/trajeval"
)

// metrics are the server's counters, written in Prometheus's text format
// (version 0.0.4) by hand: the format is a few lines of text, and the
// client library would be the heaviest dependency of the command.
type metrics struct {
	mu               sync.Mutex
	spansReceived    float64
	spansDuplicate   float64
	spansLate        float64
	tracesReceived   float64
	tracesUnselected float64
	outErrors        float64
	tracesScored     map[string]float64    // by status
	results          map[[2]string]float64 // by evaluator and status
	requests         map[[3]string]float64 // by transport, outcome and code
	scores           map[string]*histogram // by evaluator
	latency          *histogram            // root span's end to result, seconds
	gauges           func() gaugeValues
	logs             func() logStats // nil without a LogExporter
	// Conversations (see Conversations): turns held, turns after their
	// conversation was scored, spans that joined a held turn, rows by
	// status, and those held now.
	convTurns       float64
	convTurnsLate   float64
	convSpansJoined float64
	convScored      map[string]float64
	conversations   func() int
}

// gaugeValues are the server's gauges, read when the metrics are.
type gaugeValues struct {
	queue, pending, spans int
	bytes                 int64
	outBacklog            int // rows waiting to be written to Out
}

// A histogram counts observations into cumulative buckets.
type histogram struct {
	bounds []float64
	counts []float64 // per bound, cumulative when written
	sum    float64
	n      float64
}

func newHistogram(bounds ...float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]float64, len(bounds))}
}

func (h *histogram) observe(v float64) {
	for i, b := range h.bounds {
		if v <= b {
			h.counts[i]++
			break
		}
	}
	h.sum += v
	h.n++
}

var scoreBounds = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99, 1}

var latencyBounds = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 5, 10, 30, 60}

func newMetrics(p *Policy) *metrics {
	m := &metrics{tracesScored: map[string]float64{}, convScored: map[string]float64{}, results: map[[2]string]float64{},
		requests: map[[3]string]float64{}, scores: map[string]*histogram{}, latency: newHistogram(latencyBounds...)}
	for _, st := range []trajeval.Status{trajeval.StatusPass, trajeval.StatusFail, trajeval.StatusError} {
		m.tracesScored[string(st)] = 0
		if p.Conversations != nil {
			m.convScored[string(st)] = 0
		}
	}
	for _, ev := range p.Evaluators {
		m.scores[ev.Name] = newHistogram(scoreBounds...)
	}
	return m
}

func (m *metrics) add(c *float64, n float64) {
	m.mu.Lock()
	*c += n
	m.mu.Unlock()
}

// request counts one OTLP request by transport ("http", "grpc"), outcome
// ("accepted", "refused", "malformed", ...) and code.
func (m *metrics) request(transport, outcome string, code int) {
	m.mu.Lock()
	m.requests[[3]string{transport, outcome, strconv.Itoa(code)}]++
	m.mu.Unlock()
}

// scored counts the row r, and its latency in seconds when known (≥ 0).
func (m *metrics) scored(r trajeval.CaseResult, latency float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(r.TraceIDs) > 0 {
		m.convScored[string(r.Status)]++
	} else {
		m.tracesScored[string(r.Status)]++
	}
	for _, e := range r.Evaluators {
		m.results[[2]string{e.Name, string(e.Status)}]++
		if e.Status != trajeval.StatusError {
			h := m.scores[e.Name]
			if h == nil {
				h = newHistogram(scoreBounds...)
				m.scores[e.Name] = h
			}
			h.observe(e.Score)
		}
	}
	if latency >= 0 {
		m.latency.observe(latency)
	}
}

// write writes every metric in the text exposition format.
func (m *metrics) write(w io.Writer) error {
	var b strings.Builder
	counter := func(name, help string, v float64) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s counter\n%s %s\n", name, help, name, name, num(v))
	}
	gauge := func(name, help string, v int64) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n%s %d\n", name, help, name, name, v)
	}
	var g gaugeValues
	if m.gauges != nil {
		g = m.gauges()
	}
	ls := logStats{dropped: map[string]float64{}}
	for _, r := range dropReasons {
		ls.dropped[r] = 0
	}
	if m.logs != nil {
		ls = m.logs()
	}
	var logDropped float64
	for _, n := range ls.dropped {
		logDropped += n
	}
	convs := 0
	if m.conversations != nil {
		convs = m.conversations()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	counter("trajeval_serve_spans_received_total", "Spans received, duplicates and late ones included.", m.spansReceived)
	counter("trajeval_serve_spans_duplicate_total", "Spans dropped because their trace already held a span of their id.", m.spansDuplicate)
	counter("trajeval_serve_spans_late_total", "Spans dropped because their trace was done (queued or scored) before they came.", m.spansLate)
	counter("trajeval_serve_traces_received_total", "Traces whose first span arrived.", m.tracesReceived)
	counter("trajeval_serve_traces_unselected_total", "Done traces that no evaluator of the policy selected.", m.tracesUnselected)
	counter("trajeval_serve_out_errors_total", "Writes of a result row to --out that failed (the row is kept and written again).", m.outErrors)
	counter("trajeval_serve_log_records_exported_total", "Evaluation events the --otlp-logs endpoint took.", ls.exported)
	counter("trajeval_serve_log_export_retries_total", "Requests to --otlp-logs retried after a retryable failure.", ls.retries)
	counter("trajeval_serve_log_export_errors_total", "Evaluation events that could not be exported to --otlp-logs, for any reason.", logDropped)
	b.WriteString("# HELP trajeval_serve_log_records_dropped_total Evaluation events dropped, by reason.\n# TYPE trajeval_serve_log_records_dropped_total counter\n")
	for _, k := range sortedKeys(ls.dropped) {
		fmt.Fprintf(&b, "trajeval_serve_log_records_dropped_total{reason=%s} %s\n", quote(k), num(ls.dropped[k]))
	}

	b.WriteString("# HELP trajeval_serve_traces_scored_total Traces scored, by the status of their row.\n# TYPE trajeval_serve_traces_scored_total counter\n")
	for _, k := range sortedKeys(m.tracesScored) {
		fmt.Fprintf(&b, "trajeval_serve_traces_scored_total{status=%s} %s\n", quote(k), num(m.tracesScored[k]))
	}
	b.WriteString("# HELP trajeval_serve_results_total Evaluator results, by evaluator and status.\n# TYPE trajeval_serve_results_total counter\n")
	rk := sortedKeys(m.results)
	for _, k := range rk {
		fmt.Fprintf(&b, "trajeval_serve_results_total{evaluator=%s,status=%s} %s\n", quote(k[0]), quote(k[1]), num(m.results[k]))
	}
	b.WriteString("# HELP trajeval_serve_requests_total OTLP export requests, by transport, outcome and status code.\n# TYPE trajeval_serve_requests_total counter\n")
	for _, k := range sortedKeys(m.requests) {
		fmt.Fprintf(&b, "trajeval_serve_requests_total{transport=%s,outcome=%s,code=%s} %s\n", quote(k[0]), quote(k[1]), quote(k[2]), num(m.requests[k]))
	}
	b.WriteString("# HELP trajeval_serve_score Scores of the evaluator results that are not errors.\n# TYPE trajeval_serve_score histogram\n")
	for _, name := range sortedKeys(m.scores) {
		m.scores[name].write(&b, "trajeval_serve_score", "evaluator="+quote(name)+",")
	}
	b.WriteString("# HELP trajeval_serve_result_latency_seconds Time from a trace's root span's end to its result.\n# TYPE trajeval_serve_result_latency_seconds histogram\n")
	m.latency.write(&b, "trajeval_serve_result_latency_seconds", "")
	gauge("trajeval_serve_queue_depth", "Done traces waiting to be scored.", int64(g.queue))
	gauge("trajeval_serve_pending_traces", "Traces being gathered.", int64(g.pending))
	gauge("trajeval_serve_spans_held", "Spans held: gathered, queued, or in the turns of conversations.", int64(g.spans))
	gauge("trajeval_serve_bytes_held", "Memory of the spans held (gathered, queued, or in the turns of conversations), in bytes, as charged to --max-bytes.", g.bytes)
	gauge("trajeval_serve_out_backlog_rows", "Result rows waiting to be written to --out after a failed write.", int64(g.outBacklog))
	gauge("trajeval_serve_log_backlog_records", "Evaluation events waiting to be sent to --otlp-logs.", int64(ls.backlog))
	if m.conversations != nil && len(m.convScored) > 0 {
		counter("trajeval_serve_conversation_turns_total", "Done traces held as a turn of a conversation.", m.convTurns)
		counter("trajeval_serve_conversation_turns_late_total", "Turns done after their conversation was scored, which started it anew.", m.convTurnsLate)
		counter("trajeval_serve_conversation_spans_joined_total", "Spans that came after their trace was done and joined it, a turn still held in its conversation.", m.convSpansJoined)
		b.WriteString("# HELP trajeval_serve_conversations_scored_total Conversations scored, by the status of their row.\n# TYPE trajeval_serve_conversations_scored_total counter\n")
		for _, k := range sortedKeys(m.convScored) {
			fmt.Fprintf(&b, "trajeval_serve_conversations_scored_total{status=%s} %s\n", quote(k), num(m.convScored[k]))
		}
		gauge("trajeval_serve_conversations_pending", "Conversations holding turns, waiting for the next.", int64(convs))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (h *histogram) write(b *strings.Builder, name, labels string) {
	var cum float64
	for i, bound := range h.bounds {
		cum += h.counts[i]
		fmt.Fprintf(b, "%s_bucket{%sle=%s} %s\n", name, labels, quote(num(bound)), num(cum))
	}
	fmt.Fprintf(b, "%s_bucket{%sle=\"+Inf\"} %s\n", name, labels, num(h.n))
	l := strings.TrimSuffix(labels, ",")
	if l != "" {
		l = "{" + l + "}"
	}
	fmt.Fprintf(b, "%s_sum%s %s\n%s_count%s %s\n", name, l, num(h.sum), name, l, num(h.n))
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// quote quotes a label value: backslash, double quote and line feed are
// escaped, as the text format asks.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func sortedKeys[K interface {
	comparable
}, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return keys
}
