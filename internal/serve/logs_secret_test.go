package serve_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/serve"
)

const logsToken = "otlp-token-0123456789abcdef"

// leaksToken reports whether text holds a run of 8 bytes of logsToken.
func leaksToken(text string) bool {
	for i := 0; i+8 <= len(logsToken); i++ {
		if strings.Contains(text, logsToken[i:i+8]) {
			return true
		}
	}
	return false
}

// The exporter's header values are secrets: an endpoint's answer that
// quotes them does not put them in the log.
func TestLogExporter_headersNeverLogged(t *testing.T) {
	tests := []struct {
		name   string
		answer func(w http.ResponseWriter)
		reason string
	}{
		{"status", answerStatus(401, "bad header Authorization: Bearer "+logsToken), "a refusal that quotes the header"},
		{"partial", answerPartial(1, "x-api-key "+logsToken[:12]+" is rate limited"), "a part of a header value in a partial success"},
		{"text", func(w http.ResponseWriter) { w.WriteHeader(403); w.Write([]byte("denied " + logsToken)) }, "a plain-text body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep := newEndpoint(t, tt.answer)
			var log rows
			logs := serve.NewLogExporter(serve.LogConfig{URL: ep.URL, Backoff: time.Millisecond,
				Header: http.Header{"Authorization": {"Bearer " + logsToken}, "X-Api-Key": {logsToken}},
				Log:    slog.New(slog.NewTextHandler(&log, nil))})
			scoreGenai(t, logs)
			if !strings.Contains(log.String(), "dropped evaluation events") {
				t.Fatalf("%s: nothing logged:\n%s", tt.reason, log.String())
			}
			if leaksToken(log.String()) {
				t.Errorf("%s: the log holds the header value:\n%s", tt.reason, log.String())
			}
		})
	}
}

// A redirect to another host is refused: the configured headers (an
// x-api-key, which Go's client would keep) go nowhere else, and the
// refusal is not retried.
func TestLogExporter_redirectToAnotherHost(t *testing.T) {
	got := make(chan string, 8)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("X-Api-Key")
	}))
	defer other.Close()
	ou, _ := url.Parse(other.URL)
	ep := newEndpoint(t, func(w http.ResponseWriter) {
		w.Header().Set("Location", "http://localhost:"+ou.Port()+"/v1/logs")
		w.WriteHeader(http.StatusTemporaryRedirect)
	})
	var log rows
	logs := serve.NewLogExporter(serve.LogConfig{URL: ep.URL, Retry: time.Minute, Backoff: time.Millisecond,
		Header: http.Header{"X-Api-Key": {logsToken}}, Log: slog.New(slog.NewTextHandler(&log, nil))})
	m := scoreGenai(t, logs)
	select {
	case k := <-got:
		t.Errorf("the other host received the events, x-api-key %q", k)
	default:
	}
	if !strings.Contains(m, `trajeval_serve_log_records_dropped_total{reason="rejected"} 3`+"\n") {
		t.Errorf("want the events dropped as rejected:\n%s", m)
	}
	if n := len(ep.attempts()); n != 1 {
		t.Errorf("%d requests: a refused redirect is not retried", n)
	}
	if !strings.Contains(log.String(), "redirected to another host") {
		t.Errorf("the refusal is not logged:\n%s", log.String())
	}
}

// A key in the endpoint's query (?key=, as Google's endpoints take it) is
// a secret too: the client's errors quote the URL whole.
func TestLogExporter_urlKeyNeverLogged(t *testing.T) {
	ln := newEndpoint(t, func(w http.ResponseWriter) {})
	u := ln.URL + "?key=" + logsToken
	ln.Close() // refused: the error quotes the URL
	var log rows
	logs := serve.NewLogExporter(serve.LogConfig{URL: u, Retry: time.Millisecond, Backoff: time.Millisecond,
		Log: slog.New(slog.NewTextHandler(&log, nil))})
	scoreGenai(t, logs)
	if !strings.Contains(log.String(), "connection refused") {
		t.Fatalf("nothing logged of the refused connection:\n%s", log.String())
	}
	if leaksToken(log.String()) {
		t.Errorf("the log holds the URL's key:\n%s", log.String())
	}
}
