// Package trajevalconnector is an OpenTelemetry Collector connector that
// scores agent traces with trajeval's engine: traces in, logs out, one
// gen_ai.evaluation.result event per evaluator result, the events
// trajeval serve --otlp-logs sends.
//
// The connector, of type "trajeval", works by these rules:
//  1. Its configuration names a policy file (policy:), a suite with no
//     cases whose execution.evaluators score every trace its select: maps
//     pick, as trajeval serve reads it. The policy is read when the
//     configuration is validated: a bad policy stops the Collector before
//     it starts, at the policy's line and column.
//  2. Spans are gathered per trace id and a trace is scored grace after
//     its root span arrived, or idle after its last span arrived,
//     whichever comes first, exactly as trajeval serve does (the same
//     code); a trace scored without its root span is incomplete, its
//     events have label error and error.type incomplete_trace.
//  3. For each scored trace, one log record per evaluator result goes to
//     the next logs consumer of the pipeline, in one plog.Logs whose
//     resource has service.name trajeval. A trace that no evaluator
//     picks gives no record.
//  4. A batch of spans is taken whole or refused whole: when the queue of
//     traces waiting to be scored is full, or the spans held would
//     exceed max_spans, or the memory they take max_bytes,
//     ConsumeTraces returns an error and the receiver in front answers
//     with a retryable refusal. A batch is taken when nothing is held,
//     as trajeval serve takes it, unless its spans alone would take more
//     than max_bytes.
//  5. On shutdown every trace held is scored (incomplete where its root
//     never came) and its records are sent.
//
// Every span of a trace must reach the same connector instance: to run
// several Collectors, put the load_balancing exporter, keyed by trace id,
// in front of them (module otelcol/distro is such a Collector, with
// configurations for both tiers). Spans of a trace already done (queued
// or scored) are dropped for idle after it was done, so that a request
// the front tier sends again whole does not score a trace twice; with a
// policy's conversations:, as trajeval serve says, a turn takes the spans
// it lacks until its conversation is scored, and they are dropped after
// that.
package trajevalconnector

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/connector"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.uber.org/zap"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/serve"
)

// Type is the connector's type in a Collector configuration.
var Type = component.MustNewType("trajeval")

// Config is the connector's configuration.
type Config struct {
	// Policy is the path of the policy file; required.
	Policy string `mapstructure:"policy"`
	// Grace is how long a trace waits for late children after its root
	// span arrived (default 2s).
	Grace time.Duration `mapstructure:"grace"`
	// Idle is how long a trace without its root span waits for more spans
	// (default 30s).
	Idle time.Duration `mapstructure:"idle"`
	// Workers is how many traces are scored at once (default the policy's
	// execution.workers, else the number of CPUs).
	Workers int `mapstructure:"workers"`
	// Queue bounds the traces waiting to be scored (default 1024).
	Queue int `mapstructure:"queue"`
	// MaxSpans bounds the spans held (default serve.DefaultMaxSpans,
	// 1,000,000).
	MaxSpans int `mapstructure:"max_spans"`
	// MaxBytes bounds the memory of the spans held, each counted at an
	// estimate of what its copy takes, its text and a fixed cost for each
	// attribute, value, event and link (default 512 MiB, trajeval serve's
	// --max-bytes). A
	// memory_limiter processor sees the spans held only as heap: it
	// refuses new data once the heap is large, but cannot free what the
	// connector holds until a trace (or a conversation) is scored; this
	// bound keeps what is held in check by itself.
	MaxBytes int64 `mapstructure:"max_bytes"`
}

// Validate reads the policy, so that a bad one stops the Collector before
// it starts.
func (c *Config) Validate() error {
	if c.Policy == "" {
		return errors.New("policy: a policy file is required (a suite with no cases, as trajeval serve takes)")
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"grace", c.Grace}, {"idle", c.Idle}} {
		if d.v < 0 {
			return fmt.Errorf("%s: %v is negative; give a duration such as 2s, or leave it out for the default", d.name, d.v)
		}
	}
	for _, n := range []struct {
		name string
		v    int64
	}{{"workers", int64(c.Workers)}, {"queue", int64(c.Queue)}, {"max_spans", int64(c.MaxSpans)}, {"max_bytes", c.MaxBytes}} {
		if n.v < 0 {
			return fmt.Errorf("%s: %d is negative; leave it out for the default", n.name, n.v)
		}
	}
	_, err := serve.LoadPolicy(c.Policy, nil)
	return err
}

// NewFactory returns the factory of the trajeval connector.
func NewFactory() connector.Factory {
	return connector.NewFactory(Type, func() component.Config { return &Config{} },
		connector.WithTracesToLogs(create, component.StabilityLevelAlpha))
}

func create(_ context.Context, set connector.Settings, cfg component.Config, next consumer.Logs) (connector.Traces, error) {
	c := cfg.(*Config)
	pol, err := serve.LoadPolicy(c.Policy, nil)
	if err != nil {
		return nil, err
	}
	return &conn{cfg: c, pol: pol, next: next, log: set.Logger}, nil
}

// conn is the connector: a serve.Server without listeners, whose results
// go to the next consumer.
type conn struct {
	cfg  *Config
	pol  *serve.Policy
	next consumer.Logs
	log  *zap.Logger
	srv  *serve.Server
}

func (c *conn) Start(context.Context, component.Host) error {
	maxBytes := c.cfg.MaxBytes
	if maxBytes == 0 {
		maxBytes = serve.DefaultMaxBytes
	}
	srv, err := serve.New(serve.Config{Policy: c.pol, Grace: c.cfg.Grace, Idle: c.cfg.Idle,
		Workers: c.cfg.Workers, Queue: c.cfg.Queue, MaxSpans: c.cfg.MaxSpans, MaxBytes: maxBytes,
		Results: c.results})
	if err != nil {
		return err
	}
	c.srv = srv
	return nil
}

func (c *conn) Shutdown(ctx context.Context) error {
	if c.srv == nil {
		return nil
	}
	return c.srv.Shutdown(ctx)
}

func (c *conn) Capabilities() consumer.Capabilities {
	return consumer.Capabilities{MutatesData: false}
}

func (c *conn) ConsumeTraces(_ context.Context, td ptrace.Traces) error {
	return c.srv.Ingest(td)
}

// results sends the events of one scored trace on.
func (c *conn) results(trace pcommon.TraceID, root pcommon.SpanID, r trajeval.CaseResult) {
	logs := plog.NewLogs()
	rl := logs.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", "trajeval")
	sl := rl.ScopeLogs().AppendEmpty()
	sl.Scope().SetName("github.com/trajeval/trajeval/otelcol")
	if serve.AppendEvents(sl.LogRecords(), trace, root, r, pcommon.NewTimestampFromTime(time.Now())) == 0 {
		return
	}
	if err := c.next.ConsumeLogs(context.Background(), logs); err != nil {
		c.log.Error("cannot send evaluation events", zap.String("trace", r.ID), zap.Error(err))
	}
}
