// Package claudecode reads the JSON Lines that Claude Code prints with
// `claude -p --output-format stream-json --verbose`:
//
//	{"type":"system","subtype":"init","session_id":"s1","model":"...","tools":[...]}
//	{"type":"assistant","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{...}}],"usage":{...}},"parent_tool_use_id":null,"session_id":"s1"}
//	{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"...","is_error":false}]},"parent_tool_use_id":null,"tool_use_result":{...}}
//	{"type":"result","subtype":"success","duration_ms":1234,"total_cost_usd":0.01,"num_turns":2,"result":"Done.","usage":{...}}
//
// The rules:
//  1. A file is one trajectory per session: its id is the session_id. An
//     init line with another session id starts the next trajectory; a run
//     that resumes the same session (`--resume`) continues it.
//  2. Each run (init line) is a turn, and so is each real user message
//     (text, not tool results) of the main agent, as with
//     `--input-format stream-json`. The prompt of `claude -p` is not echoed,
//     so such a turn's user is null. A turn's final response is the result
//     line's text, else the main agent's last assistant text.
//  3. Steps are the tool_use blocks, in line and block order. Claude Code
//     writes one content block per line; lines with the same message.id are
//     one model response, so the tool_use blocks of one message.id share a
//     parallel group when there are two or more.
//  4. tool_result blocks pair with calls by tool_use_id, never by position.
//     A block's content is the step's result: a string, the text of a list
//     of text blocks joined by newlines, else the list itself. is_error true
//     gives error true (and the text as error_message); otherwise false.
//     The tool_use_result copy beside it is ignored.
//  5. A tool_use id seen twice is one step; a result for an unknown id, a
//     second result, and a call left without a result are each reported.
//  6. Lines with a parent_tool_use_id are a sub-agent's (Task) traffic: their
//     steps are kept, with agent set to the Task call's subagent_type, else
//     to the parent tool_use id. They never start turns.
//  7. There is no per-call timing: steps have no start, end or duration.
//     Metrics come from the result line: duration_ms, total_cost_usd and
//     usage (input counts input_tokens plus the cache creation and cache
//     read tokens); llm_calls is the number of distinct message ids. Resumed
//     runs add up.
//
// The file is read line by line; only the current trajectory is held.
package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is Claude Code's stream-json output.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "claude-code" }

func (format) Sniff(head []byte) error {
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not JSON Lines of objects"}
	}
	closeness := 0
	for _, line := range sniff.Lines(head, 5) {
		var e struct {
			Type      string          `json:"type"`
			Subtype   string          `json:"subtype"`
			SessionID *string         `json:"session_id"`
			Message   json.RawMessage `json:"message"`
		}
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch {
		case e.Type == "system" && e.Subtype == "init" && e.SessionID != nil:
			return nil
		case (e.Type == "assistant" || e.Type == "user") && e.Message != nil && e.SessionID != nil:
			return nil
		case e.Type == "assistant" || e.Type == "user" || e.Type == "system":
			closeness = 50
		}
	}
	return &trajeval.SniffError{Closeness: closeness, Why: "no system init line and no assistant or user line with message and session_id"}
}

type reader struct {
	in   trajeval.Input
	line int

	t        *trajeval.Trajectory
	session  string
	fresh    bool // the current turn was opened by an init line and holds nothing yet
	steps    map[string]int
	answered map[string]bool
	placeOf  map[string]int // line of each call
	msgs     map[string]*message
	agents   map[string]string // Task tool_use id -> subagent_type
	lastText *string
	groups   int
	metrics  totals
}

// totals adds up the result lines of the runs of one session.
type totals struct {
	dur, cost       float64
	hasDur, hasCost bool
	in, out         int64
	hasIn, hasOut   bool
	runs            int
}

type message struct {
	first int // index of its first tool_use step, -1 when none
	group int
	calls int
}

func (f format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := &reader{in: in}
	r.reset("")
	skipped, seen := eventlog.Skipped{One: "a JSON object", Many: "JSON objects"}, false
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
		if !ok {
			if !damaged {
				skipped.Line(in, n)
			}
			return nil
		}
		seen = true
		typ, _ := e["type"].(string)
		if typ == "system" && e["subtype"] == "init" {
			sid, _ := e["session_id"].(string)
			if sid != r.session && r.started() {
				if err := yield(r.finish()); err != nil {
					return err
				}
				r.reset(sid)
			}
			r.session = sid
			r.t.ID = sid
			r.openTurn(nil)
			r.fresh = true
			return nil
		}
		r.event(typ, e)
		return nil
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	if !seen {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no Claude Code events: no line is a JSON object", Err: trajeval.ErrEmptyTrace}
	}
	return yield(r.finish())
}

func (r *reader) warn(place, format string, a ...any) {
	r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.line, Place: place, Msg: fmt.Sprintf(format, a...)})
}

func (r *reader) reset(session string) {
	r.t = &trajeval.Trajectory{ID: session, Turns: []trajeval.Turn{}}
	r.session = session
	r.fresh = false
	r.steps, r.answered, r.placeOf = map[string]int{}, map[string]bool{}, map[string]int{}
	r.msgs, r.agents = map[string]*message{}, map[string]string{}
	r.lastText, r.groups = nil, 0
	r.metrics = totals{}
}

func (r *reader) started() bool { return len(r.t.Turns) > 0 || len(r.t.Steps) > 0 }

func (r *reader) openTurn(user *string) {
	if n := len(r.t.Turns); n > 0 && r.t.Turns[n-1].FinalResponse == nil {
		r.t.Turns[n-1].FinalResponse = r.lastText
	}
	r.t.Turns = append(r.t.Turns, trajeval.Turn{User: user})
	r.lastText = nil
	r.fresh = false
}

func (r *reader) turn() int {
	if len(r.t.Turns) == 0 {
		r.openTurn(nil)
	}
	return len(r.t.Turns)
}

func (r *reader) event(typ string, e map[string]any) {
	m, _ := e["message"].(map[string]any)
	parent, _ := e["parent_tool_use_id"].(string)
	switch typ {
	case "assistant":
		r.assistant(m, parent)
	case "user":
		r.user(m, parent)
	case "result":
		r.resultLine(e)
	}
}

func (r *reader) assistant(m map[string]any, parent string) {
	id, _ := m["id"].(string)
	msg := r.msgs[id]
	if msg == nil || id == "" {
		msg = &message{first: -1}
		if id != "" {
			r.msgs[id] = msg
		}
	}
	content, _ := m["content"].([]any)
	turn := r.turn()
	for _, b := range content {
		blk, _ := b.(map[string]any)
		switch blk["type"] {
		case "text":
			if s, ok := blk["text"].(string); ok && parent == "" {
				r.lastText = &s
			}
		case "tool_use":
			r.toolUse(blk, msg, parent, turn)
		}
	}
	r.fresh = false
}

func (r *reader) toolUse(blk map[string]any, msg *message, parent string, turn int) {
	id, _ := blk["id"].(string)
	name, _ := blk["name"].(string)
	if id != "" {
		if _, dup := r.steps[id]; dup {
			return // the same block seen again: one call
		}
	}
	s := trajeval.Step{Turn: turn, ID: id, Name: name, Args: eventlog.Args(blk["input"], func() {
		r.warn("", "input of %s is a string that is not valid JSON; kept as text", name)
	})}
	if parent != "" {
		s.Agent = r.agents[parent]
		if s.Agent == "" {
			s.Agent = parent
		}
	}
	if name == "Task" && id != "" {
		if in, ok := s.Args.(map[string]any); ok {
			if a, ok := in["subagent_type"].(string); ok && a != "" {
				r.agents[id] = a
			}
		}
	}
	idx := len(r.t.Steps)
	msg.calls++
	switch msg.calls {
	case 1:
		msg.first = idx
	case 2:
		r.groups++
		msg.group = r.groups
		r.t.Steps[msg.first].ParallelGroup = msg.group
	}
	if msg.calls >= 2 {
		s.ParallelGroup = msg.group
	}
	if id != "" {
		r.steps[id] = idx
		r.placeOf[id] = r.line
	}
	r.t.Steps = append(r.t.Steps, s)
}

func (r *reader) user(m map[string]any, parent string) {
	switch c := m["content"].(type) {
	case string:
		if parent == "" {
			r.userText(c)
		}
	case []any:
		var texts []string
		results := false
		for _, b := range c {
			blk, _ := b.(map[string]any)
			switch blk["type"] {
			case "tool_result":
				results = true
				r.toolResult(blk)
			case "text":
				if s, ok := blk["text"].(string); ok {
					texts = append(texts, s)
				}
			}
		}
		if !results && texts != nil && parent == "" {
			r.userText(strings.Join(texts, "\n"))
		}
	}
}

// userText starts a turn for a real user message; right after an init
// line it is that run's prompt.
func (r *reader) userText(s string) {
	if r.fresh {
		r.t.Turns[len(r.t.Turns)-1].User = &s
		r.fresh = false
		return
	}
	r.openTurn(&s)
}

func (r *reader) toolResult(blk map[string]any) {
	id, _ := blk["tool_use_id"].(string)
	i, ok := r.steps[id]
	if !ok {
		r.warn("tool_use_id "+id, "a tool result for a call that never appears; ignored")
		return
	}
	if r.answered[id] {
		r.warn("tool_use_id "+id, "a second result for the same call; kept the first")
		return
	}
	r.answered[id] = true
	s := &r.t.Steps[i]
	s.Result = content(blk["content"])
	isErr := blk["is_error"] == true
	s.Error = &isErr
	if isErr {
		if t, ok := s.Result.(string); ok {
			s.ErrorMessage = t
		} else if s.Result != nil {
			s.ErrorMessage = jsonv.Marshal(s.Result)
		}
	}
}

// content returns a tool result's content: a string as it is, a list of
// text blocks as their text, anything else as the JSON value.
func content(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	var texts []string
	for _, b := range list {
		blk, _ := b.(map[string]any)
		t, ok := blk["text"].(string)
		if blk["type"] != "text" || !ok {
			return v
		}
		texts = append(texts, t)
	}
	if texts == nil {
		return v
	}
	return strings.Join(texts, "\n")
}

func (r *reader) resultLine(e map[string]any) {
	r.turn()
	mt := &r.metrics
	mt.runs++
	if s, ok := e["result"].(string); ok && s != "" {
		r.t.Turns[len(r.t.Turns)-1].FinalResponse = &s
	}
	if d, ok := jsonv.Number(e["duration_ms"]); ok {
		mt.dur += d
		mt.hasDur = true
	}
	if c, ok := jsonv.Number(e["total_cost_usd"]); ok {
		mt.cost += c
		mt.hasCost = true
	}
	u, _ := e["usage"].(map[string]any)
	for _, k := range []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
		if n, ok := intOf(u[k]); ok {
			mt.in += n
			mt.hasIn = true
		}
	}
	if n, ok := intOf(u["output_tokens"]); ok {
		mt.out += n
		mt.hasOut = true
	}
}

func intOf(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	x, err := n.Int64()
	return x, err == nil
}

func (r *reader) finish() *trajeval.Trajectory {
	t := r.t
	if n := len(t.Turns); n > 0 && t.Turns[n-1].FinalResponse == nil {
		t.Turns[n-1].FinalResponse = r.lastText
	}
	for _, s := range t.Steps {
		if s.ID != "" && !r.answered[s.ID] {
			r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.placeOf[s.ID], Place: "tool_use " + s.ID,
				Msg: fmt.Sprintf("call %s never got a result", s.Name)})
		}
	}
	if r.metrics.runs == 0 && len(t.Steps) > 0 {
		r.in.Warn(trajeval.Warning{File: r.in.Name, Place: "session " + t.ID, Msg: "no result line: the run was cut off, so it reports no metrics"})
	}
	mt := r.metrics
	if mt.hasDur {
		t.Metrics.DurationMS = &mt.dur
	}
	if mt.hasCost {
		t.Metrics.CostUSD = &mt.cost
	}
	if mt.hasIn {
		t.Metrics.Tokens.Input = &mt.in
	}
	if mt.hasOut {
		t.Metrics.Tokens.Output = &mt.out
	}
	if len(r.msgs) > 0 {
		n := int64(len(r.msgs))
		t.Metrics.LLMCalls = &n
	}
	t.Finish()
	return t
}
