package otlp

import (
	"fmt"
	"iter"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
)

type role uint8

const (
	roleOther role = iota
	roleTool
	roleChat
	roleAgent
)

// A span is what the rules need of one OTLP span, decoded on arrival so
// that the raw OTLP can be dropped.
type span struct {
	id, parent pcommon.SpanID
	pos        int // order of arrival in the file
	line       int // JSON Lines line, 0 when unknown
	start, end uint64
	role       role
	failed     bool   // status ERROR, or error.type set
	errMsg     string // status message, else exception message, else error.type
	agent      string // an agent span's name
	tool       *call  // a tool span's call
	batches    [][]call
	user       *string // agent or chat span: the (last) user text of its input
	nUser      int     // chat span: the user messages of its input
	final      *string // agent or chat span: the answer's text
	usage      *usage  // chat span: its tokens and cost
	// asked is a chat span's finish reason when it ended to call tools and
	// its messages name no call: "" otherwise.
	asked string
}

// A call is one tool call, from a tool span or a chat message.
type call struct {
	id, name  string
	args      lazy
	hasArgs   bool
	result    lazy
	hasResult bool
	content   int // how output.value's "content" is read: see [call.resultValue]
	sub       int // position in its message
}

// A traceBuf gathers one trace's spans.
type traceBuf struct {
	id      pcommon.TraceID
	pos     int // arrival of its first span
	spans   []*span
	conv    string
	results map[string]lazy // tool results by call id, from chat inputs
	history *history        // calls replayed by chat inputs
	// spanTurns is set once the trace has a tool or agent span: its turn
	// is then the trace, not the user messages of its chat spans.
	spanTurns bool

	chatUser      *string // the earliest chat span's user text
	chatUserStart uint64
	chatFinal     *string // the latest chat span's answer
	chatFinalEnd  uint64
}

type spanKey struct {
	t pcommon.TraceID
	s pcommon.SpanID
}

// A reader holds the spans of one file until its end.
type reader struct {
	in     trajeval.Input
	traces map[pcommon.TraceID]*traceBuf
	seen   map[spanKey]bool
	nspans int
	lines  int
	warned map[string]bool
	// unknown counts the GenAI operations and OpenInference kinds not
	// known (see unread).
	unknown drift.Unknown
	// damaged is set when damage was read past leniently: any trace may
	// have lost spans, so every trajectory is partial.
	damaged bool
}

func newReader(in trajeval.Input) *reader {
	return &reader{in: in, traces: map[pcommon.TraceID]*traceBuf{}, seen: map[spanKey]bool{}, warned: map[string]bool{}}
}

// warnf reports a problem once per place and message.
func (r *reader) warnf(line int, place, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	k := fmt.Sprint(line, "\x00", place, "\x00", msg)
	if r.warned[k] {
		return
	}
	r.warned[k] = true
	r.in.Warn(trajeval.Warning{File: r.in.Name, Line: line, Place: place, Msg: msg})
}

func (r *reader) addTraces(td ptrace.Traces, line int) {
	for sp, resConv := range spansWithKey(td) {
		r.addSpan(sp, line, resConv)
	}
}

// spansWithKey yields each span of td, in order, with the conversation key
// of its resource ("" when it has none).
func spansWithKey(td ptrace.Traces) iter.Seq2[ptrace.Span, string] {
	return func(yield func(ptrace.Span, string) bool) {
		rss := td.ResourceSpans()
		for i := 0; i < rss.Len(); i++ {
			rs := rss.At(i)
			resConv := convKey(rs.Resource().Attributes())
			sss := rs.ScopeSpans()
			for j := 0; j < sss.Len(); j++ {
				spans := sss.At(j).Spans()
				for k := 0; k < spans.Len(); k++ {
					if !yield(spans.At(k), resConv) {
						return
					}
				}
			}
		}
	}
}

func convKey(attrs pcommon.Map) string {
	for _, k := range []string{"gen_ai.conversation.id", "session.id"} {
		if v, ok := attrs.Get(k); ok {
			if s := v.AsString(); s != "" {
				return s
			}
		}
	}
	return ""
}

func placeOf(id pcommon.SpanID) string { return "span " + id.String() }

func (r *reader) addSpan(ps ptrace.Span, line int, resConv string) {
	key := spanKey{ps.TraceID(), ps.SpanID()}
	place := placeOf(key.s)
	if r.seen[key] {
		r.warnf(line, place, "span appears twice; kept the first")
		return
	}
	r.seen[key] = true
	tb := r.traces[key.t]
	if tb == nil {
		tb = &traceBuf{id: key.t, pos: r.nspans}
		r.traces[key.t] = tb
		if key.t.IsEmpty() {
			r.warnf(line, place, "span has no trace id; spans without one are read as one trace")
		}
	}
	s := &span{id: key.s, parent: ps.ParentSpanID(), pos: r.nspans, line: line,
		start: uint64(ps.StartTimestamp()), end: uint64(ps.EndTimestamp())}
	r.nspans++
	if s.end == 0 || s.end < s.start {
		r.warnf(line, place, "span %q has no end time; kept without a duration", ps.Name())
		s.end = 0
	}
	st := ps.Status()
	s.failed = st.Code() == ptrace.StatusCodeError
	s.errMsg = st.Message()
	attrs := ps.Attributes()
	w := func(format string, args ...any) { r.warnf(line, place, format, args...) }

	if c := convKey(attrs); c != "" {
		if tb.conv != "" && tb.conv != c {
			w("conversation id %q differs from %q seen earlier in the trace; kept the first", c, tb.conv)
		} else {
			tb.conv = c
		}
	} else if tb.conv == "" && resConv != "" {
		tb.conv = resConv
	}
	errType := str(attrs, "error.type")
	s.failed = s.failed || errType != ""
	s.errMsg = firstNonEmpty(s.errMsg, exceptionMessage(ps.Events()), errType)

	op := str(attrs, "gen_ai.operation.name")
	if op == "" {
		op, _, _ = strings.Cut(ps.Name(), " ")
	}
	oiKind := strings.ToUpper(str(attrs, "openinference.span.kind"))
	switch {
	case op == "execute_tool" || oiKind == "TOOL" || (str(attrs, "tool.name") != "" && !truthy(attrs, "tool.synthesized")):
		if str(attrs, "gen_ai.tool.name") == "(merged tools)" {
			break // ADK's summary of a parallel batch, not a call
		}
		s.role = roleTool
		s.tool = toolCall(ps, attrs, oiKind, w)
	case op == "invoke_agent" || oiKind == "AGENT":
		s.role = roleAgent
		s.agent = firstNonEmpty(str(attrs, "gen_ai.agent.name"), str(attrs, "agent.name"), strings.TrimPrefix(ps.Name(), "invoke_agent "))
		var io chatIO
		if v, ok := attrs.Get("gen_ai.input.messages"); ok {
			io.readInput(messages(v, w, "gen_ai.input.messages"), nil, nil, nil)
		}
		if v, ok := attrs.Get("gen_ai.output.messages"); ok {
			io.readOutput(messages(v, w, "gen_ai.output.messages"))
		}
		s.user, s.final = io.user, io.final
	case op == "chat" || op == "generate_content" || op == "text_completion" || oiKind == "LLM" || isLegacyChat(attrs):
		s.role = roleChat
		r.addChat(tb, s, attrs, w)
	default:
		r.unread(attrs, oiKind, line)
	}
	if (s.role == roleTool || s.role == roleAgent) && !tb.spanTurns {
		tb.spanTurns = true
		// The trace is a turn: what finds turns and calls in chat spans
		// alone is not needed.
		tb.history = nil
		for _, c := range tb.spans {
			if c.role == roleChat {
				c.user, c.final = nil, nil
			}
		}
	}
	tb.spans = append(tb.spans, s)
}

// toolReason returns the finish reason of a chat span that ended to call
// tools ("tool_calls" as OpenAI names it, "tool_call" as the GenAI
// conventions do), "" for any other.
func toolReason(attrs pcommon.Map) string {
	v, ok := attrs.Get("gen_ai.response.finish_reasons")
	if !ok {
		return ""
	}
	var reasons []string
	switch v.Type() {
	case pcommon.ValueTypeSlice:
		for i := range v.Slice().Len() {
			reasons = append(reasons, v.Slice().At(i).AsString())
		}
	default:
		reasons = append(reasons, v.AsString())
	}
	for _, r := range reasons {
		switch r {
		case "tool_calls", "tool_call", "function_call", "tool_use":
			return r
		}
	}
	return ""
}

// isLegacyChat reports whether a span is an older OpenLLMetry (Traceloop)
// model call, which names its operation in llm.request.type.
func isLegacyChat(attrs pcommon.Map) bool {
	switch str(attrs, "llm.request.type") {
	case "chat", "completion":
		return true
	}
	return false
}

// addChat reads a chat (or LLM) span: the calls it issued, the results and
// user text in its input, its answer and its token usage.
func (r *reader) addChat(tb *traceBuf, s *span, attrs pcommon.Map, w func(string, ...any)) {
	if tb.results == nil {
		tb.results = map[string]lazy{}
		if !tb.spanTurns {
			tb.history = &history{seen: map[string]int{}}
		}
	}
	var io chatIO
	if v, ok := attrs.Get("gen_ai.input.messages"); ok {
		io.readInput(messages(v, w, "gen_ai.input.messages"), tb.results, tb.history, s)
	}
	if v, ok := attrs.Get("gen_ai.output.messages"); ok {
		io.readOutput(messages(v, w, "gen_ai.output.messages"))
	}
	readLegacy(attrs, &io, tb.results, tb.history, s, w)
	readFlat(attrs, &io, tb.results, tb.history, s)
	s.batches = io.batches
	if len(s.batches) == 0 {
		s.asked = toolReason(attrs)
	}
	if !tb.spanTurns {
		s.user, s.nUser, s.final = io.user, io.nUser, io.final
	}
	if io.user != nil && (tb.chatUser == nil || s.start < tb.chatUserStart) {
		tb.chatUser, tb.chatUserStart = io.user, s.start
	}
	if io.final != nil && (tb.chatFinal == nil || s.end >= tb.chatFinalEnd) {
		tb.chatFinal, tb.chatFinalEnd = io.final, s.end
	}
	s.usage = readUsage(attrs, w)
}

func toolCall(ps ptrace.Span, attrs pcommon.Map, oiKind string, w func(string, ...any)) *call {
	c := &call{
		name: firstNonEmpty(str(attrs, "gen_ai.tool.name"), str(attrs, "tool.name"), strings.TrimPrefix(ps.Name(), "execute_tool ")),
		id:   strings.TrimSpace(firstNonEmpty(str(attrs, "gen_ai.tool.call.id"), str(attrs, "tool.id"), str(attrs, "tool_call.id"))),
	}
	for _, k := range []string{"gen_ai.tool.call.arguments", "input.value", "gcp.vertex.agent.tool_call_args"} {
		if v, ok := attrs.Get(k); ok {
			c.args, c.hasArgs = lazyOf(v), true
			break
		}
	}
	if !c.hasArgs {
		if v, ok := attrs.Get("tool.parameters"); ok {
			if l := lazyOf(v); !isSchema(args(l.value(), c.name, func(string, ...any) {})) {
				c.args, c.hasArgs = l, true
			}
		}
	}
	if v, ok := attrs.Get("gen_ai.tool.call.result"); ok {
		c.result, c.hasResult = lazyOf(v), true
	} else if v, ok := attrs.Get("output.value"); ok {
		c.result, c.hasResult = lazyOf(v), true
		c.content = contentToolMessage
		if oiKind == "" {
			c.content = contentAlways
		}
	} else if v, ok := attrs.Get("gcp.vertex.agent.tool_response"); ok {
		c.result, c.hasResult = lazyOf(v), true
	}
	return c
}

// How a result's "content" field is read (UiPath reads output.value so).
const (
	contentNever       = iota
	contentToolMessage // only from a LangChain ToolMessage
	contentAlways      // from any JSON object (UiPath-style spans)
)

// resultValue decodes the call's result; failed reports a ToolMessage
// whose status is error.
func (c *call) resultValue() (res any, failed bool) {
	res = result(c.result.value())
	m, ok := res.(map[string]any)
	if !ok || c.content == contentNever {
		return res, false
	}
	content, ok := m["content"]
	if !ok || (c.content == contentToolMessage && !isToolMessage(m)) {
		return res, false
	}
	return content, isToolMessage(m) && m["status"] == "error"
}

// isToolMessage reports whether m is a serialised LangChain ToolMessage.
func isToolMessage(m map[string]any) bool {
	_, hasID := m["tool_call_id"]
	return hasID || m["type"] == "tool"
}

// isSchema reports whether v looks like a JSON Schema (OpenInference's
// tool.parameters is the tool's schema for some instrumentors, the
// arguments for others).
func isSchema(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, props := m["properties"]
	_, schema := m["$schema"]
	return schema || (m["type"] == "object" && props)
}

func exceptionMessage(events ptrace.SpanEventSlice) string {
	for i := 0; i < events.Len(); i++ {
		e := events.At(i)
		if e.Name() != "exception" {
			continue
		}
		if m := str(e.Attributes(), "exception.message"); m != "" {
			return m
		}
		if t := str(e.Attributes(), "exception.type"); t != "" {
			return t
		}
	}
	return ""
}

func str(attrs pcommon.Map, key string) string {
	v, ok := attrs.Get(key)
	if !ok {
		return ""
	}
	if v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return v.AsString()
}

func truthy(attrs pcommon.Map, key string) bool {
	v, ok := attrs.Get(key)
	if !ok {
		return false
	}
	switch v.Type() {
	case pcommon.ValueTypeBool:
		return v.Bool()
	case pcommon.ValueTypeInt:
		return v.Int() != 0
	case pcommon.ValueTypeDouble:
		return v.Double() != 0
	case pcommon.ValueTypeStr:
		s := strings.ToLower(strings.TrimSpace(v.Str()))
		return s != "" && s != "false" && s != "0" && s != "no"
	}
	return false
}

func intOf(v pcommon.Value) (int64, bool) {
	switch v.Type() {
	case pcommon.ValueTypeInt:
		return v.Int(), true
	case pcommon.ValueTypeDouble:
		f := v.Double()
		if f == float64(int64(f)) {
			return int64(f), true
		}
	case pcommon.ValueTypeStr:
		n, err := strconv.ParseInt(strings.TrimSpace(v.Str()), 10, 64)
		return n, err == nil
	}
	return 0, false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
