package openai

import (
	"context"
	"fmt"

	"github.com/trajeval/trajeval"
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

func (responsesFormat) Sniff(head []byte) error {
	c := sniff.First(head)
	if c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON"}
	}
	f := sniffFacts(head)
	if why := foreign(f); why != "" {
		return &trajeval.SniffError{Closeness: 10, Why: why}
	}
	if f.has("^object=response") && f.has("^output") {
		return nil
	}
	for _, p := range []string{"^", "input>", "output>", "items>", "data>"} {
		if f.has(p+"type=function_call", p+"type=function_call_output", p+"type=custom_tool_call", p+"type=mcp_call",
			p+"type=computer_call", p+"type=web_search_call", p+"type=file_search_call", p+"type=local_shell_call",
			p+"type=shell_call", p+"type=apply_patch_call", p+"type=code_interpreter_call") {
			return nil
		}
		if f.has(p+"type=message") && f.has("content>type=input_text", "content>type=output_text") {
			return nil
		}
	}
	if f.has("content>type=input_text", "content>type=output_text") && f.has("^input", "^output") {
		return nil
	}
	return &trajeval.SniffError{Closeness: 20, Why: "no Responses API items (function_call, message with input_text/output_text)"}
}

func (responsesFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	var pending []any // items given one per line
	pendingLine := 0
	flush := func() error {
		if pending == nil {
			return nil
		}
		items := pending
		pending = nil
		r := newResponses(in, pendingLine, "")
		r.items(items, false)
		return yield(r.finish())
	}
	err := eachValue(ctx, in, func(v any, line int) error {
		m := obj(v)
		if isItem(m) {
			if pending == nil {
				pendingLine = line
			}
			pending = append(pending, m)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		if l := list(v); l != nil {
			r := newResponses(in, line, "")
			r.items(l, false)
			return yield(r.finish())
		}
		if m == nil {
			in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: "not a response or a list of items; skipped"})
			return nil
		}
		r := newResponses(in, line, recordID(m))
		switch x := m["input"].(type) {
		case string:
			r.b.user(&x)
		case []any:
			r.items(x, false)
		}
		if out := list(m["output"]); out != nil || str(m["object"]) == "response" {
			r.items(out, true)
			r.b.llm++
			r.b.t.Metrics.LLMCalls = &r.b.llm
		}
		if u := obj(m["usage"]); u != nil {
			r.b.t.Metrics.Tokens = trajeval.Tokens{Input: count(u["input_tokens"]), Output: count(u["output_tokens"]), Total: count(u["total_tokens"])}
		}
		return yield(r.finish())
	})
	if err != nil {
		return err
	}
	return flush()
}

type responsesReader struct {
	b    *builder
	line int
}

func newResponses(in trajeval.Input, line int, id string) *responsesReader {
	return &responsesReader{line: line, b: newBuilder(id, func(place, msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: msg})
	})}
}

func (r *responsesReader) finish() *trajeval.Trajectory { return r.b.finish() }

// items reads a list of items. The client calls of one response form one
// parallel group: all of them when the list is a response's output, else
// each run of consecutive client calls.
func (r *responsesReader) items(items []any, oneResponse bool) {
	b := r.b
	var batch []int
	endBatch := func() {
		b.group(batch)
		batch = nil
	}
	for i, v := range items {
		place := fmt.Sprintf("item %d", i+1)
		m := obj(v)
		if m == nil {
			b.warn(place, "not an object; skipped")
			continue
		}
		if id := str(m["id"]); id != "" {
			place += " (" + id + ")"
		}
		typ := str(m["type"])
		if typ == "" && m["role"] != nil {
			typ = "message"
		}
		warn := func(msg string) { b.warn(place, msg) }
		if c, ok := clientCalls[typ]; ok {
			s := trajeval.Step{ID: idOf(m["call_id"]), Name: c.name}
			if typ == "local_shell_call" && s.ID == "" {
				s.ID = str(m["id"])
			}
			if s.Name == "" {
				s.Name = str(m["name"])
			}
			switch typ {
			case "function_call":
				s.Args = args(m["arguments"], warn)
			default:
				s.Args = m[c.args]
				if s.Args == nil {
					s.Args = map[string]any{}
				}
			}
			if s.ID == "" {
				warn("a call has no call_id; its result cannot be paired")
			}
			if j := b.call(s, place); j >= 0 {
				batch = append(batch, j)
			}
			continue
		}
		if !oneResponse && typ != "reasoning" {
			endBatch()
		}
		switch {
		case clientOutputs[typ]:
			id := idOf(m["call_id"])
			if typ == "local_shell_call_output" && id == "" {
				id = str(m["id"])
			}
			var failed *bool
			if typ == "apply_patch_call_output" {
				switch str(m["status"]) {
				case "completed":
					failed = ptr(false)
				case "failed":
					failed = ptr(true)
				}
			}
			b.result(id, resultValue(m["output"]), failed, "", place)
		case hostedCalls[typ] != (struct{ name, args, result string }{}):
			h := hostedCalls[typ]
			s := trajeval.Step{ID: str(m["id"]), Name: h.name}
			if s.Name == "" {
				s.Name = str(m["name"])
			}
			switch {
			case h.args == "arguments":
				s.Args = args(m["arguments"], warn)
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
			switch str(m["status"]) {
			case "completed":
				s.Error = ptr(false)
			case "failed", "incomplete":
				s.Error = ptr(true)
			}
			if e := m["error"]; e != nil {
				s.Error = ptr(true)
				if es, ok := e.(string); ok {
					s.ErrorMessage = es
				} else {
					s.ErrorMessage = jsonv.Marshal(e)
				}
			}
			b.call(s, place)
		case typ == "message":
			switch str(m["role"]) {
			case "user":
				b.user(text(m["content"]))
			case "assistant":
				b.final(text(m["content"]))
			}
		}
	}
	endBatch()
}

// isItem reports whether m is one item rather than a response or request.
func isItem(m map[string]any) bool {
	if m == nil {
		return false
	}
	typ := str(m["type"])
	_, call := clientCalls[typ]
	_, hosted := hostedCalls[typ]
	return call || hosted || clientOutputs[typ] || typ == "message" || typ == "reasoning" ||
		(typ == "" && m["role"] != nil && m["input"] == nil && m["output"] == nil)
}
