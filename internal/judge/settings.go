package judge

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/trajeval/trajeval/internal/config"
)

// ErrNoJudge says a judged evaluator has no judge to ask: no endpoint, no
// key or no model.
var ErrNoJudge = errors.New("no judge configured")

// OpenAIBaseURL is the endpoint used when a key is given and no base URL.
const OpenAIBaseURL = "https://api.openai.com/v1"

// Output modes: how the judge is asked for JSON.
const (
	OutputAuto       = "auto"        // json_schema, then none if the server refuses it
	OutputJSONSchema = "json_schema" // response_format json_schema, strict
	OutputJSONObject = "json_object" // response_format json_object
	OutputText       = "text"        // no response_format; the answer is parsed tolerantly
)

// Settings say which judge to ask and how. The key is never written
// anywhere: not in results, logs, cache entries or errors.
type Settings struct {
	BaseURL    string
	Model      string
	APIKey     string
	APIVersion string // Azure OpenAI's api-version query parameter
	// Temperature is sent when not nil (default 0, for repeatable answers).
	Temperature *float64
	MaxTokens   int           // 0: the server's default
	Timeout     time.Duration // per request (default 60s)
	MaxRetries  int           // after the first try, for 429, 5xx and timeouts (default 3)
	// RequestsPerMinute spaces requests to this endpoint; 0 is unlimited.
	RequestsPerMinute float64
	Output            string // an Output mode (default auto)
	// PriceInput and PriceOutput are USD per million tokens, for a cost
	// when the server reports none.
	PriceInput, PriceOutput float64
	keyVar                  string // the variable a judge: block takes the key from
}

// Keys are the keys of a judge: block.
var Keys = []string{"base_url", "model", "api_key_env", "api_version", "temperature", "max_tokens", "timeout",
	"max_retries", "requests_per_minute", "output", "price"}

// The environment variables a judge is configured from.
const (
	EnvKey     = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
	EnvModel   = "TRAJEVAL_JUDGE_MODEL"
)

func defaults() Settings {
	zero := 0.0
	return Settings{Temperature: &zero, Timeout: 60 * time.Second, MaxRetries: 3, Output: OutputAuto}
}

// Resolve builds the settings of one evaluator's judge, from weakest to
// strongest:
//  1. the defaults (temperature 0, timeout 60s, 3 retries, output auto);
//  2. OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_API_VERSION;
//  3. the suite's judge: block, then the evaluator's own judge: block
//     (blocks may be nil);
//  4. TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL, TRAJEVAL_JUDGE_MODEL
//     and TRAJEVAL_JUDGE_API_VERSION.
//
// A block names the variable that holds its key (api_key_env), never the
// key itself. Resolve reports mistakes in a block as configuration errors;
// missing credentials are reported by [Settings.Check].
func Resolve(getenv func(string) string, blocks ...*config.Node) (Settings, error) {
	s := defaults()
	setIf(&s.APIKey, getenv(EnvKey))
	setIf(&s.BaseURL, getenv(EnvBaseURL))
	setIf(&s.APIVersion, getenv("OPENAI_API_VERSION"))
	for _, b := range blocks {
		if b == nil {
			continue
		}
		if err := s.apply(b, getenv); err != nil {
			return s, err
		}
	}
	setIf(&s.APIKey, getenv("TRAJEVAL_JUDGE_API_KEY"))
	setIf(&s.BaseURL, getenv("TRAJEVAL_JUDGE_BASE_URL"))
	setIf(&s.Model, getenv(EnvModel))
	setIf(&s.APIVersion, getenv("TRAJEVAL_JUDGE_API_VERSION"))
	if s.BaseURL == "" && s.APIKey != "" {
		s.BaseURL = OpenAIBaseURL
	}
	s.BaseURL = strings.TrimRight(s.BaseURL, "/")
	return s, nil
}

func setIf(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// apply reads one judge: block over s.
func (s *Settings) apply(b *config.Node, getenv func(string) string) error {
	if b.Kind != config.Map {
		return b.Errorf("judge must be a map (base_url, model, api_key_env, …), got %s", b.Kind)
	}
	if err := b.Check(Keys...); err != nil {
		return err
	}
	var err error
	str := func(key string, dst *string) {
		if v := b.Get(key); v != nil && err == nil {
			*dst, err = v.Str()
		}
	}
	str("base_url", &s.BaseURL)
	str("model", &s.Model)
	str("api_version", &s.APIVersion)
	if v := b.Get("api_key_env"); v != nil && err == nil {
		var name string
		if name, err = v.Str(); err == nil {
			s.APIKey, s.keyVar = getenv(name), name
		}
	}
	if v := b.Get("base_url"); v != nil && err == nil {
		if u, perr := url.Parse(s.BaseURL); perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return v.Errorf("base_url %q is not an http(s) URL", s.BaseURL).With("e.g. http://localhost:11434/v1")
		}
	}
	if v := b.Get("temperature"); v != nil && err == nil {
		if v.Kind == config.Null {
			s.Temperature = nil
		} else {
			var f float64
			if f, err = v.NonNegative(); err == nil {
				s.Temperature = &f
			}
		}
	}
	intKey := func(key string, dst *int) {
		if v := b.Get(key); v != nil && err == nil {
			var i int64
			if i, err = v.Int(); err == nil && i < 0 {
				err = v.Errorf("%s must not be negative", key)
			}
			*dst = int(i)
		}
	}
	intKey("max_tokens", &s.MaxTokens)
	intKey("max_retries", &s.MaxRetries)
	if v := b.Get("timeout"); v != nil && err == nil {
		s.Timeout, err = duration(v)
	}
	if v := b.Get("requests_per_minute"); v != nil && err == nil {
		s.RequestsPerMinute, err = v.NonNegative()
	}
	if v := b.Get("output"); v != nil && err == nil {
		s.Output, err = v.Enum(OutputAuto, OutputJSONSchema, OutputJSONObject, OutputText)
	}
	if v := b.Get("price"); v != nil && err == nil {
		if err = v.Check("input", "output"); err != nil {
			return err
		}
		if p := v.Get("input"); p != nil {
			if s.PriceInput, err = p.NonNegative(); err != nil {
				return err
			}
		}
		if p := v.Get("output"); p != nil {
			s.PriceOutput, err = p.NonNegative()
		}
	}
	return err
}

// duration reads seconds (a number) or a Go duration ("30s", "2m").
func duration(v *config.Node) (time.Duration, error) {
	if v.Kind == config.Number {
		f, err := v.NonNegative()
		return time.Duration(f * float64(time.Second)), err
	}
	s, err := v.Str()
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, v.Errorf("timeout %q is not a duration", s).With(`give seconds (30) or a duration ("30s", "2m")`)
	}
	return d, nil
}

// Check reports whether the settings can reach a judge: an endpoint, a
// model, and a key unless the endpoint is a server of one's own (local
// servers such as Ollama and llama.cpp need none).
func (s Settings) Check() error {
	var missing []string
	if s.BaseURL == "" {
		missing = append(missing, "an endpoint")
	} else if s.APIKey == "" && s.needsKey() {
		missing = append(missing, "a key")
	}
	if s.Model == "" {
		missing = append(missing, "a model")
	}
	if len(missing) == 0 {
		return nil
	}
	if s.keyVar != "" && s.APIKey == "" {
		return fmt.Errorf("%w: the judge needs %s: the variable %s named by api_key_env is not set", ErrNoJudge, strings.Join(missing, " and "), s.keyVar)
	}
	return fmt.Errorf("%w: the judge needs %s: set %s (and %s for another endpoint) and %s, or the TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL and TRAJEVAL_JUDGE_MODEL variants, or a judge: block in the suite",
		ErrNoJudge, strings.Join(missing, " and "), EnvKey, EnvBaseURL, EnvModel)
}

// needsKey reports whether the endpoint is a hosted service that refuses
// requests without a key.
func (s Settings) needsKey() bool {
	u, err := url.Parse(s.BaseURL)
	if err != nil {
		return true
	}
	h := u.Hostname()
	for _, hosted := range []string{"api.openai.com", "openrouter.ai", ".openai.azure.com", ".cognitiveservices.azure.com", "api.together.xyz", "api.groq.com"} {
		if h == strings.TrimPrefix(hosted, ".") || strings.HasSuffix(h, hosted) || strings.HasSuffix(h, "."+hosted) {
			return true
		}
	}
	return false
}

// azure reports whether the endpoint is Azure OpenAI, which takes its key
// in an api-key header.
func (s Settings) azure() bool {
	u, err := url.Parse(s.BaseURL)
	if err != nil {
		return false
	}
	h := u.Hostname()
	return strings.HasSuffix(h, ".openai.azure.com") || strings.HasSuffix(h, ".cognitiveservices.azure.com")
}

// Endpoint is the chat completions URL, without the key.
func (s Settings) Endpoint() string {
	e := s.BaseURL + "/chat/completions"
	if s.APIVersion != "" {
		e += "?api-version=" + url.QueryEscape(s.APIVersion)
	}
	return e
}
