package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Chat is the session file Gemini CLI saves for every session, under
// ~/.gemini/tmp/<project hash>/chats/session-*.json (read as format
// gemini-chat). Two shapes are read:
//
//   - one JSON object (Gemini CLI up to 0.3x):
//     {"sessionId", "projectHash", "startTime", "lastUpdated", "messages": [...]}
//   - JSON Lines (later versions): a first line with sessionId and
//     projectHash, then one message a line, {"$set": {...}} lines that
//     update the session's fields and {"$rewindTo": id} lines that drop
//     the message id and every later one. A message written again with
//     the same id replaces the earlier one. A $set of messages, the CLI's
//     copy of its history written again as it changes (its opening
//     context, masked outputs, a compression's summary), is not read: the
//     messages' own lines are what happened.
//
// The rules:
//  1. A file is one trajectory, whose id is the sessionId.
//  2. A message of type user opens a turn; its text is the turn's user.
//     From 0.44 the CLI records as user messages what it sends the model
//     itself: the responses of a batch of calls (functionResponse parts,
//     no text), which the calls' records already hold, and the context it
//     opens a chat with (<session_context>); neither opens a turn. A
//     gemini message's toolCalls are the turn's steps, in order; its
//     text, thoughts left out, is the turn's final response when no tool
//     call follows it in the turn. Messages of type info, error and
//     warning are the CLI's own notices: skipped.
//  3. A step's args are the call's args; its result is the output of its
//     functionResponse (the whole response when it holds more than an
//     output); its start time is the call's timestamp, which is when the CLI
//     recorded the call's batch (the file holds no end time, so steps
//     have no duration).
//  4. status success gives error false; error and cancelled give error
//     true, with the response's error text; any other status (the call
//     had not finished when the file was written) gives no error value.
//  5. The CLI records the calls of one model response together, stamped
//     with one time, and appends them to the gemini message before them,
//     so one message may hold several responses' calls: calls of one
//     message that follow each other with the same timestamp are one
//     response, and two or more share a parallel group.
//  6. Tokens are the sums of the gemini messages' tokens; the duration is
//     lastUpdated less startTime.
//  7. A message type, a field of the session, of a message or of a tool
//     call, a status, or (in a checkpoint) a content role or part kind
//     this reader does not know is reported once per kind, with a count
//     (see package drift).
//  8. A file with no message is an empty trace: an error, not a score.
//  9. A call that started a sub-agent (its agentId) is followed by the
//     sub-agent's calls, read from the sub-agent's own file as steps of
//     that agent; a file that cannot be read is reported and leaves the
//     trajectory partial (see subagents.go for the rules).
//
// The checkpoints that /chat save writes (checkpoint-<tag>.json, a list of
// Gemini API contents with functionCall and functionResponse parts) are
// read as the same messages: see [chat.checkpoint]. Gemini CLI's older
// logs.json holds the user's prompts only and is not read.
var Chat trajeval.Format = chatFormat{}

type chatFormat struct{}

func (chatFormat) Name() string { return "gemini-chat" }

func (x chatFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (chatFormat) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	switch sniff.First(head) {
	case '[':
		keys := sniff.FirstElementKeys(head)
		if sniff.HasKey(keys, "role") && sniff.HasKey(keys, "parts") && !sniff.HasKey(keys, "content", "contents") {
			return nil
		}
		return &trajeval.SniffError{Why: "not a list of Gemini contents (role and parts)"}
	case '{':
	default:
		return &trajeval.SniffError{Why: "not a JSON object or list"}
	}
	keys := h.Keys()
	if sniff.HasKey(keys, "sessionId") && sniff.HasKey(keys, "projectHash") {
		return nil
	}
	if sniff.HasKey(keys, "sessionId", "projectHash") {
		return &trajeval.SniffError{Closeness: 50, Why: "sessionId or projectHash, not both"}
	}
	return &trajeval.SniffError{Why: "no sessionId and projectHash"}
}

var (
	sessionFields = set("sessionId", "projectHash", "startTime", "lastUpdated", "messages", "summary", "directories", "kind",
		"activeExtensionName", "memoryScratchpad")
	messageFields = set("id", "timestamp", "type", "content", "displayContent", "toolCalls", "thoughts", "tokens", "model")
	// agentId names the sub-agent a call started (its session is a file
	// of its own, under chats/<session id>/).
	callFields   = set("id", "name", "args", "result", "status", "timestamp", "agentId", "displayName", "description", "resultDisplay", "renderOutputAsMarkdown")
	messageTypes = set("user", "gemini", "info", "error", "warning")
	// statuses are a tool call's states (Gemini CLI's Status type).
	statuses = set("success", "error", "cancelled", "validating", "scheduled", "executing", "awaiting_approval")
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// message is one message with the line it was read from.
type message struct {
	m    map[string]any
	line int
	// oneBatch: the message's calls are one model response (a checkpoint's
	// content), whatever their timestamps.
	oneBatch bool
}

type chat struct {
	in      trajeval.Input
	meta    map[string]any
	msgs    []message
	partial bool
	unknown drift.Unknown
	// side is what the session's sub-agent files share (see subagents.go);
	// depth is 0 for the session's own file, 1 for a sub-agent's, and on.
	side  *side
	depth int
	root  string // the main session's id, in a sub-agent's file
	// strictUTF8: every line must be UTF-8 (a sub-agent's file, which the
	// session names and the user does not); badUTF8: one was not.
	strictUTF8, badUTF8 bool
}

func (chatFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	data, err := jsonl.ReadDocument(in.Name, in.R, jsonl.SizeOf(in.R), nil)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "the file is empty", Err: trajeval.ErrEmptyTrace}
	}
	if err := jsonl.CheckDepth(in.Name, data, 1); err != nil {
		return err
	}
	c := &chat{in: in, meta: map[string]any{}, side: newSide(in.Name)}
	if first, ok := jsonv.FastDecode(data); ok {
		// One value, which a Parser reads many times faster than
		// encoding/json, to the same value (see jsonv.Parser).
		if list, ok := first.([]any); ok {
			err = c.checkpoint(list, fastLines(data))
		} else {
			err = c.whole(first, fastLines(data))
		}
		return c.finish(ctx, err, yield)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var first any
	if err := d.Decode(&first); err != nil {
		if err := jsonl.Damaged(in, data, err, 1); err != nil {
			return err
		}
		first, c.partial = jsonl.Salvage(data), true
	}
	rest := bytes.TrimSpace(data[d.InputOffset():])
	if list, ok := first.([]any); ok {
		err = c.checkpoint(list, messageLines(data))
	} else if c.partial || len(rest) == 0 {
		err = c.whole(first, messageLines(data))
	} else {
		err = c.lines(ctx, bytes.NewReader(data))
	}
	return c.finish(ctx, err, yield)
}

// finish yields the session read, unless reading it failed with err or
// found no message.
func (c *chat) finish(ctx context.Context, err error, yield func(*trajeval.Trajectory) error) error {
	if err != nil {
		return err
	}
	if len(c.msgs) == 0 {
		return &trajeval.TraceError{File: c.in.Name, Line: 1, Msg: "the Gemini CLI session holds no messages", Err: trajeval.ErrEmptyTrace}
	}
	t, err := c.build(ctx)
	if err != nil {
		return err
	}
	c.unknown.Report(c.in, "gemini-chat")
	return yield(t)
}

// fastLines is messageLines for data that a jsonv.Parser reads whole:
// each element's place is where its Span starts, its line counted on from
// the last.
func fastLines(data []byte) []int {
	var p jsonv.Parser
	p.Reset(data)
	at := jsonl.NewLines(data)
	var lines []int
	elems := func() bool {
		return p.Array(func() bool {
			start, _, ok := p.Span()
			lines = append(lines, at.Line(int64(start)))
			return ok
		})
	}
	switch p.Peek() {
	case '[':
		elems()
	case '{':
		found := false
		p.Object(func(key []byte) bool {
			if found || string(key) != "messages" {
				return p.Skip()
			}
			found = true // the first "messages", as encoding/json's tokens find it
			if p.Peek() != '[' {
				return p.Skip()
			}
			return elems()
		})
	}
	return lines
}

// whole reads the one-object shape.
func (c *chat) whole(v any, lines []int) error {
	m, ok := v.(map[string]any)
	if !ok {
		return jsonl.NotARecord(c.in, 1, 1, "a Gemini CLI session is an object with sessionId and messages")
	}
	c.setMeta(m, 1)
	msgs, ok := m["messages"].([]any)
	if !ok && m["messages"] != nil {
		return &trajeval.TraceError{File: c.in.Name, Line: 1, Msg: "messages is not a list", Hint: "a Gemini CLI session's messages are a list of objects"}
	}
	for i, x := range msgs {
		line := 1
		if i < len(lines) {
			line = lines[i]
		}
		msg, ok := x.(map[string]any)
		if !ok {
			c.warn(line, "", "message %d is not an object; skipped", i+1)
			continue
		}
		c.msgs = append(c.msgs, message{m: msg, line: line})
	}
	return nil
}

// partKinds are the keys of a Gemini API Part.
var partKinds = set("text", "functionCall", "functionResponse", "thought", "thoughtSignature", "inlineData",
	"fileData", "executableCode", "codeExecutionResult", "videoMetadata")

// checkpoint reads what /chat save writes, a list of Gemini API contents,
// as the messages of a session: a user content's text is a user message,
// a model content is a gemini message whose functionCall parts are its
// tool calls, one response, and the functionResponse parts of the user
// content after it are their results, paired by id, else by name.
func (c *chat) checkpoint(list []any, lines []int) error {
	var open []map[string]any // calls without a response yet
	for i, x := range list {
		line := 1
		if i < len(lines) {
			line = lines[i]
		}
		content, ok := x.(map[string]any)
		if !ok {
			return jsonl.NotARecord(c.in, line, 1, "a checkpoint is a list of Gemini contents, objects with role and parts")
		}
		parts, _ := content["parts"].([]any)
		var text strings.Builder
		var calls []any
		for _, p := range parts {
			part, _ := p.(map[string]any)
			c.unknownKeys(part, partKinds, "part", line)
			if s, ok := part["text"].(string); ok && part["thought"] != true {
				text.WriteString(s)
			}
			if fc, ok := part["functionCall"].(map[string]any); ok {
				call := map[string]any{"id": fc["id"], "name": fc["name"], "args": fc["args"]}
				if call["id"] == nil {
					delete(call, "id")
				}
				calls = append(calls, call)
				open = append(open, call)
			}
			if fr, ok := part["functionResponse"].(map[string]any); ok {
				open = answer(open, fr)
			}
		}
		switch role, _ := content["role"].(string); role {
		case "user":
			if text.Len() > 0 {
				c.msgs = append(c.msgs, message{m: map[string]any{"type": "user", "content": text.String()}, line: line})
			}
		case "model":
			c.msgs = append(c.msgs, message{m: map[string]any{"type": "gemini", "content": text.String(), "toolCalls": calls}, line: line, oneBatch: true})
		default:
			c.unknown.Saw("content role", role, line)
		}
	}
	return nil
}

// answer gives the call that fr answers (by id, else the first open call
// of its name) its result and status, and returns the calls still open.
func answer(open []map[string]any, fr map[string]any) []map[string]any {
	for i, call := range open {
		if id, ok := fr["id"].(string); ok && id != "" && call["id"] != nil && call["id"] != id {
			continue
		}
		if call["name"] != fr["name"] {
			continue
		}
		call["result"] = []any{map[string]any{"functionResponse": fr}}
		call["status"] = "success"
		if r, _ := fr["response"].(map[string]any); r["error"] != nil {
			call["status"] = "error"
		}
		return slices.Delete(open, i, i+1)
	}
	return open
}

// messageLines returns the line on which each message of the one-object
// shape (or each content of a checkpoint) starts, as far as data is whole,
// so that warnings name the message's line.
func messageLines(data []byte) []int {
	d := json.NewDecoder(bytes.NewReader(data))
	t, err := d.Token()
	if err != nil {
		return nil
	}
	if t == json.Delim('[') {
		return elementLines(d, data)
	}
	if t != json.Delim('{') {
		return nil
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return nil
		}
		if key != "messages" {
			var skip json.RawMessage
			if d.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := d.Token(); err != nil || t != json.Delim('[') {
			return nil
		}
		return elementLines(d, data)
	}
	return nil
}

// elementLines returns the lines on which the elements of the list d has
// just opened start.
func elementLines(d *json.Decoder, data []byte) []int {
	var lines []int
	at := jsonl.NewLines(data)
	for d.More() {
		off := d.InputOffset()
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
			off++
		}
		lines = append(lines, at.Line(off))
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return lines
		}
	}
	return lines
}

func (c *chat) setMeta(m map[string]any, line int) {
	c.unknownKeys(m, sessionFields, "session field", line)
	for k, v := range m {
		if k != "messages" {
			c.meta[k] = v
		}
	}
}

// lines reads the JSON Lines shape.
func (c *chat) lines(ctx context.Context, r io.Reader) error {
	return jsonl.Each(r, func(line []byte, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.strictUTF8 {
			if err := c.checkUTF8(line, n); err != nil {
				return err
			}
		}
		v, damaged, err := eventlog.Decode(c.in, line, n)
		if err != nil {
			return err
		}
		if damaged {
			c.partial = true
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return jsonl.NotARecord(c.in, n, 1, "a line of a Gemini CLI session is an object")
		}
		switch {
		case n == 1 || eventlog.Has(m, "sessionId") && !eventlog.Has(m, "type"):
			c.setMeta(m, n)
		case eventlog.Has(m, "$set"):
			if s, ok := m["$set"].(map[string]any); ok {
				c.setMeta(s, n)
			}
		case eventlog.Has(m, "$rewindTo"):
			c.rewind(m["$rewindTo"], n)
		case eventlog.Has(m, "type") && eventlog.Has(m, "id"):
			id, _ := m["id"].(string)
			for i := range c.msgs {
				if id != "" && c.msgs[i].m["id"] == id {
					c.msgs[i] = message{m: m, line: n}
					return nil
				}
			}
			c.msgs = append(c.msgs, message{m: m, line: n})
		default:
			c.unknown.Saw("line", firstKey(m), n)
		}
		return nil
	})
}

// unknownKeys notes the keys of m that known lacks, in sorted order, so
// that a file gives the same warnings on every read.
func (c *chat) unknownKeys(m map[string]any, known map[string]bool, what string, line int) {
	var keys []string
	for k := range m {
		if !known[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		c.unknown.Saw(what, k, line)
	}
}

// firstKey returns the least key of m, to name a line of unknown kind.
func firstKey(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return "{}"
	}
	return keys[0]
}

func (c *chat) rewind(to any, line int) {
	id, _ := to.(string)
	for i := range c.msgs {
		if c.msgs[i].m["id"] == id {
			c.msgs = c.msgs[:i]
			return
		}
	}
	c.warn(line, "", "$rewindTo names message %q, which is not in the session; nothing dropped", id)
}

func (c *chat) warn(line int, place, format string, a ...any) {
	w := trajeval.Warning{File: c.in.Name, Line: line, Place: place}
	w.Msg = fmt.Sprintf(format, a...)
	c.in.Warn(w)
}

// build turns the messages into the trajectory, reading the files of the
// sub-agents its calls started.
func (c *chat) build(ctx context.Context) (*trajeval.Trajectory, error) {
	id, _ := c.meta["sessionId"].(string)
	t := &trajeval.Trajectory{ID: id, Turns: []trajeval.Turn{}, Partial: c.partial}
	var final *string
	closeTurn := func() {
		if n := len(t.Turns); n > 0 && final != nil {
			t.Turns[n-1].FinalResponse = final
		}
		final = nil
	}
	turn := func() int {
		if len(t.Turns) == 0 {
			t.Turns = append(t.Turns, trajeval.Turn{})
		}
		return len(t.Turns)
	}
	var tok [3]int64
	var hasTok [3]bool
	groups := 0
	for _, msg := range c.msgs {
		m := msg.m
		c.unknownKeys(m, messageFields, "message field", msg.line)
		typ, _ := m["type"].(string)
		switch typ {
		case "user":
			s := contentText(m["content"])
			if !fromUser(m["content"], s) {
				continue
			}
			closeTurn()
			t.Turns = append(t.Turns, trajeval.Turn{User: &s})
		case "gemini":
			n := turn()
			calls, _ := m["toolCalls"].([]any)
			if len(calls) > 0 {
				final = nil
			} else if s := contentText(m["content"]); s != "" {
				final = &s
			}
			bs := batches(calls)
			if msg.oneBatch {
				bs = [][]map[string]any{slices.Concat(bs...)}
			}
			for _, batch := range bs {
				group := 0
				if len(batch) > 1 {
					groups++
					group = groups
				}
				for _, call := range batch {
					t.Steps = append(t.Steps, c.step(call, n, group, msg.line))
				}
				// A sub-agent's calls come after the call that started it
				// (and the calls that ran beside it), before the next batch.
				for _, call := range batch {
					steps, err := c.subagent(ctx, call, n, &groups, msg.line)
					if err != nil {
						return nil, err
					}
					t.Steps = append(t.Steps, steps...)
				}
			}
			if notObjects(calls) {
				c.warn(msg.line, "", "a tool call is not an object; skipped")
			}
			if tk, ok := m["tokens"].(map[string]any); ok {
				for i, k := range []string{"input", "output", "total"} {
					if x, ok := tk[k].(json.Number); ok {
						if v, err := x.Int64(); err == nil {
							tok[i] += v
							hasTok[i] = true
						}
					}
				}
			}
		default:
			if !messageTypes[typ] {
				c.unknown.Saw("message type", typ, msg.line)
			}
		}
	}
	closeTurn()
	for i, p := range []**int64{&t.Metrics.Tokens.Input, &t.Metrics.Tokens.Output, &t.Metrics.Tokens.Total} {
		if hasTok[i] {
			*p = &tok[i]
		}
	}
	start, end := c.metaTime("startTime"), c.metaTime("lastUpdated")
	if !start.IsZero() && !end.IsZero() && !end.Before(start) {
		d := float64(end.Sub(start)) / float64(time.Millisecond)
		t.Metrics.DurationMS = &d
	}
	t.Partial = c.partial // a sub-agent's file read in part, or not at all
	t.Finish()
	return t, nil
}

func (c *chat) metaTime(k string) time.Time {
	return msglog.ParseTimeOf(k, c.meta[k], func(msg string) { c.warn(1, "", "%s", msg) })
}

func (c *chat) step(call map[string]any, turn, group, line int) trajeval.Step {
	c.unknownKeys(call, callFields, "tool call field", line)
	id, _ := call["id"].(string)
	name, _ := call["name"].(string)
	s := trajeval.Step{Turn: turn, ID: id, Name: name, ParallelGroup: group,
		Args: eventlog.Args(call["args"], func() {
			c.warn(line, "", "args of %s are a string that is not valid JSON; kept as text", name)
		}),
		StartTime: msglog.ParseTimeOf("timestamp", call["timestamp"], func(msg string) { c.warn(line, "", "%s", msg) }),
	}
	resp := response(call["result"])
	if out, ok := resp["output"]; ok && len(resp) == 1 {
		s.Result = out
	} else if resp != nil {
		s.Result = resp
	}
	status, _ := call["status"].(string)
	switch status {
	case "success":
		s.Error = ptr(false)
	case "error", "cancelled":
		s.Error = ptr(true)
		s.ErrorMessage = status
		if e := resp["error"]; e != nil {
			s.ErrorMessage = text(e)
		}
	case "":
	default:
		if !statuses[status] {
			c.unknown.Saw("tool call status", status, line)
		}
	}
	return s
}

// batches splits a message's tool calls into the batches the CLI recorded:
// it appends each batch, stamped with one time, to the gemini message
// before it, so one message may hold the calls of several model
// responses, and calls that follow each other with the same timestamp are
// one. Calls that are not objects are left out.
func batches(calls []any) [][]map[string]any {
	var out [][]map[string]any
	last := any(nil)
	for _, x := range calls {
		call, ok := x.(map[string]any)
		if !ok {
			continue
		}
		ts, _ := call["timestamp"].(string)
		if n := len(out); n > 0 && ts != "" && ts == last {
			out[n-1] = append(out[n-1], call)
		} else {
			out = append(out, []map[string]any{call})
		}
		last = ts
	}
	return out
}

func notObjects(calls []any) bool {
	for _, x := range calls {
		if _, ok := x.(map[string]any); !ok {
			return true
		}
	}
	return false
}

// response returns the response of the first functionResponse part of a
// tool call's result, nil when there is none.
func response(v any) map[string]any {
	parts, ok := v.([]any)
	if !ok {
		parts = []any{v}
	}
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		if fr, ok := pm["functionResponse"].(map[string]any); ok {
			r, _ := fr["response"].(map[string]any)
			return r
		}
	}
	return nil
}

// fromUser reports whether a user message, of content v and text s, was
// written by the user. Gemini CLI records as user messages what it sends
// the model itself: from 0.44 the responses of each batch of tool calls
// (functionResponse parts, no text), which the calls' own records already
// hold, and the context it opens a chat with (<session_context>).
func fromUser(v any, s string) bool {
	if strings.HasPrefix(strings.TrimSpace(s), "<session_context>") {
		return false
	}
	return s != "" || !hasPart(v, "functionResponse")
}

// hasPart reports whether content v holds a part with the key k.
func hasPart(v any, k string) bool {
	switch x := v.(type) {
	case map[string]any:
		_, ok := x[k]
		return ok
	case []any:
		return slices.ContainsFunc(x, func(p any) bool { return hasPart(p, k) })
	}
	return false
}

// contentText returns the text of a message's content: a string, a part
// or a list of them (Gemini's PartListUnion); parts that are not text,
// and thoughts, are left out.
func contentText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		if x["thought"] == true {
			return "" // the model's thinking, or the CLI's own stand-in for it
		}
		s, _ := x["text"].(string)
		return s
	case []any:
		var b bytes.Buffer
		for _, p := range x {
			b.WriteString(contentText(p))
		}
		return b.String()
	}
	return ""
}
