// Package openaigo converts the Chat Completions messages of the OpenAI Go
// SDK (github.com/openai/openai-go/v3) into a trajeval [trajeval.Trajectory].
//
// An agent loop built on the SDK keeps its conversation as a
// []openai.ChatCompletionMessageParamUnion: the user's message, each model
// response appended with ChatCompletionMessage.ToParam, each tool's output
// as openai.ToolMessage. [Messages] turns that list into a trajectory;
// [Completion] adds the last response, with its id and token usage.
//
// The rules are those of trajeval's openai-chat trace reader, so a
// conversation gives the same trajectory whether it is converted here or
// written as JSON and read from the file:
//  1. Each tool call of an assistant message is a step, in the order of
//     its tool_calls. A function call's arguments are JSON text and are
//     parsed, numbers exact; arguments that are not valid JSON are kept as
//     text, and empty ones are {}. A custom tool's free-text input stays a
//     string.
//  2. A tool message is the result of the call with its tool_call_id,
//     never the call at its position; its text parts are joined by
//     newlines. error is null: the format has no error flag. No timing.
//  3. An assistant message with two or more tool calls gives them one
//     parallel group.
//  4. A user message starts a turn (its text parts joined by newlines;
//     a message without text starts a turn whose user is null). Steps
//     before the first user message are turn 1.
//  5. The final response of a turn is the text of its last assistant
//     message without tool calls, else that message's refusal.
//  6. llm_calls counts the assistant messages; system and developer
//     messages are left out.
//  7. Where the reader warns and goes on, a conversion fails, since a Go
//     value has no file to point into: a tool message for a call that never
//     appears, a second result for a call, a call id used twice, a call
//     without a name, an empty message, and the legacy function_call and
//     function messages (deprecated by OpenAI; they have no call ids). The
//     error names the message (1-based).
package openaigo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/trajeval/trajeval"
)

// Messages converts a Chat Completions conversation into a trajectory with
// no id and no token counts.
func Messages(msgs []openai.ChatCompletionMessageParamUnion) (*trajeval.Trajectory, error) {
	b := trajeval.NewBuilder("")
	if err := add(b, msgs, -1); err != nil {
		return nil, err
	}
	return b.Build()
}

// Completion converts the messages of a request and the model's response
// to it, as the reader reads a request body holding both:
//  1. the response's message comes after msgs (msgs must not hold it
//     already);
//  2. the trajectory's id is the response's id;
//  3. token counts come from the response's usage, when the response
//     reports it (prompt, completion and total tokens);
//  4. a response with no choice, or with more than one, is an error: the
//     reader would read the first and warn.
func Completion(msgs []openai.ChatCompletionMessageParamUnion, resp *openai.ChatCompletion) (*trajeval.Trajectory, error) {
	if resp == nil {
		return Messages(msgs)
	}
	if n := len(resp.Choices); n != 1 {
		return nil, fmt.Errorf("response %s has %d choices, not 1 (convert one choice at a time: copy the response with Choices set to the one to score)", resp.ID, n)
	}
	b := trajeval.NewBuilder(resp.ID)
	all := append(msgs[:len(msgs):len(msgs)], resp.Choices[0].Message.ToParam())
	if err := add(b, all, len(msgs)); err != nil {
		return nil, err
	}
	if u := resp.Usage; u.JSON.TotalTokens.Valid() || u.JSON.PromptTokens.Valid() || u.JSON.CompletionTokens.Valid() ||
		u.PromptTokens != 0 || u.CompletionTokens != 0 || u.TotalTokens != 0 {
		b.Metrics(trajeval.Metrics{Tokens: trajeval.Tokens{Input: new(u.PromptTokens), Output: new(u.CompletionTokens), Total: new(u.TotalTokens)}})
	}
	return b.Build()
}

// add gives b the messages; message resp (0-based), when not -1, came
// from the response, which errors name as such.
func add(b *trajeval.Builder, msgs []openai.ChatCompletionMessageParamUnion, resp int) error {
	var llmCalls int64
	turn := false // whether a turn is open
	for i, m := range msgs {
		place := fmt.Sprintf("message %d", i+1)
		if i == resp {
			place = "the response's message"
		}
		switch {
		case m.OfUser != nil:
			if s, ok := userText(m.OfUser.Content); ok {
				b.User(s)
			} else {
				b.Turn()
			}
			turn = true
		case m.OfAssistant != nil:
			a := m.OfAssistant
			llmCalls++
			if a.FunctionCall.Name != "" || a.FunctionCall.Arguments != "" {
				return fmt.Errorf("%s: a legacy function_call, which has no call id (use tool_calls)", place)
			}
			if len(a.ToolCalls) > 0 {
				calls := make([]trajeval.ToolCall, len(a.ToolCalls))
				for j, tc := range a.ToolCalls {
					c, err := toolCall(tc)
					if err != nil {
						return fmt.Errorf("%s, tool call %d: %w", place, j+1, err)
					}
					calls[j] = c
				}
				b.Call(calls...)
				turn = true
				break
			}
			said := assistantText(a.Content)
			if said == "" {
				said = a.Refusal.Or("")
			}
			if said != "" {
				b.Final(said)
			} else if !turn {
				b.Turn()
			}
			turn = true
		case m.OfTool != nil:
			b.Result(trajeval.ToolResult{ID: m.OfTool.ToolCallID, Value: toolText(m.OfTool.Content)})
		case m.OfFunction != nil:
			return fmt.Errorf("%s: a legacy function message, which has no call id (use tool messages)", place)
		case m.OfSystem != nil, m.OfDeveloper != nil:
		default:
			return fmt.Errorf("%s is empty: no role is set", place)
		}
		// The Builder keeps its first misuse; name the message it came from.
		if err := b.Err(); err != nil {
			return fmt.Errorf("%s: %w", place, err)
		}
	}
	if len(msgs) > 0 {
		b.Metrics(trajeval.Metrics{LLMCalls: new(llmCalls)})
	}
	return nil
}

func toolCall(tc openai.ChatCompletionMessageToolCallUnionParam) (trajeval.ToolCall, error) {
	switch {
	case tc.OfFunction != nil:
		f := tc.OfFunction
		return trajeval.ToolCall{ID: f.ID, Name: f.Function.Name, Args: arguments(f.Function.Arguments)}, nil
	case tc.OfCustom != nil:
		c := tc.OfCustom
		return trajeval.ToolCall{ID: c.ID, Name: c.Custom.Name, Args: c.Custom.Input}, nil
	}
	return trajeval.ToolCall{}, errors.New("neither a function nor a custom tool call")
}

// arguments reads a function call's arguments: JSON text is parsed,
// anything else is kept as the text the model wrote.
func arguments(s string) any {
	switch {
	case strings.TrimSpace(s) == "":
		return nil
	case json.Valid([]byte(s)):
		return json.RawMessage(s)
	}
	return s
}

func userText(c openai.ChatCompletionUserMessageParamContentUnion) (string, bool) {
	if c.OfString.Valid() {
		return c.OfString.Value, true
	}
	var parts []string
	for _, p := range c.OfArrayOfContentParts {
		if p.OfText != nil {
			parts = append(parts, p.OfText.Text)
		}
	}
	return strings.Join(parts, "\n"), parts != nil
}

func assistantText(c openai.ChatCompletionAssistantMessageParamContentUnion) string {
	if c.OfString.Valid() {
		return c.OfString.Value
	}
	var parts []string
	for _, p := range c.OfArrayOfContentParts {
		if p.OfText != nil {
			parts = append(parts, p.OfText.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toolText is a tool message's content: its text, or nil when it has
// none.
func toolText(c openai.ChatCompletionToolMessageParamContentUnion) any {
	if c.OfString.Valid() {
		return c.OfString.Value
	}
	if len(c.OfArrayOfContentParts) == 0 {
		return nil
	}
	parts := make([]string, len(c.OfArrayOfContentParts))
	for i, p := range c.OfArrayOfContentParts {
		parts[i] = p.Text
	}
	return strings.Join(parts, "\n")
}
