// Package gemini reads the JSON Lines that Gemini CLI prints with
// `gemini -p ... --output-format stream-json`:
//
//	{"type":"init","timestamp":"2026-01-01T10:00:00.000Z","session_id":"s1","model":"gemini-2.5-pro"}
//	{"type":"message","timestamp":"...","role":"user","content":"Fix the test"}
//	{"type":"tool_use","timestamp":"...","tool_name":"read_file","tool_id":"read_file-1","parameters":{"path":"a.ts"}}
//	{"type":"tool_result","timestamp":"...","tool_id":"read_file-1","status":"success","output":"..."}
//	{"type":"message","timestamp":"...","role":"assistant","content":"Done","delta":true}
//	{"type":"result","timestamp":"...","status":"success","stats":{"total_tokens":10,"input_tokens":7,"output_tokens":3,"duration_ms":1200,"tool_calls":1}}
//
// The rules:
//  1. A file is one trajectory per session, whose id is the init line's
//     session_id; an init line with another session id starts the next
//     trajectory, one with the same id (a resumed session) continues it.
//  2. Each invocation (init line) is a turn, and so is each further user
//     message; the turn's user is the user message's text. Its final
//     response is the assistant text (delta chunks joined) written after the
//     turn's last tool call.
//  3. Steps are the tool_use events in file order; args are the parameters.
//     tool_result events pair with them by tool_id, never by position.
//  4. The CLI writes every tool_use of one model response before running
//     them, then their tool_results: tool_use events that follow each other
//     with nothing else between are one response and share a parallel group
//     when there are two or more.
//  5. status success gives error false, error gives error true with the
//     error's message; the result is the output text (the CLI's display
//     string, absent for some tools).
//  6. Durations: a step starts at its tool_use's timestamp and ends at its
//     tool_result's, and duration_ms is the difference. The CLI stamps
//     events as it writes them, so for a call alone in its response this is
//     its running time (plus the CLI's overhead), but for the calls of one
//     parallel batch it is an upper bound: the results are written after
//     the whole batch ran.
//  7. Metrics come from the result line's stats: duration_ms and the
//     input, output and total tokens; resumed invocations add up.
//  8. A tool_id seen twice is one step; a result for an unknown id, a
//     second result and a call left without a result are each reported.
//  9. A run ends with its result line. A trajectory whose stream stops
//     after other events (the process was killed, the output cut) is
//     partial, with a warning: it may lack its last calls.
//  10. A line that is not an object with a "type" is not an event: an
//     error, or with --lenient a warning, never an empty run.
//  11. An event type this reader does not know is reported once per type,
//     with a count (see package drift).
//  12. The stream holds the main agent's calls only: the calls of the
//     sub-agents it starts (invoke_agent) are counted in the result line's
//     stats.tool_calls but written nowhere in it. A run whose tool_calls
//     exceed its tool_use events is partial, with a warning that points to
//     the saved session, which holds them (see [Chat]).
//
// The file is read line by line; only the current trajectory is held.
package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is Gemini CLI's stream-json output.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "gemini-cli" }

func (x format) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (format) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not JSON Lines of objects"}
	}
	if keys := h.Keys(); sniff.HasKey(keys, "response") && sniff.HasKey(keys, "stats") {
		return &trajeval.SniffError{Closeness: 60, Why: "this looks like Gemini CLI's --output-format json, which holds the answer and counts of calls but no calls: " +
			"record with --output-format stream-json, or read the session Gemini CLI saved in ~/.gemini/tmp/<project hash>/chats"}
	}
	closeness := 0
	for _, line := range sniff.Lines(head, 5) {
		var e struct {
			Type      string  `json:"type"`
			Timestamp *string `json:"timestamp"`
			SessionID *string `json:"session_id"`
			ToolID    *string `json:"tool_id"`
			Role      *string `json:"role"`
		}
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if e.Timestamp == nil {
			if e.Type == "init" || e.Type == "tool_use" {
				closeness = 50
			}
			continue
		}
		switch {
		case e.Type == "init" && e.SessionID != nil,
			(e.Type == "tool_use" || e.Type == "tool_result") && e.ToolID != nil,
			e.Type == "message" && e.Role != nil:
			return nil
		}
	}
	return &trajeval.SniffError{Closeness: closeness, Why: "no init, message or tool_use event with a timestamp"}
}

// eventTypes are the events of the stream.
var eventTypes = map[string]bool{"init": true, "message": true, "tool_use": true, "tool_result": true, "result": true}

type reader struct {
	open  bool // an event came after the last result line
	calls int  // the tool_use events of the current run
	in    trajeval.Input
	line  int

	t        *trajeval.Trajectory
	session  string
	fresh    bool // the turn was opened by an init line and has no user yet
	steps    map[string]int
	answered map[string]bool
	placeOf  map[string]int
	batch    []int // the steps of the current run of tool_use events
	groups   int
	text     strings.Builder // assistant text since the last tool call
	hasText  bool
	metrics  totals
	unknown  drift.Unknown
}

type totals struct {
	dur    float64
	hasDur bool
	tok    [3]int64
	hasTok [3]bool
}

func (f format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := &reader{in: in}
	r.reset("")
	skipped, seen := eventlog.Skipped{One: `a Gemini CLI event (an object with a "type")`, Many: "Gemini CLI events"}, false
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
		if !ok || !eventlog.Has(e, "type") {
			if !damaged {
				return skipped.Line(in, n)
			}
			return nil
		}
		typ, _ := e["type"].(string)
		seen = seen || eventTypes[typ] // events of other types alone are no run
		if typ != "tool_use" {
			r.batch = nil
		}
		if typ == "init" {
			sid, _ := e["session_id"].(string)
			if sid != r.session && r.started() {
				if err := yield(r.finish()); err != nil {
					return err
				}
				r.reset(sid)
			}
			r.session, r.t.ID = sid, sid
			r.openTurn(nil)
			r.fresh = true
			r.open = true
			r.calls = 0
			return nil
		}
		// The events of a run end with its result line.
		switch typ {
		case "result":
			r.open = false
		case "message", "tool_use", "tool_result":
			r.open = true
		}
		r.event(typ, e)
		return nil
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	r.unknown.Report(in, "gemini-cli")
	if !seen {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no Gemini CLI events: no line is init, message, tool_use, tool_result or result", Err: trajeval.ErrEmptyTrace}
	}
	return yield(r.finish())
}

func (r *reader) warn(place, format string, a ...any) {
	r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.line, Place: place, Msg: fmt.Sprintf(format, a...)})
}

func (r *reader) reset(session string) {
	r.t = &trajeval.Trajectory{ID: session, Turns: []trajeval.Turn{}}
	r.session, r.fresh = session, false
	r.steps, r.answered, r.placeOf = map[string]int{}, map[string]bool{}, map[string]int{}
	r.batch, r.groups = nil, 0
	r.text.Reset()
	r.hasText = false
	r.metrics = totals{}
}

func (r *reader) started() bool { return len(r.t.Turns) > 0 || len(r.t.Steps) > 0 }

// closeTurn gives the current turn its final response.
func (r *reader) closeTurn() {
	if n := len(r.t.Turns); n > 0 && r.t.Turns[n-1].FinalResponse == nil && r.hasText {
		s := r.text.String()
		r.t.Turns[n-1].FinalResponse = &s
	}
	r.text.Reset()
	r.hasText = false
}

func (r *reader) openTurn(user *string) {
	r.closeTurn()
	r.t.Turns = append(r.t.Turns, trajeval.Turn{User: user})
	r.fresh = false
}

func (r *reader) turn() int {
	if len(r.t.Turns) == 0 {
		r.openTurn(nil)
	}
	return len(r.t.Turns)
}

func (r *reader) event(typ string, e map[string]any) {
	switch typ {
	case "message":
		content := text(e["content"])
		switch e["role"] {
		case "user":
			if r.fresh {
				r.t.Turns[len(r.t.Turns)-1].User = &content
				r.fresh = false
			} else {
				r.openTurn(&content)
			}
		case "assistant":
			r.turn()
			if e["delta"] != true {
				r.text.Reset()
			}
			r.text.WriteString(content)
			r.hasText = true
		}
	case "tool_use":
		r.calls++
		r.toolUse(e)
	case "tool_result":
		r.toolResult(e)
	case "result":
		r.result(e)
	case "error":
	default:
		r.unknown.Saw("event type", typ, r.line)
	}
}

func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return jsonv.Marshal(v)
}

func (r *reader) toolUse(e map[string]any) {
	id, _ := e["tool_id"].(string)
	name, _ := e["tool_name"].(string)
	if id != "" {
		if _, dup := r.steps[id]; dup {
			r.warn("tool_id "+id, "tool_id %q is used twice; kept the first call", id)
			return
		}
	}
	turn := r.turn()
	r.text.Reset()
	r.hasText = false
	s := trajeval.Step{Turn: turn, ID: id, Name: name, Args: eventlog.Args(e["parameters"], func() {
		r.warn("", "parameters of %s are a string that is not valid JSON; kept as text", name)
	}), StartTime: r.time(e)}
	idx := len(r.t.Steps)
	r.batch = append(r.batch, idx)
	switch {
	case len(r.batch) == 2:
		r.groups++
		r.t.Steps[r.batch[0]].ParallelGroup = r.groups
		s.ParallelGroup = r.groups
	case len(r.batch) > 2:
		s.ParallelGroup = r.groups
	}
	if id != "" {
		r.steps[id] = idx
		r.placeOf[id] = r.line
	}
	r.t.Steps = append(r.t.Steps, s)
}

func (r *reader) time(e map[string]any) time.Time {
	return msglog.ParseTimeOf("timestamp", e["timestamp"], func(msg string) { r.warn("", "%s", msg) })
}

func (r *reader) toolResult(e map[string]any) {
	id, _ := e["tool_id"].(string)
	i, ok := r.steps[id]
	if !ok {
		r.warn("tool_id "+id, "a tool result for a call that never appears; ignored")
		return
	}
	if r.answered[id] {
		r.warn("tool_id "+id, "a second result for the same call; kept the first")
		return
	}
	r.answered[id] = true
	s := &r.t.Steps[i]
	s.Result = e["output"]
	s.EndTime = r.time(e)
	switch e["status"] {
	case "success":
		s.Error = ptr(false)
	case "error":
		s.Error = ptr(true)
	}
	if er, ok := e["error"].(map[string]any); ok {
		if s.Error == nil {
			s.Error = ptr(true)
		}
		if m, ok := er["message"].(string); ok {
			s.ErrorMessage = m
		}
	}
}

func (r *reader) result(e map[string]any) {
	r.turn()
	mt := &r.metrics
	st, _ := e["stats"].(map[string]any)
	if d, ok := jsonv.Number(st["duration_ms"]); ok {
		mt.dur += d
		mt.hasDur = true
	}
	if n, ok := jsonv.Number(st["tool_calls"]); ok && n > float64(r.calls) {
		r.t.Partial = true
		r.warn("", "the run made %v tool calls and the stream holds %d: the calls of its sub-agents are not written in stream-json; "+
			"read the session Gemini CLI saved in ~/.gemini/tmp/<project hash>/chats (format gemini-chat), which holds them", n, r.calls)
	}
	r.calls = 0
	for i, k := range []string{"input_tokens", "output_tokens", "total_tokens"} {
		if n, ok := st[k].(json.Number); ok {
			if x, err := n.Int64(); err == nil {
				mt.tok[i] += x
				mt.hasTok[i] = true
			}
		}
	}
}

func (r *reader) finish() *trajeval.Trajectory {
	r.closeTurn()
	t := r.t
	if r.open {
		eventlog.Cut(r.in, t, "result")
		r.open = false
	}
	for _, s := range t.Steps {
		if s.ID != "" && !r.answered[s.ID] {
			r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.placeOf[s.ID], Place: "tool_id " + s.ID,
				Msg: fmt.Sprintf("call %s never got a result", s.Name)})
		}
	}
	mt := &r.metrics
	if mt.hasDur {
		t.Metrics.DurationMS = &mt.dur
	}
	tk := []**int64{&t.Metrics.Tokens.Input, &t.Metrics.Tokens.Output, &t.Metrics.Tokens.Total}
	for i := range tk {
		if mt.hasTok[i] {
			*tk[i] = &mt.tok[i]
		}
	}
	t.Finish()
	return t
}

func ptr[T any](v T) *T { return &v }
