package judge_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/judge"
	"github.com/trajeval/trajeval/internal/judge/judgetest"
	"github.com/trajeval/trajeval/internal/secret"
)

// askReasoning asks j and returns the answer's reasoning.
func askReasoning(t *testing.T, j *judge.Judge) (string, error) {
	t.Helper()
	req := judge.Request{SchemaName: "verdict", Schema: scoreSchema, Messages: []judge.Message{
		{Role: "system", Content: judge.System("judge", scoreSchema)}, {Role: "user", Content: "x"}}}
	var why string
	_, _, err := j.Ask(context.Background(), req, func(v map[string]any) error {
		why = judge.Text(v, "reasoning")
		_, err := judge.Score(v, "score", 0, 1)
		return err
	})
	return why, err
}

func TestClient_keyNeverInAnswers(t *testing.T) {
	tests := []struct {
		name   string
		answer func(judgetest.Chat) string
		reason string
	}{
		{"quoted header", judgetest.QuoteHeaders, "a judge that repeats the request's Authorization header"},
		{"escaped", func(judgetest.Chat) string {
			return `{"score": 1, "reasoning": "key \u0073k-test-SECRET-0123456789"}`
		}, "the key spelt with a JSON escape, which only the parsed answer shows"},
		{"a part", func(judgetest.Chat) string {
			return judgetest.Verdict(1, "partly "+judgetest.Key[3:15])
		}, "8 bytes of the key are already too many"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := judgetest.New(t, tt.answer)
			rt := newRuntime(t, srv, &waits{})
			for _, try := range []string{"asked", "cached"} {
				why, err := askReasoning(t, newJudge(t, rt))
				if err != nil {
					t.Fatal(err)
				}
				if judgetest.Leaks(why) || !strings.Contains(why, secret.Marker) {
					t.Errorf("%s: reasoning %q: want the key scrubbed (%s)", try, why, tt.reason)
				}
			}
			if srv.Requests() != 1 {
				t.Errorf("%d requests, want 1 and then the cache", srv.Requests())
			}
		})
	}
}

// An error message longer than the 300 bytes kept, with the key across
// the cut, keeps no 8-byte run of the key.
func TestClient_keyAcrossTheCut(t *testing.T) {
	for _, at := range []int{280, 290, 295, 299} {
		srv := judgetest.New(t, func(judgetest.Chat) string { return "" })
		msg := strings.Repeat("x", at) + judgetest.Key + " and more"
		srv.Fail(judgetest.Fault{Status: 401, Body: `{"error": {"message": "` + msg + `"}}`})
		_, err := ask(context.Background(), newJudge(t, newRuntime(t, srv, &waits{})), "x")
		if err == nil || judgetest.Leaks(err.Error()) {
			t.Errorf("key at %d: error %v: want no 8-byte run of the key", at, err)
		}
		var se *judge.StatusError
		if !errors.As(err, &se) || se.Code != 401 || judgetest.Leaks(se.Msg) {
			t.Errorf("key at %d: want a StatusError 401 with its message scrubbed, got %#v", at, err)
		}
	}
}

// An Azure endpoint that redirects to another host does not get its
// api-key header sent there (Go's client keeps it, dropping only
// Authorization), and the refusal is not retried.
func TestClient_redirectToAnotherHost(t *testing.T) {
	got := make(chan string, 8)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("api-key")
		io.WriteString(w, `{"choices": [{"message": {"content": "{\"score\": 1}"}}]}`)
	}))
	defer other.Close()
	ou, _ := url.Parse(other.URL)
	var asked int
	azure := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		http.Redirect(w, r, "http://localhost:"+ou.Port()+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer azure.Close()
	to, _ := url.Parse(azure.URL)
	env := map[string]string{
		"TRAJEVAL_JUDGE_BASE_URL":    "https://acme.openai.azure.com/openai/deployments/judge",
		"TRAJEVAL_JUDGE_API_KEY":     judgetest.Key,
		"TRAJEVAL_JUDGE_API_VERSION": "2024-10-21",
		"TRAJEVAL_JUDGE_MODEL":       "gpt-4o-mini",
	}
	rt := &judge.Runtime{Getenv: func(k string) string { return env[k] }, NoCache: true, Sleep: (&waits{}).sleep,
		HTTP: &http.Client{Transport: azureOnly{to}}}
	_, err := ask(context.Background(), newJudge(t, rt), "x")
	if !errors.Is(err, secret.ErrOtherHost) {
		t.Errorf("error %v: want the redirect refused", err)
	}
	select {
	case k := <-got:
		t.Errorf("the other host received a request, api-key %q", k)
	default:
	}
	if asked != 1 {
		t.Errorf("the endpoint was asked %d times: a refused redirect is not retried", asked)
	}
}

// azureOnly sends requests for the Azure host to a test server, and the
// others where they go.
type azureOnly struct{ to *url.URL }

func (a azureOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Hostname(), ".openai.azure.com") {
		req = req.Clone(req.Context())
		req.URL.Scheme, req.URL.Host = a.to.Scheme, a.to.Host
	}
	return http.DefaultTransport.RoundTrip(req)
}
