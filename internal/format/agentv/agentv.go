// Package agentv reads AgentV's trace shapes: the output file of AgentV's
// cli provider, one JSON object per file or JSON Lines with an id per line;
// AgentV's replay fixtures (schema_version agentv.replay_fixture.v1), the
// same records keyed by test_id; and what `agentv import` writes, one
// message per line (see [row]).
//
//	{"id": "case-1",
//	 "output": [{"role": "assistant", "content": "...",
//	             "tool_calls": [{"tool": "search", "input": {...}, "output": ...,
//	                             "id": "call_1", "status": "ok",
//	                             "start_time": "...", "end_time": "...", "duration_ms": 45}]}],
//	 "token_usage": {"input": 10, "output": 20}, "cost_usd": 0.01, "duration_ms": 1500}
//
// The rules:
//  1. Messages come from "output", else the legacy "output_messages".
//  2. A message with role user starts a new turn; steps before the first
//     user message belong to turn 1. A turn's final response is the text of
//     its last assistant message whose text is not white space only.
//  3. Calls listed in one message were issued together, but a replay
//     fixture's calls may carry times showing they ran one after the
//     other: see [parallel] for which share a parallel group.
//  4. "input" given as a JSON string is parsed; text that is not JSON stays
//     a string and is reported as a warning.
//  5. status ok gives error false; error, timeout and cancelled give error
//     true; unknown or no status gives null.
//  6. A call id seen twice is one step (the first), with a warning.
//  7. llm_calls counts the assistant messages.
//  8. The lines of a JSON Lines file are decoded on every core Go may use
//     (GOMAXPROCS) and handed on in the file's order, with their warnings:
//     the result is the same as one line at a time.
//  9. A record's id is its id, else its test_id. In a JSON Lines file of
//     two or more records, those with neither are reported: a run cannot
//     match them to a suite's cases.
package agentv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is AgentV's trace shape.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "agentv" }

func (x format) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (format) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not a JSON object"}
	}
	// The keys of the first line when it is a whole value, else of the
	// head: a one-line head is both.
	keys := h.FirstLineKeys()
	if !h.OneLine() && !jsonv.Valid(sniff.FirstLine(head)) {
		keys = h.Keys()
	}
	if sniff.HasKey(keys, "output", "output_messages") {
		if sniff.Contains(head, "tool_calls") || sniff.Contains(head, "role") || sniff.HasKey(keys, "token_usage", "cost_usd") {
			return nil
		}
		return &trajeval.SniffError{Closeness: 60, Why: `has "output" but no messages with role or tool_calls`}
	}
	if transcriptKeys(h.FirstLineKeys()) {
		return nil
	}
	return &trajeval.SniffError{Closeness: 10, Why: `no "output" or "output_messages" key`}
}

type record struct {
	ID             any         `json:"id"`      // a string, or a number
	TestID         any         `json:"test_id"` // a replay fixture's case
	SchemaVersion  string      `json:"schema_version"`
	Output         []message   `json:"output"`
	OutputMessages []message   `json:"output_messages"`
	TokenUsage     *tokenUsage `json:"token_usage"`
	CostUSD        *float64    `json:"cost_usd"`
	DurationMS     *float64    `json:"duration_ms"`

	// valid says that every string of the record was read by the fast
	// path's parser, which refuses what is not UTF-8 (see build).
	valid bool
	// idText is the id when the fast path read it as a string, ID nil.
	idText string
	// idsDistinct says that no call id of the record is given twice: the
	// fast path's idBuckets found none that could be.
	idsDistinct bool
	// mem holds the record's numbers when the fast path read any, and
	// then its trajectory (see recordMem).
	mem *recordMem
	// direct says that the fast path read the calls straight into
	// steps, the steps of the list build reads (see stepRead): its
	// messages' ToolCalls are nil, their steps counted in steps.
	direct bool
	steps  []trajeval.Step
}

type tokenUsage struct {
	Input  *int64 `json:"input"`
	Output *int64 `json:"output"`
	Total  *int64 `json:"total"`
}

type message struct {
	Role      string     `json:"role"`
	Name      string     `json:"name"`
	Content   any        `json:"content"`
	ToolCalls []toolCall `json:"tool_calls"`

	// steps counts the calls the fast path read straight into steps
	// (see stepRead).
	steps int
}

// calls counts the message's calls.
func (m *message) calls() int { return len(m.ToolCalls) + m.steps }

type toolCall struct {
	Tool       string   `json:"tool"`
	Input      any      `json:"input"`
	Output     any      `json:"output"`
	ID         any      `json:"id"`
	Status     string   `json:"status"`
	Error      any      `json:"error"`
	StartTime  string   `json:"start_time"`
	EndTime    string   `json:"end_time"`
	Timestamp  string   `json:"timestamp"`
	DurationMS *float64 `json:"duration_ms"`

	// at holds the start, end and timestamp times the fast path read
	// itself (bit i of parsed set for at[i]), their text left empty: see
	// decoder.stamp. They become a step's time.Time in build, not
	// before.
	at     [3]instant
	parsed uint8
	// duration is the call's duration the fast path read, bit 3 of
	// parsed set, DurationMS left nil.
	duration float64
	// in and out are where the input and output stand in the record
	// when the fast path keeps them as text (see decoder.value).
	in, out span
}

// times returns the call's start (its timestamp when it has no start)
// and end, read with clk; warn hears of text that is not a time.
func (c *toolCall) times(clk *clock, warn func(string)) (start, end time.Time) {
	switch {
	case c.parsed&1 != 0:
		start = c.at[0].time()
	case c.StartTime != "":
		start = clk.parseTime(c.StartTime, warn)
	case c.parsed&4 != 0:
		start = c.at[2].time()
	default:
		start = clk.parseTime(c.Timestamp, warn)
	}
	if c.parsed&2 != 0 {
		return start, c.at[1].time()
	}
	return start, clk.parseTime(c.EndTime, warn)
}

func (f format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	br := bufio.NewReaderSize(in.R, msglog.BufferSize(in.R))
	// The first line decides: a whole JSON value means JSON Lines (a
	// one-line file is both); otherwise the file is one pretty-printed
	// object. The first line is read whole, however long.
	first, err := jsonl.ReadLine(br, 1)
	for n, line := 2, first; len(bytes.TrimSpace(line)) == 0 && err == nil; n++ {
		// Blank lines are kept, so that lines and columns count from
		// the file's start, but not without end.
		if err = jsonl.CheckDocument(in.Name, int64(len(first))); err != nil {
			return err
		}
		if line, err = jsonl.ReadLine(br, n); len(line) == 0 {
			break
		}
		first = append(first, line...)
	}
	if err != nil {
		return jsonl.ReadError(in.Name, err)
	}
	if t := bytes.TrimSpace(first); len(t) == 0 || !jsonv.Valid(t) {
		data, err := jsonl.ReadDocument(in.Name, br, jsonl.SizeOf(in.R), first)
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return &trajeval.TraceError{File: in.Name, Line: 1, Col: 1, Msg: "the file is empty", Err: trajeval.ErrEmptyTrace}
		}
		t, err := decode(in, data, 1, &decoder{keepText: in.KeepText})
		if err != nil {
			return err
		}
		if t == nil {
			return &trajeval.TraceError{File: in.Name, Msg: "no trace records", Err: trajeval.ErrEmptyTrace}
		}
		return yield(t)
	}
	if transcriptRow(first) {
		return readTranscript(ctx, in, first, br, yield)
	}
	records := 0
	firstLine := max(bytes.Count(first, []byte{'\n'}), 1)
	var rec *recycler
	if in.Steps != nil {
		rec = new(recycler)
	}
	newDecoder := func() jsonl.Decoder[*trajeval.Trajectory] {
		d := &decoder{keepText: in.KeepText}
		d.rec = rec
		return func(line []byte, n int, warn func(trajeval.Warning)) (*trajeval.Trajectory, error) {
			in := in
			in.Warn = warn
			return decode(in, line, n+firstLine, d)
		}
	}
	var unnamed unnamedRecords
	count := func(t *trajeval.Trajectory) error {
		if t == nil {
			return nil // not a record, skipped leniently
		}
		records++
		unnamed.note(t)
		return yield(t)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t, err := newDecoder()(bytes.TrimSpace(first), 0, in.Warn)
	if err != nil {
		return err
	}
	if err := count(t); err != nil {
		return err
	}
	// Records decode on every core; they are handed on in order.
	// The decoder bounds depth itself (see decode): no line is scanned for
	// it first.
	err = jsonl.ParallelBounded(ctx, br, runtime.GOMAXPROCS(0), newDecoder, in.Warn, count)
	if err == nil && records == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "no trace records", Err: trajeval.ErrEmptyTrace}
	}
	if err == nil && records > 1 {
		unnamed.report(in)
	}
	return err
}

// decode reads one trace record, data, whose first line is firstLine, with
// fast when it can (see fastDecode), else with encoding/json. Depth is
// bounded either way: the fast path's parser says no past jsonv.MaxDepth,
// and data is checked (jsonl.CheckDepth) before encoding/json reads it.
// A record cut off or broken is damage (see trajeval.Input.Damage); read
// leniently, what came before the break is its partial trajectory.
func decode(in trajeval.Input, data []byte, firstLine int, fast *decoder) (*trajeval.Trajectory, error) {
	if r, ok := fastRead(fast, data, in.Steps); ok {
		return buildRecord(in, r, firstLine, &fast.clock)
	}
	return decodeJSON(in, data, firstLine, &fast.clock)
}

// decodeJSON is decode with encoding/json alone: what the fast path
// leaves to it, and what the fast path's records must read as.
func decodeJSON(in trajeval.Input, data []byte, firstLine int, clk *clock) (*trajeval.Trajectory, error) {
	if err := jsonl.CheckDepth(in.Name, data, firstLine); err != nil {
		return nil, err
	}
	var r record
	partial := false
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Valid JSON, but not a trace record: nothing to salvage.
			msg, line, col := jsonl.Describe(data, err, firstLine)
			return nil, &trajeval.TraceError{File: in.Name, Line: line, Col: col, Msg: msg, Hint: "see the record shape in the agentv format's documentation", Err: trajeval.ErrUnknownFormat}
		}
		if err := jsonl.Damaged(in, data, err, firstLine); err != nil {
			return nil, err
		}
		r, partial = salvage(data), true
	} else if rest := bytes.TrimLeft(data[d.InputOffset():], " \t\r\n"); len(rest) > 0 {
		// A second value must not be dropped silently (two pretty-printed objects).
		line, col := jsonl.Position(data, int64(len(data)-len(rest)))
		return nil, &trajeval.TraceError{File: in.Name, Line: line + firstLine - 1, Col: col, Msg: "unexpected data after the trace object", Hint: "write one object per file, or one object per line (JSON Lines)", Err: trajeval.ErrUnknownFormat}
	}
	if partial {
		return build(in, r, firstLine, partial, clk), nil
	}
	return buildRecord(in, r, firstLine, clk)
}

// buildRecord is build for a whole record: one without messages (`{}`,
// `null`, `{"id": "a"}`) is not a record (see jsonl.NotARecord), and
// gives a nil trajectory when read leniently.
func buildRecord(in trajeval.Input, r record, firstLine int, clk *clock) (*trajeval.Trajectory, error) {
	if r.Output == nil && r.OutputMessages == nil {
		return nil, jsonl.NotARecord(in, firstLine, 0, `no "output" or "output_messages" list`)
	}
	return build(in, r, firstLine, false, clk), nil
}

// salvage reads what comes before the break of a damaged record.
func salvage(data []byte) record {
	var r record
	b, err := json.Marshal(jsonl.Salvage(data))
	if err != nil {
		return r
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	_ = d.Decode(&r) // what has the wrong type stays unset
	return r
}

// build makes the trajectory of the record r, which starts at firstLine,
// reading its times with clk; partial says damage cut it short.
func build(in trajeval.Input, r record, firstLine int, partial bool, clk *clock) *trajeval.Trajectory {
	msgs := r.Output
	if msgs == nil {
		msgs = r.OutputMessages
	}
	mem := memOf(&r)
	t := &mem.t
	*t = trajeval.Trajectory{ID: recordID(r), Line: firstLine, Partial: partial}
	user, final := &mem.user, &mem.final // taken by the first of each (see text)
	n, users := 0, 0
	for i := range msgs {
		m := &msgs[i] // not a copy: build reads each message twice
		n += m.calls()
		if m.Role == "user" {
			users++
		}
	}
	// What the steps point at is allocated once for the trajectory, not
	// once a step.
	// The steps are filled in a local slice, set in t at the end: a
	// store through t or a step may be to anything the compiler cannot
	// tell apart, and each would make it load t.Steps again.
	var steps []trajeval.Step
	var flags []stepFlags
	if r.direct {
		steps = r.steps // filled but for agents and groups (see stepRead)
	} else if n > 0 {
		steps = in.Steps.Make(n)
		flags = make([]stepFlags, n)
	}
	addTurn := func(tn trajeval.Turn) {
		if t.Turns == nil {
			t.Turns = mem.turns[:0:min(users+1, len(mem.turns))]
			if users+1 > len(mem.turns) {
				t.Turns = make([]trajeval.Turn, 0, users+1)
			}
		}
		t.Turns = append(t.Turns, tn)
	}
	var seen seenIDs
	turn, next := 0, 0
	group := 0
	warn := func(msg string) {
		in.Warn(trajeval.Warning{File: in.Name, Line: firstLine, Place: "trace " + t.ID, Msg: msg})
	}
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case "user":
			addTurn(trajeval.Turn{User: text(m.Content, &user)})
			turn = len(t.Turns)
			continue
		case "assistant":
			mem.llm++
		default:
			if m.calls() == 0 {
				continue // a system prompt must not open an empty turn before the first user message
			}
		}
		if turn == 0 {
			addTurn(trajeval.Turn{})
			turn = 1
		}
		if m.Content != nil && m.Role == "assistant" { // most calls' messages have none: no compare
			if s := text(m.Content, &final); s != nil && strings.TrimSpace(*s) != "" {
				t.Turns[turn-1].FinalResponse = s
			}
		}
		if r.direct {
			// Each step has its turn (see stepRead); its agent and its
			// group are the message's.
			made := next
			next += m.steps
			if m.Name != "" || m.steps > 1 {
				made := steps[made:next]
				for k := range made {
					made[k].Agent = m.Name
				}
				if len(made) > 1 {
					groups := parallel(len(made), func(k int) (time.Time, time.Time) { return made[k].StartTime, made[k].EndTime }, &group)
					for k := range made {
						made[k].ParallelGroup = groups[k]
					}
				}
			}
			continue
		}
		var groups []int // one call has none (see parallel): no call for it
		if len(m.ToolCalls) > 1 {
			groups = parallel(len(m.ToolCalls), func(k int) (time.Time, time.Time) {
				return m.ToolCalls[k].times(clk, func(string) {}) // build reports a bad time
			}, &group)
		}
		calls := m.ToolCalls
		for ci := range calls {
			c := &calls[ci]             // not a copy: a call is some 200 bytes
			id, isText := c.ID.(string) // as nearly every id is: no call
			if !isText {
				id = idString(c.ID)
			}
			if id != "" && !r.idsDistinct && seen.add(id) {
				warn(fmt.Sprintf("call id %q appears twice; kept the first", id))
				continue
			}
			if c.Tool == "" {
				if partial {
					continue // cut off before its name
				}
				warn("a tool call has no tool name")
			}
			// Filled in place: a step is some 250 bytes, and steps has
			// room for every call, zero as make left it (nothing is
			// written past its length), so it is not zeroed again.
			k := len(steps)
			steps = steps[:k+1]
			s, f := &steps[k], &flags[k]
			s.Turn, s.ID, s.Name, s.Args = turn, id, c.Tool, args(c.Input, warn, c.Tool)
			s.Result, s.Agent = c.Output, m.Name
			if groups != nil {
				s.ParallelGroup = groups[ci]
			}
			d := c.DurationMS
			if c.parsed&8 != 0 {
				d = &c.duration
			}
			if d != nil {
				f.duration = *d
				s.DurationMS = &f.duration
			}
			s.Error = f.status(c.Status)
			if c.Error != nil {
				f.failed(s, c.Error)
			}
			if c.parsed&3 == 3 {
				// Both read by the fast path, as nearly always: made where
				// the step keeps them.
				s.StartTime, s.EndTime = startEnd(c.at[0], c.at[1])
			} else {
				s.StartTime, s.EndTime = c.times(clk, warn)
			}
		}
	}
	t.Steps = steps
	if msgs != nil {
		t.Metrics.LLMCalls = &mem.llm
	}
	t.Metrics.CostUSD = r.CostUSD
	t.Metrics.DurationMS = r.DurationMS
	if u := r.TokenUsage; u != nil {
		t.Metrics.Tokens = trajeval.Tokens{Input: u.Input, Output: u.Output, Total: u.Total}
	}
	// Every string of a record the fast path read is UTF-8: its parser
	// refuses what is not, and what build makes of its strings (joined
	// texts, JSON written by jsonv.Marshal, arguments decoded by
	// jsonv.Decode) is UTF-8 too. Otherwise arguments and results come
	// from encoding/json, which replaces what is not UTF-8, and args
	// decodes a string with jsonv.Decode, which validates too; the rest is
	// checked.
	if r.valid {
		t.FinishValid()
	} else {
		t.FinishDecoded()
	}
	return t
}

// stepFlags is what a step points at, made in one slice for a
// trajectory's steps.
type stepFlags struct {
	duration float64
	err      bool
}

// status is a step's Error for a call's status (rule 5), pointing at
// f.err.
func (f *stepFlags) status(s string) *bool {
	switch s {
	case "ok", "success":
		return &f.err
	case "error", "timeout", "cancelled":
		f.err = true
		return &f.err
	}
	return nil
}

// failed gives s, whose flags are f, the call's error e (not nil): its
// message, and Error true unless its status said otherwise.
func (f *stepFlags) failed(s *trajeval.Step, e any) {
	if msg, ok := e.(string); ok {
		s.ErrorMessage = msg
	} else {
		s.ErrorMessage = jsonv.Marshal(e)
	}
	if s.Error == nil {
		f.err = true
		s.Error = &f.err
	}
}

// fewIDs is how many call ids seenIDs keeps in a list, looked along,
// before it makes a map: a short look costs less than a map.
const fewIDs = 32

// seenIDs says which call ids a record has given before.
type seenIDs struct {
	few [fewIDs]string
	// marks holds each id's length and last two bytes: ids of one
	// record ("call_1", "call_11") mostly differ there, so few of them
	// are compared whole.
	marks [fewIDs]uint32
	// seen has bit mark%64 set for each id in few: an id whose bit is
	// clear is new without a look along the list, as most are.
	seen uint64
	n    int
	set  map[string]bool
}

// mark is the length and last two bytes of id.
func mark(id string) uint32 {
	m := uint32(len(id)) << 16
	if len(id) >= 2 {
		m |= uint32(id[len(id)-2])<<8 | uint32(id[len(id)-1])
	}
	return m
}

// add reports whether id was seen before, and notes it.
func (s *seenIDs) add(id string) (seen bool) {
	if s.set == nil {
		m := mark(id)
		// The mark's bit is picked by a multiplicative hash, whose top
		// six bits depend on all of the mark's.
		bit := uint64(1) << (m * 0x9E3779B1 >> 26)
		if s.seen&bit != 0 {
			for i, x := range s.marks[:s.n] {
				if x == m && s.few[i] == id {
					return true
				}
			}
		}
		if s.n < fewIDs {
			s.few[s.n], s.marks[s.n] = id, m
			s.seen |= bit
			s.n++
			return false
		}
		s.set = make(map[string]bool, 2*fewIDs)
		for _, x := range s.few {
			s.set[x] = true
		}
	}
	seen = s.set[id]
	s.set[id] = true
	return seen
}

// recordID is a record's id, else its test_id: a replay fixture names
// the case it recorded so.
func recordID(r record) string {
	if r.idText != "" {
		return r.idText
	}
	if id := idString(r.ID); id != "" {
		return id
	}
	return idString(r.TestID)
}

func idString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return jsonv.Marshal(v)
}

func args(v any, warn func(string), tool string) any {
	switch s := v.(type) {
	case nil:
		return map[string]any{}
	case string:
		return textArgs(s, warn, tool)
	}
	return v // small enough to inline: nearly every input is an object
}

// textArgs is args for input given as a string.
func textArgs(s string, warn func(string), tool string) any {
	if strings.TrimSpace(s) == "" {
		return map[string]any{} // no arguments, as when input is absent
	}
	// Only an object or array in a string is serialised arguments; other
	// text ("42", "yes") is an argument of its own and stays a string.
	if t := strings.TrimSpace(s); t[0] != '{' && t[0] != '[' {
		return s
	}
	if p, err := jsonv.Decode([]byte(s)); err == nil {
		return p
	}
	warn(fmt.Sprintf("arguments of %s are a string that is not valid JSON; kept as text", tool))
	return s
}
