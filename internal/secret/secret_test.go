package secret_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/secret"
)

const key = "sk-test-SECRET-0123456789"

func TestScrubber_String(t *testing.T) {
	tests := []struct {
		name    string
		secrets []string
		text    string
		want    string
		reason  string
	}{
		{"whole", []string{key}, "Authorization: Bearer " + key + ".", "Authorization: Bearer [secret].",
			"a judge that quotes the request's header"},
		{"prefix across a cut", []string{key}, "…" + key[:20] + "…", "…[secret]…",
			"a message cut inside the key keeps no 8-byte run of it"},
		{"suffix", []string{key}, key[10:] + " tail", "[secret] tail", "the end of the key alone"},
		{"middle", []string{key}, "x" + key[5:13] + "y", "x[secret]y", "any 8 bytes of the key"},
		{"seven bytes", []string{key}, key[:7] + " " + key[9:16], key[:7] + " " + key[9:16],
			"runs shorter than a window are not the key"},
		{"twice", []string{key}, key + " and " + key, "[secret] and [secret]", "every occurrence"},
		{"two secrets side by side", []string{key, "another-header-value"}, key + "another-header-value",
			"[secret]", "one maximal run, however many secrets cover it"},
		{"short secret", []string{"t0k3n"}, "token t0k3n used", "token [secret] used", "4 to 7 bytes: replaced whole"},
		{"tiny secret", []string{"abc"}, "abc", "abc", "under 4 bytes cannot be told from text"},
		{"no secret", []string{""}, "Bearer " + key, "Bearer " + key, "empty secrets are ignored"},
		{"utf-8", []string{"clé-secrète-été"}, "é" + "lé-secrète-é" + "x", "é[secret]x",
			"a run starting inside a character widens to the whole character"},
		{"short text", []string{key}, "sk-", "sk-", "text under a window"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := secret.NewScrubber(tt.secrets...).String(tt.text)
			if got != tt.want {
				t.Errorf("String(%q) = %q, want %q: %s", tt.text, got, tt.want, tt.reason)
			}
			if !utf8.ValidString(got) {
				t.Errorf("String(%q) = %q is not valid UTF-8", tt.text, got)
			}
		})
	}
}

func TestScrubber_Error(t *testing.T) {
	base := errors.New("base")
	s := secret.NewScrubber(key)
	err := s.Error(fmt.Errorf("the endpoint said %s: %w", key, base))
	if strings.Contains(err.Error(), key[:8]) || !strings.Contains(err.Error(), "[secret]") {
		t.Errorf("Error() = %q, want the key scrubbed", err)
	}
	if !errors.Is(err, base) {
		t.Errorf("a scrubbed error must still unwrap to what it wraps")
	}
	clean := errors.New("nothing to hide")
	if s.Error(clean) != clean {
		t.Errorf("an error without secrets is returned as it is")
	}
	if s.Error(nil) != nil {
		t.Errorf("nil stays nil")
	}
}

func TestScrubber_Value(t *testing.T) {
	v := map[string]any{"reasoning": "saw " + key, key: []any{"x" + key, 1.0, map[string]any{"k": key}}}
	got := secret.NewScrubber(key).Value(v)
	if s := fmt.Sprint(got); strings.Contains(s, key[:8]) {
		t.Errorf("Value left the key: %s", s)
	}
}

func TestScrubber_nil(t *testing.T) {
	var s *secret.Scrubber
	if s.String(key) != key || secret.NewScrubber("", "ab") != nil {
		t.Errorf("no secrets scrub nothing")
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc…"},
		{"aéb", 2, "a…"},
	}
	for _, tt := range tests {
		if got := secret.Cut(tt.text, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q (cut on characters)", tt.text, tt.n, got, tt.want)
		}
	}
}

func TestURLSecrets(t *testing.T) {
	tests := []struct {
		url    string
		want   string
		reason string
	}{
		{"https://user:p4ssw0rd-long@host/v1", "[p4ssw0rd-long]", "the password of the user information"},
		{"https://host/v1", "[]", "no user, no query"},
		{"https://user@host/v1", "[]", "a user without a password"},
		{"https://host/v1beta/openai?key=AIzaSyD-long-key", "[AIzaSyD-long-key]", "Google's ?key="},
		{"https://host/v1?api-version=2024-02-01&api_key=abcd1234efgh", "[abcd1234efgh]", "a credential's value only: an API version is ordinary text"},
		{"https://u:pw123456@host/v1?access_token=tok-98765432&Sig=s1g-abcdefgh", "[pw123456 s1g-abcdefgh tok-98765432]", "every credential, names in any case"},
		{"https://host/v1?key=", "[]", "an empty value is no secret"},
		{"::not a url", "[]", "nothing from what is not a URL"},
		{"https://host/v1?sv=2024&sig=Xy7k%2BP9q%2FR2m%2BN4v%3D", "[Xy7k%2BP9q%2FR2m%2BN4v%3D Xy7k+P9q/R2m+N4v=]", "a signature as the URL spells it, escaped, which errors quote, and as it is sent"},
		{"https://host/v1?key=abc+def+ghi+jkl", "[abc def ghi jkl abc+def+ghi+jkl]", "a plus in a query is a space"},
		{"https://host/v1?key=long-key-%zz-cannot-be-unescaped&x=1", "[long-key-%zz-cannot-be-unescaped]", "a value that does not unescape is sent as written all the same"},
		{"https://host/v1?a%70i_key=abcd1234efgh", "[abcd1234efgh]", "an escaped name"},
		{"https://host/v1?x=1;token=tok-98765432", "[tok-98765432]", "pairs split at a semicolon too, which url.Query drops"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			got := secret.URLSecrets(tt.url)
			slices.Sort(got)
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("URLSecrets = %s, want %s (%s)", s, tt.want, tt.reason)
			}
			// As net/http quotes the URL in its errors: no credential
			// survives, escaped or not.
			msg := secret.NewScrubber(got...).String(fmt.Sprintf("Post %q: connection refused", tt.url))
			if u, err := url.Parse(tt.url); err == nil {
				for _, pair := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
					name, value, _ := strings.Cut(pair, "=")
					if n, _ := url.QueryUnescape(name); strings.Contains(strings.ToLower(n), "key") || strings.Contains(n, "sig") || strings.Contains(n, "token") {
						for i := 0; i+secret.Window <= len(value); i++ {
							if strings.Contains(msg, value[i:i+secret.Window]) {
								t.Errorf("scrubbed %q: %q of the credential %q survives (%s)", msg, value[i:i+secret.Window], value, tt.reason)
								break
							}
						}
					}
				}
			}
		})
	}
}

func TestKeepHost(t *testing.T) {
	tests := []struct {
		from, to string
		ok       bool
		reason   string
	}{
		{"http://127.0.0.1:80/a", "http://127.0.0.1/b", true, "the same origin, default port spelt or not"},
		{"http://Judge.example/a", "http://judge.example/b", true, "host names are case-insensitive"},
		{"http://judge.example/a", "https://judge.example/b", true, "an upgrade to TLS on the same host"},
		{"https://judge.example/a", "http://judge.example/b", false, "a downgrade would send the key in clear"},
		{"http://127.0.0.1:8080/a", "http://127.0.0.1:9090/b", false, "another port is another service"},
		{"https://acme.openai.azure.com/a", "https://evil.example/b", false, "another host"},
		{"https://example.com/a", "https://api.example.com/b", false, "a subdomain is another host too"},
	}
	for _, tt := range tests {
		t.Run(tt.from+" to "+tt.to, func(t *testing.T) {
			from, _ := http.NewRequest("POST", tt.from, nil)
			to, _ := http.NewRequest("POST", tt.to, nil)
			err := secret.KeepHost(to, []*http.Request{from})
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, secret.ErrOtherHost)) {
				t.Errorf("KeepHost = %v, want ok %v: %s", err, tt.ok, tt.reason)
			}
		})
	}
}

// A redirect to another loopback host must not carry the api-key header:
// Go's client would drop Authorization but keep it.
func TestKeepHost_client(t *testing.T) {
	got := make(chan http.Header, 1)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Clone()
	}))
	defer other.Close()
	u, _ := url.Parse(other.URL)
	elsewhere := "http://localhost:" + u.Port() // another host name for the same listener
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+"/next", http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	req, _ := http.NewRequest(http.MethodPost, first.URL, strings.NewReader("{}"))
	req.Header.Set("api-key", key)
	resp, err := (&http.Client{CheckRedirect: secret.KeepHost}).Do(req)
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if !errors.Is(err, secret.ErrOtherHost) {
		t.Errorf("Do = %v, want the redirect refused", err)
	}
	select {
	case h := <-got:
		t.Errorf("the other host received the request, api-key %q", h.Get("api-key"))
	default:
	}
}

// BenchmarkScrubber_String scrubs 1 MiB of text holding the key once, with
// the secrets of a judge and an exporter with a few headers.
func BenchmarkScrubber_String(b *testing.B) {
	s := secret.NewScrubber(key, "Bearer otlp-token-0123456789abcdef", "honeycomb-key-0123456789", "tenant-42")
	text := strings.Repeat("The judge's reasoning, at some length. ", 1<<20/40) + key
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s.String(text)
	}
}
