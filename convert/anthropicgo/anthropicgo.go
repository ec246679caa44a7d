// Package anthropicgo converts the messages of the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go) into a trajeval
// [trajeval.Trajectory].
//
// An agent loop built on the SDK keeps its conversation as a
// []anthropic.MessageParam: the user's message, each response appended
// with Message.ToParam, each tool's output as a tool_result block in the
// next user message. [Messages] turns that list into a trajectory;
// [Tokens] sums the usage of the responses, which the message params do
// not keep.
//
// The rules are those of trajeval's anthropic trace reader, so a
// conversation gives the same trajectory whether it is converted here or
// written as JSON and read from the file:
//  1. Each tool_use block of an assistant message is a step, in block
//     order; its input is the arguments (a JSON string is parsed, numbers
//     exact).
//  2. A tool_result block in a later user message is the result of the
//     call with its tool_use_id, never the call at its position. Content
//     that is only text becomes one string (text blocks joined by
//     newlines); other content stays its JSON value. is_error true gives
//     error true, with the text as the error message; otherwise error is
//     false.
//  3. Server-run tools (server_tool_use, and mcp_tool_use when the API
//     sends it) are steps too, paired with their *_tool_result blocks in
//     the same message: a result whose content type ends in "_error"
//     gives error true, with its error_code as the message.
//  4. An assistant message with two or more tool_use blocks gives them
//     one parallel group; server-run tools are not grouped.
//  5. A user message starts a turn unless it holds only tool_result
//     blocks. The final response is the text of the last assistant
//     message without tool_use blocks.
//  6. No timing. llm_calls counts the assistant messages; system
//     prompts are not messages.
//  7. Where the reader warns and goes on, a conversion fails, since a Go
//     value has no file to point into: a result for a call that never
//     appears, a second result for a call, a call id used twice, a call
//     without a name, a role other than user and assistant, and tool_use
//     blocks split by server tool blocks in one message (their parallel
//     group would hold a call that is not theirs). The error names the
//     message and block (1-based).
package anthropicgo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/trajeval/trajeval"
)

// Messages converts a Messages API conversation into a trajectory with no
// id and no token counts (see [Tokens]).
func Messages(msgs []anthropic.MessageParam) (*trajeval.Trajectory, error) {
	b := trajeval.NewBuilder("")
	c := &conv{b: b}
	var llmCalls int64
	for i, m := range msgs {
		place := fmt.Sprintf("message %d", i+1)
		var err error
		switch m.Role {
		case anthropic.MessageParamRoleUser:
			err = c.user(m.Content)
		case anthropic.MessageParamRoleAssistant:
			llmCalls++
			err = c.assistant(m.Content)
		default:
			err = fmt.Errorf("role %q is neither user nor assistant", m.Role)
		}
		if err == nil {
			err = b.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", place, err)
		}
	}
	if len(msgs) > 0 {
		b.Metrics(trajeval.Metrics{LLMCalls: new(llmCalls)})
	}
	return b.Build()
}

// Tokens sums the usage of the responses as the reader does: input
// counts input, cache creation and cache read tokens; total is their sum
// with the output tokens. Set it as the trajectory's Metrics.Tokens.
func Tokens(responses ...*anthropic.Message) trajeval.Tokens {
	var in, out int64
	n := 0
	for _, r := range responses {
		if r == nil {
			continue
		}
		n++
		u := r.Usage
		in += u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
		out += u.OutputTokens
	}
	if n == 0 {
		return trajeval.Tokens{}
	}
	return trajeval.Tokens{Input: new(in), Output: new(out), Total: new(in + out)}
}

// conv gives a Builder the messages of one conversation.
type conv struct {
	b    *trajeval.Builder
	open bool // whether a turn is open
}

func (c *conv) user(blocks []anthropic.ContentBlockParamUnion) error {
	b := c.b
	var said []string
	other := false // blocks besides tool results
	for j, bl := range blocks {
		switch {
		case bl.OfToolResult != nil:
			r := bl.OfToolResult
			value, text, err := resultContent(r.Content)
			if err != nil {
				return fmt.Errorf("block %d: %w", j+1, err)
			}
			failed := r.IsError.Or(false)
			msg := ""
			if failed && text {
				msg = value.(string)
			}
			b.Result(trajeval.ToolResult{ID: r.ToolUseID, Value: value, Error: new(failed), ErrorMessage: msg})
			if err := b.Err(); err != nil {
				return fmt.Errorf("block %d: %w", j+1, err)
			}
		case bl.OfText != nil:
			said = append(said, bl.OfText.Text)
			other = true
		default:
			g, err := generic(bl)
			if err != nil {
				return fmt.Errorf("block %d: %w", j+1, err)
			}
			if g.Type == "mcp_tool_result" {
				if err := serverResult(b, g); err != nil {
					return fmt.Errorf("block %d: %w", j+1, err)
				}
				continue
			}
			other = true
		}
	}
	switch {
	case said != nil:
		b.User(strings.Join(said, "\n"))
		c.open = true
	case other:
		b.Turn()
		c.open = true
	}
	return nil
}

func (c *conv) assistant(blocks []anthropic.ContentBlockParamUnion) error {
	b := c.b
	// The tool_use blocks are added together, at the first of them, to
	// share a parallel group; no server tool block may sit between them.
	var client []trajeval.ToolCall
	first, last := -1, -1
	for j, bl := range blocks {
		if bl.OfToolUse != nil {
			u := bl.OfToolUse
			client = append(client, trajeval.ToolCall{ID: u.ID, Name: u.Name, Args: input(u.Input)})
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	var said []string
	for j, bl := range blocks {
		switch {
		case bl.OfToolUse != nil:
			if j == first {
				b.Call(client...)
				c.open = true
			}
		case bl.OfText != nil:
			said = append(said, bl.OfText.Text)
		case bl.OfThinking != nil, bl.OfRedactedThinking != nil, bl.OfImage != nil, bl.OfDocument != nil:
		default:
			g, err := generic(bl)
			if err != nil {
				return fmt.Errorf("block %d: %w", j+1, err)
			}
			switch {
			case g.Type == "server_tool_use" || g.Type == "mcp_tool_use":
				if first < j && j < last {
					return fmt.Errorf("block %d: a %s block between the tool_use blocks of one response", j+1, g.Type)
				}
				b.Call(trajeval.ToolCall{ID: g.ID, Name: g.Name, Args: rawInput(g.Input)})
				c.open = true
			case strings.HasSuffix(g.Type, "_tool_result"):
				if err := serverResult(b, g); err != nil {
					return fmt.Errorf("block %d: %w", j+1, err)
				}
			}
		}
		if err := b.Err(); err != nil {
			return fmt.Errorf("block %d: %w", j+1, err)
		}
	}
	if s := strings.Join(said, "\n"); client == nil && s != "" {
		b.Final(s)
	} else if !c.open && client == nil {
		b.Turn() // an answer without text belongs to a turn too
	}
	c.open = true
	return nil
}

// input reads a tool_use block's input: a string is JSON text, parsed
// when valid (empty: no arguments).
func input(v any) any {
	s, ok := v.(string)
	switch {
	case !ok:
		return v
	case strings.TrimSpace(s) == "":
		return nil
	case json.Valid([]byte(s)):
		return json.RawMessage(s)
	}
	return s
}

// rawInput reads a block's input from its JSON: a JSON string holds JSON
// text, as input does.
func rawInput(raw json.RawMessage) any {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return input(s)
	}
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// resultContent is a tool_result's content: its text when it is only text
// blocks (then text is true), else its JSON; nil when there is none.
func resultContent(content []anthropic.ToolResultBlockParamContentUnion) (v any, text bool, err error) {
	if len(content) == 0 {
		return nil, false, nil
	}
	texts := make([]string, 0, len(content))
	for _, c := range content {
		if c.OfText == nil {
			raw, err := json.Marshal(content)
			if err != nil {
				return nil, false, fmt.Errorf("the result's content cannot be written as JSON: %w", err)
			}
			return json.RawMessage(raw), false, nil
		}
		texts = append(texts, c.OfText.Text)
	}
	return strings.Join(texts, "\n"), true, nil
}

// A block is a content block the SDK models in many types (server tool
// calls and results), or not at all (blocks newer than the SDK), read from
// its JSON.
type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

func generic(u anthropic.ContentBlockParamUnion) (block, error) {
	var g block
	raw, err := json.Marshal(u)
	if err == nil {
		err = json.Unmarshal(raw, &g)
	}
	if err != nil {
		return g, fmt.Errorf("a content block that cannot be read: %w", err)
	}
	return g, nil
}

// serverResult gives b the result of a server-run tool.
func serverResult(b *trajeval.Builder, g block) error {
	r := trajeval.ToolResult{ID: g.ToolUseID}
	if len(g.Content) > 0 && string(g.Content) != "null" {
		r.Value = g.Content
	}
	if g.Type == "mcp_tool_result" {
		// Text content becomes a string, which is the error message of
		// a failed call.
		var parts []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		var text string
		if json.Unmarshal(g.Content, &parts) == nil && len(parts) > 0 {
			texts := make([]string, 0, len(parts))
			for _, p := range parts {
				if p.Type != "text" || p.Text == nil {
					texts = nil
					break
				}
				texts = append(texts, *p.Text)
			}
			if texts != nil {
				text = strings.Join(texts, "\n")
				r.Value = text
			}
		} else if json.Unmarshal(g.Content, &text) == nil {
			r.Value = text
		}
		if g.IsError {
			r.ErrorMessage = text
		}
		r.Error = new(g.IsError)
		b.Result(r)
		return b.Err()
	}
	var c struct {
		Type      string `json:"type"`
		ErrorCode string `json:"error_code"`
	}
	_ = json.Unmarshal(g.Content, &c) // content that is not an object is no error
	failed := strings.HasSuffix(c.Type, "_error")
	r.Error = new(failed)
	if failed {
		r.ErrorMessage = c.ErrorCode
		if r.ErrorMessage == "" {
			r.ErrorMessage = string(g.Content)
		}
	}
	b.Result(r)
	return b.Err()
}
