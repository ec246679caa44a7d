// Package mcp reads Model Context Protocol traffic: JSON Lines of JSON-RPC
// 2.0 messages as they cross a stdio transport, both directions
// interleaved, with tools/call requests and their responses:
//
//	{"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}
//	{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}}
//	{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_time","arguments":{}}}
//	{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"10:00"}]}}
//	{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"14 C"}],"structuredContent":{"temp":14},"isError":false}}
//
// The rules:
//  1. Each tools/call request is a step, in request order; its name and
//     arguments come from params ({} when there are none). Other requests
//     (initialize, tools/list, ...) and notifications are not steps.
//  2. Responses pair with requests by id, type-sensitively: 2 and "2" are
//     different ids (though both give the step id "2"). Responses may come in any order. A response whose id
//     matches no request is reported and dropped; so is a second response.
//  3. The result is the response's structuredContent when given, else the
//     text of its content when every block is text (joined by newlines),
//     else the content list.
//  4. error is true when the result has isError true (a tool error, its text
//     the error_message) or the response is a JSON-RPC error (protocol
//     error: "message (code N)"); false for any other result. A request
//     cancelled by notifications/cancelled and never answered gets error
//     true and "cancelled"; one neither answered nor cancelled keeps error
//     null and is reported.
//  5. Parallel calls: a tools/call sent while an earlier one is still
//     unanswered was issued beside it (an agent waits for its results before
//     its next model response), so overlapping calls share a parallel
//     group. Calls of one model response that the host sent one after the
//     other cannot be told apart and have no group.
//  6. The wire carries no times, turns or usage: steps have no duration and
//     the trajectory no turns or metrics.
//  7. An initialize request after other traffic starts a new session: ids
//     start again, and each session is its own trajectory, with id
//     "session-<n>" (n from 1, in file order).
//  8. A tools/call id used again within a session is reported; the same
//     call repeated verbatim (a replayed log) is kept once, a different one
//     is a new step.
//  9. A line holding a JSON array is a JSON-RPC batch (protocol 2025-03-26):
//     its messages are read in order.
//  10. A method, a key of tools/call's params or result, or a content block
//     type that the protocol's revisions up to 2025-11-25 do not define is
//     drift: one warning per kind, with a count (see package drift).
//
// The file is read line by line; only the current session is held.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is MCP JSON-RPC traffic.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "mcp" }

func (format) Sniff(head []byte) error {
	if c := sniff.First(head); c != '{' && c != '[' {
		return &trajeval.SniffError{Why: "not JSON Lines of objects"}
	}
	for _, line := range sniff.Lines(head, 5) {
		var msgs []struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if line[0] == '{' {
			line = append(append([]byte{'['}, line...), ']')
		}
		if json.Unmarshal(line, &msgs) != nil {
			continue
		}
		for _, m := range msgs {
			if m.JSONRPC == "2.0" && (m.Method != "" || m.Result != nil || m.Error != nil) {
				return nil
			}
		}
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no JSON-RPC 2.0 message ("jsonrpc": "2.0" with a method, result or error)`}
}

type reader struct {
	in   trajeval.Input
	line int

	t        *trajeval.Trajectory
	sessions int
	traffic  bool                  // the session has seen any message
	reqs     map[string][]*request // by id key, in order
	stepReq  []*request            // the request of each step
	inflight int                   // tools/call requests not yet answered
	batch    []int                 // steps of the current run of overlapping calls
	groups   int
	unknown  drift.Unknown
}

// What the protocol's revisions up to 2025-11-25 define; what is not here
// is drift.
var (
	methods = known("initialize", "ping", "tools/list", "tools/call", "resources/list",
		"resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe",
		"prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
		"sampling/createMessage", "elicitation/create", "roots/list",
		"tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
		"notifications/initialized", "notifications/cancelled", "notifications/progress",
		"notifications/message", "notifications/resources/updated",
		"notifications/resources/list_changed", "notifications/tools/list_changed",
		"notifications/prompts/list_changed", "notifications/roots/list_changed",
		"notifications/tasks/status", "notifications/elicitation/complete")
	callParams = known("name", "arguments", "_meta", "task")
	callResult = known("content", "structuredContent", "isError", "_meta", "task")
	blockTypes = known("text", "image", "audio", "resource_link", "resource")
)

func known(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// unknownKeys notes each key of m not in keys, in sorted order.
func (r *reader) unknownKeys(what string, m map[string]any, keys map[string]bool) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !keys[k] {
			r.unknown.Saw(what, k, r.line)
		}
	}
}

type request struct {
	method    string
	step      int // index of the step for tools/call, else -1
	line      int
	answered  bool
	cancelled string
	hasCancel bool
	params    any
}

func (f format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := &reader{in: in}
	r.reset()
	skipped, seen := eventlog.Skipped{One: "a JSON-RPC message", Many: "JSON-RPC messages"}, false
	err := jsonl.Each(in.R, func(line []byte, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.line = n
		v, damaged, err := eventlog.Decode(in, line, n)
		if err != nil {
			return err
		}
		r.t.Partial = r.t.Partial || damaged
		var msgs []any
		switch x := v.(type) {
		case map[string]any:
			if eventlog.Has(x, "jsonrpc", "method", "result", "error") {
				msgs = []any{x}
			}
		case []any:
			msgs = x
		}
		if msgs == nil {
			if !damaged {
				return skipped.Line(in, n)
			}
			return nil
		}
		seen = true
		for _, m := range msgs {
			mm, ok := m.(map[string]any)
			if !ok {
				r.warn("", "a batch entry is not an object; skipped")
				continue
			}
			if mm["method"] == "initialize" && r.traffic {
				if err := yield(r.finish()); err != nil {
					return err
				}
				r.reset()
			}
			r.traffic = true
			r.message(mm)
		}
		return nil
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	r.unknown.Report(in, "mcp")
	if !seen {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no JSON-RPC messages: no line is a JSON object", Err: trajeval.ErrEmptyTrace}
	}
	return yield(r.finish())
}

func (r *reader) warn(place, format string, a ...any) {
	r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.line, Place: place, Msg: fmt.Sprintf(format, a...)})
}

func (r *reader) reset() {
	r.sessions++
	r.t = &trajeval.Trajectory{ID: fmt.Sprintf("session-%d", r.sessions), Turns: []trajeval.Turn{}}
	r.traffic = false
	r.reqs = map[string][]*request{}
	r.stepReq = nil
	r.inflight, r.batch, r.groups = 0, nil, 0
}

// idKey keys a JSON-RPC id by type and value: 2 and "2" differ.
func idKey(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return "s:" + x, true
	case json.Number:
		return "n:" + string(x), true
	}
	return "", false
}

func idText(v any) string { return jsonv.Marshal(v) }

func (r *reader) message(m map[string]any) {
	method, isReq := m["method"].(string)
	id, hasID := m["id"]
	key, okID := idKey(id)
	if isReq && !methods[method] {
		r.unknown.Saw("method", method, r.line)
	}
	switch {
	case isReq && method == "notifications/cancelled":
		r.cancel(m)
	case isReq && !hasID:
		// another notification
	case isReq && !okID:
		r.warn("", "request %s has an id that is neither a string nor a number; ignored", method)
	case isReq:
		r.request(key, id, method, m)
	case hasID && (m["result"] != nil || m["error"] != nil || hasKey(m, "result")):
		if !okID {
			if id == nil && m["error"] != nil {
				r.warn("", "a JSON-RPC error with a null id (a request that could not be parsed): %s", errorText(m["error"]))
				return
			}
			r.warn("", "a response whose id is neither a string nor a number; ignored")
			return
		}
		r.response(key, id, m)
	}
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func (r *reader) request(key string, id any, method string, m map[string]any) {
	params, _ := m["params"].(map[string]any)
	if old := r.lastCall(key); old != nil && method == "tools/call" {
		if jsonv.Equal(old.params, m["params"]) {
			r.warn("id "+idText(id), "tools/call id %s appears twice with the same call; kept once", idText(id))
			return
		}
		if !old.answered {
			r.warn("id "+idText(id), "tools/call id %s is reused while the first call is unanswered; kept the first", idText(id))
			return
		}
		r.warn("id "+idText(id), "tools/call id %s is reused; read as a new call", idText(id))
	}
	req := &request{method: method, step: -1, line: r.line, params: m["params"]}
	r.reqs[key] = append(r.reqs[key], req)
	if method != "tools/call" {
		return
	}
	r.unknownKeys("tools/call params key", params, callParams)
	name, _ := params["name"].(string)
	if name == "" {
		r.warn("id "+idText(id), "tools/call without a tool name")
	}
	s := trajeval.Step{ID: rawID(id), Name: name, Args: eventlog.Args(params["arguments"], func() {
		r.warn("", "arguments of %s are a string that is not valid JSON; kept as text", name)
	})}
	req.step = len(r.t.Steps)
	if r.inflight == 0 {
		r.batch = nil
	}
	r.inflight++
	r.batch = append(r.batch, req.step)
	switch {
	case len(r.batch) == 2:
		r.groups++
		r.t.Steps[r.batch[0]].ParallelGroup = r.groups
		s.ParallelGroup = r.groups
	case len(r.batch) > 2:
		s.ParallelGroup = r.groups
	}
	r.t.Steps = append(r.t.Steps, s)
	r.stepReq = append(r.stepReq, req)
}

// lastCall returns the latest tools/call request with the id key.
func (r *reader) lastCall(key string) *request {
	list := r.reqs[key]
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].method == "tools/call" {
			return list[i]
		}
	}
	return nil
}

// rawID is the step id: the id's text, without quotes for a string.
func rawID(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return idText(v)
}

func (r *reader) response(key string, id any, m map[string]any) {
	place := "id " + idText(id)
	list := r.reqs[key]
	if len(list) == 0 {
		r.warn(place, "a response to request id %s, which never appears; ignored", idText(id))
		return
	}
	req := pick(list, m)
	if req == nil {
		r.warn(place, "a second response to request id %s; kept the first", idText(id))
		return
	}
	req.answered = true
	if req.step < 0 {
		return
	}
	if !req.hasCancel {
		r.inflight--
	}
	s := &r.t.Steps[req.step]
	if e, ok := m["error"]; ok && e != nil {
		s.Error = ptr(true)
		s.ErrorMessage = errorText(e)
		return
	}
	res, _ := m["result"].(map[string]any)
	r.unknownKeys("tools/call result key", res, callResult)
	if blocks, ok := res["content"].([]any); ok {
		for _, b := range blocks {
			blk, _ := b.(map[string]any)
			if t, _ := blk["type"].(string); !blockTypes[t] {
				r.unknown.Saw("content block type", t, r.line)
			}
		}
	}
	s.Result = result(res)
	isErr := res["isError"] == true
	s.Error = &isErr
	if isErr {
		if t, ok := s.Result.(string); ok {
			s.ErrorMessage = t
		} else if s.Result != nil {
			s.ErrorMessage = jsonv.Marshal(s.Result)
		}
	}
}

// pick returns the unanswered request a response answers. Client and
// server number their requests separately, so two may be pending under one
// id: a response shaped like a tool result (content, structuredContent,
// isError, or an error, and no role or model as a sampling result has)
// then goes to the tools/call.
func pick(list []*request, m map[string]any) *request {
	var call, other *request
	for _, q := range list {
		switch {
		case q.answered:
		case q.method == "tools/call":
			if call == nil {
				call = q
			}
		case other == nil:
			other = q
		}
	}
	if call == nil || other == nil {
		if call != nil {
			return call
		}
		return other
	}
	res, _ := m["result"].(map[string]any)
	_, blocks := res["content"].([]any)
	if m["error"] != nil || (!hasKey(res, "role") && !hasKey(res, "model") && (blocks || hasKey(res, "structuredContent") || hasKey(res, "isError"))) {
		return call
	}
	return other
}

func errorText(e any) string {
	em, _ := e.(map[string]any)
	msg, _ := em["message"].(string)
	if code, ok := em["code"].(json.Number); ok {
		return fmt.Sprintf("%s (code %s)", msg, code)
	}
	if msg == "" {
		return jsonv.Marshal(e)
	}
	return msg
}

func result(res map[string]any) any {
	if sc, ok := res["structuredContent"]; ok && sc != nil {
		return sc
	}
	content, ok := res["content"].([]any)
	if !ok {
		return res["content"]
	}
	var texts []string
	for _, b := range content {
		blk, _ := b.(map[string]any)
		t, ok := blk["text"].(string)
		if blk["type"] != "text" || !ok {
			return content
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\n")
}

func (r *reader) cancel(m map[string]any) {
	params, _ := m["params"].(map[string]any)
	key, ok := idKey(params["requestId"])
	if !ok {
		return
	}
	if req := r.lastCall(key); req != nil && !req.answered && !req.hasCancel {
		r.inflight--
		req.hasCancel = true
		req.cancelled, _ = params["reason"].(string)
	}
}

func (r *reader) finish() *trajeval.Trajectory {
	t := r.t
	for i, req := range r.stepReq {
		if req.answered {
			continue
		}
		s := &t.Steps[i]
		if req.hasCancel {
			s.Error = ptr(true)
			s.ErrorMessage = "cancelled"
			if req.cancelled != "" {
				s.ErrorMessage += ": " + req.cancelled
			}
		}
	}
	for i := range t.Steps {
		s := &t.Steps[i]
		if s.Error == nil {
			r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.stepReq[i].line, Place: "id " + s.ID,
				Msg: fmt.Sprintf("call %s never got a response", s.Name)})
		}
	}
	t.Finish()
	return t
}

func ptr[T any](v T) *T { return &v }
