package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajeval/trajeval/internal/serve"
)

// serveFlags are the settings of trajeval serve.
type serveFlags struct {
	http, grpc, out, otlpLogs, token string
	grace, idle, shutdown, logsRetry time.Duration
	queue, maxSpans, workers         int
	logsBacklog                      int
	maxRequestBytes, maxBytes        int64
	outBacklog                       int64
	otlpLogsHeaders                  []string
	check, quiet                     bool
}

func serveCmd() *cobra.Command {
	var f serveFlags
	c := &cobra.Command{
		Use:   "serve POLICY.yaml",
		Short: "Score live agent traces that arrive over OTLP (HTTP and gRPC)",
		Long: `Receive OpenTelemetry traces over OTLP/HTTP (POST /v1/traces, protobuf or
JSON, plain or gzip) and OTLP/gRPC, gather each trace's spans, and score each
trace once its root span has ended (plus --grace), or after --idle without
news (then marked incomplete, never a pass), with the evaluators of
POLICY.yaml: a suite with no cases whose evaluators may carry select: maps
of attribute patterns (docs/serve.md).

With conversations: in the policy, the traces of one conversation
(gen_ai.conversation.id) are joined into one multi-turn trajectory, as eval
joins them, and scored once no turn came for conversations.idle.

Results go to --out as JSON lines, as eval --out jsonl writes them (id = the
trace id, or the conversation id), and as gen_ai.evaluation.result log events to --otlp-logs. The
HTTP port also serves /metrics (Prometheus), /healthz and /readyz. SIGTERM
or Ctrl-C stops taking spans, scores what is held and exits.

No result is dropped silently. A row that cannot be written to --out (a full
disk) is kept, /readyz says why, and it is written again, in order, once
writing works; while --out-backlog-bytes of rows wait, requests are refused
with 503 so that exporters retry. Rows still unwritten at exit go to stderr
as JSON lines. Log events the endpoint refuses for a while (connection
errors, 429, 502, 503, 504) are retried with backoff for --otlp-logs-retry;
the others are dropped, logged and counted in /metrics.`,
		Args: needs(1, 1, "a policy file", "trajeval serve POLICY.yaml (trajeval serve --help shows a policy)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.token == "" {
				f.token = os.Getenv("TRAJEVAL_TOKEN")
			}
			if f.check {
				return checkPolicy(args[0], cmd.OutOrStdout())
			}
			return runServe(cmd.Context(), args[0], f, cmd.ErrOrStderr())
		},
	}
	fl := c.Flags()
	fl.BoolVar(&f.check, "check", false, "check the policy, print its evaluators and selectors, and exit without listening")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no line on standard error per trace scored (warnings and errors still go there)")
	fl.StringVar(&f.http, "http", "127.0.0.1:4318", `OTLP/HTTP, /metrics and health address; "" for none`)
	fl.StringVar(&f.grpc, "grpc", "127.0.0.1:4317", `OTLP/gRPC address; "" for none`)
	fl.StringVarP(&f.out, "out", "o", "", "append each result as a JSON line to this file")
	fl.StringVar(&f.otlpLogs, "otlp-logs", "", "send gen_ai.evaluation.result events to this OTLP/HTTP logs URL (e.g. http://127.0.0.1:4318/v1/logs)")
	fl.DurationVar(&f.logsRetry, "otlp-logs-retry", 5*time.Minute, "how long a batch of log events the endpoint refuses for a while is retried; 0 for never")
	fl.IntVar(&f.logsBacklog, "otlp-logs-backlog", 65536, "log events that may wait to be sent; beyond, new ones are dropped and counted")
	fl.StringArrayVar(&f.otlpLogsHeaders, "otlp-logs-header", nil, "a header KEY=VALUE sent with the log events (repeatable), e.g. Authorization=Bearer ...")
	fl.StringVar(&f.token, "token", "", "require this bearer token on OTLP and /metrics requests (default $TRAJEVAL_TOKEN)")
	fl.DurationVar(&f.grace, "grace", 2*time.Second, "how long a trace waits for late spans after its root span arrived")
	fl.DurationVar(&f.idle, "idle", 30*time.Second, "how long a trace without its root span waits for more spans before it is scored as incomplete")
	fl.DurationVar(&f.shutdown, "shutdown-timeout", 30*time.Second, "how long shutdown may take to score what is held")
	fl.IntVar(&f.queue, "queue", 1024, "done traces that may wait to be scored; beyond, requests are refused with 429")
	fl.IntVar(&f.maxSpans, "max-spans", serve.DefaultMaxSpans, "spans that may be held; beyond, requests are refused with 429")
	fl.Int64Var(&f.maxBytes, "max-bytes", serve.DefaultMaxBytes, "memory that the spans held and the requests being read and decoded may take; beyond, requests are refused with 429 (413 for one that alone would take more)")
	fl.Int64Var(&f.outBacklog, "out-backlog-bytes", 64<<20, "bytes of result rows that may wait after --out failed; beyond, requests are refused with 503")
	fl.IntVar(&f.workers, "workers", 0, "traces scored at once (default execution.workers, else one per CPU)")
	fl.Int64Var(&f.maxRequestBytes, "max-request-bytes", 0, "largest request body, also once decompressed (413 beyond); at most half of --max-bytes (default 16 MiB, or half of --max-bytes if less)")
	return c
}

// memoryMargin is what serve may take beyond --max-bytes and
// --out-backlog-bytes: the traces being scored, the log events waiting,
// connections' buffers, and the runtime.
const memoryMargin = 128 << 20

// runServe serves until ctx ends, then shuts down in order: the listeners
// stop taking requests (those under way finish), what is held is scored,
// and the results are written.
func runServe(ctx context.Context, policyPath string, f serveFlags, stderr io.Writer) error {
	if f.http == "" && f.grpc == "" {
		return usageError{errors.New("--http and --grpc are both empty: nothing to listen on")}
	}
	switch {
	case f.grace <= 0, f.idle <= 0, f.shutdown <= 0:
		return usageError{errors.New("--grace, --idle and --shutdown-timeout must be more than 0")}
	case f.queue < 1, f.maxSpans < 1, f.maxRequestBytes < 0:
		return usageError{errors.New("--queue and --max-spans must be at least 1, --max-request-bytes 0 (the default) or more")}
	case f.maxBytes < 1, f.outBacklog < 1, f.logsBacklog < 1:
		return usageError{errors.New("--max-bytes, --out-backlog-bytes and --otlp-logs-backlog must be at least 1")}
	case f.maxRequestBytes > f.maxBytes/2:
		return usageError{fmt.Errorf("--max-request-bytes %d is more than half of --max-bytes %d: a compressed request is charged twice its size while it is read", f.maxRequestBytes, f.maxBytes)}
	case f.logsRetry < 0:
		return usageError{errors.New("--otlp-logs-retry must be 0 (no retry) or more")}
	case f.workers < 0:
		return usageError{errors.New("--workers must be at least 1 (0 takes the default)")}
	}
	level := slog.LevelInfo // a line per trace scored
	if f.quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	pol, err := serve.LoadPolicy(policyPath, nil)
	if err != nil {
		return err
	}
	cfg := serve.Config{Policy: pol, Grace: f.grace, Idle: f.idle, Queue: f.queue, MaxSpans: f.maxSpans,
		MaxBytes: f.maxBytes, MaxRequestBytes: f.maxRequestBytes, Token: f.token, Workers: f.workers, Log: log}
	if f.out != "" {
		out, lock, err := openLocked(f.out, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		defer out.Close()
		defer lock.Release() // before the file is closed
		cfg.Out, cfg.OutName, cfg.OutBacklog = out, f.out, f.outBacklog
		// The last resort for rows the file still refuses at exit.
		cfg.OutLost = stderr
	}
	if f.otlpLogs != "" {
		h := http.Header{}
		for _, kv := range f.otlpLogsHeaders {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return usageError{fmt.Errorf("--otlp-logs-header %q is not KEY=VALUE", kv)}
			}
			h.Add(k, v)
		}
		cfg.Logs = serve.NewLogExporter(serve.LogConfig{URL: f.otlpLogs, Header: h, Log: log,
			Retry: f.logsRetry, Backlog: f.logsBacklog})
	}
	if cfg.Out == nil && cfg.Logs == nil {
		log.Warn("neither --out nor --otlp-logs is given: results are only counted in /metrics")
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// What is charged to --max-bytes is memory in use; the garbage
		// collector would let the heap grow to twice that before it
		// collects. A soft limit just above what serve may hold keeps
		// the process near it.
		debug.SetMemoryLimit(f.maxBytes + f.outBacklog + memoryMargin)
	}
	errc := make(chan error, 2)
	var hs *http.Server
	if f.http != "" {
		ln, err := net.Listen("tcp", f.http)
		if err != nil {
			return err
		}
		hs = httpServer(srv.Handler())
		log.Info("OTLP/HTTP listening", "addr", ln.Addr().String())
		go func() { errc <- hs.Serve(ln) }()
	}
	gs := srv.GRPCServer()
	if f.grpc != "" {
		ln, err := net.Listen("tcp", f.grpc)
		if err != nil {
			if hs != nil {
				hs.Close()
			}
			return err
		}
		log.Info("OTLP/gRPC listening", "addr", ln.Addr().String())
		go func() { errc <- gs.Serve(ln) }()
	}
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-errc:
	}
	log.Info("shutting down: scoring the traces held")
	sctx, cancel := context.WithTimeout(context.Background(), f.shutdown)
	defer cancel()
	// A second Ctrl-C or SIGTERM stops at once, without scoring what is
	// held.
	force := make(chan os.Signal, 1)
	signal.Notify(force, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(force)
	go func() {
		select {
		case <-force:
			log.Warn("stopping at once: the traces held are not scored")
			cancel()
		case <-sctx.Done():
		}
	}()
	if hs != nil {
		_ = hs.Shutdown(sctx)
	}
	// Requests under way finish; those still under way when sctx ends
	// are cut off.
	if gs.Shutdown(sctx) != nil {
		gs.Close()
	}
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return nil
}

// checkPolicy loads the policy at path and prints what it scores.
func checkPolicy(path string, stdout io.Writer) error {
	pol, err := serve.LoadPolicy(path, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "policy %s: %d evaluators%s\n", pol.Name, len(pol.Evaluators), selects(pol.Select))
	for _, ev := range pol.Evaluators {
		fmt.Fprintf(stdout, "  %s (%s)%s\n", ev.Name, ev.Type, selects(ev.Select))
	}
	if c := pol.Conversations; c != nil {
		also := ""
		if c.ScoreTurns {
			also = ", each turn also scored alone"
		}
		fmt.Fprintf(stdout, "conversations joined: scored %s after their last turn, or at %d turns%s\n", c.Idle, c.MaxTurns, also)
	}
	return nil
}

func selects(s serve.Selector) string {
	if len(s) == 0 {
		return ""
	}
	var parts []string
	for _, m := range s {
		parts = append(parts, m.Key+" ~ "+strings.Join(m.Patterns, " | "))
	}
	return ", on traces where " + strings.Join(parts, " and ")
}

// httpServer is the OTLP/HTTP server of h. Slow clients are cut off, so
// that none holds a connection, and what its request was charged, for
// long: headers within 10 s, the whole request within 30 s (the gRPC
// server's serve.Config.ReadTimeout), the answer within 30 s.
func httpServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}
