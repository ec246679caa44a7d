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
		if s, ok := c.(string); ok && s != "" {
			out = append(out, s)
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

// readInput reads gen_ai.input.messages: it returns the last user
// message's text and adds each tool result it holds to results (by call
// id). The calls of the history it replays are not read.
func readInput(v pcommon.Value, results map[string]lazy, w func(string, ...any)) *string {
	var user *string
	for _, m := range messages(v, w, "gen_ai.input.messages") {
		if m.Role == "user" {
			if t := text(m); t != nil {
				user = t
			}
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
	return user
}

// readOutput reads gen_ai.output.messages: the tool calls of each message
// (one batch per message), and the text of the answer.
func readOutput(v pcommon.Value, w func(string, ...any)) ([][]call, *string) {
	var batches [][]call
	var final *string
	for _, m := range messages(v, w, "gen_ai.output.messages") {
		var batch []call
		add := func(id, name any, arguments json.RawMessage) {
			batch = append(batch, call{id: idOf(id), name: strOf(name), args: lazyRaw(arguments), hasArgs: len(arguments) > 0, sub: len(batch)})
		}
		for _, p := range m.Parts {
			if p.Type == "tool_call" {
				add(p.ID, p.Name, p.Arguments)
			}
		}
		for _, tc := range m.ToolCalls { // OpenAI-style message
			add(tc.ID, tc.Function.Name, tc.Function.Arguments)
		}
		if batch != nil {
			batches = append(batches, batch)
		}
		if t := text(m); t != nil && *t != "" {
			final = t
		}
	}
	return batches, final
}

// oiSpan is what an OpenInference LLM span's flattened attributes hold.
type oiSpan struct {
	batches     [][]call
	user, final *string
}

// readOpenInference reads the flattened llm.input_messages.<i>.* and
// llm.output_messages.<i>.* attributes. Indices are numbers, not text:
// .10. comes after .9.
func readOpenInference(attrs pcommon.Map, results map[string]lazy, w func(string, ...any)) oiSpan {
	type msg struct {
		role, content, toolCallID string
		calls                     map[int]*call
	}
	in, out := map[int]*msg{}, map[int]*msg{}
	get := func(ms map[int]*msg, i int) *msg {
		if ms[i] == nil {
			ms[i] = &msg{calls: map[int]*call{}}
		}
		return ms[i]
	}
	for k, v := range attrs.All() {
		var ms map[int]*msg
		var rest string
		switch {
		case strings.HasPrefix(k, "llm.input_messages."):
			ms, rest = in, k[len("llm.input_messages."):]
		case strings.HasPrefix(k, "llm.output_messages."):
			ms, rest = out, k[len("llm.output_messages."):]
		default:
			continue
		}
		i, rest, ok := index(rest)
		if !ok {
			continue
		}
		m := get(ms, i)
		switch rest {
		case "message.role":
			m.role = v.AsString()
		case "message.content":
			m.content = v.AsString()
		case "message.tool_call_id":
			m.toolCallID = strings.TrimSpace(v.AsString())
		default:
			r, ok := strings.CutPrefix(rest, "message.tool_calls.")
			if !ok {
				continue
			}
			j, field, ok := index(r)
			if !ok {
				continue
			}
			c := m.calls[j]
			if c == nil {
				c = &call{sub: j}
				m.calls[j] = c
			}
			switch field {
			case "tool_call.id":
				c.id = strings.TrimSpace(v.AsString())
			case "tool_call.function.name":
				c.name = v.AsString()
			case "tool_call.function.arguments":
				c.args, c.hasArgs = lazyOf(v), true
			}
		}
	}
	var o oiSpan
	for _, i := range sortedKeys(in) {
		m := in[i]
		if m.role == "user" {
			o.user = &m.content
		}
		if m.role == "tool" && m.toolCallID != "" && results != nil {
			results[m.toolCallID] = lazy{text: m.content, str: true}
		}
	}
	for _, i := range sortedKeys(out) {
		m := out[i]
		var batch []call
		for n, j := range sortedKeys(m.calls) {
			c := *m.calls[j]
			c.sub = n
			batch = append(batch, c)
		}
		if batch != nil {
			o.batches = append(o.batches, batch)
		}
		if m.content != "" {
			o.final = &m.content
		}
	}
	return o
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
