package judge_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trajeval/trajeval/internal/config"
	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
)

// redirect sends every request to srv, whatever its host, so hosted
// endpoints can be tested without the network.
type redirect struct{ to *url.URL }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.to.Scheme, r.to.Host
	return http.DefaultTransport.RoundTrip(req)
}

func TestClient_azure(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		io.WriteString(w, `{"choices": [{"message": {"content": "{\"score\": 1, \"reasoning\": \"ok\"}"}}]}`)
	}))
	defer srv.Close()
	to, _ := url.Parse(srv.URL)
	env := map[string]string{
		"TRAJEVAL_JUDGE_BASE_URL":    "https://acme.openai.azure.com/openai/deployments/judge",
		"TRAJEVAL_JUDGE_API_KEY":     "azure-key",
		"TRAJEVAL_JUDGE_API_VERSION": "2024-10-21",
		"TRAJEVAL_JUDGE_MODEL":       "gpt-4o-mini",
	}
	rt := &judge.Runtime{Getenv: func(k string) string { return env[k] }, NoCache: true, HTTP: &http.Client{Transport: redirect{to}}}
	if _, err := ask(context.Background(), newJudge(t, rt), "x"); err != nil {
		t.Fatal(err)
	}
	if got.URL.Path != "/openai/deployments/judge/chat/completions" || got.URL.Query().Get("api-version") != "2024-10-21" {
		t.Errorf("request to %s, want the deployment's chat completions with api-version", got.URL)
	}
	if got.Header.Get("api-key") != "azure-key" || got.Header.Get("Authorization") != "" {
		t.Errorf("headers %v: Azure takes the key in api-key, and no bearer", got.Header)
	}
}

func TestClient_cost(t *testing.T) {
	tests := []struct {
		name, answer, block string
		cost                float64
		reason              string
	}{
		{"reported", `{"choices": [{"message": {"content": "{\"score\": 1}"}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "cost": 0.25}}`, "", 0.25,
			"OpenRouter reports the cost"},
		{"priced", `{"choices": [{"message": {"content": "{\"score\": 1}"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 20}}`,
			"price: {input: 1, output: 2}", (100*1 + 20*2) / 1e6, "prices are per million tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, tt.answer) }))
			defer srv.Close()
			rt := &judge.Runtime{Getenv: func(k string) string {
				return map[string]string{"OPENAI_BASE_URL": srv.URL, "TRAJEVAL_JUDGE_MODEL": "m"}[k]
			}, NoCache: true}
			var blocks []*config.Node
			if tt.block != "" {
				n, _ := config.Parse("s.yaml", []byte(tt.block))
				blocks = append(blocks, n)
			}
			j := newJudge(t, rt, blocks...)
			_, usage, err := j.Ask(context.Background(), judge.Request{Schema: scoreSchema, Messages: []judge.Message{{Role: "user", Content: "x"}}},
				func(map[string]any) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if usage.CostUSD == nil || *usage.CostUSD != tt.cost {
				t.Errorf("cost %v, want %v (%s)", usage.CostUSD, tt.cost, tt.reason)
			}
		})
	}
}

func TestClient_keyNeverInErrors(t *testing.T) {
	srv := judgetest.New(t, func(judgetest.Chat) string { return "" })
	srv.Fail(judgetest.Fault{Status: 401, Body: `{"error": {"message": "Incorrect API key provided: ` + judgetest.Key + `"}}`})
	_, err := ask(context.Background(), newJudge(t, newRuntime(t, srv, &waits{})), "x")
	if err == nil || strings.Contains(err.Error(), judgetest.Key) || !strings.Contains(err.Error(), "401") {
		t.Errorf("error %v: want the 401 without the key", err)
	}
}

func TestClient_rateLimit(t *testing.T) {
	srv := judgetest.New(t, func(judgetest.Chat) string { return judgetest.Verdict(1, "ok") })
	w := &waits{}
	n, _ := config.Parse("s.yaml", []byte("requests_per_minute: 600"))
	j := newJudge(t, &judge.Runtime{Getenv: srv.Env(), NoCache: true, Sleep: w.sleep}, n)
	for _, p := range []string{"a", "b"} {
		if _, err := ask(context.Background(), j, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.d) != 1 || w.d[0] <= 50*time.Millisecond || w.d[0] > 100*time.Millisecond {
		t.Errorf("waits %v, want one of about 100ms before the second request (600 a minute)", w.d)
	}
}

func TestRuntime_workers(t *testing.T) {
	var inFlight, most atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		<-release
		inFlight.Add(-1)
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": `{"score": 1}`}}}})
	}))
	defer srv.Close()
	rt := &judge.Runtime{Getenv: func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": srv.URL, "TRAJEVAL_JUDGE_MODEL": "m"}[k]
	}, NoCache: true, Workers: 2}
	j := newJudge(t, rt)
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ask(context.Background(), j, strings.Repeat("x", i+1))
		}()
	}
	// Two requests arrive and block; a third could only arrive if the
	// bound did not hold, so give it a moment before releasing them.
	for inFlight.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Errorf("%d requests in flight at most, want 2 (--judge-workers 2)", m)
	}
}
