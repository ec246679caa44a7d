package otlp

import (
	"encoding/json"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pyrepr"
)

// A vocab names the keys of a message list flattened into attributes,
// <list>.<i>.<field>, as OpenInference and the older OpenLLMetry
// (Traceloop) instrumentations write them.
type vocab struct {
	in, out                    string // the input and output lists' prefixes
	role, content, toolCallID  string // a message's fields
	toolCalls, contents        string // prefixes of a message's calls and content parts
	fnName, fnArgs             string // the legacy single function call
	callID, callName, callArgs string // a call's fields
}

var (
	// openInference is llm.input_messages.<i>.message.* and
	// llm.output_messages.<i>.message.*.
	openInference = &vocab{
		in: "llm.input_messages.", out: "llm.output_messages.",
		role: "message.role", content: "message.content", toolCallID: "message.tool_call_id",
		toolCalls: "message.tool_calls.", contents: "message.contents.",
		fnName: "message.function_call_name", fnArgs: "message.function_call_arguments_json",
		callID: "tool_call.id", callName: "tool_call.function.name", callArgs: "tool_call.function.arguments",
	}
	// openLLMetry is the legacy gen_ai.prompt.<i>.* and
	// gen_ai.completion.<i>.*.
	openLLMetry = &vocab{
		in: "gen_ai.prompt.", out: "gen_ai.completion.",
		role: "role", content: "content", toolCallID: "tool_call_id",
		toolCalls: "tool_calls.", fnName: "function_call.name", fnArgs: "function_call.arguments",
		callID: "id", callName: "name", callArgs: "arguments",
	}
)

// A flatMsg is one message of a flattened list.
type flatMsg struct {
	role, content, toolCallID string
	calls                     map[int]*call
	parts                     map[int]*flatPart
}

// A flatPart is one entry of OpenInference's message.contents: text, or a
// tool call ("tool_use") kept in its place among the text.
type flatPart struct {
	typ, text string
	call      *call
}

// A flatList gathers one span's messages of one vocabulary.
type flatList struct {
	v       *vocab
	in, out map[int]*flatMsg
}

func (l *flatList) msg(out bool, i int) *flatMsg {
	ms := &l.in
	if out {
		ms = &l.out
	}
	if *ms == nil {
		*ms = map[int]*flatMsg{}
	}
	m := (*ms)[i]
	if m == nil {
		m = &flatMsg{}
		(*ms)[i] = m
	}
	return m
}

// readFlat reads the flattened message lists of both vocabularies into io,
// tool results into results and replayed calls into h. Indices are
// numbers, not text: .10. comes after .9.
func readFlat(attrs pcommon.Map, io *chatIO, results map[string]lazy, h *history, chat *span) {
	lists := [2]flatList{{v: openInference}, {v: openLLMetry}}
	for k, val := range attrs.All() {
		for li := range lists {
			l := &lists[li]
			var rest string
			var out, ok bool
			if rest, ok = strings.CutPrefix(k, l.v.in); !ok {
				if rest, ok = strings.CutPrefix(k, l.v.out); !ok {
					continue
				}
				out = true
			}
			if i, field, ok := index(rest); ok {
				l.msg(out, i).set(l.v, field, val)
			}
			break
		}
	}
	for _, l := range lists {
		l.digest(io, results, h, chat)
	}
}

// set reads one attribute of the message.
func (m *flatMsg) set(v *vocab, field string, val pcommon.Value) {
	switch field {
	case v.role:
		m.role = val.AsString()
	case v.content:
		m.content = val.AsString()
	case v.toolCallID:
		m.toolCallID = strings.TrimSpace(val.AsString())
	case v.fnName:
		m.call(-1).name = val.AsString()
	case v.fnArgs:
		c := m.call(-1)
		c.args, c.hasArgs = lazyOf(val), true
	default:
		if rest, ok := strings.CutPrefix(field, v.toolCalls); ok {
			if j, f, ok := index(rest); ok {
				m.call(j).set(v, f, val)
			}
			return
		}
		if v.contents == "" {
			return
		}
		rest, ok := strings.CutPrefix(field, v.contents)
		if !ok {
			return
		}
		j, f, ok := index(rest)
		if !ok {
			return
		}
		if m.parts == nil {
			m.parts = map[int]*flatPart{}
		}
		p := m.parts[j]
		if p == nil {
			p = &flatPart{}
			m.parts[j] = p
		}
		switch f {
		case "message_content.type":
			p.typ = val.AsString()
		case "message_content.text":
			p.text = val.AsString()
		default:
			// A tool_use part's call sits beside message_content, or (in
			// some instrumentations) within it.
			f = strings.TrimPrefix(f, "message_content.")
			if p.call == nil {
				p.call = &call{}
			}
			p.call.set(v, f, val)
		}
	}
}

// call returns the message's call at index j (-1 for the legacy
// function_call).
func (m *flatMsg) call(j int) *call {
	if m.calls == nil {
		m.calls = map[int]*call{}
	}
	c := m.calls[j]
	if c == nil {
		c = &call{}
		m.calls[j] = c
	}
	return c
}

func (c *call) set(v *vocab, field string, val pcommon.Value) {
	switch field {
	case v.callID:
		c.id = strings.TrimSpace(val.AsString())
	case v.callName:
		c.name = val.AsString()
	case v.callArgs:
		c.args, c.hasArgs = lazyOf(val), true
	}
}

// text is the message's text: its content, else its text parts. A content
// that is a JSON list of parts (as OpenLLMetry writes multimodal and
// Anthropic messages) gives the text of its text parts.
func (m *flatMsg) text() *string {
	var out []string
	if m.content != "" {
		out = append(out, contentText(m.content))
	} else {
		for _, j := range sortedKeys(m.parts) {
			if p := m.parts[j]; p.text != "" && (p.typ == "text" || p.typ == "") {
				out = append(out, p.text)
			}
		}
	}
	if out == nil {
		return nil
	}
	s := strings.Join(out, "\n")
	return &s
}

func contentText(s string) string {
	if !strings.HasPrefix(s, "[{") {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal([]byte(s), &parts) != nil {
		return s
	}
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// batch returns the message's calls in order: tool_calls, the legacy
// function_call, then tool_use content parts whose id is not among them.
func (m *flatMsg) batch() []call {
	var batch []call
	ids := map[string]bool{}
	add := func(c *call) {
		if c.id != "" {
			if ids[c.id] {
				return
			}
			ids[c.id] = true
		}
		cc := *c
		cc.sub = len(batch)
		batch = append(batch, cc)
	}
	for _, j := range sortedKeys(m.calls) {
		if j >= 0 {
			add(m.calls[j])
		}
	}
	if c := m.calls[-1]; c != nil && c.name != "" {
		add(c)
	}
	hasCalls := len(batch) > 0
	for _, j := range sortedKeys(m.parts) {
		p := m.parts[j]
		if p.call == nil || (p.typ != "" && p.typ != "tool_use") {
			continue
		}
		if hasCalls && p.call.id == "" {
			continue // the same call as a tool_calls entry, most likely
		}
		add(p.call)
	}
	return batch
}

// digest adds what the lists say to io, results and h.
func (l *flatList) digest(io *chatIO, results map[string]lazy, h *history, chat *span) {
	var user *string
	nUser := 0
	for _, i := range sortedKeys(l.in) {
		m := l.in[i]
		switch m.role {
		case "user", "human":
			if t := m.text(); t != nil && *t != "" {
				user = t
				nUser++
			}
		case "assistant", "ai":
			if h != nil {
				h.addCalls(chat, m.batch())
			}
		case "tool":
			if m.toolCallID != "" && results != nil {
				if _, done := results[m.toolCallID]; !done {
					results[m.toolCallID] = lazy{text: m.content, str: true}
				}
			}
		}
	}
	if io.user == nil && user != nil {
		io.user, io.nUser = user, nUser
	}
	var final *string
	for _, i := range sortedKeys(l.out) {
		m := l.out[i]
		if batch := m.batch(); batch != nil {
			io.batches = append(io.batches, batch)
		}
		if t := m.text(); t != nil && *t != "" {
			final = t
		}
	}
	if io.final == nil {
		io.final = final
	}
}

// readLegacy reads the legacy gen_ai.prompt and gen_ai.completion
// attributes when they hold a whole message list as a JSON string (OpenAI
// style). A completion that is not JSON is the answer's text; a prompt
// that is not JSON, the user's.
func readLegacy(attrs pcommon.Map, io *chatIO, results map[string]lazy, h *history, chat *span, w func(string, ...any)) {
	if v, ok := attrs.Get("gen_ai.prompt"); ok {
		if list, ok := legacyList(v, w, "gen_ai.prompt"); ok {
			io.readInput(list, results, h, chat)
		} else if t := v.AsString(); t != "" && io.user == nil {
			io.user, io.nUser = &t, 1
		}
	}
	if v, ok := attrs.Get("gen_ai.completion"); ok {
		if list, ok := legacyList(v, w, "gen_ai.completion"); ok {
			io.readOutput(list)
		} else if t := v.AsString(); t != "" && io.final == nil {
			io.final = &t
		}
	}
}

// legacyList reads a legacy attribute as a message list, in JSON or as a
// Python literal (the conventions' own example is one); false when it is
// plain text.
func legacyList(v pcommon.Value, w func(string, ...any), what string) ([]message, bool) {
	if v.Type() == pcommon.ValueTypeStr {
		s := strings.TrimSpace(v.Str())
		if !strings.HasPrefix(s, "[") && !strings.HasPrefix(s, "{") {
			return nil, false
		}
		if !json.Valid([]byte(s)) {
			py, err := pyrepr.Parse(s)
			if err != nil {
				return nil, false
			}
			v = pcommon.NewValueStr(jsonv.Marshal(py))
		}
	}
	return messages(v, w, what), true
}
