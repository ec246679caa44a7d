package anthropicgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/convert/anthropicgo"
	reader "github.com/trajeval/trajeval/internal/format/anthropic"
)

// Responses as the API returns them.
const callsJSON = `{
  "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "content": [
    {"type": "thinking", "thinking": "Two cities: ask for both at once.", "signature": "sig"},
    {"type": "text", "text": "Let me check both."},
    {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris", "station": 9007199254740993}},
    {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Rome"}}
  ],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 400, "cache_creation_input_tokens": 10, "cache_read_input_tokens": 5, "output_tokens": 80}
}`

const searchJSON = `{
  "id": "msg_03", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "content": [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "Oslo weather"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}},
    {"type": "text", "text": "I could not search."}
  ],
  "stop_reason": "end_turn", "stop_sequence": null,
  "usage": {"input_tokens": 900, "output_tokens": 30}
}`

func response(t testing.TB, s string) *anthropic.Message {
	t.Helper()
	var m anthropic.Message
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

// conversation is what an agent loop on the SDK holds: the question, the
// response (ToParam), the tool results in one user message (in the order
// they finished, one failed), the answer.
func conversation(t testing.TB) []anthropic.MessageParam {
	return []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Paris and Rome?")),
		response(t, callsJSON).ToParam(),
		anthropic.NewUserMessage(
			anthropic.NewToolResultBlock("toolu_b", `{"temp_c": 24}`, false),
			anthropic.NewToolResultBlock("toolu_a", "station offline", true),
		),
		anthropic.NewAssistantMessage(anthropic.NewTextBlock("Rome is 24°C; Paris did not answer.")),
	}
}

func canonical(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func read(t testing.TB, data []byte) *trajeval.Trajectory {
	t.Helper()
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "conversation.json", R: bytes.NewReader(data), Warn: func(w trajeval.Warning) { t.Errorf("reader warns: %s", w) }}
	err := reader.Format.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
		tr.Line = 0
		got = append(got, tr)
		return nil
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("reader: %d trajectories, error %v", len(got), err)
	}
	return got[0]
}

func TestMessages(t *testing.T) {
	got, err := anthropicgo.Messages(conversation(t))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"","turns":[{"turn":1,"user":"Weather in Paris and Rome?","final_response":"Rome is 24°C; Paris did not answer."}],"steps":[` +
		`{"index":1,"turn":1,"id":"toolu_a","name":"get_weather","args":{"city":"Paris","station":9007199254740993},"result":"station offline","error":true,"error_message":"station offline","duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1,"agent":null},` +
		`{"index":2,"turn":1,"id":"toolu_b","name":"get_weather","args":{"city":"Rome"},"result":"{\"temp_c\": 24}","error":false,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1,"agent":null}],` +
		`"metrics":{"duration_ms":null,"cost_usd":null,"tokens":null,"llm_calls":2}}`
	if s := canonical(t, got); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestMessages_reader checks that converting the SDK's values and reading
// the JSON the SDK writes for them give the same trajectory.
func TestMessages_reader(t *testing.T) {
	image := anthropic.NewImageBlock(anthropic.URLImageSourceParam{URL: "https://example.com/cat.png"})
	tests := []struct {
		name   string
		msgs   []anthropic.MessageParam
		reason string
	}{
		{"one round of tools", conversation(t), "parallel calls, results by id, is_error, thinking left out"},
		{"server tool", append(conversation(t),
			anthropic.NewUserMessage(anthropic.NewTextBlock("And Oslo?")),
			response(t, searchJSON).ToParam(),
		), "a server tool is a step with its result in the same message; its error code is the message"},
		{"image only", []anthropic.MessageParam{anthropic.NewUserMessage(image), anthropic.NewAssistantMessage(anthropic.NewTextBlock("A cat."))},
			"a user message without text starts a turn with a null user"},
		{"rich result", []anthropic.MessageParam{
			anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]any{"n": int64(1) << 60}, "render")),
			anthropic.NewUserMessage(anthropic.ContentBlockParamUnion{OfToolResult: &anthropic.ToolResultBlockParam{
				ToolUseID: "toolu_1",
				Content:   []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: "done"}}, {OfImage: image.OfImage}},
			}}),
		}, "calls before any user message are turn 1; content beyond text stays JSON"},
		{"a question alone", []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}, "llm_calls 0, not null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := anthropicgo.Messages(tt.msgs)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(tt.msgs)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := canonical(t, got), canonical(t, read(t, data)); g != w {
				t.Errorf("converted %s\nread      %s\n(%s)", g, w, tt.reason)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	got := anthropicgo.Tokens(response(t, callsJSON), nil, response(t, searchJSON))
	if s := canonical(t, got); s != `{"Input":1315,"Output":110,"Total":1425}` {
		t.Errorf("Tokens = %s, want input 400+10+5+900, output 80+30", s)
	}
	if got := anthropicgo.Tokens(); got.Reported() {
		t.Errorf("Tokens() = %+v, want nothing reported", got)
	}
}

func TestMessages_errors(t *testing.T) {
	tests := []struct {
		name   string
		msgs   []anthropic.MessageParam
		want   string
		reason string
	}{
		{"unknown call", []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_zz", "x", false))},
			`message 1: block 1: result for call "toolu_zz", which was never added`, "results pair by id"},
		{"second result", append(conversation(t), anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_a", "again", false))),
			`message 5: block 1: a second result for call "toolu_a"`, "a call has one result"},
		{"duplicate id", []anthropic.MessageParam{anthropic.NewAssistantMessage(
			anthropic.NewToolUseBlock("toolu_1", nil, "a"), anthropic.NewToolUseBlock("toolu_1", nil, "b"))},
			`message 1: block 1: call 2 (b): call id "toolu_1" is used twice`, "ids are unique"},
		{"unknown role", []anthropic.MessageParam{{Role: "system", Content: []anthropic.ContentBlockParamUnion{anthropic.NewTextBlock("x")}}},
			`message 1: role "system" is neither user nor assistant`, "the system prompt is not a message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := anthropicgo.Messages(tt.msgs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Messages = %v, %v; want an error containing %q (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}
