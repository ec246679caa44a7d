package judge

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
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

// A Block is one judge: block of a suite, read (see package spec, which
// reads and checks it where it is written): the settings it sets. A nil
// field is a setting the block does not give.
type Block struct {
	BaseURL, Model, APIVersion *string
	// APIKeyEnv names the variable that holds the key; the key itself is
	// never written in a file.
	APIKeyEnv *string
	// Temperature is sent when set; NoTemperature (temperature: null)
	// sends none.
	Temperature             *float64
	NoTemperature           bool
	MaxTokens, MaxRetries   *int
	Timeout                 *time.Duration
	RequestsPerMinute       *float64
	Output                  *string // an Output mode
	PriceInput, PriceOutput *float64
}

// Resolve builds the settings of one evaluator's judge, from weakest to
// strongest:
//  1. the defaults (temperature 0, timeout 60s, 3 retries, output auto);
//  2. OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_API_VERSION;
//  3. the blocks, in order: the suite's judge: block, then the
//     evaluator's own;
//  4. TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL, TRAJEVAL_JUDGE_MODEL
//     and TRAJEVAL_JUDGE_API_VERSION.
//
// A block names the variable that holds its key (APIKeyEnv), never the
// key itself. Missing credentials are reported by [Settings.Check].
func Resolve(getenv func(string) string, blocks ...Block) Settings {
	s := defaults()
	setIf(&s.APIKey, getenv(EnvKey))
	setIf(&s.BaseURL, getenv(EnvBaseURL))
	setIf(&s.APIVersion, getenv("OPENAI_API_VERSION"))
	for _, b := range blocks {
		s.apply(b, getenv)
	}
	setIf(&s.APIKey, getenv("TRAJEVAL_JUDGE_API_KEY"))
	setIf(&s.BaseURL, getenv("TRAJEVAL_JUDGE_BASE_URL"))
	setIf(&s.Model, getenv(EnvModel))
	setIf(&s.APIVersion, getenv("TRAJEVAL_JUDGE_API_VERSION"))
	if s.BaseURL == "" && s.APIKey != "" {
		s.BaseURL = OpenAIBaseURL
	}
	s.BaseURL = strings.TrimRight(s.BaseURL, "/")
	return s
}

func setIf(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// apply sets over s what the block b sets.
func (s *Settings) apply(b Block, getenv func(string) string) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&s.BaseURL, b.BaseURL)
	set(&s.Model, b.Model)
	set(&s.APIVersion, b.APIVersion)
	set(&s.Output, b.Output)
	if b.APIKeyEnv != nil {
		s.APIKey, s.keyVar = getenv(*b.APIKeyEnv), *b.APIKeyEnv
	}
	switch {
	case b.NoTemperature:
		s.Temperature = nil
	case b.Temperature != nil:
		t := *b.Temperature
		s.Temperature = &t
	}
	if b.MaxTokens != nil {
		s.MaxTokens = *b.MaxTokens
	}
	if b.MaxRetries != nil {
		s.MaxRetries = *b.MaxRetries
	}
	if b.Timeout != nil {
		s.Timeout = *b.Timeout
	}
	if b.RequestsPerMinute != nil {
		s.RequestsPerMinute = *b.RequestsPerMinute
	}
	if b.PriceInput != nil {
		s.PriceInput = *b.PriceInput
	}
	if b.PriceOutput != nil {
		s.PriceOutput = *b.PriceOutput
	}
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
