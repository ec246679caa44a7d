package otlp

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/trajeval/trajeval/internal/jsonv"
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

// args turns a call's arguments into a JSON value: a string is parsed, and
// kept as text (reported) when it is not JSON; none gives {}.
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
		w("arguments of %s are a string that is not valid JSON; kept as text", tool)
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

// messages returns a GenAI message list: a JSON string or a structured
// array.
func messages(v pcommon.Value, w func(string, ...any), what string) []map[string]any {
	raw := fromValue(v)
	if s, ok := raw.(string); ok {
		p, err := jsonv.Decode([]byte(s))
		if err != nil {
			w("%s is not valid JSON; ignored", what)
			return nil
		}
		raw = p
	}
	list, ok := raw.([]any)
	if !ok {
		if m, ok := raw.(map[string]any); ok {
			list = []any{m}
		} else {
			w("%s is not a list of messages; ignored", what)
			return nil
		}
	}
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func parts(m map[string]any) []map[string]any {
	list, _ := m["parts"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if p, ok := e.(map[string]any); ok {
			out = append(out, p)
		}
	}
	return out
}

func idOf(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return string(x)
	}
	return ""
}

// text joins a message's text parts (or its plain string content).
func text(m map[string]any) *string {
	var out []string
	if s, ok := m["content"].(string); ok && s != "" {
		out = append(out, s)
	}
	for _, p := range parts(m) {
		if p["type"] == "text" {
			if s, ok := p["content"].(string); ok {
				out = append(out, s)
			} else if s, ok := p["text"].(string); ok {
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
func readInput(v pcommon.Value, results map[string]any, w func(string, ...any)) *string {
	var user *string
	for _, m := range messages(v, w, "gen_ai.input.messages") {
		if m["role"] == "user" {
			if t := text(m); t != nil {
				user = t
			}
		}
		if results == nil {
			continue
		}
		for _, p := range parts(m) {
			if p["type"] != "tool_call_response" {
				continue
			}
			r, ok := p["response"]
			if !ok {
				r = p["result"] // one example in the spec spells it so
			}
			if id := idOf(p["id"]); id != "" {
				results[id] = result(r)
			}
		}
		if m["role"] == "tool" { // OpenAI-style history
			if id := idOf(m["tool_call_id"]); id != "" {
				if _, done := results[id]; !done {
					results[id] = result(m["content"])
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
		for _, p := range parts(m) {
			if p["type"] == "tool_call" {
				name, _ := p["name"].(string)
				a, has := p["arguments"]
				batch = append(batch, call{id: idOf(p["id"]), name: name, args: args(a, name, w), hasArgs: has, sub: len(batch)})
			}
		}
		tcs, _ := m["tool_calls"].([]any) // OpenAI-style message
		for _, e := range tcs {
			tc, _ := e.(map[string]any)
			fn, _ := tc["function"].(map[string]any)
			if fn == nil {
				continue
			}
			name, _ := fn["name"].(string)
			a, has := fn["arguments"]
			batch = append(batch, call{id: idOf(tc["id"]), name: name, args: args(a, name, w), hasArgs: has, sub: len(batch)})
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
func readOpenInference(attrs pcommon.Map, results map[string]any, w func(string, ...any)) oiSpan {
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
				c.args, c.hasArgs = fromValue(v), true
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
			results[m.toolCallID] = result(m.content)
		}
	}
	for _, i := range sortedKeys(out) {
		m := out[i]
		var batch []call
		for n, j := range sortedKeys(m.calls) {
			c := *m.calls[j]
			c.args, c.sub = args(c.args, c.name, w), n
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
