package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Session is the session file Codex keeps of every conversation, in
// ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl:
//
//	{"timestamp":"...","type":"session_meta","payload":{"id":"019c...","cli_version":"0.104.0",...}}
//	{"timestamp":"...","type":"event_msg","payload":{"type":"user_message","message":"Fix the test"}}
//	{"timestamp":"...","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}}
//	{"timestamp":"...","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"a\\n\",\"metadata\":{\"exit_code\":0}}"}}
//	{"timestamp":"...","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}
//
// Older versions (before the {timestamp, type, payload} envelope) wrote
// the session's id and time on the first line, {"record_type":"state"}
// lines, and the Responses API items bare, one a line; both shapes are
// read alike. The rules:
//  1. A file is one trajectory; its id is the session_meta's id (the
//     first line's id in the older shape).
//  2. Each user_message event starts a turn, its message the turn's user.
//     A file with no such event (the older shape) takes each user message
//     item instead, less those Codex writes itself (<environment_context>,
//     <user_instructions>, AGENTS.md instructions). A turn's final
//     response is the text of its last assistant message item; a text of
//     white space only is none.
//  3. Steps are the call items, in file order: function_call (name and
//     its JSON arguments), custom_tool_call (name, args {"input": ...}),
//     local_shell_call (name "local_shell", args its action) and
//     web_search_call (name "web_search", args its action). Their outputs
//     (function_call_output, custom_tool_call_output) pair with them by
//     call_id, never by position; an output for no call, a second output
//     and a call left without one are each reported.
//  4. An output is the step's result as written (a string, usually).
//     error is true when the output is JSON whose metadata.exit_code is
//     not 0, or whose success is false, or when its text states "Process
//     exited with code N" with N not 0 (in the header that ends in a line
//     "Output:", as 0.171.0 writes it; else as its last line); false when
//     such a code is 0, or a web_search_call or local_shell_call has
//     status completed; null otherwise.
//  5. Call items written one after another, with nothing else between
//     them, came from one model response: two or more share a parallel
//     group.
//  6. A step starts at its call line's timestamp and ends at its output
//     line's.
//  7. metrics.tokens is the last token_count event's total_token_usage.
//  8. reasoning items, turn_context, compacted, world_state,
//     token_usage_record and the other event_msg lines (which repeat the
//     items for display) are not read. A line type or item type this
//     reader does not know is reported once per type, with a count (see
//     package drift).
var Session trajeval.Format = session{}

type session struct{}

func (session) Name() string { return "codex-session" }

func (session) Sniff(head []byte) error {
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not JSON Lines of objects"}
	}
	closeness := 0
	for i, line := range sniff.Lines(head, 5) {
		if !sniff.MayHaveKey(line, "payload", "record_type", "instructions") {
			continue // no case below can hold: not worth decoding
		}
		var e struct {
			Type         string          `json:"type"`
			Payload      json.RawMessage `json:"payload"`
			RecordType   string          `json:"record_type"`
			ID           *string         `json:"id"`
			Timestamp    *string         `json:"timestamp"`
			Instructions json.RawMessage `json:"instructions"`
		}
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch {
		case e.Payload != nil && (e.Type == "session_meta" || e.Type == "response_item" || e.Type == "turn_context"):
			return nil
		case i == 0 && e.Type == "" && e.ID != nil && e.Timestamp != nil && e.Instructions != nil:
			// the older shape's first line: the session's id and time
			return nil
		case e.RecordType == "state":
			return nil
		case e.Payload != nil && e.Type == "event_msg":
			closeness = 60
		}
	}
	return &trajeval.SniffError{Closeness: closeness, Why: "no session_meta, response_item or turn_context line with a payload"}
}

// lineTypes are the envelope types a session file holds; only
// session_meta, response_item and event_msg are read.
var lineTypes = map[string]bool{
	"session_meta": true, "response_item": true, "event_msg": true,
	"turn_context": true, "compacted": true,
	// written by codex-cli 0.171.0: the state the model was shown, and
	// each response's token usage (token_count events carry the totals)
	"world_state": true, "token_usage_record": true,
}

// itemTypes are the Responses API items Codex records: calls and outputs
// are read, messages give turns, the others carry nothing to score.
var itemTypes = map[string]bool{
	"message": true, "reasoning": true,
	"function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true,
	"local_shell_call": true, "web_search_call": true,
	"ghost_snapshot": true, "compaction": true, "compaction_summary": true,
}

type sessionReader struct {
	in    trajeval.Input
	line  int
	t     *trajeval.Trajectory
	calls map[string]int // call_id -> step index
	place map[string]int // call_id -> line of the call
	done  map[string]bool
	last  string // "call" when the previous item was a call
	batch []int  // steps of the current run of calls
	group int

	// Turns two ways (rule 2): by user_message events, and by user
	// message items for files without such events.
	events, items turnSet
	tokens        *trajeval.Tokens
	unknown       drift.Unknown
	seen          bool
}

// turnSet is one way of cutting a session into turns: the turns, and the
// turn of each step.
type turnSet struct {
	turns []trajeval.Turn
	steps []int
}

func (s *turnSet) open(user string) {
	s.turns = append(s.turns, trajeval.Turn{User: &user})
}

func (s *turnSet) final(text string) {
	if len(s.turns) == 0 {
		s.turns = append(s.turns, trajeval.Turn{})
	}
	s.turns[len(s.turns)-1].FinalResponse = &text
}

func (s *turnSet) step() {
	s.steps = append(s.steps, max(len(s.turns), 1))
	if len(s.turns) == 0 {
		s.turns = append(s.turns, trajeval.Turn{})
	}
}

func (session) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := &sessionReader{in: in, t: &trajeval.Trajectory{Turns: []trajeval.Turn{}},
		calls: map[string]int{}, place: map[string]int{}, done: map[string]bool{}}
	skipped := eventlog.Skipped{One: "a JSON object", Many: "JSON objects"}
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
		e, ok := v.(map[string]any)
		if !ok || !eventlog.Has(e, "type", "payload", "record_type") && !(n == 1 && eventlog.Has(e, "id")) {
			if !damaged {
				return skipped.Line(in, n)
			}
			return nil
		}
		r.seen = true
		r.lineOf(e)
		return nil
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	r.unknown.Report(in, "codex-session")
	if !r.seen {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no Codex session lines: no line is a JSON object", Err: trajeval.ErrEmptyTrace}
	}
	return yield(r.finish())
}

func (r *sessionReader) warn(place, format string, a ...any) {
	r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.line, Place: place, Msg: fmt.Sprintf(format, a...)})
}

// lineOf reads one line of either shape.
func (r *sessionReader) lineOf(e map[string]any) {
	typ, _ := e["type"].(string)
	payload, hasPayload := e["payload"].(map[string]any)
	switch {
	case hasPayload:
		at := msglog.ParseTimeOf("timestamp", e["timestamp"], func(msg string) { r.warn("", "%s", msg) })
		switch typ {
		case "session_meta":
			if id, ok := payload["id"].(string); ok {
				r.t.ID = id
			}
		case "response_item":
			r.item(payload, at)
		case "event_msg":
			r.event(payload)
		default:
			if !lineTypes[typ] {
				r.unknown.Saw("line type", typ, r.line)
			}
		}
	case e["record_type"] != nil:
		// the older shape's state lines
	case typ == "" && r.line == 1:
		if id, ok := e["id"].(string); ok {
			r.t.ID = id
		}
	case typ != "":
		r.item(e, time.Time{})
	default:
		r.unknown.Saw("line without a type, with keys", strings.Join(slices.Sorted(maps.Keys(e)), ","), r.line)
	}
}

func (r *sessionReader) event(p map[string]any) {
	switch p["type"] {
	case "user_message":
		msg, _ := p["message"].(string)
		r.events.open(msg)
	case "token_count":
		info, _ := p["info"].(map[string]any)
		u, ok := info["total_token_usage"].(map[string]any)
		if !ok {
			return
		}
		var tk trajeval.Tokens
		for k, dst := range map[string]**int64{"input_tokens": &tk.Input, "output_tokens": &tk.Output, "total_tokens": &tk.Total} {
			if n, ok := u[k].(json.Number); ok {
				if x, err := n.Int64(); err == nil {
					*dst = &x
				}
			}
		}
		r.tokens = &tk
	}
}

// injected tells the user message items Codex writes itself from those
// the user typed, in files without user_message events.
func injected(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<permissions instructions>", "<user_shell_command>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (r *sessionReader) item(p map[string]any, at time.Time) {
	typ, _ := p["type"].(string)
	if !itemTypes[typ] {
		r.unknown.Saw("response item type", typ, r.line)
		return
	}
	isCall := false
	switch typ {
	case "message":
		r.message(p)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		isCall = true
		r.call(typ, p, at)
	case "function_call_output", "custom_tool_call_output":
		r.output(p, at)
	case "reasoning":
		return // reasoning between calls of one response does not part them
	}
	if !isCall {
		r.last, r.batch = "", nil
	}
}

func (r *sessionReader) message(p map[string]any) {
	role, _ := p["role"].(string)
	text := contentText(p["content"])
	switch role {
	case "user":
		if !injected(text) {
			r.items.open(text)
		}
	case "assistant":
		if strings.TrimSpace(text) != "" {
			r.events.final(text)
			r.items.final(text)
		}
	}
}

// contentText joins the text of a message's content parts (input_text,
// output_text).
func contentText(v any) string {
	parts, _ := v.([]any)
	var texts []string
	for _, b := range parts {
		blk, _ := b.(map[string]any)
		if s, ok := blk["text"].(string); ok {
			texts = append(texts, s)
		}
	}
	return strings.Join(texts, "\n")
}

func (r *sessionReader) call(typ string, p map[string]any, at time.Time) {
	id, _ := p["call_id"].(string)
	if id == "" {
		id, _ = p["id"].(string)
	}
	s := trajeval.Step{ID: id, StartTime: at}
	switch typ {
	case "function_call":
		s.Name, _ = p["name"].(string)
		s.Args = eventlog.Args(p["arguments"], func() {
			r.warn("call "+id, "arguments of %s are a string that is not valid JSON; kept as text", s.Name)
		})
	case "custom_tool_call":
		s.Name, _ = p["name"].(string)
		s.Args = map[string]any{"input": p["input"]}
	case "local_shell_call":
		s.Name = "local_shell"
		s.Args = p["action"]
		if p["status"] == "completed" {
			s.Error = ptr(false)
		}
	case "web_search_call":
		s.Name = "web_search"
		s.Args = p["action"]
		switch p["status"] {
		case "completed":
			s.Error = ptr(false)
		case "failed":
			s.Error = ptr(true)
		}
	}
	if s.Args == nil {
		s.Args = map[string]any{}
	}
	if id != "" {
		if _, dup := r.calls[id]; dup {
			r.warn("call "+id, "call %s appears twice; kept the first", id)
			return
		}
		r.calls[id] = len(r.t.Steps)
		r.place[id] = r.line
	}
	if typ == "web_search_call" {
		r.done[id] = true // it has no output item
	}
	idx := len(r.t.Steps)
	if r.last != "call" {
		r.batch = nil
	}
	r.batch = append(r.batch, idx)
	switch {
	case len(r.batch) == 2:
		r.group++
		r.t.Steps[r.batch[0]].ParallelGroup = r.group
		s.ParallelGroup = r.group
	case len(r.batch) > 2:
		s.ParallelGroup = r.group
	}
	r.last = "call"
	r.t.Steps = append(r.t.Steps, s)
	r.events.step()
	r.items.step()
}

var exitLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Process exited with code (-?\d+)\s*\z`) })
var exitHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Process exited with code (-?\d+)$`) })

func (r *sessionReader) output(p map[string]any, at time.Time) {
	id, _ := p["call_id"].(string)
	i, ok := r.calls[id]
	if !ok {
		r.warn("call "+id, "an output for a call that never appears; ignored")
		return
	}
	if r.done[id] {
		r.warn("call "+id, "a second output for the same call; kept the first")
		return
	}
	r.done[id] = true
	s := &r.t.Steps[i]
	s.EndTime = at
	s.Result = p["output"]
	text, isText := s.Result.(string)
	var o map[string]any
	if isText {
		if v, err := jsonv.Decode([]byte(text)); err == nil {
			o, _ = v.(map[string]any)
		}
	} else {
		o, _ = s.Result.(map[string]any)
	}
	if meta, ok := o["metadata"].(map[string]any); ok {
		if code, ok := meta["exit_code"].(json.Number); ok {
			failed := jsonv.CompareNumbers(code, "0") != 0
			s.Error = &failed
			if failed {
				s.ErrorMessage = "exit code " + string(code)
			}
		}
	}
	if b, ok := o["success"].(bool); ok {
		failed := !b
		s.Error = &failed
	}
	if m := exitCodeOf(text); s.Error == nil && m != "" {
		code, _ := strconv.Atoi(m)
		failed := code != 0
		s.Error = &failed
		if failed {
			s.ErrorMessage = "exit code " + m
		}
	}
}

// exitCodeOf is the exit code a command's text output states, or "".
// exec_command of codex-cli 0.171.0 writes a header before what the
// command printed ("Chunk ID: …\nWall time: …\nProcess exited with code N\n
// Original token count: …\nOutput:\n…"): there only the header is read,
// so that a line the command printed decides nothing. Without such a
// header, the last line is read.
func exitCodeOf(text string) string {
	if header, _, ok := strings.Cut(text, "\nOutput:\n"); ok && !strings.Contains(header, "\n\n") {
		if m := exitHeader().FindStringSubmatch(header); m != nil {
			return m[1]
		}
		return ""
	}
	if m := exitLine().FindStringSubmatch(strings.TrimRight(text, "\n")); m != nil {
		return m[1]
	}
	return ""
}

func (r *sessionReader) finish() *trajeval.Trajectory {
	t := r.t
	ts := r.events
	if len(r.events.turns) == 0 || !hasUser(r.events.turns) {
		ts = r.items
	}
	t.Turns = append(t.Turns, ts.turns...)
	for i := range t.Steps {
		t.Steps[i].Turn = ts.steps[i]
		s := t.Steps[i]
		if s.ID != "" && !r.done[s.ID] {
			r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.place[s.ID], Place: "call " + s.ID, Msg: fmt.Sprintf("call %s never got an output", s.Name)})
		}
	}
	if r.tokens != nil {
		t.Metrics.Tokens = *r.tokens
	}
	t.Finish()
	return t
}

func hasUser(turns []trajeval.Turn) bool {
	for _, t := range turns {
		if t.User != nil {
			return true
		}
	}
	return false
}
