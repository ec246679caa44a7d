package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/retryafter"
	"github.com/trajeval/trajeval/internal/secret"
)

// A Message is one chat message sent to the judge.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// A Request is one question to the judge: the messages and the JSON Schema
// its answer must follow.
type Request struct {
	Messages   []Message
	SchemaName string
	Schema     map[string]any
}

// A Reply is the judge's raw answer and what it cost.
type Reply struct {
	Content string
	Usage   trajeval.JudgeUsage
}

// A StatusError is an HTTP answer that is not a success.
type StatusError struct {
	Code int
	Msg  string
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("the judge endpoint answered %d %s", e.Code, http.StatusText(e.Code))
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// A Client sends chat completion requests to one OpenAI-compatible
// endpoint, with retries, a rate limit and a bound on concurrent requests
// shared with every client of its [Runtime].
type Client struct {
	s  Settings
	rt *Runtime
	// plain is set once the server refused response_format: later
	// requests go without it and the answer is parsed tolerantly.
	plain atomic.Bool
	limit *limiter
	// scrub removes the key from whatever the endpoint sends back, at
	// the one place its text enters trajeval.
	scrub *secret.Scrubber
}

type chatRequest struct {
	Model          string         `json:"model"`
	Messages       []Message      `json:"messages"`
	Temperature    *float64       `json:"temperature,omitempty"`
	MaxTokens      int            `json:"max_tokens,omitempty"`
	ResponseFormat map[string]any `json:"response_format,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64    `json:"prompt_tokens"`
		CompletionTokens int64    `json:"completion_tokens"`
		Cost             *float64 `json:"cost"` // OpenRouter
	} `json:"usage"`
	Error *apiError `json:"error"`
}

type apiError struct {
	Message string `json:"message"`
}

// Complete sends req and returns the judge's answer. It retries 408, 429,
// 5xx answers, network errors and timeouts up to MaxRetries times, waiting
// as Retry-After says, else an exponential backoff with full jitter. When
// the server refuses a response_format in auto mode, the request is sent
// again without one. Usage counts every request sent, failed ones too.
//
// The answer and the error hold no part of the key (no run of 8 of its
// bytes; see package secret): a server may quote the request's headers.
// A redirect to another host is refused, not followed with the key.
func (c *Client) Complete(ctx context.Context, req Request) (Reply, error) {
	var rep Reply
	var last error
	for attempt := 0; ; attempt++ {
		if err := c.limit.wait(ctx, c.rt.sleep); err != nil {
			return rep, err
		}
		content, usage, wait, err := c.once(ctx, req)
		rep.Usage.Add(&usage)
		if err == nil {
			rep.Content = c.scrub.String(content)
			return rep, nil
		}
		last = err
		var se *StatusError
		if errors.As(err, &se) && (se.Code == http.StatusBadRequest || se.Code == http.StatusUnprocessableEntity) &&
			c.s.Output == OutputAuto && !c.plain.Load() && mentionsFormat(se.Msg) {
			c.plain.Store(true)
			attempt--
			continue
		}
		if !retryable(ctx, err) || attempt >= c.s.MaxRetries {
			break
		}
		if wait <= 0 {
			wait = c.rt.backoff(attempt)
		}
		if err := c.rt.sleep(ctx, min(wait, c.rt.maxWait())); err != nil {
			return rep, err
		}
	}
	if c.s.MaxRetries > 0 && retryable(ctx, last) {
		last = fmt.Errorf("%w (gave up after %d tries)", last, c.s.MaxRetries+1)
	}
	return rep, c.scrub.Error(last)
}

func mentionsFormat(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "response_format") || strings.Contains(m, "json_schema") || strings.Contains(m, "response format")
}

// once sends one request. wait is the server's Retry-After, if any.
func (c *Client) once(ctx context.Context, req Request) (content string, usage trajeval.JudgeUsage, wait time.Duration, err error) {
	body := chatRequest{Model: c.s.Model, Messages: req.Messages, Temperature: c.s.Temperature, MaxTokens: c.s.MaxTokens}
	body.ResponseFormat = c.format(req)
	data, err := json.Marshal(body)
	if err != nil {
		return "", usage, 0, err
	}
	release, err := c.rt.acquire(ctx)
	if err != nil {
		return "", usage, 0, err
	}
	defer release()
	actx, cancel := context.WithTimeout(ctx, c.s.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, c.s.Endpoint(), bytes.NewReader(data))
	if err != nil {
		return "", usage, 0, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("User-Agent", "trajeval")
	if c.s.APIKey != "" {
		if c.s.azure() {
			hreq.Header.Set("api-key", c.s.APIKey)
		} else {
			hreq.Header.Set("Authorization", "Bearer "+c.s.APIKey)
		}
	}
	usage.Calls = 1
	resp, err := c.rt.httpClient().Do(hreq)
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return "", usage, 0, &timeoutError{c.s.Timeout}
		}
		return "", usage, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return "", usage, 0, &timeoutError{c.s.Timeout}
		}
		return "", usage, 0, err
	}
	var cr chatResponse
	jerr := json.Unmarshal(raw, &cr)
	if resp.StatusCode != http.StatusOK {
		msg := ""
		if jerr == nil && cr.Error != nil {
			msg = cr.Error.Message
		} else {
			msg = strings.TrimSpace(string(raw))
		}
		// Scrubbed before it is cut: a cut through the key would leave a
		// prefix that no longer matches it whole.
		msg = secret.Cut(c.scrub.String(msg), 300)
		return "", usage, retryafter.Parse(resp.Header.Get("Retry-After"), time.Now()), &StatusError{Code: resp.StatusCode, Msg: msg}
	}
	if jerr != nil {
		return "", usage, 0, badReplyf("the judge endpoint's answer is not a chat completion: %v", jerr)
	}
	if cr.Usage != nil {
		usage.InputTokens, usage.OutputTokens = cr.Usage.PromptTokens, cr.Usage.CompletionTokens
		usage.CostUSD = cr.Usage.Cost
	}
	if usage.CostUSD == nil && (c.s.PriceInput > 0 || c.s.PriceOutput > 0) && cr.Usage != nil {
		cost := (float64(usage.InputTokens)*c.s.PriceInput + float64(usage.OutputTokens)*c.s.PriceOutput) / 1e6
		usage.CostUSD = &cost
	}
	if len(cr.Choices) == 0 {
		return "", usage, 0, badReplyf("the judge endpoint's answer has no choices")
	}
	m := cr.Choices[0].Message
	if m.Content == nil || *m.Content == "" {
		if m.Refusal != nil && *m.Refusal != "" {
			return "", usage, 0, badReplyf("the judge refused: %s", c.scrub.String(*m.Refusal))
		}
		return "", usage, 0, badReplyf("the judge's answer is empty (finish reason %q)", cr.Choices[0].FinishReason)
	}
	return *m.Content, usage, 0, nil
}

// format is the response_format of a request, or nil.
func (c *Client) format(req Request) map[string]any {
	mode := c.s.Output
	if mode == OutputAuto {
		if c.plain.Load() {
			return nil
		}
		mode = OutputJSONSchema
	}
	switch mode {
	case OutputJSONSchema:
		return map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": req.SchemaName, "strict": true, "schema": req.Schema}}
	case OutputJSONObject:
		return map[string]any{"type": "json_object"}
	}
	return nil
}

type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("the judge endpoint did not answer within %s", e.d)
}

// retryable reports whether err may pass on a second try.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code == http.StatusRequestTimeout || se.Code == http.StatusTooManyRequests || se.Code >= 500
	}
	var te *timeoutError
	if errors.As(err, &te) {
		return true
	}
	if errors.Is(err, secret.ErrOtherHost) {
		return false // the same redirect comes back
	}
	// Transport errors: a refused or reset connection may pass later; an
	// answer that came but is unusable is the caller's to judge.
	return !errors.Is(err, errBadReply)
}

// errBadReply marks an answer that arrived but holds no usable message.
var errBadReply = errors.New("bad reply")

type badReply struct{ msg string }

func (e *badReply) Error() string { return e.msg }
func (e *badReply) Unwrap() error { return errBadReply }

func badReplyf(format string, args ...any) error { return &badReply{fmt.Sprintf(format, args...)} }

// fullJitter returns a random wait in [0, base·2^attempt], capped.
func fullJitter(base time.Duration, attempt int, limit time.Duration) time.Duration {
	d := base << min(attempt, 20)
	if d <= 0 || d > limit {
		d = limit
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}
