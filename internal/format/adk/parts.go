package adk

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// get returns m[key], or the value under key's camelCase spelling: ADK's
// eval cases and genai types accept both user_content and userContent.
func get(m map[string]any, key string) any {
	if m == nil {
		return nil
	}
	if v, ok := m[key]; ok {
		return v
	}
	if !strings.Contains(key, "_") {
		return nil
	}
	return m[camel(key)]
}

func camel(s string) string {
	var b strings.Builder
	up := false
	for _, r := range s {
		switch {
		case r == '_':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// text returns the text of a genai Content: its text parts (thoughts left
// out) joined by newlines, as ADK does; nil when it has none.
func text(content any) *string {
	var parts []string
	for _, p := range partsOf(content) {
		pm := obj(p)
		if t, ok := pm["text"].(string); ok && pm["thought"] != true {
			parts = append(parts, t)
		}
	}
	if parts == nil {
		return nil
	}
	s := strings.Join(parts, "\n")
	return &s
}

func partsOf(content any) []any {
	p, _ := obj(content)["parts"].([]any)
	return p
}

// A builder collects the tool calls of one conversation (an eval case or
// a session), pairs each response to its call by id, and reports each
// problem once.
type builder struct {
	file  string
	line  int
	place string
	warn  func(trajeval.Warning)

	calls    []ToolCall
	turn     []int // the invocation index of each call
	answered []bool
	byID     map[string]int
	groups   int
	said     map[string]bool

	agents   []trajeval.Agent
	agentInv []int // the invocation index of each of agents
	// calledBy is the author of the latest function call of each name: an
	// AgentTool call is named after its agent, whose events may follow.
	calledBy map[string]string

	unknown *drift.Unknown // the event fields and part keys not known, for the whole file
}

// The fields of ADK's Event (with its LlmResponse fields) and the keys of
// a genai Part, as of ADK 0.x, 1.x and 2.x and google-genai 1.x; each may also be
// spelled in camelCase. What is not here is drift.
var (
	eventFields = known("invocation_id", "author", "actions", "long_running_tool_ids", "branch", "id",
		"timestamp", "content", "grounding_metadata", "partial", "turn_complete", "finish_reason",
		"error_code", "error_message", "interrupted", "custom_metadata", "usage_metadata",
		"live_session_resumption_update", "input_transcription", "output_transcription",
		"avg_logprobs", "logprobs_result", "cache_metadata", "citation_metadata", "model_version",
		"interaction_id",
		"is_greeting", "options", // ADK 0.x, as in its own fixtures of April 2025
		"node_info", "isolation_scope", "output", "requested_input", "routes") // ADK 2.x (ADK Go 2.2.0's Event)
	partKeys = known("text", "thought", "thought_signature", "function_call", "function_response",
		"inline_data", "file_data", "executable_code", "code_execution_result", "video_metadata",
		"media_resolution", "part_metadata", "tool_call", "tool_response")
)

func known(keys ...string) map[string]bool {
	m := make(map[string]bool, 2*len(keys))
	for _, k := range keys {
		m[k], m[camel(k)] = true, true
	}
	return m
}

// drift notes each key of m not in keys, in sorted order.
func (b *builder) drift(what string, m map[string]any, keys map[string]bool) {
	if b.unknown == nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !keys[k] {
			b.unknown.Saw(what, k, b.line)
		}
	}
}

func newBuilder(file string, line int, place string, warn func(trajeval.Warning)) *builder {
	return &builder{file: file, line: line, place: place, warn: warn, byID: map[string]int{}, said: map[string]bool{}, calledBy: map[string]string{}}
}

func (b *builder) warnf(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if b.said[msg] {
		return
	}
	b.said[msg] = true
	b.warn(trajeval.Warning{File: b.file, Line: b.line, Place: b.place, Msg: msg})
}

// call adds one function call of invocation inv; a call whose id was seen
// before is the same call and is dropped.
func (b *builder) call(inv int, fc map[string]any, agent string, group int) {
	id := idOf(get(fc, "id"))
	name := str(fc["name"])
	if name == "" {
		b.warnf("a function call has no name")
	}
	if id != "" {
		if _, dup := b.byID[id]; dup {
			b.warnf("call id %q appears twice; kept the first", id)
			return
		}
		b.byID[id] = len(b.calls)
	}
	b.calls = append(b.calls, ToolCall{ID: id, Name: name, Args: b.args(get(fc, "args"), name), ParallelGroup: group, Agent: agent})
	b.turn = append(b.turn, inv)
	b.answered = append(b.answered, false)
}

func (b *builder) args(v any, name string) any {
	switch x := v.(type) {
	case nil:
		return map[string]any{}
	case string:
		if p, err := jsonv.Decode([]byte(x)); err == nil {
			return p
		}
		if strings.TrimSpace(x) != "" {
			b.warnf("arguments of %s are a string that is not valid JSON; kept as text", name)
		}
	}
	return v
}

// result pairs a function response with its call: by id, or, when the
// response has no id (hand-written eval sets), with the first unanswered
// call of the same name.
func (b *builder) result(fr map[string]any, key string) {
	id := idOf(get(fr, "id"))
	name := str(fr["name"])
	i := -1
	if id != "" {
		j, ok := b.byID[id]
		if !ok {
			b.warnf("a response for call id %q, which never appears; ignored", id)
			return
		}
		i = j
	} else {
		for j, c := range b.calls {
			if !b.answered[j] && c.ID == "" && c.Name == name {
				i = j
				break
			}
		}
		if i < 0 {
			b.warnf("a response of %s has no id and no unanswered call of that name; ignored", name)
			return
		}
	}
	if b.answered[i] {
		b.warnf("call %s is answered twice; kept the first response", label(id, name))
		return
	}
	b.answered[i] = true
	b.calls[i].Result = get(fr, key)
	if msg, ok := thrown(b.calls[i].Result, name); ok {
		b.calls[i].Thrown = msg
	}
}

// step returns the call as a step of turn: its error is known only where
// ADK wrote that the tool threw (see thrown).
func (c ToolCall) step(turn int) trajeval.Step {
	s := trajeval.Step{Turn: turn, ID: c.ID, Name: c.Name, Args: c.Args, Result: c.Result,
		ParallelGroup: c.ParallelGroup, Agent: c.Agent}
	if c.Thrown != "" {
		failed := true
		s.Error, s.ErrorMessage = &failed, c.Thrown
	}
	return s
}

// thrown returns the message of a response that ADK itself wrote for a
// tool that threw: ADK for TypeScript answers the model {"error": "Error
// in tool '<name>': <message>"}, its FunctionTool's wording. A response a
// tool returned, {"error": ...} or {"status": "error"} included, is the
// tool's own and says nothing ADK vouches for.
func thrown(v any, name string) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return "", false
	}
	msg, ok := m["error"].(string)
	return msg, ok && name != "" && strings.HasPrefix(msg, "Error in tool '"+name+"': ")
}

func label(id, name string) string {
	if id != "" {
		return fmt.Sprintf("%q", id)
	}
	return name
}

// event reads the parts of one event (of invocation_events or a session)
// belonging to invocation inv. Two or more function calls in one event
// were issued in one model response: they share a parallel group.
func (b *builder) event(inv int, ev map[string]any) {
	b.drift("event field", ev, eventFields)
	author := str(ev["author"])
	b.caller(inv, author, str(ev["branch"]))
	if to := str(get(obj(ev["actions"]), "transfer_to_agent")); to != "" && author != "" {
		b.agent(inv, to, author)
	}
	parts := partsOf(get(ev, "content"))
	n := 0
	for _, p := range parts {
		if get(obj(p), "function_call") != nil {
			n++
		}
	}
	group := 0
	if n > 1 {
		b.groups++
		group = b.groups
	}
	for _, p := range parts {
		pm := obj(p)
		b.drift("part key", pm, partKeys)
		if fc := obj(get(pm, "function_call")); fc != nil {
			b.call(inv, fc, author, group)
			if name := str(fc["name"]); author != "" && author != "user" {
				b.calledBy[name] = author
				if to := str(obj(get(fc, "args"))["agent_name"]); name == "transfer_to_agent" && to != "" {
					b.agent(inv, to, author)
				}
			}
		}
		if fr := obj(get(pm, "function_response")); fr != nil {
			b.result(fr, "response")
		}
	}
}

// caller notes who called the author of an event: the agent before it
// in the event's branch ("root.billing"), else the author of a function
// call named after it (an AgentTool call, whose agent's events follow).
func (b *builder) caller(inv int, author, branch string) {
	if author == "" || author == "user" {
		return
	}
	path := strings.Split(branch, ".")
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == author {
			b.agent(inv, author, path[i-1])
			return
		}
	}
	if p := b.calledBy[author]; p != "" && p != author {
		b.agent(inv, author, p)
	}
}

// agent notes that parent called name in invocation inv.
func (b *builder) agent(inv int, name, parent string) {
	b.agents = append(b.agents, trajeval.Agent{Name: name, Parent: parent})
	b.agentInv = append(b.agentInv, inv)
}

// invocation reads one Invocation of the new schema as invocation inv.
func (b *builder) invocation(m map[string]any, inv int) Invocation {
	out := Invocation{
		ID:            str(get(m, "invocation_id")),
		User:          text(get(m, "user_content")),
		FinalResponse: text(get(m, "final_response")),
	}
	if d, ok := jsonv.Number(get(m, "duration")); ok {
		if ms := d * 1000; math.IsInf(ms, 0) {
			b.warnf("duration %v s is too large to count in milliseconds; ignored", d)
		} else {
			out.DurationMS = &ms
		}
	}
	if n, ok := get(m, "inference_call_count").(json.Number); ok {
		if k, err := n.Int64(); err == nil {
			out.LLMCalls = &k
		}
	}
	im := obj(get(m, "intermediate_data"))
	if events, ok := get(im, "invocation_events").([]any); ok {
		for _, ev := range events {
			b.event(inv, obj(ev))
		}
		return out
	}
	uses, _ := get(im, "tool_uses").([]any)
	for _, u := range uses {
		if um := obj(u); um != nil {
			b.call(inv, um, "", 0)
		}
	}
	resps, _ := get(im, "tool_responses").([]any)
	for _, r := range resps {
		if rm := obj(r); rm != nil {
			b.result(rm, "response")
		}
	}
	return out
}

// legacyTurn reads one turn of the pre-2025 list form as invocation inv.
func (b *builder) legacyTurn(m map[string]any, inv int) Invocation {
	out := Invocation{}
	if q, ok := m["query"].(string); ok {
		out.User = &q
	}
	if r, ok := m["reference"].(string); ok {
		out.FinalResponse = &r
	}
	uses, _ := m["expected_tool_use"].([]any)
	for _, u := range uses {
		um := obj(u)
		if um == nil {
			continue
		}
		b.call(inv, map[string]any{"name": um["tool_name"], "args": um["tool_input"]}, "", 0)
		if mock, ok := um["mock_tool_output"]; ok {
			b.calls[len(b.calls)-1].Result = mock
		}
	}
	return out
}

// finish hands each collected call to its invocation.
func (b *builder) finish(invs []Invocation) {
	for i, a := range b.agents {
		if k := b.agentInv[i]; k < len(invs) {
			invs[k].Agents = append(invs[k].Agents, a)
		}
	}
	for i, c := range b.calls {
		if k := b.turn[i]; k < len(invs) {
			invs[k].Calls = append(invs[k].Calls, c)
		}
	}
}

func idOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return jsonv.Marshal(v)
}
