package openai

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Chat reads OpenAI Chat Completions message lists ("openai-chat").
var Chat trajeval.Format = chatFormat{}

type chatFormat struct{}

func (chatFormat) Name() string { return "openai-chat" }

func (chatFormat) Sniff(head []byte) error {
	c := sniff.First(head)
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := sniffFacts(head)
	if why := foreign(f); why != "" {
		return &trajeval.SniffError{Closeness: 10, Why: why}
	}
	var roles bool
	for _, p := range []string{"^", "messages>", "message>"} {
		roles = roles || f.has(p+"role=user", p+"role=assistant", p+"role=system", p+"role=tool", p+"role=developer")
	}
	switch {
	case !roles:
		return &trajeval.SniffError{Closeness: 10, Why: `no messages with an OpenAI "role"`}
	case anthropicBlocks(f):
		return &trajeval.SniffError{Closeness: 40, Why: "messages hold Anthropic content blocks"}
	case f.has("tool_calls>tool") && !f.has("tool_calls>function"):
		return &trajeval.SniffError{Closeness: 50, Why: "tool calls have no function"}
	case f.has("^type=message", "^type=function_call", "^type=function_call_output", "^object=response"):
		return &trajeval.SniffError{Closeness: 50, Why: "Responses API items"}
	case f.has("^messages", "^choices"), f.has("^role") && !f.has("^type"):
		return nil
	}
	return &trajeval.SniffError{Closeness: 30, Why: "role messages, but not in a Chat Completions shape"}
}

func anthropicBlocks(f facts) bool {
	return f.has("content>type=tool_use", "content>type=tool_result", "content>type=thinking",
		"content>type=redacted_thinking", "content>type=server_tool_use", "content>type=mcp_tool_use", "^stop_reason")
}

// foreign names the formats whose markers a head shows, which the readers
// of this package must leave alone.
func foreign(f facts) string {
	switch {
	case f.has("^jsonrpc"):
		return "JSON-RPC traffic"
	case f.has("*run_type", "*span_data", "*object=trace.span", "*dotted_order"):
		return "a LangSmith or Agents SDK trace"
	case f.has("*lc") && f.has("*type=constructor"),
		f.has("^type=human", "^type=ai", "messages>type=human", "messages>type=ai", "data>type=human", "data>type=ai"):
		return "LangChain messages"
	case f.has("^message") && !f.has("^messages"):
		return "an event stream with a message per line"
	case f.has("^resourceSpans", "^resource_spans", "*traceId", "*spanId"):
		return "OpenTelemetry spans"
	case f.has("^output", "^output_messages") && f.has("output>tool_calls", "output_messages>tool_calls", "^token_usage"):
		return "AgentV output"
	}
	return ""
}

func (chatFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var pending []any // messages given one per line
	pendingLine := 0
	flush := func() error {
		if pending == nil {
			return nil
		}
		msgs := pending
		pending = nil
		return yield(readChat(in, pendingLine, "", msgs, nil))
	}
	err := eachValue(ctx, in, func(v any, line int) error {
		m := obj(v)
		if m != nil && m["role"] != nil && m["messages"] == nil && m["choices"] == nil {
			if pending == nil {
				pendingLine = line
			}
			pending = append(pending, m)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		switch {
		case m == nil && list(v) != nil:
			return yield(readChat(in, line, "", list(v), nil))
		case m != nil:
			msgs := list(m["messages"])
			if choices := list(m["choices"]); len(choices) > 0 {
				if len(choices) > 1 {
					in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: fmt.Sprintf("%d choices; read the first", len(choices))})
				}
				if msg := obj(obj(choices[0])["message"]); msg != nil {
					msgs = append(msgs[:len(msgs):len(msgs)], msg)
				}
			}
			if msgs == nil {
				in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: "no messages or choices; skipped"})
				return nil
			}
			return yield(readChat(in, line, recordID(m), msgs, obj(m["usage"])))
		}
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: "not a conversation; skipped"})
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

func readChat(in trajeval.Input, line int, id string, msgs []any, usage map[string]any) *trajeval.Trajectory {
	b := newBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})
	legacy := map[string][]int{} // function name → steps of unanswered legacy calls
	for i, v := range msgs {
		place := fmt.Sprintf("message %d", i+1)
		m := obj(v)
		if m == nil {
			b.warn(place, "not an object; skipped")
			continue
		}
		switch role := str(m["role"]); role {
		case "user":
			b.user(text(m["content"]))
		case "assistant":
			b.llm++
			calls := list(m["tool_calls"])
			var idx []int
			for j, c := range calls {
				cp := fmt.Sprintf("%s tool call %d", place, j+1)
				if i := b.call(chatCall(obj(c), func(msg string) { b.warn(cp, msg) }), cp); i >= 0 {
					idx = append(idx, i)
				}
			}
			if fc := obj(m["function_call"]); fc != nil {
				cp := place + " function_call"
				s := trajeval.Step{Name: str(fc["name"]), Args: args(fc["arguments"], func(msg string) { b.warn(cp, msg) })}
				if i := b.call(s, cp); i >= 0 {
					idx = append(idx, i)
					legacy[s.Name] = append(legacy[s.Name], i)
				}
			}
			b.group(idx)
			if len(calls) == 0 && m["function_call"] == nil {
				said := text(m["content"])
				if said == nil || *said == "" {
					if r, ok := m["refusal"].(string); ok {
						said = &r
					}
				}
				b.final(said)
			} else {
				b.ensureTurn()
			}
		case "tool":
			b.result(idOf(m["tool_call_id"]), resultValue(m["content"]), nil, "", place)
		case "function":
			// Legacy replies carry the function's name, not an id: they
			// answer the earliest unanswered call of that name.
			name := str(m["name"])
			if q := legacy[name]; len(q) > 0 {
				b.t.Steps[q[0]].Result = resultValue(m["content"])
				legacy[name] = q[1:]
			} else {
				b.warn(place, fmt.Sprintf("function result for %q, which was never called; ignored", name))
			}
		case "system", "developer":
		default:
			b.warn(place, fmt.Sprintf("unknown role %q; skipped", role))
		}
	}
	if len(msgs) > 0 {
		b.t.Metrics.LLMCalls = &b.llm
	}
	if usage != nil {
		b.t.Metrics.Tokens = trajeval.Tokens{Input: count(usage["prompt_tokens"]), Output: count(usage["completion_tokens"]), Total: count(usage["total_tokens"])}
	}
	return b.finish()
}

// chatCall reads one entry of tool_calls: a function call, a custom tool
// call whose free-text input is kept as a string, or LangChain's flat
// {name, args, id}.
func chatCall(c map[string]any, warn func(string)) trajeval.Step {
	s := trajeval.Step{ID: idOf(c["id"])}
	if cu := obj(c["custom"]); cu != nil && c["function"] == nil {
		s.Name = str(cu["name"])
		s.Args = cu["input"]
		if s.Args == nil {
			s.Args = map[string]any{}
		}
		return s
	}
	fn := obj(c["function"])
	if fn == nil && c["name"] != nil {
		// the flat {name, args, id} that LangChain also writes
		s.Name = str(c["name"])
		s.Args = args(c["args"], warn)
		return s
	}
	s.Name = str(fn["name"])
	s.Args = args(fn["arguments"], warn)
	return s
}
