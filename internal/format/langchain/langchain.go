package langchain

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Messages reads LangChain and LangGraph message dumps ("langchain").
var Messages trajeval.Format = messagesFormat{}

type messagesFormat struct{}

func (messagesFormat) Name() string { return "langchain" }

func (messagesFormat) Sniff(head []byte) error {
	c := sniff.First(head)
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := sniffFacts(head)
	if f.has("*run_type") {
		return &trajeval.SniffError{Closeness: 30, Why: "LangSmith runs"}
	}
	if f.has("*lc") && f.has("*type=constructor") && f.has("*kwargs") {
		return nil
	}
	for _, p := range []string{"^", "messages>"} {
		if f.has(p+"type=human", p+"type=ai", p+"type=AIMessageChunk") && (f.has(p+"content", p+"data") || f.has("data>content")) {
			return nil
		}
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no LangChain messages (type "human"/"ai", or "lc" constructors)`}
}

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
	if l := list(v); len(l) == 2 {
		role, ok1 := l[0].(string)
		content, ok2 := l[1].(string)
		if k, ok := kinds[role]; ok && ok1 && ok2 {
			return message{kind: k, f: map[string]any{"content": content}}, true
		}
	}
	m := obj(v)
	if m == nil {
		return message{}, false
	}
	var msg message
	switch {
	case m["lc"] != nil && str(m["type"]) == "constructor":
		ids := list(m["id"])
		if len(ids) == 0 {
			return message{}, false
		}
		msg = message{kind: kinds[str(ids[len(ids)-1])], f: obj(m["kwargs"]), native: true}
	case obj(m["data"]) != nil && kinds[str(m["type"])] != "":
		msg = message{kind: kinds[str(m["type"])], f: obj(m["data"]), native: true}
	case kinds[str(m["type"])] != "" && m["role"] == nil:
		msg = message{kind: kinds[str(m["type"])], f: m, native: true}
	case m["role"] != nil:
		msg = message{kind: kinds[str(m["role"])], f: m}
	default:
		return message{}, false
	}
	if msg.f == nil {
		msg.f = map[string]any{}
	}
	if msg.kind == "chat" {
		msg.kind = kinds[str(msg.f["role"])]
	}
	return msg, msg.kind != ""
}

// findMessages returns the message list of a conversation record: a list,
// a LangGraph state {"messages"}, or a checkpoint holding one.
func findMessages(v any) ([]any, bool) {
	if l := list(v); l != nil {
		return l, true
	}
	m := obj(v)
	for _, path := range [][]string{{"messages"}, {"values", "messages"}, {"channel_values", "messages"}, {"checkpoint", "channel_values", "messages"}} {
		x := any(m)
		for _, k := range path {
			x = obj(x)[k]
		}
		if l := list(x); l != nil {
			return l, true
		}
	}
	return nil, false
}

func (messagesFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var pending []any // messages given one per line
	pendingLine := 0
	flush := func() error {
		if pending == nil {
			return nil
		}
		msgs := pending
		pending = nil
		return yield(readMessages(in, pendingLine, "", msgs))
	}
	err := eachValue(ctx, in, func(v any, line int) error {
		if _, ok := asMessage(v); ok && obj(v)["messages"] == nil {
			if pending == nil {
				pendingLine = line
			}
			pending = append(pending, v)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		if msgs, ok := findMessages(v); ok {
			id := recordID(obj(v))
			if id == "" {
				id = str(obj(obj(obj(v)["config"])["configurable"])["thread_id"])
			}
			return yield(readMessages(in, line, id, msgs))
		}
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: "not a message or a list of messages; skipped"})
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

func readMessages(in trajeval.Input, line int, id string, msgs []any) *trajeval.Trajectory {
	b := newBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})
	for i, v := range msgs {
		place := fmt.Sprintf("message %d", i+1)
		m, ok := asMessage(v)
		if !ok {
			b.warn(place, "not a LangChain message; skipped")
			continue
		}
		addMessage(b, m, place)
	}
	if len(msgs) > 0 {
		b.t.Metrics.LLMCalls = &b.llm
	}
	b.t.Metrics.Tokens = b.tokens
	return b.finish()
}

// addMessage adds one message to the trajectory being built.
func addMessage(b *builder, m message, place string) {
	f := m.f
	switch m.kind {
	case "human":
		b.user(text(f["content"]))
	case "ai":
		b.llm++
		if u := obj(f["usage_metadata"]); u != nil {
			addCount(&b.tokens.Input, count(u["input_tokens"]))
			addCount(&b.tokens.Output, count(u["output_tokens"]))
			addCount(&b.tokens.Total, count(u["total_tokens"]))
		}
		calls := aiCalls(f, func(cp, msg string) { b.warn(place+" "+cp, msg) })
		var idx []int
		for j, s := range calls {
			if i := b.call(s, fmt.Sprintf("%s tool call %d", place, j+1)); i >= 0 {
				idx = append(idx, i)
			}
		}
		b.group(idx)
		if len(calls) == 0 {
			b.final(text(f["content"]))
		} else {
			b.ensureTurn()
		}
	case "tool":
		res := resultValue(f["content"])
		var failed *bool
		switch st := str(f["status"]); {
		case st == "error":
			failed = ptr(true)
		case st == "success", st == "" && m.native:
			// ToolMessage.status defaults to "success", and dumpd leaves
			// defaults out.
			failed = ptr(false)
		}
		msg := ""
		if s, ok := res.(string); ok && failed != nil && *failed {
			msg = s
		}
		b.result(idOf(f["tool_call_id"]), res, failed, msg, place)
	case "function":
		b.warn(place, "a FunctionMessage has no call id; ignored")
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
	for j, c := range list(f["tool_calls"]) {
		c := obj(c)
		add(trajeval.Step{ID: idOf(c["id"]), Name: str(c["name"]), Args: args(c["args"], func(msg string) { warn(fmt.Sprintf("tool_calls[%d]", j), msg) })})
	}
	for j, c := range list(f["invalid_tool_calls"]) {
		c := obj(c)
		add(trajeval.Step{ID: idOf(c["id"]), Name: str(c["name"]), Args: args(c["args"], func(msg string) { warn(fmt.Sprintf("invalid_tool_calls[%d]", j), msg) })})
	}
	kw := obj(f["additional_kwargs"])
	for j, c := range list(kw["tool_calls"]) {
		c := obj(c)
		fn := obj(c["function"])
		add(trajeval.Step{ID: idOf(c["id"]), Name: str(fn["name"]), Args: args(fn["arguments"], func(msg string) { warn(fmt.Sprintf("additional_kwargs.tool_calls[%d]", j), msg) })})
	}
	for j, bl := range list(f["content"]) {
		bl := obj(bl)
		switch str(bl["type"]) {
		case "tool_use":
			add(trajeval.Step{ID: idOf(bl["id"]), Name: str(bl["name"]), Args: args(bl["input"], func(msg string) { warn(fmt.Sprintf("content[%d]", j), msg) })})
		case "tool_call":
			add(trajeval.Step{ID: idOf(bl["id"]), Name: str(bl["name"]), Args: args(bl["args"], func(msg string) { warn(fmt.Sprintf("content[%d]", j), msg) })})
		}
	}
	if fc := obj(kw["function_call"]); fc != nil && len(out) == 0 {
		add(trajeval.Step{Name: str(fc["name"]), Args: args(fc["arguments"], func(msg string) { warn("function_call", msg) })})
	}
	return out
}
