package langchain

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Messages reads LangChain and LangGraph message dumps ("langchain").
var Messages trajeval.Format = messagesFormat{}

type messagesFormat struct{}

func (messagesFormat) Name() string { return "langchain" }

func (x messagesFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the facts of a head that other formats
// read too (see msglog.HeadSniffer).
func (messagesFormat) SniffHead(h *msglog.Head) error {
	c := sniff.First(h.Bytes())
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := h // its facts, read as few as the questions need
	if f.Has("*run_type") {
		return &trajeval.SniffError{Closeness: 30, Why: "LangSmith runs"}
	}
	if f.Has("*lc") && f.Has("*type=constructor") && f.Has("*kwargs") {
		return nil
	}
	for _, p := range []string{"^", "messages>"} {
		if f.Has(p+"type=human", p+"type=ai", p+"type=AIMessageChunk") && (f.Has(p+"content", p+"data") || f.Has("data>content")) {
			return nil
		}
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no LangChain messages (type "human"/"ai", or "lc" constructors)`}
}

// Disclaims reports that the head holds no "type" key, which every claim
// needs (see msglog.Disclaimer).
func (messagesFormat) Disclaims(h *msglog.Head) bool { return !h.MayHold("type") }

// message is a LangChain message in any of its dump shapes.
type message struct {
	kind   string         // human, ai, tool, system, function
	f      map[string]any // the message's fields
	native bool           // a LangChain dump, not an OpenAI-style dict
}

var kinds = map[string]string{
	"human": "human", "HumanMessage": "human", "HumanMessageChunk": "human", "user": "human",
	"ai": "ai", "AIMessage": "ai", "AIMessageChunk": "ai", "assistant": "ai",
	"tool": "tool", "ToolMessage": "tool", "ToolMessageChunk": "tool",
	"system": "system", "SystemMessage": "system", "SystemMessageChunk": "system", "developer": "system",
	"function": "function", "FunctionMessage": "function", "FunctionMessageChunk": "function",
	"chat": "chat", "ChatMessage": "chat", "ChatMessageChunk": "chat",
}

// asMessage recognises a message: dumpd {lc, type: constructor, id, kwargs},
// messages_to_dict {type, data}, model_dump {type, content, ...}, an
// OpenAI-style {role, content} or a (role, content) pair.
func asMessage(v any) (message, bool) {
	if l := msglog.List(v); len(l) == 2 {
		role, ok1 := l[0].(string)
		content, ok2 := l[1].(string)
		if k, ok := kinds[role]; ok && ok1 && ok2 {
			return message{kind: k, f: map[string]any{"content": content}}, true
		}
	}
	m := msglog.Obj(v)
	if m == nil {
		return message{}, false
	}
	var msg message
	switch {
	case m["lc"] != nil && msglog.Str(m["type"]) == "constructor":
		ids := msglog.List(m["id"])
		if len(ids) == 0 {
			return message{}, false
		}
		msg = message{kind: kinds[msglog.Str(ids[len(ids)-1])], f: msglog.Obj(m["kwargs"]), native: true}
	case msglog.Obj(m["data"]) != nil && kinds[msglog.Str(m["type"])] != "":
		msg = message{kind: kinds[msglog.Str(m["type"])], f: msglog.Obj(m["data"]), native: true}
	case kinds[msglog.Str(m["type"])] != "" && m["role"] == nil:
		msg = message{kind: kinds[msglog.Str(m["type"])], f: m, native: true}
	case m["role"] != nil:
		msg = message{kind: kinds[msglog.Str(m["role"])], f: m}
	default:
		return message{}, false
	}
	if msg.f == nil {
		msg.f = map[string]any{}
	}
	if msg.kind == "chat" {
		msg.kind = kinds[msglog.Str(msg.f["role"])]
	}
	return msg, msg.kind != ""
}

// findMessages returns the message list of a conversation record: a list,
// a LangGraph state {"messages"}, or a checkpoint holding one.
func findMessages(v any) ([]any, bool) {
	if l := msglog.List(v); l != nil {
		return l, true
	}
	m := msglog.Obj(v)
	for _, path := range [][]string{{"messages"}, {"values", "messages"}, {"channel_values", "messages"}, {"checkpoint", "channel_values", "messages"}} {
		x := any(m)
		for _, k := range path {
			x = msglog.Obj(x)[k]
		}
		if l := msglog.List(x); l != nil {
			return l, true
		}
	}
	return nil, false
}

// typeName is the type a message that is not one names for itself: the
// class of a dumpd constructor, the type of {type, data} or a model_dump,
// else its role; "" when it names none.
func typeName(v any) string {
	m := msglog.Obj(v)
	if ids := msglog.List(m["id"]); m["lc"] != nil && len(ids) > 0 {
		return msglog.Str(ids[len(ids)-1])
	}
	if t := msglog.Str(m["type"]); t != "" && t != "constructor" {
		return t
	}
	return msglog.Str(m["role"])
}

func (messagesFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var unknown drift.Unknown
	defer unknown.Report(in, "langchain")
	readConv := func(in trajeval.Input, line int, id string, msgs []any) *trajeval.Trajectory {
		return readMessages(in, line, id, msgs, func(name string) { unknown.Saw("message type", name, line) })
	}
	var pending msglog.Pending // messages given one per line
	flush := func() error {
		msgs, line, partial := pending.Take()
		if msgs == nil {
			return nil
		}
		return yield(msglog.Mark(readConv(in, line, "", msgs), line, partial))
	}
	err := msglog.EachValue(ctx, in, func(v any, line int, partial bool) error {
		if _, ok := asMessage(v); v == nil || ok && msglog.Obj(v)["messages"] == nil {
			pending.Add(v, line, partial)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		yield := func(t *trajeval.Trajectory) error { return yield(msglog.Mark(t, line, partial)) }
		if msgs, ok := findMessages(v); ok {
			id := msglog.RecordID(msglog.Obj(v))
			if id == "" {
				id = msglog.Str(msglog.Obj(msglog.Obj(msglog.Obj(v)["config"])["configurable"])["thread_id"])
			}
			return yield(readConv(in, line, id, msgs))
		}
		return jsonl.NotARecord(in, line, 0, "not a message or a list of messages")
	})
	if err != nil {
		return err
	}
	return flush()
}

// readMessages reads one conversation; saw notes a message type it does
// not know.
func readMessages(in trajeval.Input, line int, id string, msgs []any, saw func(name string)) *trajeval.Trajectory {
	b := msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})
	for i, v := range msgs {
		place := "message " + strconv.Itoa(i+1)
		m, ok := asMessage(v)
		if !ok {
			if name := typeName(v); name == "remove" || name == "RemoveMessage" {
				// LangGraph's order to drop a message: nothing to score
			} else if name != "" {
				saw(name)
			} else {
				b.Warn(place, "not a LangChain message; skipped")
			}
			continue
		}
		addMessage(b, m, place)
	}
	if len(msgs) > 0 {
		b.Trajectory.Metrics.LLMCalls = &b.LLMCalls
	}
	b.Trajectory.Metrics.Tokens = b.Tokens
	handoffs(b.Trajectory)
	return b.Finish()
}

// handoffs notes, for each transfer_to_X call an agent made, that it
// called X, when X is an agent of the conversation: the handoff tools of
// LangGraph's supervisors are named so.
func handoffs(t *trajeval.Trajectory) {
	agents := map[string]bool{}
	for _, s := range t.Steps {
		agents[s.Agent] = s.Agent != ""
	}
	for _, s := range t.Steps {
		if to, ok := strings.CutPrefix(s.Name, "transfer_to_"); ok && s.Agent != "" && agents[to] && to != s.Agent {
			t.Agents = append(t.Agents, trajeval.Agent{Name: to, Parent: s.Agent})
		}
	}
}

// addMessage adds one message to the trajectory being built.
func addMessage(b *msglog.Builder, m message, place string) {
	f := m.f
	switch m.kind {
	case "human":
		b.User(msglog.Text(f["content"]))
	case "ai":
		b.LLMCalls++
		if u := msglog.Obj(f["usage_metadata"]); u != nil {
			msglog.AddCount(&b.Tokens.Input, msglog.Count(u["input_tokens"]))
			msglog.AddCount(&b.Tokens.Output, msglog.Count(u["output_tokens"]))
			msglog.AddCount(&b.Tokens.Total, msglog.Count(u["total_tokens"]))
		}
		calls := aiCalls(f, func(cp, msg string) { b.Warn(place+" "+cp, msg) })
		var idx []int
		for j, s := range calls {
			// LangGraph names an agent's messages after it (create_react_agent's
			// name, a supervisor's workers).
			s.Agent = msglog.Str(f["name"])
			if i := b.Call(s, place+" tool call "+strconv.Itoa(j+1)); i >= 0 {
				idx = append(idx, i)
			}
		}
		b.Group(idx)
		if len(calls) == 0 {
			b.Final(msglog.Text(f["content"]))
		} else {
			b.EnsureTurn()
		}
	case "tool":
		res := msglog.ResultValue(f["content"])
		var failed *bool
		switch st := msglog.Str(f["status"]); {
		case st == "error":
			failed = msglog.Ptr(true)
		case st == "success", st == "" && m.native:
			// ToolMessage.status defaults to "success", and dumpd leaves
			// defaults out.
			failed = msglog.Ptr(false)
		}
		msg := ""
		if s, ok := res.(string); ok && failed != nil && *failed {
			msg = s
		}
		b.Result(msglog.IDOf(f["tool_call_id"]), res, failed, msg, place)
	case "function":
		b.Warn(place, "a FunctionMessage has no call id; ignored")
	}
}

// aiCalls returns the tool calls of an AI message. tool_calls is
// authoritative; additional_kwargs.tool_calls (ChatOpenAI's raw copy) and
// content tool_use / tool_call blocks (ChatAnthropic, standard blocks) add
// only calls whose ids it lacks; invalid_tool_calls are calls too, their
// arguments kept as the raw text.
func aiCalls(f map[string]any, warn func(place, msg string)) []trajeval.Step {
	var out []trajeval.Step
	seen := map[string]bool{}
	add := func(s trajeval.Step) {
		if s.ID != "" {
			if seen[s.ID] {
				return
			}
			seen[s.ID] = true
		}
		out = append(out, s)
	}
	for j, c := range msglog.List(f["tool_calls"]) {
		c := msglog.Obj(c)
		add(trajeval.Step{ID: msglog.IDOf(c["id"]), Name: msglog.Str(c["name"]), Args: msglog.Args(c["args"], func(msg string) { warn(fmt.Sprintf("tool_calls[%d]", j), msg) })})
	}
	for j, c := range msglog.List(f["invalid_tool_calls"]) {
		c := msglog.Obj(c)
		add(trajeval.Step{ID: msglog.IDOf(c["id"]), Name: msglog.Str(c["name"]), Args: msglog.Args(c["args"], func(msg string) { warn(fmt.Sprintf("invalid_tool_calls[%d]", j), msg) })})
	}
	kw := msglog.Obj(f["additional_kwargs"])
	for j, c := range msglog.List(kw["tool_calls"]) {
		c := msglog.Obj(c)
		fn := msglog.Obj(c["function"])
		add(trajeval.Step{ID: msglog.IDOf(c["id"]), Name: msglog.Str(fn["name"]), Args: msglog.Args(fn["arguments"], func(msg string) { warn(fmt.Sprintf("additional_kwargs.tool_calls[%d]", j), msg) })})
	}
	for j, bl := range msglog.List(f["content"]) {
		bl := msglog.Obj(bl)
		switch msglog.Str(bl["type"]) {
		case "tool_use":
			add(trajeval.Step{ID: msglog.IDOf(bl["id"]), Name: msglog.Str(bl["name"]), Args: msglog.Args(bl["input"], func(msg string) { warn(fmt.Sprintf("content[%d]", j), msg) })})
		case "tool_call":
			add(trajeval.Step{ID: msglog.IDOf(bl["id"]), Name: msglog.Str(bl["name"]), Args: msglog.Args(bl["args"], func(msg string) { warn(fmt.Sprintf("content[%d]", j), msg) })})
		}
	}
	if fc := msglog.Obj(kw["function_call"]); fc != nil && len(out) == 0 {
		add(trajeval.Step{Name: msglog.Str(fc["name"]), Args: msglog.Args(fc["arguments"], func(msg string) { warn("function_call", msg) })})
	}
	return out
}
