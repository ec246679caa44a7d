package openai

import (
	"context"
	"strconv"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Responses reads OpenAI Responses API items ("openai-responses").
var Responses trajeval.Format = responsesFormat{}

type responsesFormat struct{}

func (responsesFormat) Name() string { return "openai-responses" }

// Item types of calls the client runs, answered by a later *_output item
// with the same call_id, and where their name and arguments live.
var clientCalls = map[string]struct{ name, args string }{
	"function_call":    {"", "arguments"},
	"custom_tool_call": {"", "input"},
	"computer_call":    {"computer", "action"},
	"local_shell_call": {"local_shell", "action"},
	"shell_call":       {"shell", "action"},
	"apply_patch_call": {"apply_patch", "operation"},
}

var clientOutputs = map[string]bool{
	"function_call_output": true, "custom_tool_call_output": true, "computer_call_output": true,
	"local_shell_call_output": true, "shell_call_output": true, "apply_patch_call_output": true,
}

// Item types of calls the provider runs: call and result in one item.
var hostedCalls = map[string]struct{ name, args, result string }{
	"mcp_call":              {"", "arguments", "output"},
	"web_search_call":       {"web_search", "action", ""},
	"file_search_call":      {"file_search", "queries", "results"},
	"code_interpreter_call": {"code_interpreter", "code", "outputs"},
	"image_generation_call": {"image_generation", "", "result"},
}

// skippedItems are the item types that carry nothing to score.
var skippedItems = map[string]bool{
	"reasoning": true, "mcp_list_tools": true, "mcp_approval_request": true, "mcp_approval_response": true,
	"item_reference": true, "compaction": true,
}

func (x responsesFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the facts of a head that other formats
// read too (see msglog.HeadSniffer).
func (responsesFormat) SniffHead(h *msglog.Head) error {
	c := sniff.First(h.Bytes())
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := h // its facts, read as few as the questions need
	if why := foreign(f); why != "" {
		return &trajeval.SniffError{Closeness: 10, Why: why}
	}
	if f.Has("^object=response") && f.Has("^output") {
		return nil
	}
	for _, p := range []string{"^", "input>", "output>", "items>", "data>"} {
		if f.Has(p+"type=function_call", p+"type=function_call_output", p+"type=custom_tool_call", p+"type=mcp_call",
			p+"type=computer_call", p+"type=web_search_call", p+"type=file_search_call", p+"type=local_shell_call",
			p+"type=shell_call", p+"type=apply_patch_call", p+"type=code_interpreter_call") {
			return nil
		}
		if f.Has(p+"type=message") && f.Has("content>type=input_text", "content>type=output_text") {
			return nil
		}
	}
	if f.Has("content>type=input_text", "content>type=output_text") && f.Has("^input", "^output") {
		return nil
	}
	return &trajeval.SniffError{Closeness: 20, Why: "no Responses API items (function_call, message with input_text/output_text)"}
}

// Disclaims reports that the head holds no "type" or "object" key, one
// of which every claim needs, or that its first line is AgentV output,
// which foreign refuses (see msglog.Disclaimer).
func (responsesFormat) Disclaims(h *msglog.Head) bool {
	return !h.MayHold("type", "object") || agentvFirst(h)
}

func (responsesFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var unknown drift.Unknown
	defer unknown.Report(in, "openai-responses")
	newReader := func(in trajeval.Input, line int, id string) *responsesReader {
		r := newResponses(in, line, id)
		r.unknown = &unknown
		return r
	}
	var pending msglog.Pending // items given one per line
	flush := func() error {
		items, line, partial := pending.Take()
		if items == nil {
			return nil
		}
		r := newReader(in, line, "")
		r.items(items, false)
		return yield(msglog.Mark(r.finish(), line, partial))
	}
	err := msglog.EachValue(ctx, in, func(v any, line int, partial bool) error {
		m := msglog.Obj(v)
		if v == nil || isItem(m) {
			pending.Add(v, line, partial)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		yield := func(t *trajeval.Trajectory) error { return yield(msglog.Mark(t, line, partial)) }
		if l := msglog.List(v); l != nil {
			r := newReader(in, line, "")
			r.items(l, false)
			return yield(r.finish())
		}
		if m == nil || !eventlog.Has(m, "input", "output") && msglog.Str(m["object"]) != "response" {
			return jsonl.NotARecord(in, line, 0, `not a response (with "output"), a request (with "input"), an item or a list of items`)
		}
		r := newReader(in, line, msglog.RecordID(m))
		switch x := m["input"].(type) {
		case string:
			r.b.User(&x)
		case []any:
			r.items(x, false)
		}
		if out := msglog.List(m["output"]); out != nil || msglog.Str(m["object"]) == "response" {
			r.items(out, true)
			r.b.LLMCalls++
			r.b.Trajectory.Metrics.LLMCalls = &r.b.LLMCalls
		}
		if u := msglog.Obj(m["usage"]); u != nil {
			r.b.Trajectory.Metrics.Tokens = trajeval.Tokens{Input: msglog.Count(u["input_tokens"]), Output: msglog.Count(u["output_tokens"]), Total: msglog.Count(u["total_tokens"])}
		}
		return yield(r.finish())
	})
	if err != nil {
		return err
	}
	return flush()
}

type responsesReader struct {
	b       *msglog.Builder
	line    int
	unknown *drift.Unknown
}

func newResponses(in trajeval.Input, line int, id string) *responsesReader {
	return &responsesReader{line: line, b: msglog.NewBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})}
}

func (r *responsesReader) finish() *trajeval.Trajectory { return r.b.Finish() }

// items reads a list of items. The client calls of one response form one
// parallel group: all of them when the list is a response's output, else
// each run of consecutive client calls.
func (r *responsesReader) items(items []any, oneResponse bool) {
	b := r.b
	var batch []int
	endBatch := func() {
		b.Group(batch)
		batch = nil
	}
	for i, v := range items {
		place := "item " + strconv.Itoa(i+1)
		m := msglog.Obj(v)
		if m == nil {
			b.Warn(place, "not an object; skipped")
			continue
		}
		if id := msglog.Str(m["id"]); id != "" {
			place += " (" + id + ")"
		}
		typ := msglog.Str(m["type"])
		if typ == "" && m["role"] != nil {
			typ = "message"
		}
		warn := func(msg string) { b.Warn(place, msg) }
		if c, ok := clientCalls[typ]; ok {
			s := trajeval.Step{ID: msglog.IDOf(m["call_id"]), Name: c.name}
			if typ == "local_shell_call" && s.ID == "" {
				s.ID = msglog.Str(m["id"])
			}
			if s.Name == "" {
				s.Name = msglog.Str(m["name"])
			}
			switch typ {
			case "function_call":
				s.Args = msglog.Args(m["arguments"], warn)
			default:
				s.Args = m[c.args]
				if s.Args == nil {
					s.Args = map[string]any{}
				}
			}
			if s.ID == "" {
				warn("a call has no call_id; its result cannot be paired")
			}
			if j := b.Call(s, place); j >= 0 {
				batch = append(batch, j)
			}
			continue
		}
		if !oneResponse && typ != "reasoning" {
			endBatch()
		}
		switch {
		case clientOutputs[typ]:
			id := msglog.IDOf(m["call_id"])
			if typ == "local_shell_call_output" && id == "" {
				id = msglog.Str(m["id"])
			}
			var failed *bool
			if typ == "apply_patch_call_output" {
				switch msglog.Str(m["status"]) {
				case "completed":
					failed = msglog.Ptr(false)
				case "failed":
					failed = msglog.Ptr(true)
				}
			}
			b.Result(id, msglog.ResultValue(m["output"]), failed, "", place)
		case hostedCalls[typ] != (struct{ name, args, result string }{}):
			h := hostedCalls[typ]
			s := trajeval.Step{ID: msglog.Str(m["id"]), Name: h.name}
			if s.Name == "" {
				s.Name = msglog.Str(m["name"])
			}
			switch {
			case h.args == "arguments":
				s.Args = msglog.Args(m["arguments"], warn)
			case h.args == "":
				s.Args = map[string]any{}
			case typ == "code_interpreter_call":
				s.Args = map[string]any{"code": m["code"]}
			case typ == "file_search_call":
				s.Args = map[string]any{"queries": m["queries"]}
			default:
				s.Args = m[h.args]
				if s.Args == nil {
					s.Args = map[string]any{}
				}
			}
			if h.result != "" {
				s.Result = m[h.result]
			}
			switch msglog.Str(m["status"]) {
			case "completed":
				s.Error = msglog.Ptr(false)
			case "failed", "incomplete":
				s.Error = msglog.Ptr(true)
			}
			if e := m["error"]; e != nil {
				s.Error = msglog.Ptr(true)
				if es, ok := e.(string); ok {
					s.ErrorMessage = es
				} else {
					s.ErrorMessage = jsonv.Marshal(e)
				}
			}
			b.Call(s, place)
		case typ == "message":
			switch msglog.Str(m["role"]) {
			case "user":
				b.User(msglog.Text(m["content"]))
			case "assistant":
				b.Final(msglog.Text(m["content"]))
			}
		case !skippedItems[typ]:
			r.unknown.Saw("item type", typ, r.line)
		}
	}
	endBatch()
}

// isItem reports whether m is one item rather than a response or request.
func isItem(m map[string]any) bool {
	if m == nil {
		return false
	}
	typ := msglog.Str(m["type"])
	_, call := clientCalls[typ]
	_, hosted := hostedCalls[typ]
	return call || hosted || clientOutputs[typ] || typ == "message" || typ == "reasoning" ||
		(typ == "" && m["role"] != nil && m["input"] == nil && m["output"] == nil)
}
