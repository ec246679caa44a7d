package adkgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/convert/adkgo"
	"github.com/trajeval/trajeval/internal/format/adk"
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"
)

// scripted is a model that answers from a script, one response per
// request, so that a real ADK run needs no API key.
type scripted struct {
	script func() []*genai.Content // a new script for each response: ADK fills in call ids
	n      int
}

func (m *scripted) Name() string { return "scripted" }

func (m *scripted) GenerateContent(ctx context.Context, req *model.LLMRequest, stream bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		script := m.script()
		c := script[m.n%len(script)]
		m.n++
		yield(&model.LLMResponse{Content: c, UsageMetadata: &genai.GenerateContentResponseUsageMetadata{
			PromptTokenCount: 100, CandidatesTokenCount: 20, TotalTokenCount: 125,
		}}, nil)
	}
}

type weatherArgs struct {
	City    string `json:"city"`
	Station int64  `json:"station,omitempty"`
}

type weather struct {
	TempC int `json:"temp_c"`
}

// run runs a weather agent with ADK's runner over the questions and
// returns its session as the session service keeps it.
func run(t *testing.T, questions ...string) session.Session {
	t.Helper()
	ctx := context.Background()
	getWeather, err := functiontool.New(functiontool.Config{Name: "get_weather", Description: "Current weather of a city."},
		func(_ agent.Context, a weatherArgs) (weather, error) { return weather{TempC: len(a.City) * 4}, nil })
	if err != nil {
		t.Fatal(err)
	}
	// Like Gemini, the script gives calls no ids: ADK adds them.
	llm := &scripted{script: func() []*genai.Content {
		return []*genai.Content{
			{Role: "model", Parts: []*genai.Part{
				{FunctionCall: &genai.FunctionCall{Name: "get_weather", Args: map[string]any{"city": "Paris", "station": 9007199254740993}}},
				{FunctionCall: &genai.FunctionCall{Name: "get_weather", Args: map[string]any{"city": "Rome"}}},
			}},
			genai.NewContentFromText("Paris 20°C, Rome 16°C.", "model"),
		}
	}}
	a, err := llmagent.New(llmagent.Config{Name: "weather_agent", Model: llm, Tools: []tool.Tool{getWeather}})
	if err != nil {
		t.Fatal(err)
	}
	svc := session.InMemoryService()
	created, err := svc.Create(ctx, &session.CreateRequest{AppName: "weather", UserID: "u1", SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.Config{AppName: "weather", Agent: a, SessionService: svc})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range questions {
		for _, err := range r.Run(ctx, "u1", created.Session.ID(), genai.NewContentFromText(q, "user"), agent.RunConfig{}) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := svc.Get(ctx, &session.GetRequest{AppName: "weather", UserID: "u1", SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	return got.Session
}

func canonical(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// read saves s as JSON (as the sessions API returns it) and reads it with
// trajeval's adk-session reader, which must not warn.
func read(t *testing.T, s session.Session) *trajeval.Trajectory {
	t.Helper()
	data, err := json.Marshal(map[string]any{
		"id": s.ID(), "appName": s.AppName(), "userId": s.UserID(), "events": slices.Collect(s.Events().All()),
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "session.json", R: bytes.NewReader(data), Warn: func(w trajeval.Warning) { t.Errorf("reader warns: %s", w) }}
	err = adk.SessionFormat.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		tr.Line = 0
		got = append(got, tr)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("reader: %d trajectories, error %v", len(got), err)
	}
	return got[0]
}

func TestSession(t *testing.T) {
	s := run(t, "Weather in Paris and Rome?")
	got, err := adkgo.Session(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"s1","turns":[{"turn":1,"user":"Weather in Paris and Rome?","final_response":"Paris 20°C, Rome 16°C."}],"steps":[` +
		`{"index":1,"turn":1,"id":null,"name":"get_weather","args":{"city":"Paris","station":9007199254740993},"result":{"temp_c":20},"error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1,"agent":"weather_agent"},` +
		`{"index":2,"turn":1,"id":null,"name":"get_weather","args":{"city":"Rome"},"result":{"temp_c":16},"error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1,"agent":"weather_agent"}],` +
		`"metrics":{"duration_ms":null,"cost_usd":null,"tokens":{"input":200,"output":40,"total":250},"llm_calls":null},"agents":[{"name":"weather_agent","parent":null}]}`
	for i := range got.Steps {
		if !strings.HasPrefix(got.Steps[i].ID, "adk-") {
			t.Errorf("step %d has id %q, want the one ADK gave the call", i+1, got.Steps[i].ID)
		}
		got.Steps[i].ID = ""
	}
	if g := canonical(t, got); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}

// TestSession_reader checks that converting a session and reading it
// saved as JSON give the same trajectory.
func TestSession_reader(t *testing.T) {
	tests := []struct {
		name      string
		questions []string
		reason    string
	}{
		{"one invocation", []string{"Weather in Paris and Rome?"}, "parallel calls, results by id, exact integers, usage summed"},
		{"two invocations", []string{"Weather in Paris and Rome?", "And again?"}, "each invocation is a turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := run(t, tt.questions...)
			got, err := adkgo.Session(s)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := canonical(t, got), canonical(t, read(t, s)); g != w {
				t.Errorf("converted %s\nread      %s\n(%s)", g, w, tt.reason)
			}
			if len(got.Turns) != len(tt.questions) {
				t.Errorf("%d turns, want %d (%s)", len(got.Turns), len(tt.questions), tt.reason)
			}
		})
	}
}

func ev(inv, author string, parts ...*genai.Part) *session.Event {
	e := &session.Event{InvocationID: inv, Author: author}
	e.Content = &genai.Content{Parts: parts}
	return e
}

func TestEvents(t *testing.T) {
	call := func(id, name string) *genai.Part {
		return &genai.Part{FunctionCall: &genai.FunctionCall{ID: id, Name: name}}
	}
	resp := func(id string) *genai.Part {
		return &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: id, Name: "t", Response: map[string]any{"ok": true}}}
	}
	partial := ev("i1", "a", &genai.Part{Text: "Par"})
	partial.Partial = true
	tests := []struct {
		name   string
		events []*session.Event
		want   string // a part of the canonical JSON
		reason string
	}{
		{"partial skipped", []*session.Event{ev("i1", "user", &genai.Part{Text: "q"}), partial, ev("i1", "a", &genai.Part{Text: "Paris"})},
			`"turns":[{"turn":1,"user":"q","final_response":"Paris"}]`, "streamed chunks are repeated by the final event"},
		{"thoughts left out", []*session.Event{ev("i1", "a", &genai.Part{Text: "hmm", Thought: true}, &genai.Part{Text: "yes"})},
			`"final_response":"yes"`, "a thought is not the answer"},
		{"user after the first event", []*session.Event{ev("i1", "a", call("c1", "t")), ev("i1", "user", &genai.Part{Text: "late"})},
			`{"turn":1,"user":"late","final_response":null}`, "the first user text of the invocation, wherever it is"},
		{"event without invocation", []*session.Event{ev("i1", "user", &genai.Part{Text: "q"}), ev("", "a", call("c1", "t"), call("c2", "u"))},
			`"index":2,"turn":1,"id":"c2","name":"u","args":{}`, "it belongs to the turn before it"},
		{"no args", []*session.Event{ev("i1", "a", call("c1", "t")), ev("i1", "a", resp("c1"))},
			`"args":{},"result":{"ok":true}`, "a call without args has {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := adkgo.Events("x", slices.Values(tt.events))
			if err != nil {
				t.Fatal(err)
			}
			if s := canonical(t, got); !strings.Contains(s, tt.want) {
				t.Errorf("got  %s\nwant a part %s\n(%s)", s, tt.want, tt.reason)
			}
		})
	}
}

func TestEvents_errors(t *testing.T) {
	call := &genai.Part{FunctionCall: &genai.FunctionCall{ID: "c1", Name: "t"}}
	tests := []struct {
		name   string
		events []*session.Event
		want   string
		reason string
	}{
		{"unknown call", []*session.Event{ev("i1", "a", &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: "c9", Name: "t"}})},
			`event 1: result for call "c9", which was never added`, "results pair by id"},
		{"response without id", []*session.Event{ev("i1", "a", call), ev("i1", "a", &genai.Part{FunctionResponse: &genai.FunctionResponse{Name: "t"}})},
			"event 2: the response of t has no call id", "never paired by position"},
		{"interleaved invocations", []*session.Event{ev("i1", "a", call), ev("i2", "a"), ev("i1", "a")},
			`event 3: invocation "i1" resumes after a later invocation began`, "a turn's steps must not come after the next turn's"},
		{"nil event", []*session.Event{nil}, "event 1 is nil", "nothing to read"},
		{"no name", []*session.Event{ev("i1", "a", &genai.Part{FunctionCall: &genai.FunctionCall{ID: "c1"}})},
			`event 1: call 1 (id "c1") has no tool name`, "a step must have a name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := adkgo.Events("x", slices.Values(tt.events))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Events = %v, %v; want an error containing %q (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}
