package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// results is an OTLP/HTTP logs receiver that matches the
// gen_ai.evaluation.result events to the traces sent.
type results struct {
	mu      sync.Mutex
	rootEnd map[pcommon.TraceID]time.Time // of every trace sent
	first   map[pcommon.TraceID]time.Time // when its first results came
	times   map[pcommon.TraceID]int       // how many times it was scored
	last    time.Time                     // when the last results came
	unknown int                           // results of traces never sent
}

// listen serves the receiver on addr, at /v1/logs.
func listen(addr string) (*results, error) {
	r := &results{rootEnd: map[pcommon.TraceID]time.Time{}, first: map[pcommon.TraceID]time.Time{},
		times: map[pcommon.TraceID]int{}}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/logs", r.serve)
	go http.Serve(l, mux)
	return r, nil
}

// sending records the root span end of each trace of td; a nil r does
// nothing.
func (r *results) sending(td ptrace.Traces) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	for i := 0; i < spans.Len(); i++ {
		if sp := spans.At(i); sp.ParentSpanID().IsEmpty() {
			r.rootEnd[sp.TraceID()] = sp.EndTimestamp().AsTime()
		}
	}
}

func (r *results) serve(w http.ResponseWriter, req *http.Request) {
	now := time.Now()
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
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
	er := plogotlp.NewExportRequest()
	if err := er.UnmarshalProto(data); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	// The connector sends one resource per scored trace.
	rls := er.Logs().ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		seen := map[pcommon.TraceID]bool{}
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			recs := sls.At(j).LogRecords()
			for k := 0; k < recs.Len(); k++ {
				seen[recs.At(k).TraceID()] = true
			}
		}
		for id := range seen {
			if _, ok := r.rootEnd[id]; !ok {
				r.unknown++
				continue
			}
			if r.times[id] == 0 {
				r.first[id] = now
			}
			r.times[id]++
			r.last = now
		}
	}
	r.mu.Unlock()
	resp, _ := plogotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(resp)
}

// report waits (at most wait) until every one of the sent traces has its
// results, and prints the figures.
func (r *results) report(start time.Time, sent int, wait time.Duration) {
	deadline := time.Now().Add(wait)
	for {
		r.mu.Lock()
		done := len(r.times) >= sent
		r.mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second) // results scored twice come late
	r.mu.Lock()
	defer r.mu.Unlock()
	twice := 0
	var lat []time.Duration
	for id, n := range r.times {
		if n > 1 {
			twice++
		}
		lat = append(lat, r.first[id].Sub(r.rootEnd[id]))
	}
	slices.Sort(lat)
	span := r.last.Sub(start)
	fmt.Printf("results: %d of %d traces scored, %d more than once, %d never, %d results of unknown traces\n",
		len(r.times), len(r.rootEnd), twice, len(r.rootEnd)-len(r.times), r.unknown)
	if len(lat) == 0 {
		return
	}
	fmt.Printf("scored %d traces in %.1fs from the first request: %.0f traces/s\n",
		len(r.times), span.Seconds(), float64(len(r.times))/span.Seconds())
	for _, q := range []float64{0.5, 0.9, 0.99} {
		fmt.Printf("latency root end → results p%g = %v\n", q*100, lat[int(q*float64(len(lat)-1))].Round(time.Millisecond))
	}
}
