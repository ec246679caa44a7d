// Package codex reads the JSON Lines that `codex exec --json` prints:
//
//	{"type":"thread.started","thread_id":"0199..."}
//	{"type":"turn.started"}
//	{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","status":"in_progress"}}
//	{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}
//	{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Done."}}
//	{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}
//
// The rules:
//  1. A thread.started line starts a trajectory whose id is the thread id;
//     a file holding several runs gives several trajectories. A run that
//     resumes the thread just before it (`codex exec resume`, the same thread
//     id on the next thread.started) continues that trajectory with a new
//     turn; its item ids start again, so step ids may repeat. Lines before
//     the first thread.started belong to a trajectory with an empty id.
//  2. turn.started starts a turn (one per `codex exec`); items before it are
//     in turn 1. The stream never holds the prompt, so a turn's user is
//     null; its final response is the text of its last agent_message that
//     is not white space only.
//  3. Tool items are steps: command_execution (name "command_execution",
//     args {"command": ...}, result the aggregated output), mcp_tool_call
//     (name the MCP tool, without its server; args its arguments; result its
//     structured_content when given, else the text of its content blocks
//     joined by newlines when every block is text, else the blocks, as MCP
//     traffic itself is read), file_change (name "file_change", args {"changes":
//     [...]}), web_search (name "web_search", args {"query", "action"}) and
//     collab_tool_call (name its tool). reasoning, agent_message, todo_list,
//     plan and error items are not steps.
//  4. Steps are in the order their items first appear (item.started, or
//     item.completed for items that only complete, such as file_change),
//     never completion order. item.started, item.updated and item.completed
//     of one item id are one step: later lines update it.
//  5. error is true for status failed or declined, a non-zero exit_code,
//     an error object (whose message fills error_message) or an MCP result
//     with is_error true; false for status completed; null otherwise
//     (web_search has no status). A failed MCP call without an error object
//     (Codex reports a tool's own error so) takes its result's text as
//     error_message. An item that never completes keeps error null and is
//     reported.
//  6. A tool item that starts while another is still running ran beside it,
//     so both were issued in one model response: such overlapping items
//     share a parallel group. Calls of one response that Codex ran one after
//     the other cannot be told apart and have no group.
//  7. The stream has no times: steps have no start, end or duration.
//  8. metrics.tokens sums the usage of turn.completed lines (input_tokens
//     already counts cached_input_tokens); nothing else is reported.
//  9. A run ends with turn.completed or turn.failed. A trajectory whose
//     stream stops after other events (the process was killed, the output
//     cut) is partial, with a warning: it may lack its last calls.
//  10. A line that is not an object with a "type" is not an event: an
//     error, or with --lenient a warning, never an empty run.
//  11. An event type or item type this reader does not know is reported
//     once per type, with a count (see package drift).
//
// The file is read line by line; only the current trajectory is held.
package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is the output of `codex exec --json`.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "codex" }

var eventTypes = map[string]bool{
	"thread.started": true, "turn.started": true, "turn.completed": true, "turn.failed": true,
	"item.started": true, "item.updated": true, "item.completed": true,
}

func (format) Sniff(head []byte) error {
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not JSON Lines of objects"}
	}
	for _, line := range sniff.Lines(head, 5) {
		var e struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if eventTypes[e.Type] {
			return nil
		}
	}
	return &trajeval.SniffError{Closeness: 10, Why: "no thread.started, turn.* or item.* event"}
}

type reader struct {
	open  bool // an event came after the last turn.completed or turn.failed
	in    trajeval.Input
	t     *trajeval.Trajectory
	line  int
	items map[string]*item
	order []*item // in order of first appearance
	turn  int

	running int     // tool items started and not completed
	batch   []*item // the tool items of the current run of overlapping items
	groups  int
	tokens  [2]*int64
	finals  map[int]*string // turn -> last agent message
	skipped eventlog.Skipped
	unknown drift.Unknown
}

type item struct {
	id        string
	kind      string
	turn      int
	line      int
	started   bool
	completed bool
	group     int
	data      map[string]any // the latest state of a running item
	step      *trajeval.Step // the step of a completed item
}

func (f format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	r := &reader{in: in, skipped: eventlog.Skipped{One: `a Codex event (an object with a "type")`, Many: "Codex events"}}
	r.reset("")
	seen := false
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
				return r.skipped.Line(in, n)
			}
			return nil
		}
		typ, _ := e["type"].(string)
		seen = seen || eventTypes[typ] // events of other types alone are no run
		if typ == "thread.started" {
			id, _ := e["thread_id"].(string)
			if id != "" && id == r.t.ID {
				// `codex exec resume` continues the thread in a new process,
				// whose item ids start again.
				r.items, r.running, r.batch = map[string]*item{}, 0, nil
				r.open = true
				return nil
			}
			if r.started() {
				if err := yield(r.finish()); err != nil {
					return err
				}
			}
			r.reset(id)
			r.open = true
			return nil
		}
		// The events of a run end with turn.completed or turn.failed.
		switch {
		case typ == "turn.completed" || typ == "turn.failed":
			r.open = false
		case eventTypes[typ]:
			r.open = true
		}
		r.event(typ, e)
		return nil
	})
	if err != nil {
		return err
	}
	r.skipped.Report(in)
	r.unknown.Report(in, "codex")
	if !seen {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no Codex events: no line is thread.started, turn.* or item.*", Err: trajeval.ErrEmptyTrace}
	}
	return yield(r.finish())
}

func (r *reader) reset(id string) {
	r.t = &trajeval.Trajectory{ID: id, Turns: []trajeval.Turn{}}
	r.items = map[string]*item{}
	r.order = nil
	r.turn = 0
	r.running, r.batch, r.groups = 0, nil, 0
	r.tokens = [2]*int64{}
	r.finals = map[int]*string{}
}

// started reports whether the current trajectory holds anything.
func (r *reader) started() bool {
	return r.t.ID != "" || len(r.order) > 0 || r.turn > 0
}

func (r *reader) warn(place, format string, a ...any) {
	r.in.Warn(trajeval.Warning{File: r.in.Name, Line: r.line, Place: place, Msg: fmt.Sprintf(format, a...)})
}

func (r *reader) curTurn() int {
	if r.turn == 0 {
		r.turn = 1
	}
	return r.turn
}

func (r *reader) event(typ string, e map[string]any) {
	switch typ {
	case "turn.started":
		r.turn++
		r.running, r.batch = 0, nil
	case "turn.failed":
		r.running, r.batch = 0, nil
	case "turn.completed":
		r.running, r.batch = 0, nil
		u, _ := e["usage"].(map[string]any)
		for i, k := range []string{"input_tokens", "output_tokens"} {
			if n, ok := u[k].(json.Number); ok {
				if x, err := n.Int64(); err == nil {
					if r.tokens[i] == nil {
						r.tokens[i] = new(int64)
					}
					*r.tokens[i] += x
				}
			}
		}
	case "item.started", "item.updated", "item.completed":
		it, ok := e["item"].(map[string]any)
		if !ok {
			r.warn("", "%s without an item object; skipped", typ)
			return
		}
		r.item(typ, it)
	case "error":
	default:
		r.unknown.Saw("event type", typ, r.line)
	}
}

// otherKinds are the items that are not steps (rule 3).
var otherKinds = map[string]bool{
	"reasoning": true, "agent_message": true, "todo_list": true, "plan": true, "error": true,
}

var toolKinds = map[string]bool{
	"command_execution": true, "mcp_tool_call": true, "file_change": true,
	"web_search": true, "collab_tool_call": true,
}

func (r *reader) item(typ string, data map[string]any) {
	id := idOf(data["id"])
	kind, _ := data["type"].(string)
	if kind == "agent_message" {
		if typ == "item.completed" {
			if s, ok := data["text"].(string); ok && strings.TrimSpace(s) != "" {
				r.finals[r.curTurn()] = &s
			}
		}
		return
	}
	if !toolKinds[kind] {
		if !otherKinds[kind] && typ != "item.updated" {
			r.unknown.Saw("item type", kind, r.line)
		}
		return
	}
	place := "item " + id
	it := r.items[id]
	if id == "" || it == nil {
		it = &item{id: id, kind: kind, turn: r.curTurn(), line: r.line}
		if id != "" {
			r.items[id] = it
		}
		r.order = append(r.order, it)
	} else if typ == "item.started" && it.started {
		r.warn(place, "item %s started twice; kept the first", id)
		return
	} else if it.completed {
		r.warn(place, "item %s is seen again after it completed; kept the completed one", id)
		return
	}
	it.data = data
	switch typ {
	case "item.started":
		it.started = true
		if r.running == 0 {
			r.batch = nil
		}
		r.running++
		r.batch = append(r.batch, it)
		if len(r.batch) == 2 {
			r.groups++
			r.batch[0].group = r.groups
		}
		if len(r.batch) >= 2 {
			it.group = r.groups
		}
	case "item.completed":
		it.completed = true
		if it.started {
			r.running--
		}
		// Keep the step, not the decoded item: a long run holds many.
		s := r.step(it)
		it.step, it.data = &s, nil
	}
}

func (r *reader) step(it *item) trajeval.Step {
	return step(it, func(msg string) {
		r.in.Warn(trajeval.Warning{File: r.in.Name, Line: it.line, Place: "item " + it.id, Msg: msg})
	})
}

func (r *reader) finish() *trajeval.Trajectory {
	t := r.t
	if r.open {
		eventlog.Cut(r.in, t, "turn.completed")
		r.open = false
	}
	for i := 1; i <= r.turn; i++ {
		t.Turns = append(t.Turns, trajeval.Turn{FinalResponse: r.finals[i]})
	}
	for _, it := range r.order {
		if it.step != nil {
			t.Steps = append(t.Steps, *it.step)
			continue
		}
		s := r.step(it)
		if !it.completed {
			r.in.Warn(trajeval.Warning{File: r.in.Name, Line: it.line, Place: "item " + it.id, Msg: strings.TrimPrefix(it.kind+" "+s.Name, "command_execution ") + " never completed"})
		}
		t.Steps = append(t.Steps, s)
	}
	t.Metrics.Tokens = trajeval.Tokens{Input: r.tokens[0], Output: r.tokens[1]}
	t.Finish()
	return t
}

func step(it *item, warn func(string)) trajeval.Step {
	d := it.data
	s := trajeval.Step{Turn: it.turn, ID: it.id, Name: it.kind, ParallelGroup: it.group}
	switch it.kind {
	case "command_execution":
		s.Args = map[string]any{"command": d["command"]}
		s.Result = d["aggregated_output"]
	case "mcp_tool_call":
		s.Name, _ = d["tool"].(string)
		s.Args = eventlog.Args(d["arguments"], func() {
			warn(fmt.Sprintf("arguments of %s are a string that is not valid JSON; kept as text", s.Name))
		})
		s.Result = mcpResult(d["result"])
	case "file_change":
		s.Args = map[string]any{"changes": d["changes"]}
	case "web_search":
		a := map[string]any{"query": d["query"]}
		if act, ok := d["action"]; ok {
			a["action"] = act
		}
		s.Args = a
	case "collab_tool_call":
		if name, ok := d["tool"].(string); ok {
			s.Name = name
		}
		a := map[string]any{}
		for k, v := range d {
			switch k {
			case "id", "type", "tool", "status", "error", "result":
				continue
			}
			a[k] = v
		}
		s.Args = a
		s.Result = d["result"]
	}
	status, _ := d["status"].(string)
	switch status {
	case "completed":
		s.Error = ptr(false)
	case "failed":
		s.Error = ptr(true)
	case "declined":
		s.Error = ptr(true)
		s.ErrorMessage = "declined"
	}
	if code, ok := d["exit_code"].(json.Number); ok && jsonv.CompareNumbers(code, "0") != 0 {
		s.Error = ptr(true)
		if s.ErrorMessage == "" {
			s.ErrorMessage = "exit code " + string(code)
		}
	}
	if e, ok := d["error"].(map[string]any); ok {
		s.Error = ptr(true)
		if msg, ok := e["message"].(string); ok {
			s.ErrorMessage = msg
		}
	}
	if it.kind == "mcp_tool_call" {
		mcpError(&s, d["result"])
	}
	return s
}

// mcpResult returns the result of an MCP tool call as the step's result:
// its structured content when given, else the text of its content blocks
// joined by newlines when every block is text, else the blocks.
func mcpResult(v any) any {
	res, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for _, k := range []string{"structured_content", "structuredContent"} {
		if sc, ok := res[k]; ok && sc != nil {
			return sc
		}
	}
	blocks, ok := res["content"].([]any)
	if !ok {
		return res["content"]
	}
	if t, ok := eventlog.Text(blocks); ok {
		return t
	}
	return blocks
}

// mcpError marks a step whose MCP result says the tool failed (is_error,
// or isError, true) and fills a failed step's error_message from the
// result's text when nothing else gave one.
func mcpError(s *trajeval.Step, v any) {
	res, _ := v.(map[string]any)
	if res["is_error"] == true || res["isError"] == true {
		s.Error = ptr(true)
	}
	if !s.Failed() || s.ErrorMessage != "" {
		return
	}
	if blocks, ok := res["content"].([]any); ok {
		s.ErrorMessage, _ = eventlog.Text(blocks)
	}
}

func ptr[T any](v T) *T { return &v }

func idOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return jsonv.Marshal(v)
}
