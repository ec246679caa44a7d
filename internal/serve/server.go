// Package serve scores live agent traffic: an OTLP receiver that gathers
// the spans of each trace as they arrive and, once the trace is done,
// scores it with a policy's evaluators, the same engine as trajeval eval.
//
// A trace is gathered and scored by these rules:
//  1. Spans are grouped by trace id. They may come in any order, spread
//     over any number of requests, over HTTP and gRPC alike. A span whose
//     trace already holds a span of its id (an exporter's retry) is
//     dropped and counted.
//  2. The root span is the span with no parent. A trace is done at
//     Config.Grace after its root span arrived (children may still be on
//     the way), or at Config.Idle after its last span arrived, whichever
//     comes first.
//  3. A trace done with no root span is incomplete: its row has status
//     error and every evaluator's result is marked "not assessed", with
//     the scores the spans that did arrive would get. It is never a pass.
//  4. A done trace becomes a trajectory by the rules that read an OTLP
//     file (package otlp): one trajectory per trace, and the row's id is
//     the trace id in hex. Traces that share a conversation id are joined
//     into one trajectory only when the policy says so (see
//     [Conversations]): a live conversation has no end, so the server
//     must be told how long to wait for its next turn.
//  5. The trace is scored by the policy's evaluators whose selectors pick
//     it (see [LoadPolicy]); a trace that no evaluator picks gives no row,
//     and is counted in the metrics.
//  6. A span of a trace already done (queued or scored) is dropped and
//     counted, for Config.Idle after the trace was done; after that it
//     starts a new trace, which will be incomplete. A trace held as a
//     turn of a conversation takes such spans until the conversation is
//     scored (rule 5 of [Conversations]).
//
// The server protects itself: a request is refused whole, never in part,
// with 401 (UNAUTHENTICATED) when a token is required and not given,
// before its body is read; with 413 (RESOURCE_EXHAUSTED) when its body is
// larger than Config.MaxRequestBytes (after decompression too), or when
// decoding it alone would take more memory than Config.MaxBytes; with 400
// (INVALID_ARGUMENT) and the reason when it is not OTLP or nests
// attribute values deeper than otlp.MaxValueDepth; with HTTP 429 (gRPC
// RESOURCE_EXHAUSTED) and a retry delay when the queue of done traces
// waiting to be scored is full or when taking it would hold more than
// Config.MaxSpans spans or take more than Config.MaxBytes of memory (see
// budget.go: nothing is decoded before its memory is charged); with 503
// (UNAVAILABLE) and a retry delay while the rows that could not be
// written to Config.Out fill Config.OutBacklog. Nothing accepted is
// dropped: a row that cannot be written is kept and written again (see
// outWriter), and on [Server.Shutdown] every trace held is scored
// (incomplete where its root never came) and written.
package serve

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/otlp"
	"github.com/trajeval/trajeval/internal/run"
	"github.com/trajeval/trajeval/internal/suite"
)

// Config steers a [Server]. The zero value of each setting takes its
// default.
type Config struct {
	// Policy is what the server scores; required.
	Policy *Policy
	// Out receives one JSON line per scored trace, as eval --out writes
	// them; nil writes nowhere. Each row is written whole with one Write;
	// a row whose write fails is kept and written again (see outWriter).
	// An Out with Seek and Truncate (an *os.File) has a short write
	// undone.
	Out io.Writer
	// OutName names Out in the reasons /readyz gives.
	OutName string
	// OutRetry is how often rows that could not be written are written
	// again (default 1s); they are also before each new row.
	OutRetry time.Duration
	// OutBacklog bounds the bytes of the rows that could not be written:
	// beyond, requests are refused until they are (default 64 MiB).
	OutBacklog int64
	// OutLost receives, as JSON lines, the rows that still cannot be
	// written to Out at Shutdown; nil loses them (they are counted in
	// the log and in Shutdown's error all the same).
	OutLost io.Writer
	// Grace is how long a trace waits for late children after its root
	// span arrived (default 2s).
	Grace time.Duration
	// Idle is how long a trace without its root span waits for more spans
	// (default 30s).
	Idle time.Duration
	// Tick is how often done traces are looked for (default a quarter of
	// the shorter of Grace and Idle, between 1ms and 250ms).
	Tick time.Duration
	// Queue bounds the done traces waiting to be scored (default 1024).
	Queue int
	// MaxSpans bounds the spans held, waiting or queued (default
	// DefaultMaxSpans).
	MaxSpans int
	// MaxBytes bounds the memory of the spans held, waiting or queued,
	// and of the requests being read and decoded, each counted at an
	// estimate of what it takes (see budget.go); 0 sets no bound (the
	// hosts, trajeval serve and the Collector connector, default to
	// DefaultMaxBytes).
	MaxBytes int64
	// MaxRequestBytes bounds a request's body, compressed and not
	// (default DefaultMaxRequestBytes, or half of MaxBytes when that is
	// less); it may be at most half of MaxBytes.
	MaxRequestBytes int64
	// ReadTimeout bounds a gRPC request, from its headers to its answer
	// (default 30s), as the HTTP host bounds the reading of a request: a
	// client that sends its message slowly, or never, would otherwise
	// hold the memory its reading is charged for as long as it likes.
	ReadTimeout time.Duration
	// Token, when set, is the bearer token every OTLP and /metrics request
	// must carry.
	Token string
	// Workers is how many traces are scored at once (default the policy's
	// execution.workers, else runtime.GOMAXPROCS).
	Workers int
	// Logs, when set, receives a gen_ai.evaluation.result event per
	// evaluator result (see [LogExporter]).
	Logs *LogExporter
	// Log receives the server's own messages; nil discards them.
	Log *slog.Logger
	// Results, when set, receives each scored trace's row, with the trace's
	// id and its root span's id (empty when the root never came; for a
	// conversation's row, those of its last turn), after
	// Out and Logs did; it is how a host other than the HTTP server (an
	// OpenTelemetry Collector component) takes the results. It is called
	// from the scoring workers, several at once.
	Results func(trace pcommon.TraceID, root pcommon.SpanID, r trajeval.CaseResult)
}

// Errors of [Server.Ingest].
var (
	// errQueueFull refuses a request while the done traces waiting to be
	// scored fill the queue.
	errQueueFull = errors.New("the queue of traces waiting to be scored is full")
	// errSpansFull refuses a request that would hold more spans than
	// allowed.
	errSpansFull = errors.New("the server holds as many spans as it may")
	// errBytesFull refuses a request that would hold more bytes of spans
	// than allowed.
	errBytesFull = errors.New("the server holds as many bytes of spans as it may")
	// errClosing refuses a request after shutdown began.
	errClosing = errors.New("the server is shutting down")
)

// DefaultMaxSpans is the Config.MaxSpans that trajeval serve and the
// Collector connector take when they are given none.
const DefaultMaxSpans = 1_000_000

// DefaultMaxRequestBytes is the Config.MaxRequestBytes that trajeval
// serve takes when it is given none: 16 MiB.
const DefaultMaxRequestBytes = 16 << 20

// DefaultMaxBytes is the Config.MaxBytes that trajeval serve and the
// Collector connector take when they are given none: 512 MiB.
const DefaultMaxBytes = 512 << 20

// A Server gathers spans into traces and scores them.
type Server struct {
	cfg     Config
	metrics *metrics
	log     *slog.Logger

	mu      sync.Mutex
	cond    *sync.Cond
	pending map[pcommon.TraceID]*pending
	ready   []*pending
	held    int   // spans in pending and ready
	bytes   int64 // the memory they take (see budget.go)
	// inflight is the memory charged to requests under way: bodies
	// being read, and what decoding them builds.
	inflight int64
	scored   map[pcommon.TraceID]time.Time
	// scoredQ holds the ids of scored, oldest first, to forget them in
	// order.
	scoredQ []scoredID
	closing bool
	// drained is set once Shutdown has queued every trace it held: the
	// workers stop when it is set and the queue is empty, not at closing,
	// or a worker could leave before the last traces were queued.
	drained bool
	convs   *convState // nil when conversations are not joined
	workers sync.WaitGroup
	sweeper chan struct{} // closed to stop the sweeper
	swept   chan struct{} // closed when it stopped

	out *outWriter // nil without Out
}

// A scoredID is a trace scored, and when.
type scoredID struct {
	id pcommon.TraceID
	at time.Time
}

// A pending trace is one being gathered.
type pending struct {
	id         pcommon.TraceID
	td         ptrace.Traces
	seen       map[pcommon.SpanID]struct{}
	spans      int
	bytes      int64
	rootAt     time.Time // when the root span arrived; zero before
	rootEnd    pcommon.Timestamp
	rootSpan   pcommon.SpanID
	last       time.Time
	incomplete bool
	conv       *conversation // set for a done conversation, whose turns hold the spans
	// later holds the spans that came after the trace was done, while it
	// is a turn held in a conversation (see [Conversations], rule 5); td
	// is left as it was done, as the turn's own row may be scoring it.
	later ptrace.Traces
}

// New returns a server for cfg and starts its workers; [Server.Shutdown]
// stops them.
func New(cfg Config) (*Server, error) {
	if cfg.Policy == nil {
		return nil, errors.New("serve: no policy")
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 2 * time.Second
	}
	if cfg.Idle <= 0 {
		cfg.Idle = 30 * time.Second
	}
	if cfg.Tick <= 0 {
		cfg.Tick = max(min(cfg.Grace, cfg.Idle, time.Second)/4, time.Millisecond)
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 1024
	}
	if cfg.MaxSpans <= 0 {
		cfg.MaxSpans = DefaultMaxSpans
	}
	switch {
	case cfg.MaxRequestBytes <= 0 && cfg.MaxBytes > 0:
		cfg.MaxRequestBytes = max(min(DefaultMaxRequestBytes, cfg.MaxBytes/2), 1)
	case cfg.MaxRequestBytes <= 0:
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	case cfg.MaxBytes > 0 && cfg.MaxRequestBytes > cfg.MaxBytes/2:
		// A compressed gRPC request is charged twice its largest size
		// while it is read (see budget.go): it would never fit.
		return nil, fmt.Errorf("serve: the request size limit (%d bytes) must be at most half the memory limit (%d bytes)", cfg.MaxRequestBytes, cfg.MaxBytes)
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = 30 * time.Second
	}
	if cfg.OutRetry <= 0 {
		cfg.OutRetry = time.Second
	}
	if cfg.OutBacklog <= 0 {
		cfg.OutBacklog = 64 << 20
	}
	if cfg.Workers <= 0 {
		cfg.Workers = cfg.Policy.Workers
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, metrics: newMetrics(cfg.Policy), pending: map[pcommon.TraceID]*pending{},
		scored: map[pcommon.TraceID]time.Time{}, sweeper: make(chan struct{}), swept: make(chan struct{}),
		convs: newConvState(cfg.Policy.Conversations)}
	s.cond = sync.NewCond(&s.mu)
	s.metrics.gauges = s.gauges
	s.metrics.conversations = s.openConversations
	if cfg.Out != nil {
		s.out = newOutWriter(cfg.Out, cfg.OutName, cfg.OutBacklog, cfg.OutRetry, log,
			func() { s.metrics.add(&s.metrics.outErrors, 1) })
	}
	if cfg.Logs != nil {
		s.metrics.logs = cfg.Logs.snapshot
	}
	for range cfg.Workers {
		s.workers.Add(1)
		go s.work()
	}
	go s.sweep()
	return s, nil
}

// Ingest takes the spans of one request, all or none: it returns
// errQueueFull, errSpansFull, errBytesFull, errOutFull or errClosing when
// it takes none. The spans are charged to Config.MaxBytes at the memory
// their copy takes (see budget.go).
func (s *Server) Ingest(td ptrace.Traces) error { return s.ingest(td, 0, false) }

// ingest is Ingest for a request that reserved bytes for its decoded
// form: on success the reservation becomes the charge of the spans held,
// on failure it stays the caller's to release. With move, the spans are
// moved out of td, not copied: the memory of the decoded request becomes
// that of the spans held, charged once.
func (s *Server) ingest(td ptrace.Traces, reserved int64, move bool) error {
	n := td.SpanCount()
	sizes, places, size := heldMemory(td)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return errClosing
	case s.out != nil && s.out.full.Load():
		return errOutFull
	case len(s.ready) >= s.cfg.Queue:
		return errQueueFull
	case s.held+n > s.cfg.MaxSpans:
		return errSpansFull
	case s.cfg.MaxBytes > 0 && size > s.cfg.MaxBytes:
		// Each trace of a ScopeSpans holds a copy of its resource: a
		// large resource shared by many traces costs more held than
		// decoded.
		return fmt.Errorf("%w: %d bytes to hold its spans, more than the %d it may hold", errTooCostly, size, s.cfg.MaxBytes)
	case s.cfg.MaxBytes > 0 && (s.held > 0 || s.inflight > reserved) && s.bytes+s.inflight-reserved+size > s.cfg.MaxBytes:
		// A request alone is taken when nothing else is held or under
		// way: refusing it would refuse it for ever (it is no larger than
		// MaxBytes, above).
		return errBytesFull
	}
	s.inflight -= reserved
	var lateIDs []pcommon.TraceID // traces sent again after they were scored
	defer func() { s.warnLate(lateIDs) }()
	next := 0 // index in sizes
	type place struct {
		p     *pending
		later bool // in p.later
		i, j  int
	}
	dest := map[place]ptrace.SpanSlice{}
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			ss := sss.At(j)
			spans := ss.Spans()
			for k := 0; k < spans.Len(); k++ {
				sp := spans.At(k)
				spSize := sizes[next]
				next++
				s.metrics.add(&s.metrics.spansReceived, 1)
				tid := sp.TraceID()
				p, late := s.turnOf(tid)
				held := p != nil
				if _, done := s.scored[tid]; late || done && !held {
					s.metrics.add(&s.metrics.spansLate, 1)
					if done && !slices.Contains(lateIDs, tid) {
						lateIDs = append(lateIDs, tid)
					}
					continue
				}
				if p == nil {
					p = s.pending[tid]
				}
				if p == nil {
					p = &pending{id: tid, td: ptrace.NewTraces(), seen: map[pcommon.SpanID]struct{}{}}
					s.pending[tid] = p
					s.metrics.add(&s.metrics.tracesReceived, 1)
				}
				if _, dup := p.seen[sp.SpanID()]; dup {
					s.metrics.add(&s.metrics.spansDuplicate, 1)
					continue
				}
				p.seen[sp.SpanID()] = struct{}{}
				at := place{p, held, i, j}
				to, ok := dest[at]
				if !ok {
					into := p.td
					if held {
						into = p.later
					}
					nrs := into.ResourceSpans().AppendEmpty()
					rs.Resource().CopyTo(nrs.Resource())
					nrs.SetSchemaUrl(rs.SchemaUrl())
					nss := nrs.ScopeSpans().AppendEmpty()
					ss.Scope().CopyTo(nss.Scope())
					nss.SetSchemaUrl(ss.SchemaUrl())
					to = nss.Spans()
					dest[at] = to
					p.bytes += places[i][j]
					s.bytes += places[i][j]
				}
				if sp.ParentSpanID().IsEmpty() && p.rootAt.IsZero() {
					p.rootAt, p.rootEnd, p.rootSpan = now, sp.EndTimestamp(), sp.SpanID()
				}
				if move {
					sp.MoveTo(to.AppendEmpty())
				} else {
					sp.CopyTo(to.AppendEmpty())
				}
				p.spans++
				p.bytes += spSize
				s.held++
				s.bytes += spSize
				p.last = now
				if held {
					s.joined(p)
				}
			}
		}
	}
	return nil
}

// allSpans yields the spans of td in order.
func allSpans(td ptrace.Traces) iter.Seq[ptrace.Span] {
	return func(yield func(ptrace.Span) bool) {
		rss := td.ResourceSpans()
		for i := 0; i < rss.Len(); i++ {
			sss := rss.At(i).ScopeSpans()
			for j := 0; j < sss.Len(); j++ {
				spans := sss.At(j).Spans()
				for k := 0; k < spans.Len(); k++ {
					if !yield(spans.At(k)) {
						return
					}
				}
			}
		}
	}
}

// sweep moves done traces to the queue, every Tick, until Shutdown.
func (s *Server) sweep() {
	defer close(s.swept)
	t := time.NewTicker(s.cfg.Tick)
	defer t.Stop()
	for {
		select {
		case <-s.sweeper:
			return
		case <-t.C:
			s.mu.Lock()
			// The time now, not the tick's: on a busy machine the tick
			// is read late, and a trace that arrived since would seem
			// to have arrived after now.
			now := time.Now()
			s.moveDone(now, false)
			s.flushConversations(now, false)
			n := 0
			for n < len(s.scoredQ) && now.Sub(s.scoredQ[n].at) > s.cfg.Idle {
				delete(s.scored, s.scoredQ[n].id)
				n++
			}
			s.scoredQ = s.scoredQ[n:]
			s.mu.Unlock()
		}
	}
}

// moveDone queues the traces that are done at now, or all of them. It
// leaves a done trace waiting while the queue is full (Ingest refuses
// new spans meanwhile), except when all are moved, at shutdown. s.mu is
// held.
func (s *Server) moveDone(now time.Time, all bool) {
	moved := false
	for id, p := range s.pending {
		if !all && len(s.ready) >= s.cfg.Queue {
			break
		}
		rootDone := !p.rootAt.IsZero() && now.Sub(p.rootAt) >= s.cfg.Grace
		if !all && !rootDone && now.Sub(p.last) < s.cfg.Idle {
			continue
		}
		p.incomplete = p.rootAt.IsZero()
		delete(s.pending, id)
		// From now on its spans are late: the trace is being scored.
		s.scored[id] = now
		s.scoredQ = append(s.scoredQ, scoredID{id, now})
		s.hand(p, now)
		moved = true
	}
	if moved {
		s.cond.Broadcast()
	}
}

// work scores queued traces until Shutdown has emptied the queue.
func (s *Server) work() {
	defer s.workers.Done()
	for {
		s.mu.Lock()
		for len(s.ready) == 0 && !s.drained {
			s.cond.Wait()
		}
		if len(s.ready) == 0 {
			s.mu.Unlock()
			return
		}
		p := s.ready[0]
		s.ready[0] = nil
		s.ready = s.ready[1:]
		s.mu.Unlock()

		s.finish(p)

		s.mu.Lock()
		s.held -= p.spans
		s.bytes -= p.bytes
		s.mu.Unlock()
	}
}

// finish scores trace p and hands its row on.
func (s *Server) finish(p *pending) {
	start := time.Now()
	r, ok := s.scoreSafely(p, s.scoreDone)
	if !ok {
		s.metrics.add(&s.metrics.tracesUnselected, 1)
		return
	}
	r.StartedAt = start.UTC().Truncate(time.Millisecond)
	r.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	s.write(r)
	var latency float64 = -1
	if p.rootEnd != 0 {
		latency = max(0, time.Since(p.rootEnd.AsTime()).Seconds())
	}
	s.metrics.scored(r, latency)
	if s.cfg.Logs != nil {
		s.cfg.Logs.Add(p.id, p.rootSpan, r)
	}
	if s.cfg.Results != nil {
		s.cfg.Results(p.id, p.rootSpan, r)
	}
}

// notAssessed is the error of an incomplete trace's row.
const notAssessed = "not assessed: the trace's root span never arrived, so the trace may be incomplete"

// Score scores the spans of one trace, td, with the evaluators of the
// policy that pick it, as the server does when the trace is done; ok is
// false when none picks it. incomplete marks the result as rule 3 says.
func (s *Server) Score(ctx context.Context, td ptrace.Traces, incomplete bool) (r trajeval.CaseResult, ok bool) {
	id := traceID(td)
	return s.score(ctx, []ptrace.Traces{td}, id, "trace "+id, incomplete)
}

// scoreSafely is score (scoreDone), with a panic while p is scored (a bug: in a
// registered evaluator's error, in a reader, in the engine) made p's row,
// an error: a worker that panicked would end the whole server, and every
// trace it holds, for one trace.
func (s *Server) scoreSafely(p *pending, score func(context.Context, *pending) (trajeval.CaseResult, bool)) (r trajeval.CaseResult, ok bool) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		id := p.id.String()
		if p.conv != nil {
			id = p.conv.key
		}
		s.log.Error("scoring a trace panicked; its row is an error", "id", id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		r = trajeval.CaseResult{ID: id, Suite: s.cfg.Policy.Name, Status: trajeval.StatusError,
			Error: fmt.Sprintf("scoring failed: internal error: %v", v), Evaluators: []trajeval.Result{}}
		ok = true
	}()
	return score(context.Background(), p)
}

// score scores the spans of tds, one trace or the turns of one
// conversation, as one trajectory whose row has id id; source names them
// in warnings.
func (s *Server) score(ctx context.Context, tds []ptrace.Traces, id, source string, incomplete bool) (r trajeval.CaseResult, ok bool) {
	pol := s.cfg.Policy
	if !pol.Select.matchList(tds) {
		return r, false
	}
	c := &suite.Case{}
	for _, ev := range pol.Evaluators {
		if ev.Select.matchList(tds) {
			c.Evaluators = append(c.Evaluators, ev.Configured)
		}
	}
	if len(c.Evaluators) == 0 {
		return r, false
	}
	c.ID = id
	var warnings []string
	var traj *trajeval.Trajectory
	in := trajeval.Input{Name: source, Warn: func(w trajeval.Warning) { warnings = append(warnings, w.String()) }}
	err := otlp.FromTraceList(ctx, tds, in, func(t *trajeval.Trajectory) error {
		if traj != nil {
			// One trace, or traces of one conversation key, are one
			// trajectory; never score a part of them as the whole.
			return fmt.Errorf("%s: the spans make more than one trajectory (%s and %s)", source, traj.ID, t.ID)
		}
		traj = t
		return nil
	})
	if err != nil {
		return trajeval.CaseResult{ID: id, Suite: pol.Name, Status: trajeval.StatusError, Error: err.Error(),
			Evaluators: []trajeval.Result{}, Warnings: warnings}, true
	}
	traj.ID = id
	r = run.Score(ctx, pol.suite, c, traj)
	r.Warnings = append(warnings, r.Warnings...)
	if incomplete {
		r.Status, r.Error, r.Partial = trajeval.StatusError, notAssessed, true
		for i := range r.Evaluators {
			e := &r.Evaluators[i]
			e.Status = trajeval.StatusError
			e.Error = notAssessed
		}
	}
	return r, true
}

// traceID is the hex id of the trace of td's first span.
func traceID(td ptrace.Traces) string {
	for sp := range allSpans(td) {
		if id := sp.TraceID(); !id.IsEmpty() {
			return id.String()
		}
		return ""
	}
	return ""
}

// write writes one row to Out, or keeps it until it can.
func (s *Server) write(r trajeval.CaseResult) {
	if s.out != nil {
		s.out.add(r)
	}
	s.log.Info("scored", "id", r.ID, "status", string(r.Status), "score", trajeval.FormatScore(r.Score))
}

// maxLateWarnings is how many traces sent again one request names.
const maxLateWarnings = 5

// warnLate says which traces of a request came again after they were
// scored: their spans are dropped (rule 6), which a sender that resends
// whole traces should know.
func (s *Server) warnLate(ids []pcommon.TraceID) {
	for i, id := range ids {
		if i == maxLateWarnings {
			s.log.Warn("more traces sent again after they were scored", "count", len(ids)-i)
			return
		}
		s.log.Warn("trace sent again after it was scored: its spans are dropped", "trace_id", hex.EncodeToString(id[:]))
	}
}

// Ready returns nil when the server takes traces and has written every
// result, else why not.
func (s *Server) Ready() error {
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return errClosing
	}
	if s.out != nil {
		return s.out.outError()
	}
	return nil
}

// Shutdown refuses new spans, scores every trace held (rule 3 for those
// whose root never came) and waits until their rows are written, or ctx
// ends. Rows that Out still refuses go to OutLost, and the log events go
// out until ctx ends; the error counts what was lost. Stop the listeners
// first, so that requests under way are taken.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		close(s.sweeper)
	}
	s.mu.Unlock()
	<-s.swept
	s.mu.Lock()
	now := time.Now()
	s.moveDone(now, true)
	s.flushConversations(now, true)
	s.drained = true
	s.cond.Broadcast()
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.workers.Wait()
		close(done)
	}()
	var errs []error
	select {
	case <-done:
	case <-ctx.Done():
		// The traces still being scored are lost; the rows and events
		// already computed are not, below.
		errs = append(errs, ctx.Err())
	}
	if s.out != nil {
		if rows, err := s.out.close(); len(rows) > 0 {
			errs = append(errs, s.lost(rows, err))
		}
	}
	if s.cfg.Logs != nil {
		errs = append(errs, s.cfg.Logs.Close(ctx))
	}
	return errors.Join(errs...)
}

// lost reports the rows that could not be written to Out at shutdown,
// and hands them to OutLost.
func (s *Server) lost(rows [][]byte, err error) error {
	if s.cfg.OutLost == nil {
		s.log.Error("result rows could not be written; they are lost", "out", s.cfg.OutName, "rows", len(rows), "err", err)
		return fmt.Errorf("%d result rows could not be written to %s and are lost: %w", len(rows), s.cfg.OutName, err)
	}
	s.log.Error("result rows could not be written; they follow as JSON lines", "out", s.cfg.OutName, "rows", len(rows), "err", err)
	for _, row := range rows {
		if _, werr := s.cfg.OutLost.Write(row); werr != nil {
			return fmt.Errorf("%d result rows could not be written to %s (%w), nor elsewhere: %w", len(rows), s.cfg.OutName, err, werr)
		}
	}
	return fmt.Errorf("%d result rows could not be written to %s, and were written with the log instead: %w", len(rows), s.cfg.OutName, err)
}
