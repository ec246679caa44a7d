// Package judgetest is an OpenAI-compatible chat completions server for
// tests: it checks every request it receives and answers as the test
// scripts it (success, malformed output, 429 with Retry-After, 500, a
// hang).
package judgetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
)

// Key is the API key tests give the judge.
const Key = "sk-test-SECRET-0123456789"

// Model is the model tests ask for.
const Model = "judge-test-model"

// A Chat is one request as the server received it.
type Chat struct {
	Model          string
	System, User   string
	ResponseFormat map[string]any
	Header         http.Header
}

// A Fault is one scripted answer that is not a success.
type Fault struct {
	Status     int    // HTTP status (0 with Hang)
	RetryAfter string // Retry-After header, if any
	Body       string // the body; "" for an OpenAI-style error
	Hang       bool   // never answer; the client's timeout must end it
	Content    string // a 200 whose message content is this text
}

// TB is what the double needs of a test: *testing.T has it.
type TB interface {
	Errorf(format string, args ...any)
	Cleanup(func())
}

// A Server is the double.
type Server struct {
	*httptest.Server
	t TB
	// Answer decides the content of a successful answer.
	Answer func(Chat) string
	// RefuseFormat answers 400 to any request with a response_format, as
	// servers without structured output do.
	RefuseFormat bool

	mu     sync.Mutex
	faults []Fault
	chats  []Chat
	hang   chan struct{}
}

// New starts a double whose successful answers come from answer. It is
// closed when the test ends.
func New(t TB, answer func(Chat) string) *Server {
	s := &Server{t: t, Answer: answer, hang: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		close(s.hang)
		s.Close()
	})
	return s
}

// Fail scripts the next answers, in order, before answers succeed again.
func (s *Server) Fail(f ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f...)
}

// Requests is how many requests the server received.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.chats)
}

// Chats returns the requests received.
func (s *Server) Chats() []Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Chat(nil), s.chats...)
}

// Env returns an environment pointing the judge at the double.
func (s *Server) Env() func(string) string {
	return func(k string) string {
		switch k {
		case "OPENAI_API_KEY":
			return Key
		case "OPENAI_BASE_URL":
			return s.URL + "/v1"
		case "TRAJEVAL_JUDGE_MODEL":
			return Model
		}
		return ""
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	t := s.t
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		t.Errorf("judge double: unexpected request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+Key {
		t.Errorf("judge double: Authorization header %q, want the bearer key", got)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("judge double: Content-Type %q", ct)
	}
	var body struct {
		Model          string           `json:"model"`
		Messages       []map[string]any `json:"messages"`
		ResponseFormat map[string]any   `json:"response_format"`
		Temperature    *float64         `json:"temperature"`
	}
	raw, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Errorf("judge double: request body is not JSON: %v", err)
	}
	if strings.Contains(string(raw), Key) {
		t.Errorf("judge double: the API key is in the request body")
	}
	c := Chat{Model: body.Model, ResponseFormat: body.ResponseFormat, Header: r.Header.Clone()}
	if body.Model != Model {
		t.Errorf("judge double: model %q, want %q", body.Model, Model)
	}
	if len(body.Messages) != 2 || body.Messages[0]["role"] != "system" || body.Messages[1]["role"] != "user" {
		t.Errorf("judge double: want a system and a user message, got %v", body.Messages)
	} else {
		c.System, _ = body.Messages[0]["content"].(string)
		c.User, _ = body.Messages[1]["content"].(string)
	}
	if body.Temperature == nil || *body.Temperature != 0 {
		t.Errorf("judge double: temperature %v, want 0", body.Temperature)
	}
	s.mu.Lock()
	s.chats = append(s.chats, c)
	var f *Fault
	if len(s.faults) > 0 {
		f = &s.faults[0]
		s.faults = s.faults[1:]
	}
	refuse := s.RefuseFormat
	s.mu.Unlock()
	switch {
	case f != nil && f.Hang:
		select {
		case <-r.Context().Done():
		case <-s.hang:
		}
		return
	case f != nil && f.Content != "":
		reply(w, f.Content)
		return
	case f != nil:
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		body := f.Body
		if body == "" {
			body = fmt.Sprintf(`{"error": {"message": "scripted %d"}}`, f.Status)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.Status)
		io.WriteString(w, body)
		return
	case refuse && c.ResponseFormat != nil:
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error": {"message": "response_format is not supported"}}`)
		return
	}
	reply(w, s.Answer(c))
}

func reply(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
	})
}

var dataSection = regexp.MustCompile(`(?s)<data name="[A-Za-z0-9_]+">\n.*?</data>`)

// Outside returns the text of a chat outside its data sections: what a
// judge would take as instructions.
func Outside(c Chat) string {
	return dataSection.ReplaceAllString(c.System+"\n"+c.User, "")
}

// Obeys reports whether a judge that follows any instruction outside the
// data sections would obey an injection: "ignore previous instructions"
// appears outside data, or a data section was closed early.
func Obeys(c Chat) bool {
	out := strings.ToLower(Outside(c))
	user := dataSection.ReplaceAllString(c.User, "")
	return strings.Contains(out, "ignore previous instructions") || strings.Contains(user, "</data>")
}

// Fair scores 1 an answer that holds want and 0.2 any other, unless the
// prompt lets the agent's text out of its data sections: then it obeys the
// text and scores 1, as a naive model would.
func Fair(want string) func(Chat) string {
	return func(c Chat) string {
		switch {
		case Obeys(c):
			return Verdict(1, "obeyed the answer's instructions")
		case strings.Contains(c.User, want):
			return Verdict(1, "accurate and well researched")
		}
		return Verdict(0.2, "no useful answer")
	}
}

// QuoteHeaders scores 1 with a reasoning that quotes the request's
// Authorization and api-key headers, as a judge that repeats its input
// would: the key must not reach the results.
func QuoteHeaders(c Chat) string {
	return Verdict(1, fmt.Sprintf("the request said Authorization: %s; api-key: %s", c.Header.Get("Authorization"), c.Header.Get("Api-Key")))
}

// Leaks reports whether text holds a run of 8 or more bytes of [Key].
func Leaks(text string) bool {
	for i := 0; i+8 <= len(Key); i++ {
		if strings.Contains(text, Key[i:i+8]) {
			return true
		}
	}
	return false
}

// Verdict is an llm_judge answer.
func Verdict(score float64, why string) string {
	b, _ := json.Marshal(map[string]any{"reasoning": why, "score": score})
	return string(b)
}

var (
	checklistField = regexp.MustCompile(`decide "([a-z_]+)" \(true or false\)`)
	checklistItem  = regexp.MustCompile(`(?m)^(\d+): (.*)$`)
)

// Checklist answers a checklist question (one verdict per numbered item)
// with yes(field, id, item) for each item.
func Checklist(yes func(field string, id int, item string) bool) func(Chat) string {
	return func(c Chat) string {
		m := checklistField.FindStringSubmatchIndex(c.User)
		if m == nil {
			return `{"error": "not a checklist"}`
		}
		field := c.User[m[2]:m[3]]
		var items []map[string]any
		for _, it := range checklistItem.FindAllStringSubmatch(c.User[m[1]:], -1) {
			var id int
			fmt.Sscan(it[1], &id)
			items = append(items, map[string]any{"id": id, "reasoning": "checked " + it[2], field: yes(field, id, it[2])})
		}
		b, _ := json.Marshal(map[string]any{"items": items})
		return string(b)
	}
}
