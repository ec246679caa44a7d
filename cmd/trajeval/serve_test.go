package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServe runs trajeval serve on free ports, sends it a trace, and
// stops it as SIGTERM does: the trace is scored at shutdown and its row
// is in --out.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rows.jsonl")
	trace, err := os.ReadFile("../../internal/format/otlp/testdata/otlp/genai.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, "../../internal/serve/testdata/policy.yaml", serveFlags{http: "127.0.0.1:0", grpc: "127.0.0.1:0", out: out,
			grace: time.Hour, idle: time.Hour, shutdown: time.Minute, queue: 8, maxSpans: 1000, maxRequestBytes: 1 << 20}, pw)
		pw.Close()
	}()
	addr := regexp.MustCompile(`OTLP/HTTP listening"? addr=(\S+)`)
	sc := bufio.NewScanner(pr)
	var url string
	for url == "" && sc.Scan() {
		if m := addr.FindStringSubmatch(sc.Text()); m != nil {
			url = "http://" + m[1]
		}
	}
	if url == "" {
		t.Fatalf("no address: %v", <-done)
	}
	go io.Copy(io.Discard, pr)
	resp, err := http.Post(url+"/v1/traces", "application/json", bytes.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var row struct {
		ID, Status string
	}
	if err := json.Unmarshal(data, &row); err != nil || strings.Count(string(data), "\n") != 1 {
		t.Fatalf("want one row, got %q (%v)", data, err)
	}
	if row.ID != "5b8efff798038103d269b633813fc60c" || row.Status != "fail" {
		t.Errorf("row %+v, want the trace's id and status fail", row)
	}
}
