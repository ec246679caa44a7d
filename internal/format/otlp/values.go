package otlp

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pyrepr"
)

// fromValue converts an OTLP AnyValue into the JSON data model. Integers
// stay exact; a double keeps a ".0" when it is whole, so that 1.0 sent as
// doubleValue is still told from intValue 1 when printed (they compare
// equal). Bytes become base64 text.
func fromValue(v pcommon.Value) any {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return v.Str()
	case pcommon.ValueTypeInt:
		return json.Number(strconv.FormatInt(v.Int(), 10))
	case pcommon.ValueTypeDouble:
		return double(v.Double())
	case pcommon.ValueTypeBool:
		return v.Bool()
	case pcommon.ValueTypeMap:
		m := make(map[string]any, v.Map().Len())
		for k, e := range v.Map().All() {
			m[k] = fromValue(e)
		}
		return m
	case pcommon.ValueTypeSlice:
		s := v.Slice()
		out := make([]any, s.Len())
		for i := range out {
			out[i] = fromValue(s.At(i))
		}
		return out
	case pcommon.ValueTypeBytes:
		return base64.StdEncoding.EncodeToString(v.Bytes().AsRaw())
	}
	return nil
}

func double(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64) // JSON has no such number
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return json.Number(s)
}

// A lazy is a JSON value kept as text until its trajectory is built:
// while a file is read every span is held, and text costs a fraction of
// decoded maps.
type lazy struct {
	text string
	str  bool // text is a string attribute's value, not JSON text
}

func lazyOf(v pcommon.Value) lazy {
	if v.Type() == pcommon.ValueTypeStr {
		return lazy{text: v.Str(), str: true}
	}
	return lazy{text: jsonv.Marshal(fromValue(v))}
}

func lazyRaw(b json.RawMessage) lazy { return lazy{text: string(b)} }

// value decodes the value; JSON text that does not decode gives nil.
func (l lazy) value() any {
	if l.str {
		return l.text
	}
	if l.text == "" {
		return nil
	}
	v, err := jsonv.Decode([]byte(l.text))
	if err != nil {
		return nil
	}
	return v
}

// args turns a call's arguments into a JSON value: a string is parsed as
// JSON, else as a Python dict or list literal (UiPath, and tracers that
// record str(kwargs), write single quotes and True, False, None), and kept
// as text (reported) when it is neither; none gives {}.
func args(v any, tool string, w func(string, ...any)) any {
	s, ok := v.(string)
	if !ok {
		if v == nil {
			return map[string]any{}
		}
		return v
	}
	if strings.TrimSpace(s) == "" {
		return map[string]any{}
	}
	p, err := jsonv.Decode([]byte(s))
	if err != nil {
		switch py, _ := pyrepr.Parse(s); py.(type) {
		case map[string]any, []any:
			return py
		}
		w("arguments of %s are a string that is neither JSON nor a Python literal; kept as text", tool)
		return s
	}
	if p == nil {
		return map[string]any{}
	}
	return p
}

// result turns a tool result into a JSON value: a string that holds a JSON
// object or array is parsed; other strings stay text ("42" stays "42").
func result(v any) any {
	if s, ok := v.(string); ok {
		p, _ := jsonv.ParseMaybeJSON(s)
		return p
	}
	return v
}

// A message is one entry of gen_ai.input.messages or
// gen_ai.output.messages. Arguments and responses stay raw until needed: a
// chat span's input replays the whole history, and decoding every replayed
// value into maps is most of the cost of reading a large file.
type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Parts      []part          `json:"parts"`
	ToolCallID any             `json:"tool_call_id"`
	ToolCalls  []openAICall    `json:"tool_calls"`
}

type part struct {
	Type      string          `json:"type"`
	ID        any             `json:"id"`
	Name      any             `json:"name"`
	Content   any             `json:"content"`
	Text      any             `json:"text"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
	Result    json.RawMessage `json:"result"`
}

type openAICall struct {
	ID       any `json:"id"`
	Function struct {
		Name      any             `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// messages returns a GenAI message list: a JSON string or a structured
// array.
func messages(v pcommon.Value, w func(string, ...any), what string) []message {
	var data []byte
	if v.Type() == pcommon.ValueTypeStr {
		data = []byte(v.Str())
	} else {
		data = []byte(jsonv.Marshal(fromValue(v)))
	}
	var list []message
	err := json.Unmarshal(data, &list)
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		// A field of an unexpected type is skipped; the rest is read.
		if te.Field == "" {
			var one message
			if json.Unmarshal(data, &one) == nil {
				return []message{one}
			}
			w("%s is not a list of messages; ignored", what)
			return nil
		}
	case err != nil:
		w("%s is not valid JSON; ignored", what)
		return nil
	}
	return list
}

// raw decodes a raw JSON value exactly; absent gives nil.
func raw(b json.RawMessage) (any, bool) {
	if len(b) == 0 {
		return nil, false
	}
	v, err := jsonv.Decode(b)
	if err != nil {
		return nil, false
	}
	return v, true
}

func idOf(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func strOf(v any) string {
	s, _ := v.(string)
	return s
}

// text joins a message's text parts (or its plain string content).
func text(m message) *string {
	var out []string
	if c, _ := raw(m.Content); c != nil {
		switch c := c.(type) {
		case string:
			if c != "" {
				out = append(out, c)
			}
		case []any: // OpenAI-style content parts
			for _, p := range c {
				if p, ok := p.(map[string]any); ok && p["type"] == "text" {
					if s, ok := p["text"].(string); ok {
						out = append(out, s)
					}
				}
			}
		}
	}
	for _, p := range m.Parts {
		if p.Type == "text" {
			if s, ok := p.Content.(string); ok {
				out = append(out, s)
			} else if s, ok := p.Text.(string); ok {
				out = append(out, s)
			}
		}
	}
	if out == nil {
		return nil
	}
	s := strings.Join(out, "\n")
	return &s
}

// A chatIO is what a chat span's messages say, reduced on arrival.
type chatIO struct {
	batches [][]call // the output's calls, one batch per message
	final   *string  // the output's text
	user    *string  // the input's last user text
	nUser   int      // the input's user messages with text
}

// A history gathers the calls that chat spans' inputs replay, each call id
// once, one batch per assistant message; a conversation read from chat
// spans alone takes the calls no output holds from it.
type history struct {
	seen    map[string]int // call id to 1 + its batch's index
	batches []histBatch
}

type histBatch struct {
	calls []call
	chat  *span // the earliest chat span whose input holds them
}

// add records the calls of one replayed assistant message.
func (h *history) add(chat *span, m message) {
	if h == nil {
		return
	}
	ids := callIDs(m)
	for _, id := range ids {
		if id != "" && h.seen[id] == 0 {
			h.addCalls(chat, callsOf(m))
			return
		}
	}
	for _, id := range ids {
		h.touch(chat, id)
	}
}

// addCalls records the calls of one replayed message; those with an id
// seen before only update where they were first held.
func (h *history) addCalls(chat *span, calls []call) {
	var hb histBatch
	for _, c := range calls {
		switch {
		case c.id == "":
		case h.seen[c.id] > 0:
			h.touch(chat, c.id)
		default:
			h.seen[c.id] = len(h.batches) + 1
			c.sub = len(hb.calls)
			hb.calls = append(hb.calls, c)
		}
	}
	if hb.calls != nil {
		hb.chat = chat
		h.batches = append(h.batches, hb)
	}
}

// touch notes that chat holds call id: spans arrive in any order, and the
// earliest holder is kept.
func (h *history) touch(chat *span, id string) {
	if b := h.seen[id]; b > 0 && chat.start < h.batches[b-1].chat.start {
		h.batches[b-1].chat = chat
	}
}

// callIDs returns the ids of a message's tool calls, without decoding
// them: a history replays every earlier call, and most were seen before.
func callIDs(m message) []string {
	var ids []string
	for _, p := range m.Parts {
		if p.Type == "tool_call" {
			ids = append(ids, idOf(p.ID))
		}
	}
	for _, tc := range m.ToolCalls {
		ids = append(ids, idOf(tc.ID))
	}
	return ids
}

// readInput reads an input message list (gen_ai.input.messages, or the
// legacy gen_ai.prompt): the user texts, each tool result (by call id,
// into results) and, into h, the calls it replays. results and h may be
// nil.
func (io *chatIO) readInput(list []message, results map[string]lazy, h *history, chat *span) {
	for _, m := range list {
		if m.Role == "user" {
			if t := text(m); t != nil && *t != "" {
				io.user = t
				io.nUser++
			}
		}
		if h != nil && m.Role == "assistant" {
			h.add(chat, m)
		}
		if results == nil {
			continue
		}
		for _, p := range m.Parts {
			if p.Type != "tool_call_response" {
				continue
			}
			id := idOf(p.ID)
			if _, done := results[id]; done || id == "" {
				continue
			}
			r := p.Response
			if len(r) == 0 {
				r = p.Result // one example in the spec spells it so
			}
			results[id] = lazyRaw(r)
		}
		if m.Role == "tool" { // OpenAI-style history
			if id := idOf(m.ToolCallID); id != "" {
				if _, done := results[id]; !done {
					results[id] = lazyRaw(m.Content)
				}
			}
		}
	}
}

// readOutput reads an output message list (gen_ai.output.messages, or the
// legacy gen_ai.completion): the tool calls of each message (one batch per
// message), and the text of the answer.
func (io *chatIO) readOutput(list []message) {
	for _, m := range list {
		if batch := callsOf(m); batch != nil {
			io.batches = append(io.batches, batch)
		}
		if t := text(m); t != nil && *t != "" {
			io.final = t
		}
	}
}

// callsOf returns the tool calls of a message: tool_call parts, and
// OpenAI-style tool_calls.
func callsOf(m message) []call {
	var batch []call
	add := func(id, name any, arguments json.RawMessage) {
		batch = append(batch, call{id: idOf(id), name: strOf(name), args: lazyRaw(arguments), hasArgs: len(arguments) > 0, sub: len(batch)})
	}
	for _, p := range m.Parts {
		if p.Type == "tool_call" {
			add(p.ID, p.Name, p.Arguments)
		}
	}
	for _, tc := range m.ToolCalls {
		add(tc.ID, tc.Function.Name, tc.Function.Arguments)
	}
	return batch
}

// index splits "12.rest" into 12 and "rest".
func index(s string) (int, string, bool) {
	num, rest, ok := strings.Cut(s, ".")
	if !ok {
		return 0, "", false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return 0, "", false
	}
	return n, rest, true
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
