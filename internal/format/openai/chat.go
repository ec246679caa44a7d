package openai

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Chat reads OpenAI Chat Completions message lists ("openai-chat").
var Chat trajeval.Format = chatFormat{}

type chatFormat struct{}

func (chatFormat) Name() string { return "openai-chat" }

func (x chatFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the facts of a head that other formats
// read too (see msglog.HeadSniffer).
func (chatFormat) SniffHead(h *msglog.Head) error {
	c := sniff.First(h.Bytes())
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := h // its facts, read as few as the questions need
	if why := foreign(f); why != "" {
		return &trajeval.SniffError{Closeness: 10, Why: why}
	}
	var roles bool
	for _, p := range []string{"^", "messages>", "message>"} {
		roles = roles || f.Has(p+"role=user", p+"role=assistant", p+"role=system", p+"role=tool", p+"role=developer")
	}
	switch {
	case !roles:
		return &trajeval.SniffError{Closeness: 10, Why: `no messages with an OpenAI "role"`}
	case anthropicBlocks(f):
		return &trajeval.SniffError{Closeness: 40, Why: "messages hold Anthropic content blocks"}
	case f.Has("tool_calls>tool") && !f.Has("tool_calls>function"):
		return &trajeval.SniffError{Closeness: 50, Why: "tool calls have no function"}
	case f.Has("^type=message", "^type=function_call", "^type=function_call_output", "^object=response"):
		return &trajeval.SniffError{Closeness: 50, Why: "Responses API items"}
	case f.Has("^messages", "^choices"), f.Has("^role") && !f.Has("^type"):
		return nil
	}
	return &trajeval.SniffError{Closeness: 30, Why: "role messages, but not in a Chat Completions shape"}
}

// Disclaims reports that the head holds no "role" key, which every claim
// needs, or that its first line is AgentV output, which foreign refuses
// (see msglog.Disclaimer).
func (chatFormat) Disclaims(h *msglog.Head) bool {
	return !h.MayHold("role") || agentvFirst(h)
}

// agentvFirst reports that the facts of the head's first line are those
// of AgentV output: so are the head's, and foreign names a format.
func agentvFirst(h *msglog.Head) bool {
	return h.FirstHas("^output", "^output_messages") && h.FirstHas("output>tool_calls", "output_messages>tool_calls", "^token_usage")
}

func anthropicBlocks(f *msglog.Head) bool {
	return f.Has("content>type=tool_use", "content>type=tool_result", "content>type=thinking",
		"content>type=redacted_thinking", "content>type=server_tool_use", "content>type=mcp_tool_use", "^stop_reason")
}

// foreign names the formats whose markers a head shows, which the readers
// of this package must leave alone.
func foreign(f *msglog.Head) string {
	switch {
	case f.Has("^jsonrpc"):
		return "JSON-RPC traffic"
	case f.Has("*run_type", "*span_data", "*object=trace.span", "*dotted_order"):
		return "a LangSmith or Agents SDK trace"
	case f.Has("*lc") && f.Has("*type=constructor"),
		f.Has("^type=human", "^type=ai", "messages>type=human", "messages>type=ai", "data>type=human", "data>type=ai"):
		return "LangChain messages"
	case f.Has("^message") && !f.Has("^messages"):
		return "an event stream with a message per line"
	case f.Has("^resourceSpans", "^resource_spans", "*traceId", "*spanId"):
		return "OpenTelemetry spans"
	case f.Has("^output", "^output_messages") && f.Has("output>tool_calls", "output_messages>tool_calls", "^token_usage"):
		return "AgentV output"
	}
	return ""
}

func (chatFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var unknown drift.Unknown
	defer unknown.Report(in, "openai-chat")
	readConv := func(in trajeval.Input, line int, id string, msgs []any, usage map[string]any) *trajeval.Trajectory {
		return readChat(in, line, id, msgs, usage, func(what, name string) { unknown.Saw(what, name, line) })
	}
	var pending msglog.Pending // messages given one per line
	flush := func() error {
		msgs, line, partial := pending.Take()
		if msgs == nil {
			return nil
		}
		return yield(msglog.Mark(readConv(in, line, "", msgs, nil), line, partial))
	}
	err := msglog.EachValue(ctx, in, func(v any, line int, partial bool) error {
		m := msglog.Obj(v)
		if v == nil || m != nil && m["role"] != nil && m["messages"] == nil && m["choices"] == nil {
			pending.Add(v, line, partial)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		yield := func(t *trajeval.Trajectory) error { return yield(msglog.Mark(t, line, partial)) }
		switch {
		case m == nil && msglog.List(v) != nil:
			return yield(readConv(in, line, "", msglog.List(v), nil))
		case m != nil:
			msgs := msglog.List(m["messages"])
			if choices := msglog.List(m["choices"]); len(choices) > 0 {
				if len(choices) > 1 {
					in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: fmt.Sprintf("%d choices; read the first", len(choices))})
				}
				if msg := msglog.Obj(msglog.Obj(choices[0])["message"]); msg != nil {
					msgs = append(msgs[:len(msgs):len(msgs)], msg)
				}
			}
			if msgs == nil {
				return jsonl.NotARecord(in, line, 0, `no "messages" or "choices"`)
			}
			return yield(readConv(in, line, msglog.RecordID(m), msgs, msglog.Obj(m["usage"])))
		}
		return jsonl.NotARecord(in, line, 0, "not a conversation")
	})
	if err != nil {
		return err
	}
	return flush()
}

// readChat reads one conversation; saw notes a message role or tool call
// type it does not know.
func readChat(in trajeval.Input, line int, id string, msgs []any, usage map[string]any, saw func(what, name string)) *trajeval.Trajectory {
	b := msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})
	legacy := map[string][]int{} // function name → steps of unanswered legacy calls
	for i, v := range msgs {
		place := fmt.Sprintf("message %d", i+1)
		m := msglog.Obj(v)
		if m == nil {
			b.Warn(place, "not an object; skipped")
			continue
		}
		switch role := msglog.Str(m["role"]); role {
		case "user":
			b.User(msglog.Text(m["content"]))
		case "assistant":
			b.LLMCalls++
			calls := msglog.List(m["tool_calls"])
			var idx []int
			for j, c := range calls {
				cp := fmt.Sprintf("%s tool call %d", place, j+1)
				if typ, ok := msglog.Obj(c)["type"].(string); ok && typ != "function" && typ != "custom" && typ != "tool_call" {
					saw("tool call type", typ)
				}
				if i := b.Call(chatCall(msglog.Obj(c), in.KeepText, func(msg string) { b.Warn(cp, msg) }), cp); i >= 0 {
					idx = append(idx, i)
				}
			}
			if fc := msglog.Obj(m["function_call"]); fc != nil {
				cp := place + " function_call"
				s := trajeval.Step{Name: msglog.Str(fc["name"]), Args: args(fc["arguments"], in.KeepText, func(msg string) { b.Warn(cp, msg) })}
				if i := b.Call(s, cp); i >= 0 {
					idx = append(idx, i)
					legacy[s.Name] = append(legacy[s.Name], i)
				}
			}
			b.Group(idx)
			if len(calls) == 0 && m["function_call"] == nil {
				said := msglog.Text(m["content"])
				if said == nil || *said == "" {
					if r, ok := m["refusal"].(string); ok {
						said = &r
					}
				}
				b.Final(said)
			} else {
				b.EnsureTurn()
			}
		case "tool":
			b.Result(msglog.IDOf(m["tool_call_id"]), msglog.ResultValue(m["content"]), nil, "", place)
		case "function":
			// Legacy replies carry the function's name, not an id: they
			// answer the earliest unanswered call of that name.
			name := msglog.Str(m["name"])
			if q := legacy[name]; len(q) > 0 {
				b.Trajectory.Steps[q[0]].Result = msglog.ResultValue(m["content"])
				legacy[name] = q[1:]
			} else {
				b.Warn(place, fmt.Sprintf("function result for %q, which was never called; ignored", name))
			}
		case "system", "developer":
		default:
			saw("message role", role)
		}
	}
	if len(msgs) > 0 {
		b.Trajectory.Metrics.LLMCalls = &b.LLMCalls
	}
	if usage != nil {
		b.Trajectory.Metrics.Tokens = trajeval.Tokens{Input: msglog.Count(usage["prompt_tokens"]), Output: msglog.Count(usage["completion_tokens"]), Total: msglog.Count(usage["total_tokens"])}
	}
	return b.Finish()
}

// chatCall reads one entry of tool_calls: a function call, a custom tool
// call whose free-text input is kept as a string, or LangChain's flat
// {name, args, id}. keep leaves arguments as JSON text (see args).
func chatCall(c map[string]any, keep bool, warn func(string)) trajeval.Step {
	s := trajeval.Step{ID: msglog.IDOf(c["id"])}
	if cu := msglog.Obj(c["custom"]); cu != nil && c["function"] == nil {
		s.Name = msglog.Str(cu["name"])
		s.Args = cu["input"]
		if s.Args == nil {
			s.Args = map[string]any{}
		}
		return s
	}
	fn := msglog.Obj(c["function"])
	if fn == nil && c["name"] != nil {
		// the flat {name, args, id} that LangChain also writes
		s.Name = msglog.Str(c["name"])
		s.Args = args(c["args"], keep, warn)
		return s
	}
	s.Name = msglog.Str(fn["name"])
	s.Args = args(fn["arguments"], keep, warn)
	return s
}

// args reads a call's arguments as msglog.Args does; asked to keep text
// (see trajeval.Input.KeepText), a JSON string whose content is an object
// or an array that jsonv reads is kept as that text, a copy, which
// decodes to the value msglog.Args gives: a *json.RawMessage, as every
// reader keeps text (see trajeval.KeptText). Any other string (not JSON,
// blank, null, a scalar, text jsonv leaves to encoding/json) is read as
// msglog.Args reads it, warning included.
func args(v any, keep bool, warn func(string)) any {
	if s, ok := v.(string); ok && keep {
		if text, ok := jsonv.Composite([]byte(s)); ok {
			return &text
		}
	}
	return msglog.Args(v, warn)
}
