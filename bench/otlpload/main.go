// Command otlpload sends agent traces to a trajeval serve (or any OTLP/HTTP
// receiver) as fast as it takes them, and stops by itself: after -traces
// traces or -duration, whichever comes first.
//
//	trajeval serve bench/otlpload/policy.yaml --out rows.jsonl &
//	go run ./bench/otlpload -traces 20000 -duration 30s -metrics http://127.0.0.1:4318/metrics
//
// Each trace is one agent turn: an invoke_agent root span, -tools
// execute_tool spans (get_weather, book_hotel, ...) and a chat span per
// tool, with real timestamps (the root ends when the trace is sent), so
// the server's latency histogram measures root end to result. Requests
// hold -batch whole traces, protobuf, sent by -concurrency workers; a 429
// is retried after its Retry-After and counted.
//
// With -metrics, it then waits (at most -wait) until the server has
// scored every trace sent, and prints the server's figures: traces
// scored per second over the run, and the latency quantiles read from the
// histogram trajeval_serve_result_latency_seconds (each an upper bound:
// the bucket the quantile falls in).
//
// With -logs, it is also the OTLP/HTTP logs receiver the results go to
// (a Collector with the trajeval connector exporting to
// http://ADDR/v1/logs): it waits (at most -wait) until every trace sent
// has its gen_ai.evaluation.result events, and prints how many traces
// were scored, scored more than once and never scored, the traces per
// second scored, and the exact latency quantiles from a trace's root
// span end to the arrival of its results. bench/otelcol-tier.sh runs it
// against three Collectors.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:4318/v1/traces", "OTLP/HTTP traces endpoint")
	metrics := flag.String("metrics", "", "the server's /metrics, to wait for the results and print its figures")
	total := flag.Int("traces", 10000, "traces to send at most")
	duration := flag.Duration("duration", 30*time.Second, "time to send for at most")
	wait := flag.Duration("wait", 60*time.Second, "time to wait for the results at most")
	tools := flag.Int("tools", 5, "tool calls per trace")
	batch := flag.Int("batch", 10, "traces per request")
	conc := flag.Int("concurrency", 4, "requests in flight")
	token := flag.String("token", os.Getenv("TRAJEVAL_TOKEN"), "bearer token")
	logs := flag.String("logs", "", "an address to receive the results on over OTLP/HTTP, e.g. 127.0.0.1:4319")
	flag.Parse()

	var res *results
	if *logs != "" {
		var err error
		if res, err = listen(*logs); err != nil {
			log.Fatal(err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()
	var next, sent, refused, failed atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				first := next.Add(int64(*batch)) - int64(*batch)
				n := min(int64(*batch), int64(*total)-first)
				if n <= 0 {
					return
				}
				td := traces(uint64(w), uint64(first), int(n), *tools)
				res.sending(td)
				body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
				if err != nil {
					log.Fatal(err)
				}
				for ctx.Err() == nil {
					code, retry := post(ctx, *url, *token, body)
					if code == http.StatusOK {
						sent.Add(n)
						break
					}
					if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
						refused.Add(1)
						time.Sleep(retry)
						continue
					}
					failed.Add(n)
					break
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	fmt.Printf("sent %d traces (%d spans each) in %.1fs: %.0f traces/s; %d requests refused and retried, %d traces failed\n",
		sent.Load(), 2+2**tools, elapsed.Seconds(), float64(sent.Load())/elapsed.Seconds(), refused.Load(), failed.Load())
	if res != nil {
		res.report(start, int(sent.Load()), *wait)
	}
	if *metrics == "" {
		return
	}
	deadline := time.Now().Add(*wait)
	for {
		m, err := scrape(*metrics, *token)
		if err != nil {
			log.Fatal(err)
		}
		scored := m.sum("trajeval_serve_traces_scored_total")
		if scored >= float64(sent.Load()) || time.Now().After(deadline) {
			all := time.Since(start)
			fmt.Printf("server scored %.0f traces in %.1fs from the first request: %.0f traces/s\n", scored, all.Seconds(), scored/all.Seconds())
			for _, q := range []float64{0.5, 0.9, 0.99} {
				fmt.Printf("latency root end → result p%g ≤ %s\n", q*100, m.quantile("trajeval_serve_result_latency_seconds", q))
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// traces builds n traces, numbered from first, for worker w.
func traces(w, first uint64, n, tools int) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "checkout")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	now := time.Now()
	names := []string{"get_weather", "search_flights", "book_hotel", "get_time", "convert"}
	for i := range uint64(n) {
		var tid [16]byte
		putUint64(tid[:8], w+1)
		putUint64(tid[8:], first+i+1)
		begin := now.Add(-time.Duration(tools+1) * 100 * time.Millisecond)
		sid := func(k uint64) pcommon.SpanID {
			var b [8]byte
			putUint64(b[:], k+1)
			return b
		}
		root := spans.AppendEmpty()
		root.SetTraceID(tid)
		root.SetSpanID(sid(0))
		root.SetName("invoke_agent billing")
		root.SetStartTimestamp(pcommon.NewTimestampFromTime(begin))
		root.SetEndTimestamp(pcommon.NewTimestampFromTime(now))
		root.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
		root.Attributes().PutStr("gen_ai.agent.name", "billing-eu")
		for k := range tools {
			at := begin.Add(time.Duration(k) * 100 * time.Millisecond)
			chat := spans.AppendEmpty()
			chat.SetTraceID(tid)
			chat.SetSpanID(sid(uint64(1 + 2*k)))
			chat.SetParentSpanID(sid(0))
			chat.SetName("chat gpt-4o")
			chat.SetStartTimestamp(pcommon.NewTimestampFromTime(at))
			chat.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(40 * time.Millisecond)))
			a := chat.Attributes()
			a.PutStr("gen_ai.operation.name", "chat")
			a.PutInt("gen_ai.usage.input_tokens", 900)
			a.PutInt("gen_ai.usage.output_tokens", 60)
			tool := spans.AppendEmpty()
			tool.SetTraceID(tid)
			tool.SetSpanID(sid(uint64(2 + 2*k)))
			tool.SetParentSpanID(sid(0))
			name := names[k%len(names)]
			tool.SetName("execute_tool " + name)
			tool.SetStartTimestamp(pcommon.NewTimestampFromTime(at.Add(50 * time.Millisecond)))
			tool.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(90 * time.Millisecond)))
			a = tool.Attributes()
			a.PutStr("gen_ai.operation.name", "execute_tool")
			a.PutStr("gen_ai.tool.name", name)
			a.PutStr("gen_ai.tool.call.id", fmt.Sprintf("call_%d", k))
			a.PutStr("gen_ai.tool.call.arguments", fmt.Sprintf(`{"city":"Paris","n":%d}`, k))
			a.PutStr("gen_ai.tool.call.result", `{"ok":true}`)
		}
	}
	return td
}

func putUint64(b []byte, v uint64) {
	for i := 7; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
}

// post sends body and returns the status code and, for a refusal, how
// long to wait.
func post(ctx context.Context, url, token string, body []byte) (int, time.Duration) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, 0
		}
		log.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	retry := 100 * time.Millisecond
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		retry = time.Duration(s) * time.Second
	}
	return resp.StatusCode, retry
}

// samples are the lines of a Prometheus text exposition, by series.
type samples map[string]float64

func scrape(url, token string) (samples, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	m := samples{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			m[line[:i]] = v
		}
	}
	return m, sc.Err()
}

// sum adds every series of the metric name.
func (m samples) sum(name string) float64 {
	var s float64
	for k, v := range m {
		if k == name || strings.HasPrefix(k, name+"{") {
			s += v
		}
	}
	return s
}

// quantile returns the upper bound of the bucket where quantile q of the
// histogram name falls.
func (m samples) quantile(name string, q float64) string {
	count := m[name+"_count"]
	if count == 0 {
		return "n/a"
	}
	best := math.Inf(1)
	for k, v := range m {
		le, ok := strings.CutPrefix(k, name+`_bucket{le="`)
		if !ok || v < q*count {
			continue
		}
		b, err := strconv.ParseFloat(strings.TrimSuffix(le, `"}`), 64)
		if err == nil && b < best {
			best = b
		}
	}
	if math.IsInf(best, 1) {
		return "+Inf"
	}
	return (time.Duration(best * float64(time.Second))).String()
}
