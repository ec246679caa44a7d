package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"

	"github.com/trajeval/trajeval/internal/trajeval"
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
// Records are batched, up to 512 or one second, and sent by one
// goroutine; a batch that cannot be sent is counted in the metric
// trajeval_serve_log_export_errors_total and logged, not retried.
type LogExporter struct {
	URL    string
	Header http.Header // sent with every request, e.g. Authorization
	Client *http.Client
	Log    *slog.Logger

	mu      sync.Mutex
	batch   plog.Logs
	n       int
	kick    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
	errs    func(float64)
}

// NewLogExporter returns an exporter to url and starts its sender.
func NewLogExporter(url string, header http.Header, log *slog.Logger) *LogExporter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &LogExporter{URL: url, Header: header, Client: &http.Client{Timeout: 10 * time.Second}, Log: log,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	e.reset()
	go e.run()
	return e
}

func (e *LogExporter) reset() {
	e.batch = plog.NewLogs()
	rl := e.batch.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", "trajeval")
	rl.ScopeLogs().AppendEmpty().Scope().SetName("github.com/trajeval/trajeval/serve")
	e.n = 0
}

// Add adds an event for each evaluator result of r, the row of the trace
// trace, whose root span is root (empty when it never came).
func (e *LogExporter) Add(trace pcommon.TraceID, root pcommon.SpanID, r trajeval.CaseResult) {
	now := pcommon.NewTimestampFromTime(time.Now())
	e.mu.Lock()
	recs := e.batch.ResourceLogs().At(0).ScopeLogs().At(0).LogRecords()
	e.n += AppendEvents(recs, trace, root, r, now)
	full := e.n >= 512
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
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			e.flush(context.Background())
			return
		case <-t.C:
		case <-e.kick:
		}
		e.flush(context.Background())
	}
}

// flush sends the records gathered so far.
func (e *LogExporter) flush(ctx context.Context) {
	e.mu.Lock()
	if e.n == 0 {
		e.mu.Unlock()
		return
	}
	batch, n := e.batch, e.n
	e.reset()
	e.mu.Unlock()
	if err := e.send(ctx, batch); err != nil {
		e.Log.Error("cannot export evaluation events", "events", n, "err", err)
		if e.errs != nil {
			e.errs(float64(n))
		}
	}
}

func (e *LogExporter) send(ctx context.Context, logs plog.Logs) error {
	body, err := plogotlp.NewExportRequestFromLogs(logs).MarshalProto()
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range e.Header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := e.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", e.URL, resp.Status)
	}
	return nil
}

// Close sends what is left and stops the sender, or gives up when ctx
// ends.
func (e *LogExporter) Close(ctx context.Context) error {
	e.once.Do(func() { close(e.stop) })
	select {
	case <-e.stopped:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
