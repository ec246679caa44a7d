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

// startServe runs trajeval serve with f on free ports until cancel, sends
// it the genai trace, and returns what runServe returns, and its stderr.
func startServe(t *testing.T, f serveFlags) (cancel func(), done <-chan error, stderr *syncBuffer) {
	t.Helper()
	trace, err := os.ReadFile("../../internal/format/otlp/testdata/otlp/genai.json")
	if err != nil {
		t.Fatal(err)
	}
	f.http, f.grpc = "127.0.0.1:0", "127.0.0.1:0"
	f.grace, f.idle, f.shutdown = time.Hour, time.Hour, time.Minute
	f.queue, f.maxSpans, f.maxRequestBytes, f.maxBytes, f.outBacklog, f.logsBacklog = 8, 1000, 1<<20, 2<<20, 1<<20, 100
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- runServe(ctx, "../../internal/serve/testdata/policy.yaml", f, pw)
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
		t.Fatalf("no address: %v", <-errc)
	}
	stderr = &syncBuffer{}
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(stderr, pr)
		copied <- err
	}()
	resp, err := http.Post(url+"/v1/traces", "application/json", bytes.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// done is runServe's error, once its stderr is all read.
	d := make(chan error, 1)
	go func() {
		err := <-errc
		<-copied
		d <- err
	}()
	return cancel, d, stderr
}

// TestServe runs trajeval serve on free ports, sends it a trace, and
// stops it as SIGTERM does: the trace is scored at shutdown and its row
// is in --out.
func TestServe(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	cancel, done, _ := startServe(t, serveFlags{out: out})
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

// TestServe_fullDisk writes --out to /dev/full, a disk always full: the
// row is not lost but written to stderr at exit, and the exit says so.
func TestServe_fullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	cancel, done, stderr := startServe(t, serveFlags{out: "/dev/full"})
	cancel()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "1 result rows could not be written to /dev/full") {
		t.Errorf("exit: %v, want the count of rows not written", err)
	}
	var row struct{ ID string }
	for line := range strings.Lines(stderr.String()) {
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &row) == nil {
			break
		}
	}
	if row.ID != "5b8efff798038103d269b633813fc60c" {
		t.Errorf("the row is not on stderr:\n%s", stderr.String())
	}
}

// TestHTTPServer_slowClients checks that the OTLP/HTTP server cuts slow
// clients off: a client that sends its headers or its body a byte at a
// time, or never reads the answer, would otherwise hold its connection,
// and what its request was charged, as long as it liked.
func TestHTTPServer_slowClients(t *testing.T) {
	hs := httpServer(http.NotFoundHandler())
	tests := []struct {
		name   string
		got    time.Duration
		reason string
	}{
		{"ReadHeaderTimeout", hs.ReadHeaderTimeout, "headers sent slowly"},
		{"ReadTimeout", hs.ReadTimeout, "a body sent slowly"},
		{"WriteTimeout", hs.WriteTimeout, "an answer never read"},
		{"IdleTimeout", hs.IdleTimeout, "a kept-alive connection left open"},
	}
	for _, tt := range tests {
		if tt.got <= 0 || tt.got > 2*time.Minute {
			t.Errorf("%s = %v, want a bound of at most two minutes (%s)", tt.name, tt.got, tt.reason)
		}
	}
	if hs.MaxHeaderBytes <= 0 || hs.MaxHeaderBytes > 64<<10 {
		t.Errorf("MaxHeaderBytes = %d, want at most 64 KiB", hs.MaxHeaderBytes)
	}
}
