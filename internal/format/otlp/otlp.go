// Package otlp reads OpenTelemetry traces of AI agents: OTLP/JSON (one
// TracesData or ExportTraceServiceRequest document, or the Collector file
// exporter's JSON Lines, one TracesData per line) as format "otlp", and
// binary OTLP protobuf as format "otlp-proto".
//
//	{"resourceSpans": [{"resource": {...}, "scopeSpans": [{"scope": {...}, "spans": [
//	  {"traceId": "5b8e...", "spanId": "eee1...", "parentSpanId": "...", "name": "execute_tool get_weather",
//	   "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "...",
//	   "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "get_weather"}}, ...],
//	   "status": {"code": 2, "message": "..."}}]}]}]}
//
// Decoding is done by the Collector's pdata, which reads hex trace and span
// ids, integers given as strings or numbers, and both key spellings.
//
// Four span vocabularies are understood, alone or mixed:
//   - OpenTelemetry GenAI: execute_tool, chat (also generate_content and
//     text_completion) and invoke_agent spans, told apart by
//     gen_ai.operation.name (else by the span name's first word);
//   - OpenInference: openinference.span.kind TOOL, LLM and AGENT;
//   - UiPath: any span with tool.name set and tool.synthesized not truthy;
//   - older OpenLLMetry (Traceloop): model calls marked by
//     llm.request.type chat or completion, with their messages in the
//     legacy gen_ai.prompt and gen_ai.completion attributes.
//
// The rules:
//  1. A step is a tool span: execute_tool, OpenInference TOOL, or a span
//     with tool.name. Google ADK's "(merged tools)" summary span is not a
//     step. Its name is gen_ai.tool.name, else tool.name, else the span name
//     without "execute_tool "; its id gen_ai.tool.call.id, else tool.id,
//     else tool_call.id.
//  2. Arguments come from gen_ai.tool.call.arguments, else input.value,
//     else gcp.vertex.agent.tool_call_args, else tool.parameters when it is
//     not a JSON Schema. A string is parsed as JSON, else as a Python dict
//     or list literal (single quotes, True, False, None), as UiPath and
//     tracers that record str(kwargs) write it; a string that is neither
//     is kept as text and reported once. Structured values (kvlist,
//     array) become JSON: intValue exactly, doubleValue as a number that
//     keeps its ".0". No arguments give {}.
//  3. The result is gen_ai.tool.call.result, else output.value, else
//     gcp.vertex.agent.tool_response. A string holding a JSON object or
//     array is parsed, any other string is kept as it is. When output.value
//     is a JSON object with a "content" field and the span is UiPath-style
//     (no openinference.span.kind) or the object is a LangChain ToolMessage
//     (it has tool_call_id, or type "tool"), the result is that content, as
//     UiPath reads it; a ToolMessage with status "error" marks the step
//     failed.
//  4. A tool span failed when its status code is ERROR (2) or error.type is
//     set (or its result is a ToolMessage with status "error"); the
//     message is the status message, else the first exception event's
//     exception.message, else error.type, else the text the tool returned.
//     A failed step has no result when its output only repeats that
//     message, and never takes one from a chat span's input: what the
//     model was sent back is the error report. A span that ended without
//     ERROR succeeded (error false). A span with no end time is kept, with
//     error null unless its status says ERROR, and reported.
//  5. Calls the model issued are also read from chat spans' output
//     messages: gen_ai.output.messages parts of type tool_call (and
//     OpenAI-style tool_calls); OpenInference
//     llm.output_messages.N.message.tool_calls.M.tool_call.* and the
//     tool_use entries of llm.output_messages.N.message.contents.M (whose
//     message_content.text entries are the message's text); the legacy
//     gen_ai.completion, flattened (gen_ai.completion.N.tool_calls.M.id,
//     .name, .arguments, and .function_call.*) or a JSON list of
//     OpenAI-style messages (gen_ai.prompt is read like the input
//     messages, also when written as a Python literal). A call whose
//     id matches a tool span is that span's step (the span supplies timing,
//     error and result; the message fills arguments the span lacks). A call
//     with no matching span is a step of its own, issued at the chat span's
//     end, with error null; its result is the tool_call_response part (or
//     OpenInference tool message) with the same id in any chat span's input
//     messages. Input messages replay history: they are a source of calls
//     only where a conversation has no tool span (rule 11).
//     gen_ai.tool.definitions and llm.tools are never calls.
//     Where tool spans carry no call id, a chat call whose id matches no
//     span is matched to a tool span of the same trace with no id, the
//     call's name, a start after the chat span's start, and not yet
//     matched: one with equal arguments first, else the earliest. The step
//     then takes the call's id.
//  6. One call id is one step: a call seen again (a second chat span with
//     the same output, a span exported twice) is dropped, and two
//     different tool spans with one call id keep the first, reported.
//     Identical calls with different ids (or none) are separate steps.
//  7. Order: by turn, then issue time (a tool span's start, a chat-only
//     call's chat span end), then end time, then position in the file.
//     Calls of one model message keep that message's order among the slots
//     they occupy.
//  8. Parallel groups: the calls of one chat output message that holds two
//     or more tool calls share a group. Tool spans whose call is named in no
//     chat message are grouped when they are siblings (same parent span)
//     and overlap in time: a span joins the group of an earlier sibling when
//     it starts strictly before the latest end among that group. Spans with
//     no end take part in no overlap group. Groups are numbered 1, 2, ... in
//     step order.
//  9. Step.Agent is the name of the nearest enclosing agent span
//     (invoke_agent's gen_ai.agent.name, or an OpenInference AGENT span's
//     agent.name or span name), also for the top-level agent. An agent
//     span nested in another agent's span was invoked by that agent: the
//     trajectory's agents list each agent span's name with the nearest
//     enclosing agent span's name as its caller (none for a top-level
//     agent).
//  10. Trajectories: spans are grouped by trace id. Traces that share a
//     conversation key (gen_ai.conversation.id, else session.id, on any
//     span or on the resource) form one trajectory, one turn per trace in
//     start-time order (but see rule 11); other traces are trajectories of
//     their own. The id
//     is the conversation key, else the trace id in hex. Trajectories come
//     out in order of their first trace's start time.
//  11. A turn's user text is the last user message of the top-level agent
//     span's input messages, else of the earliest chat span's; its final
//     response the text of the top-level agent span's output messages, else
//     of the last chat span that answered with text. A conversation with
//     chat spans only (no tool or agent span), whose inputs hold user
//     messages, is different, as each model call may be a trace of its
//     own: its turns are its user messages, not its traces. Chat spans are taken in start order; one whose input's
//     last user message (its text, and the number of user messages up to
//     it) was not seen before starts a turn with that text, one whose input
//     has no user message stays in the current turn, and the turn's final
//     response is the last answer with text. Each chat span's calls belong
//     to its turn. As every input replays the calls made so far, a call
//     with an id that no output holds (its chat span was not exported) is
//     still a step: issued at the start of the first chat span whose input
//     holds it, in that span's turn.
//  12. Metrics are read from chat spans only (agent spans repeat the run's
//     totals), each figure from the first attribute the span has: input
//     tokens from gen_ai.usage.input_tokens, gen_ai.usage.prompt_tokens or
//     llm.token_count.prompt; output tokens from gen_ai.usage.output_tokens,
//     gen_ai.usage.completion_tokens or llm.token_count.completion; the
//     total from llm.token_count.total, llm.usage.total_tokens or
//     gen_ai.usage.total_tokens, else input plus output; cost_usd from
//     gen_ai.usage.cost or llm.cost.total, else llm.cost.prompt plus
//     llm.cost.completion, else gen_ai.usage.input_cost plus
//     gen_ai.usage.output_cost. A chat span that encloses another chat span
//     (a framework's LLM span around the client's) is not counted for a
//     figure that a chat span below it reports, nor as a model call of its
//     own. The figures are summed over the trajectory (cost rounded to
//     1e-10 USD); llm_calls is the number of model calls (null when there
//     are none); duration_ms sums each trace's span from its first start to
//     its last end.
//  13. A trace with no step whose chat span ended to call tools
//     (gen_ai.response.finish_reasons tool_calls, tool_call, function_call
//     or tool_use) and names no call holds calls the file does not: the
//     instrumentation kept the messages out of its spans (the
//     OpenTelemetry instrumentation of the OpenAI client writes them as
//     log events) or did not capture them. Its trajectory is partial, with
//     a warning, never a run that called no tool.
//
// Reading: a file whose first line is a whole JSON value is read as JSON
// Lines, one line at a time (a one-line document is both); otherwise it is
// one document (or several concatenated), read whole. A line or document
// that is not valid JSON, or protobuf cut off or corrupt, is an error at its
// place; read leniently, what comes before the damage is kept (in JSON
// Lines the next lines are read on) and every trajectory is partial, since
// the damage may have held spans of any trace. A JSON line that is valid
// but not OTLP traces is reported and skipped. Protobuf is one TracesData
// message, read one ResourceSpans at a time, or the Collector file
// exporter's proto framing: each message preceded by its length as a
// 4-byte big-endian integer. The varint framing of writeDelimitedTo is not
// read: its first byte cannot be told from an unframed message's.
//
// Memory: spans of one trace may be anywhere in a file (the file exporter
// writes in end order with no guarantee), and a later trace may continue
// the same conversation, so a trajectory is complete only at the end of the
// file. Every span is therefore kept until then, but only as a compact
// record: ids, times, status, and for tool, chat and agent spans what the
// rules above use, with arguments and results held as JSON text (decoded
// when the trajectory is built). Message histories are reduced on arrival
// to the calls of the output, the tool results of the input (one per call
// id), the calls it replays (one per call id), and a user and a final text
// per chat span. Then trajectories are
// built and handed over one at a time, each trace's records dropped as its
// trajectory is built. The cost is about half the size of the file: a 1 GB
// JSON Lines file of GenAI agent traces (830,000 spans) holds about 560 MB
// of records once read; the OTLP of one line (or, for protobuf, of one
// ResourceSpans or framed message) is decoded at a time.
package otlp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// JSON is OTLP/JSON: one document, or JSON Lines as the Collector's file
// exporter writes them.
var JSON trajeval.Format = jsonFormat{}

// Proto is binary OTLP: one TracesData message, or the file exporter's
// length-prefixed messages.
var Proto trajeval.Format = protoFormat{}

type jsonFormat struct{}

func (jsonFormat) Name() string { return "otlp" }

func (x jsonFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (jsonFormat) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not a JSON object"}
	}
	keys := h.Keys()
	switch {
	case sniff.HasKey(keys, "resourceSpans", "resource_spans"):
		return nil
	case sniff.HasKey(keys, "resourceLogs", "resourceMetrics", "resourceProfiles", "resource_logs", "resource_metrics"):
		return &trajeval.SniffError{Closeness: 50, Why: "OTLP logs or metrics, not traces"}
	case sniff.Contains(head, "resourceSpans") || sniff.Contains(head, "scopeSpans"):
		return &trajeval.SniffError{Closeness: 60, Why: `mentions "resourceSpans" but not as the top-level key`}
	}
	return &trajeval.SniffError{Closeness: 5, Why: `no "resourceSpans" key`}
}

func (jsonFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := newReader(in)
	br := bufio.NewReaderSize(in.R, 1<<20)
	head, _ := br.Peek(1 << 20)
	// A first line that ends within the head and is not a whole JSON value
	// is the start of a pretty-printed document. A first line longer than
	// the head is read as a line: JSON Lines has no length limit.
	if i := bytes.IndexByte(head, '\n'); i >= 0 && !jsonv.Valid(bytes.TrimSpace(head[:i])) {
		if err := r.readDocument(ctx, br); err != nil {
			return err
		}
		return r.emitAll(ctx, yield)
	}
	var firstErr error
	u := &ptrace.JSONUnmarshaler{}
	err := jsonl.Each(br, func(line []byte, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		// pdata's decoder is lenient: it takes `"value":,` and raw
		// control characters in strings. The line must be JSON first.
		var td ptrace.Traces
		err := errNotJSON
		if jsonv.Valid(line) {
			td, err = u.UnmarshalTraces(line)
		}
		if err == nil && !hasSpans(td, line) {
			return jsonl.NotARecord(in, n, 0, `no "resourceSpans"`)
		}
		if err == nil {
			r.lines++
			r.addTraces(td, n)
			return nil
		}
		if _, jerr := jsonl.Decode(line); jerr != nil {
			if err := jsonl.Damaged(r.in, line, jerr, n); err != nil {
				return err
			}
			r.damaged = true
			r.salvage(line, n)
			return nil
		}
		// Valid JSON, but not OTLP traces: skipped, as a line that is not
		// an event.
		msg, l, col := explain(line, err, n)
		if firstErr == nil {
			firstErr = &trajeval.TraceError{File: in.Name, Line: l, Col: col, Msg: msg, Err: trajeval.ErrUnknownFormat}
		}
		if !in.Lenient {
			// Never a run with the line's spans silently missing.
			return &trajeval.TraceError{File: in.Name, Line: l, Col: col, Msg: msg,
				Hint: "a line that is not OTLP traces is not part of a run; remove it, or pass --lenient to skip it", Err: trajeval.ErrCorruptTrace}
		}
		r.in.Warn(trajeval.Warning{File: in.Name, Line: l, Col: col, Msg: msg + "; line skipped"})
		return nil
	})
	if err != nil {
		return jsonl.ReadError(in.Name, err)
	}
	if r.lines == 0 && firstErr != nil {
		return firstErr
	}
	return r.emitAll(ctx, yield)
}

// emitAll yields the trajectories, each partial when damage was read past.
func (r *reader) emitAll(ctx context.Context, yield func(*trajeval.Trajectory) error) error {
	r.reportDrift()
	return r.emit(ctx, func(t *trajeval.Trajectory) error {
		t.Partial = t.Partial || r.damaged
		return yield(t)
	})
}

// salvage adds the spans of what came before the break of a damaged JSON
// document, data, which starts at line; spans cut off part-way are kept
// with what they have.
func (r *reader) salvage(data []byte, line int) {
	b, err := json.Marshal(jsonl.Salvage(data))
	if err != nil {
		return
	}
	if td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(b); err == nil {
		r.addTraces(td, line)
	}
}

// hasSpans reports whether td, decoded from data, is OTLP traces: pdata
// takes any object (`{}`, `{"id": "a"}`) and null as no spans, which
// must not pass as a run with no calls. An export without spans still
// has its resourceSpans key.
func hasSpans(td ptrace.Traces, data []byte) bool {
	return td.ResourceSpans().Len() > 0 || sniff.HasKey(sniff.Keys(data), "resourceSpans", "resource_spans")
}

// errNotJSON stands for the error of a line that is not JSON, which
// jsonl.Decode then describes.
var errNotJSON = errors.New("not JSON")

// readDocument reads one OTLP/JSON document, or several written one after
// another.
func (r *reader) readDocument(ctx context.Context, br io.Reader) error {
	data, err := jsonl.ReadDocument(r.in.Name, br, jsonl.SizeOf(r.in.R), nil)
	if err != nil {
		return err
	}
	if err := jsonl.CheckDepth(r.in.Name, data, 1); err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	u := &ptrace.JSONUnmarshaler{}
	lines := jsonl.NewLines(data)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := d.InputOffset()
		start += int64(len(data[start:]) - len(bytes.TrimLeft(data[start:], " \t\r\n")))
		line, startCol := lines.Position(start)
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err := jsonl.Damaged(r.in, data, err, 1); err != nil {
				return err
			}
			r.damaged = true
			r.salvage(data[start:], line)
			return nil
		}
		td, err := u.UnmarshalTraces(raw)
		if err == nil && !hasSpans(td, raw) {
			if err := jsonl.NotARecord(r.in, line, 0, `no "resourceSpans"`); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			msg, l, col := explain(raw, err, line)
			if l == line {
				col += startCol - 1 // raw starts part-way into its line
			}
			return &trajeval.TraceError{File: r.in.Name, Line: l, Col: col, Msg: msg, Err: trajeval.ErrUnknownFormat}
		}
		r.addTraces(td, 0)
	}
}

type protoFormat struct{}

func (protoFormat) Name() string { return "otlp-proto" }

func (protoFormat) Sniff(head []byte) error {
	if len(head) == 0 {
		return &trajeval.SniffError{Why: "empty"}
	}
	if head[0] == 0x0a {
		if why := checkTracesData(head); why != "" {
			return &trajeval.SniffError{Closeness: 20, Why: "not OTLP protobuf: " + why}
		}
		return nil
	}
	if len(head) > 4 && head[0] == 0 {
		n := binary.BigEndian.Uint32(head)
		if n == 0 || head[4] != 0x0a {
			return &trajeval.SniffError{Closeness: 5, Why: "not OTLP protobuf"}
		}
		msg := head[4:]
		if uint64(len(msg)) > uint64(n) {
			msg = msg[:n]
		}
		if why := checkTracesData(msg); why != "" {
			return &trajeval.SniffError{Closeness: 20, Why: "not length-prefixed OTLP protobuf: " + why}
		}
		return nil
	}
	return &trajeval.SniffError{Why: "not OTLP protobuf"}
}

func (protoFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := newReader(in)
	size := jsonl.SizeOf(in.R)
	br := bufio.NewReaderSize(in.R, 1<<20)
	first, err := br.Peek(1)
	if err != nil {
		return &trajeval.TraceError{File: in.Name, Msg: "the file is empty", Err: trajeval.ErrEmptyTrace}
	}
	if first[0] == 0x0a {
		err = r.readResourceSpans(ctx, br, size)
	} else {
		err = r.readFramed(ctx, br, size)
	}
	if err != nil {
		return err
	}
	return r.emitAll(ctx, yield)
}

// maxMessage bounds one protobuf record, so that a corrupt length cannot
// make the reader allocate gigabytes.
const maxMessage = 1 << 30

// readResourceSpans reads an unframed TracesData. Its only field is the
// repeated resource_spans (1), and each such field on its own is a valid
// TracesData, so the message is decoded one ResourceSpans at a time.
func (r *reader) readResourceSpans(ctx context.Context, br *bufio.Reader, fileSize int64) error {
	u := &ptrace.ProtoUnmarshaler{}
	var off int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		tag, err := binary.ReadUvarint(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return r.protoError(off, "truncated field tag", err)
		}
		if tag != 1<<3|2 {
			return r.protoError(off, fmt.Sprintf("field tag %d is not TracesData.resource_spans", tag), nil)
		}
		n, err := binary.ReadUvarint(br)
		if err != nil || n > maxMessage {
			return r.protoError(off, "bad field length", err)
		}
		hdr := binary.AppendUvarint([]byte{0x0a}, n)
		rec, err := readN(br, hdr, n, left(fileSize, off+int64(len(hdr))))
		if err != nil {
			return r.protoError(off, "the protobuf message is cut off", err)
		}
		if err := r.tooDeep(rec, off); err != nil {
			return err
		}
		td, err := u.UnmarshalTraces(rec)
		if err != nil {
			return r.protoError(off, "bad ResourceSpans", err)
		}
		if err := r.checkUTF8(td, off); err != nil {
			return err
		}
		r.addTraces(td, 0)
		off += int64(len(rec))
	}
}

// readFramed reads the Collector file exporter's proto output: each
// message preceded by its length, 4 bytes big-endian.
func (r *reader) readFramed(ctx context.Context, br *bufio.Reader, fileSize int64) error {
	u := &ptrace.ProtoUnmarshaler{}
	var off int64
	var size [4]byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := io.ReadFull(br, size[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return r.protoError(off, "the length prefix is cut off", err)
		}
		n := binary.BigEndian.Uint32(size[:])
		if n > maxMessage {
			return r.protoError(off, fmt.Sprintf("message length %d is not plausible", n), nil)
		}
		msg, err := readN(br, nil, uint64(n), left(fileSize, off+4))
		if err != nil {
			return r.protoError(off, "the last message is cut off", err)
		}
		if err := r.tooDeep(msg, off+4); err != nil {
			return err
		}
		td, err := u.UnmarshalTraces(msg)
		if err != nil {
			return r.protoError(off, "bad TracesData message", err)
		}
		if err := r.checkUTF8(td, off); err != nil {
			return err
		}
		r.addTraces(td, 0)
		off += 4 + int64(n)
	}
}

// tooDeep fails when the message b, at byte off of the file, nests
// attribute values deeper than MaxValueDepth, before the decoder, which
// would recurse through them all, sees it. It is an error read leniently
// too: such a message is hostile, not damaged. Other faults are left to
// the decoder to report.
func (r *reader) tooDeep(b []byte, off int64) error {
	_, err := ScanProto(b)
	var se *ScanError
	if !errors.As(err, &se) || !errors.Is(err, ErrTooDeep) {
		return nil
	}
	return &trajeval.TraceError{File: r.in.Name, Msg: fmt.Sprintf("byte %d: %s", off+se.Offset, se.Msg),
		Hint: fmt.Sprintf("trajeval reads attribute values nested up to %d levels", MaxValueDepth), Err: err}
}

// left returns how many bytes of a file of size bytes come after byte
// off, -1 when its size is unknown.
func left(size, off int64) int64 {
	if size < 0 {
		return -1
	}
	return max(size-off, 0)
}

// readN appends the next n bytes of br to prefix, as jsonl.ReadDocument
// reads a document: into one buffer of their size when the file is known
// to hold them (left is how many bytes it has after prefix, -1 when
// unknown); else into a buffer that doubles as data arrives, up to that
// size, so that a corrupt length costs no more than about twice what the
// file holds, and reading a message of maxMessage holds at most about
// twice it (a bytes.Buffer, which grows past the size and copies as it
// goes, held up to three times it).
func readN(br io.Reader, prefix []byte, n uint64, left int64) ([]byte, error) {
	want := len(prefix) + int(n)
	c := want
	if left < 0 || uint64(left) < n {
		c = min(want, len(prefix)+64<<10)
	}
	b := append(make([]byte, 0, c), prefix...)
	for len(b) < want {
		if len(b) == cap(b) {
			b = append(make([]byte, 0, min(2*cap(b), want)), b...)
		}
		k, err := io.ReadFull(br, b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// protoError reports damage at byte off of a protobuf file (see
// trajeval.Input.Damage): read leniently, what came before is kept and
// nothing after it is read.
func (r *reader) protoError(off int64, msg string, err error) error {
	var te *trajeval.TraceError
	switch {
	case errors.As(err, &te):
		return err // damage found below, in a compressed file
	case err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		msg += ": " + err.Error()
	}
	if err := r.in.Damage(0, 0, fmt.Sprintf("byte %d: %s", off, msg)); err != nil {
		return err
	}
	r.damaged = true
	return nil
}

// checkTracesData checks that b starts like a TracesData message: field 1
// holding a ResourceSpans whose own fields are 1 (resource), 2
// (scope_spans) or 3 (schema_url), as far as b goes.
func checkTracesData(b []byte) string {
	tag, k := binary.Uvarint(b)
	if k <= 0 || tag != 1<<3|2 {
		return "no resource_spans field"
	}
	b = b[k:]
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return "bad length"
	}
	b = b[k:]
	if n == 0 {
		return "empty resource_spans"
	}
	if uint64(len(b)) > n {
		b = b[:n]
	}
	fields := 0
	for len(b) > 0 {
		tag, k := binary.Uvarint(b)
		if k <= 0 {
			break
		}
		if wire, field := tag&7, tag>>3; wire != 2 || field < 1 || field > 3 {
			return fmt.Sprintf("unexpected field %d (wire type %d) in ResourceSpans", field, wire)
		}
		fields++
		b = b[k:]
		n, k := binary.Uvarint(b)
		if k <= 0 {
			break
		}
		if uint64(len(b)-k) < n {
			break // cut off by the end of the head
		}
		b = b[k+int(n):]
	}
	if fields == 0 {
		return "no ResourceSpans fields"
	}
	return ""
}
