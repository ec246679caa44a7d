// Package anthropic reads Anthropic Messages API conversations
// ("anthropic") into trajectories.
//
// A file holds a JSON array of messages, a request {"model", "system",
// "messages": [...]}, a response ({"type": "message", "role": "assistant",
// "content": [...], "usage": ...}), or JSON Lines of these: a line that is
// a conversation (an array, or an object with "messages") is a trajectory
// of its own; lines that are single messages or responses are one
// conversation together.
//
// The rules:
//  1. Each tool_use block {id, name, input} of an assistant message is a
//     step, in block order. input is an object; a JSON string is parsed.
//  2. A tool_result block {tool_use_id, content, is_error} in a later user
//     message is the result of the call with that id. Content that is
//     only text becomes a string; other content stays a JSON value.
//     is_error true gives error true (the text is the error message);
//     absent or false gives error false.
//  3. Server-side tools (server_tool_use, mcp_tool_use) are steps too, with
//     their *_tool_result blocks (mcp_tool_result carries is_error; a
//     server result whose content type ends in "_error" gives error true).
//  4. An assistant message with two or more tool_use blocks gives them one
//     parallel group; server-run tools are not grouped.
//  5. A user message starts a turn unless it holds only tool_result
//     blocks. The final response is the text of the last assistant message
//     without tool_use blocks.
//  6. A tool_use id seen twice is one step (the first), with a warning; so
//     is a result whose call never appears, and a second result for a call.
//  7. No timing. llm_calls counts the assistant messages; tokens sum their
//     usage, input counting input_tokens, cache_creation_input_tokens and
//     cache_read_input_tokens.
//  8. The trajectory id is the record's id (a lone response's msg_ id),
//     conversation_id, thread_id or session_id, also under metadata.
//  9. A content block of a type this reader does not know is skipped,
//     with one warning per type and a count (see package drift). Blocks
//     that carry nothing to score (thinking, redacted_thinking, image,
//     document, search_result, container_upload, compaction) are known.
//
// A request with only plain-text messages and no tool blocks looks the
// same as an OpenAI chat request and is left to openai-chat.
//
// Cost: one conversation is held at a time and JSON Lines are streamed; a
// single JSON document is read whole.
package anthropic

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is the Anthropic Messages API.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "anthropic" }

func (x format) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the facts of a head that other formats
// read too (see msglog.HeadSniffer).
func (format) SniffHead(h *msglog.Head) error {
	c := sniff.First(h.Bytes())
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := h // its facts, read as few as the questions need
	switch {
	case f.Has("^jsonrpc"):
		return &trajeval.SniffError{Closeness: 10, Why: "JSON-RPC traffic"}
	case f.Has("^message") && !f.Has("^messages"):
		return &trajeval.SniffError{Closeness: 30, Why: `lines wrap a "message": an agent CLI's event stream`}
	case f.Has("*run_type", "*span_data", "*dotted_order", "*lc") || f.Has("^type=human", "^type=ai", "messages>type=human", "messages>type=ai"):
		return &trajeval.SniffError{Closeness: 20, Why: "a LangChain, LangSmith or Agents SDK trace"}
	case f.Has("^resourceSpans", "^resource_spans", "*traceId"):
		return &trajeval.SniffError{Closeness: 10, Why: "OpenTelemetry spans"}
	}
	if !f.Has("^role", "messages>role") {
		return &trajeval.SniffError{Closeness: 10, Why: `no messages with a "role"`}
	}
	if f.Has("content>type=tool_use", "content>type=tool_result", "content>type=thinking", "content>type=redacted_thinking",
		"content>type=server_tool_use", "content>type=mcp_tool_use") {
		return nil
	}
	if f.Has("^type=message") && f.Has("^stop_reason") {
		return nil
	}
	return &trajeval.SniffError{Closeness: 40, Why: "messages, but no Anthropic content blocks (tool_use, tool_result, thinking)"}
}

// Disclaims reports that the head holds no "type" key, which every claim
// needs (see msglog.Disclaimer).
func (format) Disclaims(h *msglog.Head) bool { return !h.MayHold("type") }

// skipped are the block types that carry nothing to score.
var skipped = map[string]bool{
	"thinking": true, "redacted_thinking": true, "image": true, "document": true,
	"search_result": true, "container_upload": true, "compaction": true,
}

func (format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var unknown drift.Unknown
	defer unknown.Report(in, "anthropic")
	readConv := func(in trajeval.Input, line int, id string, msgs []any) *trajeval.Trajectory {
		return read(in, line, id, msgs, func(typ string) { unknown.Saw("content block type", typ, line) })
	}
	var pending msglog.Pending // messages given one per line
	flush := func() error {
		msgs, line, partial := pending.Take()
		if msgs == nil {
			return nil
		}
		id := ""
		if len(msgs) == 1 {
			id = msglog.Str(msglog.Obj(msgs[0])["id"]) // a response on its own
		}
		return yield(msglog.Mark(readConv(in, line, id, msgs), line, partial))
	}
	err := msglog.EachValue(ctx, in, func(v any, line int, partial bool) error {
		m := msglog.Obj(v)
		if v == nil || m != nil && m["role"] != nil && m["messages"] == nil {
			pending.Add(v, line, partial)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		yield := func(t *trajeval.Trajectory) error { return yield(msglog.Mark(t, line, partial)) }
		switch {
		case msglog.List(v) != nil:
			return yield(readConv(in, line, "", msglog.List(v)))
		case m != nil && msglog.List(m["messages"]) != nil:
			return yield(readConv(in, line, msglog.RecordID(m), msglog.List(m["messages"])))
		}
		return jsonl.NotARecord(in, line, 0, "not a message or a conversation")
	})
	if err != nil {
		return err
	}
	return flush()
}

// read reads one conversation; saw notes a block type it does not know.
func read(in trajeval.Input, line int, id string, msgs []any, saw func(typ string)) *trajeval.Trajectory {
	b := msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})
	for i, v := range msgs {
		place := "message " + strconv.Itoa(i+1)
		m := msglog.Obj(v)
		if m == nil {
			b.Warn(place, "not an object; skipped")
			continue
		}
		switch role := msglog.Str(m["role"]); role {
		case "user":
			user(b, m["content"], place, saw)
		case "assistant":
			assistant(b, m["content"], place, saw)
			b.LLMCalls++
			if u := msglog.Obj(m["usage"]); u != nil {
				for _, k := range []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
					msglog.AddCount(&b.Tokens.Input, msglog.Count(u[k]))
				}
				msglog.AddCount(&b.Tokens.Output, msglog.Count(u["output_tokens"]))
			}
		case "system":
		default:
			b.Warn(place, fmt.Sprintf("unknown role %q; skipped", role))
		}
	}
	if len(msgs) > 0 {
		b.Trajectory.Metrics.LLMCalls = &b.LLMCalls
	}
	b.Trajectory.Metrics.Tokens = b.Tokens
	return b.Finish()
}

// user pairs the tool results of a user message and starts a turn when
// the message says something besides them.
func user(b *msglog.Builder, content any, place string, saw func(string)) {
	blocks, ok := content.([]any)
	if !ok {
		b.User(msglog.Text(content))
		return
	}
	var said []any
	for j, v := range blocks {
		bl := msglog.Obj(v)
		switch msglog.Str(bl["type"]) {
		case "tool_result", "mcp_tool_result":
			res := msglog.ResultValue(bl["content"])
			failed := bl["is_error"] == true
			msg := ""
			if failed {
				if s, ok := res.(string); ok {
					msg = s
				}
			}
			b.Result(msglog.IDOf(bl["tool_use_id"]), res, &failed, msg, place+" block "+strconv.Itoa(j+1))
		default:
			if typ := msglog.Str(bl["type"]); typ != "text" && !skipped[typ] {
				saw(typ)
			}
			said = append(said, v)
		}
	}
	if said != nil {
		b.User(msglog.Text(said))
	}
}

func assistant(b *msglog.Builder, content any, place string, saw func(string)) {
	blocks, ok := content.([]any)
	if !ok {
		b.Final(msglog.Text(content))
		return
	}
	var group []int
	client := false
	var said []any
	for j, v := range blocks {
		bl := msglog.Obj(v)
		bp := place + " block " + strconv.Itoa(j+1)
		typ := msglog.Str(bl["type"])
		switch {
		case typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use":
			s := trajeval.Step{ID: msglog.IDOf(bl["id"]), Name: msglog.Str(bl["name"]), Args: msglog.Args(bl["input"], func(msg string) { b.Warn(bp, msg) })}
			if typ == "tool_use" {
				client = true
			}
			if i := b.Call(s, bp); i >= 0 && typ == "tool_use" {
				group = append(group, i)
			}
		case typ == "mcp_tool_result":
			res := msglog.ResultValue(bl["content"])
			failed := bl["is_error"] == true
			b.Result(msglog.IDOf(bl["tool_use_id"]), res, &failed, errText(failed, res), bp)
		case strings.HasSuffix(typ, "_tool_result"):
			c := bl["content"]
			failed := strings.HasSuffix(msglog.Str(msglog.Obj(c)["type"]), "_error")
			msg := ""
			if failed {
				msg = msglog.Str(msglog.Obj(c)["error_code"])
				if msg == "" {
					msg = jsonv.Marshal(c)
				}
			}
			b.Result(msglog.IDOf(bl["tool_use_id"]), c, &failed, msg, bp)
		case typ == "text":
			said = append(said, v)
		case !skipped[typ]:
			saw(typ)
		}
	}
	b.Group(group)
	if client {
		b.EnsureTurn()
	} else {
		b.Final(msglog.Text(said))
	}
}

func errText(failed bool, res any) string {
	if s, ok := res.(string); ok && failed {
		return s
	}
	return ""
}
