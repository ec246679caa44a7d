package openaigo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/convert/openaigo"
	chatreader "github.com/trajeval/trajeval/internal/format/openai"
)

// A response as the API returns it: two parallel calls, one with an
// integer beyond float64's exact range.
const callsJSON = `{
  "id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "gpt-4.1",
  "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null, "message": {
    "role": "assistant", "content": null, "refusal": null,
    "tool_calls": [
      {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"station\":9007199254740993}"}},
      {"id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"}}
    ]}}],
  "usage": {"prompt_tokens": 81, "completion_tokens": 40, "total_tokens": 121}
}`

const answerJSON = `{
  "id": "chatcmpl-2", "object": "chat.completion", "created": 1767225602, "model": "gpt-4.1",
  "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null, "message": {
    "role": "assistant", "content": "Paris 18°C, Rome 24°C.", "refusal": null}}],
  "usage": {"prompt_tokens": 160, "completion_tokens": 12, "total_tokens": 172}
}`

func completion(t testing.TB, s string) *openai.ChatCompletion {
	t.Helper()
	var c openai.ChatCompletion
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// conversation is what an agent loop on the SDK holds after one round of
// tools: the user's question, the model's calls (ToParam), the tools'
// outputs (in the order they finished) and the question that follows.
func conversation(t testing.TB) []openai.ChatCompletionMessageParamUnion {
	return []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are a weather assistant."),
		openai.UserMessage("Weather in Paris and Rome?"),
		completion(t, callsJSON).Choices[0].Message.ToParam(),
		openai.ToolMessage(`{"temp_c": 24}`, "call_b"),
		openai.ToolMessage([]openai.ChatCompletionContentPartTextParam{{Text: "18°C"}, {Text: "sunny"}}, "call_a"),
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

// read gives data to trajeval's openai-chat reader, which must not warn.
func read(t testing.TB, data []byte) *trajeval.Trajectory {
	t.Helper()
	var got []*trajeval.Trajectory
	in := trajeval.Input{Name: "conversation.json", R: bytes.NewReader(data), Warn: func(w trajeval.Warning) { t.Errorf("reader warns: %s", w) }}
	err := chatreader.Chat.Read(context.Background(), in, func(tr *trajeval.Trajectory) error {
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
	got, err := openaigo.Messages(conversation(t))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"","turns":[{"turn":1,"user":"Weather in Paris and Rome?","final_response":null}],"steps":[` +
		`{"index":1,"turn":1,"id":"call_a","name":"get_weather","args":{"city":"Paris","station":9007199254740993},"result":"18°C\nsunny","error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1,"agent":null},` +
		`{"index":2,"turn":1,"id":"call_b","name":"get_weather","args":{"city":"Rome"},"result":"{\"temp_c\": 24}","error":null,"error_message":null,"duration_ms":null,"start_time":null,"end_time":null,"parallel_group":1,"agent":null}],` +
		`"metrics":{"duration_ms":null,"cost_usd":null,"tokens":null,"llm_calls":1}}`
	if s := canonical(t, got); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestMessages_reader checks that converting the SDK's values and reading
// the JSON the SDK writes for them give the same trajectory.
func TestMessages_reader(t *testing.T) {
	custom := openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{
		ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{
			{OfCustom: &openai.ChatCompletionMessageCustomToolCallParam{ID: "call_c", Custom: openai.ChatCompletionMessageCustomToolCallCustomParam{Name: "shell", Input: "ls -la"}}},
		},
	}}
	broken := openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{
		ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{
			{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_d", Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "search", Arguments: ""}}},
		},
	}}
	refusal := openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{Refusal: openai.String("I can't help with that.")}}
	tests := []struct {
		name   string
		msgs   []openai.ChatCompletionMessageParamUnion
		reason string
	}{
		{"one round of tools", conversation(t), "parallel calls, results out of order, text parts"},
		{"two turns", append(conversation(t),
			completion(t, answerJSON).Choices[0].Message.ToParam(),
			openai.UserMessage("And Oslo?"),
			openai.AssistantMessage("Oslo is 3°C."),
		), "each user message starts a turn; the last answer is the final response"},
		{"calls before any user message", []openai.ChatCompletionMessageParamUnion{custom, openai.ToolMessage("a.txt", "call_c")}, "turn 1 has a null user; custom input stays text"},
		{"empty arguments", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("find"), broken}, "empty arguments are {}"},
		{"a question alone", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}, "no assistant message: llm_calls 0, not null"},
		{"refusal", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("do it"), refusal}, "a refusal is the final response"},
		{"image only", []openai.ChatCompletionMessageParamUnion{openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "https://example.com/a.png"}),
		}), openai.AssistantMessage("A cat.")}, "a user message without text starts a turn with a null user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := openaigo.Messages(tt.msgs)
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

func TestCompletion(t *testing.T) {
	msgs := conversation(t)
	resp := completion(t, answerJSON)
	got, err := openaigo.Completion(msgs, resp)
	if err != nil {
		t.Fatal(err)
	}
	if s := canonical(t, got); !strings.Contains(s, `"final_response":"Paris 18°C, Rome 24°C."`) ||
		!strings.Contains(s, `"tokens":{"input":160,"output":12,"total":172},"llm_calls":2`) || got.ID != "chatcmpl-2" {
		t.Errorf("got %s, want the response's answer, id and usage", s)
	}
	// The reader reads a request body holding the messages and the response.
	var body map[string]any
	if err := json.Unmarshal([]byte(answerJSON), &body); err != nil {
		t.Fatal(err)
	}
	body["messages"] = msgs
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := canonical(t, got), canonical(t, read(t, data)); g != w {
		t.Errorf("converted %s\nread      %s", g, w)
	}
}

func TestCompletion_choices(t *testing.T) {
	resp := completion(t, answerJSON)
	resp.Choices = append(resp.Choices, resp.Choices[0])
	_, err := openaigo.Completion(nil, resp)
	if err == nil || !strings.Contains(err.Error(), "response chatcmpl-2 has 2 choices, not 1") {
		t.Errorf("error %v, want one saying the response has 2 choices", err)
	}
}

func TestMessages_errors(t *testing.T) {
	legacy := openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{
		FunctionCall: openai.ChatCompletionAssistantMessageParamFunctionCall{Name: "search", Arguments: "{}"},
	}}
	tests := []struct {
		name   string
		msgs   []openai.ChatCompletionMessageParamUnion
		want   string
		reason string
	}{
		{"unknown call", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi"), openai.ToolMessage("x", "call_zz")},
			`message 2: result for call "call_zz", which was never added`, "results pair by id; the reader would drop it with a warning"},
		{"second result", append(conversation(t), openai.ToolMessage("again", "call_a")),
			`message 6: a second result for call "call_a"`, "a call has one result"},
		{"empty message", []openai.ChatCompletionMessageParamUnion{{}},
			"message 1 is empty: no role is set", "a zero union is a mistake"},
		{"legacy function_call", []openai.ChatCompletionMessageParamUnion{legacy},
			"message 1: a legacy function_call, which has no call id", "results could not pair by id"},
		{"legacy function message", []openai.ChatCompletionMessageParamUnion{openai.ChatCompletionMessageParamOfFunction("x", "search")},
			"message 1: a legacy function message", "results could not pair by id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := openaigo.Messages(tt.msgs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Messages = %v, %v; want an error containing %q (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestCompletion_errors(t *testing.T) {
	var bad openai.ChatCompletion
	if err := json.Unmarshal([]byte(strings.Replace(callsJSON, `"name": "get_weather", "arguments": "{\"city\":\"Rome\"}"`, `"name": "", "arguments": "{}"`, 1)), &bad); err != nil {
		t.Fatal(err)
	}
	_, err := openaigo.Completion(nil, &bad)
	if want := `the response's message: call 2 (id "call_b") has no tool name`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
}
