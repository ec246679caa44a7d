package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/retryafter"
	"github.com/trajeval/trajeval/internal/secret"
)

// EventName is the name of the events a [LogExporter] sends, from the
// OpenTelemetry GenAI semantic conventions.
const EventName = "gen_ai.evaluation.result"

// A LogExporter sends each evaluator result as an OTLP log record, the
// gen_ai.evaluation.result event of the OpenTelemetry GenAI semantic
// conventions, to an OTLP/HTTP logs endpoint (protobuf).
//
// Each record:
//  1. has event name gen_ai.evaluation.result, the trace id of the trace
//     scored and the span id of its root span (none when the root never
//     came), and the time of the result;
//  2. has attributes gen_ai.evaluation.name (the evaluator's name),
//     gen_ai.evaluation.score.value (its score), gen_ai.evaluation.score.label
//     (pass, fail or error), gen_ai.evaluation.explanation (the error, or
//     the missing and extra calls, when there are any) and, for an error,
//     error.type ("incomplete_trace" for a trace whose root never came,
//     else "evaluator_error");
//  3. for the row of a conversation (see [Conversations]), has the trace
//     id and root span id of its last turn, and the attribute
//     gen_ai.conversation.id.
//
// Records are batched, up to 512 or one second, and sent in order by one
// goroutine. A request that fails:
//  1. with a connection error, a timeout, or HTTP 429, 502, 503 or 504 is
//     retried after the longer of the endpoint's Retry-After and an
//     exponential backoff with jitter (LogConfig.Backoff, doubling up to
//     LogConfig.MaxBackoff), as long as the next attempt starts within
//     LogConfig.Retry of the first; then its records are dropped (reason
//     "retry_timeout");
//  2. with any other answer is not retried: its records are dropped
//     (reason "rejected");
//  3. with a 2xx answer whose partial_success rejects records loses those
//     records (reason "partial_success"); the others arrived.
//
// While a batch is retried, new records wait behind it, up to
// LogConfig.Backlog records in all; the records of a result that would
// hold more are dropped (reason "backlog_full"). [LogExporter.Close] sends
// what is left until its context ends; what is left then is dropped
// (reason "shutdown"). Every drop is logged with its count, reason and
// the endpoint's answer, and counted in the metric
// trajeval_serve_log_records_dropped_total{reason}.
//
// The header values (and a password in the URL) are secrets: no run of 8
// of their bytes in the endpoint's answers reaches the log (see package
// secret), and a redirect to another host is refused, not followed with
// them.
type LogExporter struct {
	cfg    LogConfig
	client *http.Client
	log    *slog.Logger
	scrub  *secret.Scrubber

	ctx    context.Context // ends when Close's context does
	cancel context.CancelFunc

	mu      sync.Mutex
	queue   []logBatch // oldest first; only the last is still filled
	held    int        // records in queue and in the batch being sent
	closed  bool
	stats   logStats
	kick    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

// LogConfig steers a [LogExporter].
type LogConfig struct {
	// URL is the OTLP/HTTP logs endpoint, e.g. http://host:4318/v1/logs.
	URL string
	// Header is sent with every request, e.g. Authorization.
	Header http.Header
	// Log receives the exporter's messages; nil discards them.
	Log *slog.Logger
	// Retry bounds how long a batch is retried, from its first attempt;
	// 0 never retries.
	Retry time.Duration
	// Backoff is the first delay between attempts (default 1s), doubled
	// after each up to MaxBackoff (default 30s), each drawn at random
	// within ±50%.
	Backoff, MaxBackoff time.Duration
	// Backlog bounds the records waiting to be sent (default 65,536).
	Backlog int
	// Timeout bounds one request (default 10s).
	Timeout time.Duration
}

// Reasons for dropping records, the reason label of
// trajeval_serve_log_records_dropped_total.
const (
	dropRejected       = "rejected"
	dropRetryTimeout   = "retry_timeout"
	dropPartialSuccess = "partial_success"
	dropBacklogFull    = "backlog_full"
	dropShutdown       = "shutdown"
)

var dropReasons = []string{dropBacklogFull, dropPartialSuccess, dropRejected, dropRetryTimeout, dropShutdown}

// batchSize is how many records a request carries at most, but for the
// records of one result, which are never split.
const batchSize = 512

// logStats are a LogExporter's counters.
type logStats struct {
	exported, retries float64
	dropped           map[string]float64 // by reason
	backlog           int
}

// A logBatch is the records of one request.
type logBatch struct {
	logs plog.Logs
	n    int
}

func newLogBatch() logBatch {
	logs := plog.NewLogs()
	rl := logs.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", "trajeval")
	rl.ScopeLogs().AppendEmpty().Scope().SetName("github.com/trajeval/trajeval/serve")
	return logBatch{logs: logs}
}

// NewLogExporter returns an exporter for cfg and starts its sender;
// [LogExporter.Close] stops it.
func NewLogExporter(cfg LogConfig) *LogExporter {
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	cfg.MaxBackoff = max(cfg.MaxBackoff, cfg.Backoff)
	if cfg.Backlog <= 0 {
		cfg.Backlog = 65536
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	secrets := secret.URLSecrets(cfg.URL)
	for _, vs := range cfg.Header {
		secrets = append(secrets, vs...)
	}
	e := &LogExporter{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout, CheckRedirect: secret.KeepHost}, log: log,
		scrub: secret.NewScrubber(secrets...), ctx: ctx, cancel: cancel,
		stats: logStats{dropped: map[string]float64{}},
		kick:  make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	for _, r := range dropReasons {
		e.stats.dropped[r] = 0
	}
	go e.run()
	return e
}

// Add adds an event for each evaluator result of r, the row of the trace
// trace, whose root span is root (empty when it never came).
func (e *LogExporter) Add(trace pcommon.TraceID, root pcommon.SpanID, r trajeval.CaseResult) {
	k := len(r.Evaluators)
	if k == 0 {
		return
	}
	now := pcommon.NewTimestampFromTime(time.Now())
	e.mu.Lock()
	switch {
	case e.closed:
		e.stats.dropped[dropShutdown] += float64(k)
		e.mu.Unlock()
		e.log.Error("dropped evaluation events: the exporter is closed", "events", k, "trace", r.ID, "reason", dropShutdown)
		return
	case e.held > 0 && e.held+k > e.cfg.Backlog:
		e.stats.dropped[dropBacklogFull] += float64(k)
		e.mu.Unlock()
		e.log.Error("dropped evaluation events: the backlog of events waiting to be sent is full",
			"events", k, "trace", r.ID, "backlog", e.cfg.Backlog, "reason", dropBacklogFull)
		return
	}
	if len(e.queue) == 0 || e.queue[len(e.queue)-1].n >= batchSize {
		e.queue = append(e.queue, newLogBatch())
	}
	b := &e.queue[len(e.queue)-1]
	b.n += AppendEvents(b.logs.ResourceLogs().At(0).ScopeLogs().At(0).LogRecords(), trace, root, r, now)
	e.held += k
	full := b.n >= batchSize
	e.mu.Unlock()
	if full {
		select {
		case e.kick <- struct{}{}:
		default:
		}
	}
}

// AppendEvents appends to recs the gen_ai.evaluation.result event of each
// evaluator result of r, the row of the trace trace, whose root span is
// root (empty when it never came), stamped now, as [LogExporter] sends
// them; it returns how many it appended.
func AppendEvents(recs plog.LogRecordSlice, trace pcommon.TraceID, root pcommon.SpanID, r trajeval.CaseResult, now pcommon.Timestamp) int {
	for _, ev := range r.Evaluators {
		lr := recs.AppendEmpty()
		lr.SetEventName(EventName)
		lr.SetTimestamp(now)
		lr.SetObservedTimestamp(now)
		lr.SetSeverityNumber(plog.SeverityNumberInfo)
		lr.SetTraceID(trace)
		lr.SetSpanID(root)
		a := lr.Attributes()
		a.PutStr("gen_ai.evaluation.name", ev.Name)
		if len(r.TraceIDs) > 0 {
			a.PutStr("gen_ai.conversation.id", r.ID) // a conversation's row
		}
		a.PutDouble("gen_ai.evaluation.score.value", ev.Score)
		a.PutStr("gen_ai.evaluation.score.label", string(ev.Status))
		if x := explanation(ev); x != "" {
			a.PutStr("gen_ai.evaluation.explanation", x)
		}
		if ev.Status == trajeval.StatusError {
			typ := "evaluator_error"
			if ev.Error == notAssessed {
				typ = "incomplete_trace"
			}
			a.PutStr("error.type", typ)
		}
	}
	return len(r.Evaluators)
}

// explanation says in one line why a result is what it is.
func explanation(r trajeval.Result) string {
	if r.Error != "" {
		return r.Error
	}
	d := r.Details
	if d == nil {
		return ""
	}
	var b bytes.Buffer
	if len(d.Missing) > 0 {
		fmt.Fprintf(&b, "%d expected calls missing", len(d.Missing))
	}
	if len(d.Extra) > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d extra calls", len(d.Extra))
	}
	return b.String()
}

func (e *LogExporter) run() {
	defer close(e.stopped)
	defer e.cancel()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			e.drain(true)
			e.abandon()
			return
		case <-t.C:
			e.drain(true)
		case <-e.kick:
			e.drain(false)
		}
	}
}

// drain sends the batches queued, oldest first: all of them, or only the
// full ones. It stops when Close's context ended.
func (e *LogExporter) drain(all bool) {
	for e.ctx.Err() == nil {
		e.mu.Lock()
		if len(e.queue) == 0 || !all && e.queue[0].n < batchSize {
			e.mu.Unlock()
			return
		}
		b := e.queue[0]
		e.queue[0] = logBatch{}
		e.queue = e.queue[1:]
		e.mu.Unlock()
		e.export(b)
	}
}

// abandon drops the batches still queued once Close's context ended.
func (e *LogExporter) abandon() {
	e.mu.Lock()
	n := 0
	for _, b := range e.queue {
		n += b.n
	}
	e.queue = nil
	e.mu.Unlock()
	if n > 0 {
		e.drop(n, dropShutdown, fmt.Errorf("not sent before the shutdown timeout: %w", context.Cause(e.ctx)))
	}
}

// export sends batch b, retrying as the type's comment says, and accounts
// for every record of it: exported or dropped.
func (e *LogExporter) export(b logBatch) {
	// An ExportLogsServiceRequest has the fields of a LogsData.
	body, err := (&plog.ProtoMarshaler{}).MarshalLogs(b.logs)
	if err != nil {
		e.drop(b.n, dropRejected, err)
		return
	}
	first := time.Now()
	backoff := e.cfg.Backoff
	for attempt := 1; ; attempt++ {
		rejected, msg, err := e.post(body)
		msg, err = e.scrub.String(msg), e.scrub.Error(err)
		if err == nil {
			e.sent(b.n, rejected, msg)
			return
		}
		var fe *exportFailure
		if !errors.As(err, &fe) || !fe.retryable {
			e.drop(b.n, dropRejected, err)
			return
		}
		if e.ctx.Err() != nil {
			e.drop(b.n, dropShutdown, err)
			return
		}
		wait := max(fe.after, jitter(backoff))
		backoff = min(2*backoff, e.cfg.MaxBackoff)
		if elapsed := time.Since(first); e.cfg.Retry <= 0 || elapsed+wait > e.cfg.Retry {
			e.drop(b.n, dropRetryTimeout, fmt.Errorf("%w (gave up after %d attempts in %s: the next would start after the retry limit, %s)",
				err, attempt, elapsed.Round(time.Millisecond), e.cfg.Retry))
			return
		}
		e.mu.Lock()
		e.stats.retries++
		e.mu.Unlock()
		e.log.Warn("cannot export evaluation events; retrying", "events", b.n, "attempt", attempt, "in", wait.Round(time.Millisecond), "err", err)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-e.ctx.Done():
			t.Stop()
			e.drop(b.n, dropShutdown, fmt.Errorf("%w (not retried before the shutdown timeout)", err))
			return
		}
	}
}

// jitter draws a delay within ±50% of d, so that many senders refused at
// once do not come back at once.
func jitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d+1)
}

// An exportFailure is a request the endpoint did not take.
type exportFailure struct {
	err       error
	retryable bool
	after     time.Duration // the endpoint's Retry-After, if any
}

func (f *exportFailure) Error() string { return f.err.Error() }
func (f *exportFailure) Unwrap() error { return f.err }

// post sends one request. On success it returns how many records the
// endpoint's partial_success rejected, and its message; else an
// *exportFailure.
func (e *LogExporter) post(body []byte) (rejected int64, msg string, err error) {
	req, err := http.NewRequestWithContext(e.ctx, http.MethodPost, e.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	for k, v := range e.cfg.Header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := e.client.Do(req)
	if err != nil {
		// Connection errors and timeouts may pass: retry them; a refused
		// redirect comes back the same.
		return 0, "", &exportFailure{err: err, retryable: !errors.Is(err, secret.ErrOtherHost)}
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 == 2 {
		// The records arrived; an answer that cannot be read says
		// nothing more.
		rejected, msg, _ = partialSuccess(answer, ct == "application/json")
		return rejected, msg, nil
	}
	err = fmt.Errorf("%s answered %s", e.cfg.URL, resp.Status)
	if m := statusMessage(answer, ct); m != "" {
		err = fmt.Errorf("%w: %s", err, m)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return 0, "", &exportFailure{err: err, retryable: true, after: min(retryafter.Parse(resp.Header.Get("Retry-After"), time.Now()), time.Hour)}
	}
	return 0, "", &exportFailure{err: err}
}

// statusMessage is the message of the google.rpc.Status an OTLP endpoint
// answers an error with, or the start of the answer's text.
func statusMessage(answer []byte, contentType string) string {
	switch contentType {
	case "application/x-protobuf":
		if msg, ok := statusText(answer); ok {
			return msg
		}
	case "application/json":
		var st struct{ Message string }
		if json.Unmarshal(answer, &st) == nil {
			return st.Message
		}
	}
	text := strings.TrimSpace(string(answer))
	if len(text) > 200 || !utf8.ValidString(text) {
		return ""
	}
	return text
}

// sent accounts for a batch of n records the endpoint took, but for
// rejected of them.
func (e *LogExporter) sent(n int, rejected int64, msg string) {
	rejected = min(max(rejected, 0), int64(n))
	e.mu.Lock()
	e.held -= n
	e.stats.exported += float64(n - int(rejected))
	e.stats.dropped[dropPartialSuccess] += float64(rejected)
	e.mu.Unlock()
	if rejected > 0 {
		e.log.Error("dropped evaluation events: the endpoint rejected some of a batch", "events", rejected, "of", n,
			"reason", dropPartialSuccess, "err", msg)
	}
}

// drop accounts for n records that will not be sent, for reason.
func (e *LogExporter) drop(n int, reason string, err error) {
	e.mu.Lock()
	e.held -= n
	e.stats.dropped[reason] += float64(n)
	e.mu.Unlock()
	e.log.Error("dropped evaluation events", "events", n, "reason", reason, "err", err)
}

// snapshot returns the exporter's counters.
func (e *LogExporter) snapshot() logStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stats
	s.dropped = maps.Clone(s.dropped)
	s.backlog = e.held
	return s
}

// Close sends what is left, retrying as Add's records are, until ctx
// ends; then it drops what is still left, stops the sender and says how
// many records it dropped so.
func (e *LogExporter) Close(ctx context.Context) error {
	e.once.Do(func() {
		e.mu.Lock()
		e.closed = true
		e.mu.Unlock()
		context.AfterFunc(ctx, e.cancel)
		close(e.stop)
	})
	<-e.stopped
	if n := e.snapshot().dropped[dropShutdown]; n > 0 {
		return fmt.Errorf("%s evaluation events could not be sent to %s before the shutdown ended", num(n), e.cfg.URL)
	}
	return nil
}
