// Package claudecode reads Claude Code's JSON Lines: the stream that
// `claude -p --output-format stream-json --verbose` prints, and the session
// transcripts Claude Code keeps for every conversation, in
// ~/.claude/projects/<project>/<session-id>.jsonl. The file's first line
// that tells (snake_case session_id, or camelCase sessionId, parentUuid,
// isSidechain or leafUuid) decides which of the two it is read as.
//
// # Print mode (stream-json)
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
//     `--input-format stream-json`; a task notification or a peer's
//     message (see rule 3 of session transcripts) is not. The prompt of
//     `claude -p` is not echoed, so such a turn's user is null. A run that
//     Claude Code starts itself (2.1.332 does when a sub-agent or command
//     it ran in the background ends; its result line has origin
//     task-notification) is no turn: its calls and answer belong to the
//     turn before it. A turn's final response is the result line's text,
//     else the main agent's last assistant text.
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
//  6. Lines with a parent_tool_use_id are a sub-agent's traffic: their
//     steps are kept, with agent set to the subagent_type of the Task (or
//     Agent) call that started it, else to that call's id. They never start
//     turns. The sub-agent's caller (Trajectory.Agents) is the agent that
//     made that call: none for the main agent, which has no name.
//  7. There is no per-call timing: steps have no start, end or duration.
//     Metrics come from the result line: duration_ms, total_cost_usd and
//     the tokens of modelUsage, summed over its models (input counts
//     inputTokens plus the cache creation and cache read tokens), which
//     like the cost count a sub-agent's calls; without modelUsage, usage
//     (input_tokens plus cache_creation_input_tokens and
//     cache_read_input_tokens), which counts the main agent's only. A
//     process that writes several result lines (rule 2) repeats its
//     totals in each: where a result line has
//     model_usage_since_last_result (2.1.332), its tokens and the sum of
//     its costUSD are the run's. llm_calls is the number of distinct
//     message ids. Resumed runs add up.
//  8. A run ends with its result line. A trajectory whose stream stops
//     after other events (the process was killed, the output cut) is
//     partial, with a warning: it may lack its last calls and its metrics.
//
// # Session transcripts
//
//	{"type":"summary","summary":"Fix the cart test","leafUuid":"..."}
//	{"parentUuid":null,"isSidechain":false,"sessionId":"5b0c...","cwd":"/repo","version":"2.0.14","type":"user","message":{"role":"user","content":"Why does the test fail?"},"uuid":"u1","timestamp":"2025-10-14T10:00:00.000Z"}
//	{"parentUuid":"u1","isSidechain":false,"sessionId":"5b0c...","type":"assistant","message":{"id":"msg_1","model":"...","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{...}}],"usage":{...}},"uuid":"u2","timestamp":"..."}
//	{"parentUuid":"u2","isSidechain":false,"sessionId":"5b0c...","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"..."}]},"toolUseResult":{...},"uuid":"u3","timestamp":"..."}
//
// Rules 3 to 5 of print mode hold; besides:
//  1. A file is one trajectory. Its id is the sessionId of its last line
//     that has one: a resumed conversation goes on in a file named after
//     the new session, the earlier lines keeping the id they had.
//  2. A line whose uuid was already read is skipped: Claude Code writes
//     history again on some compactions. Only user and assistant lines are
//     read; summary, system (compaction boundaries, hook summaries),
//     file-history-snapshot, queue-operation, the copies of API requests
//     and the cost totals of 2.1.332 (api-request, cost-state, mode, ...)
//     and other lines are not.
//  3. A real user message of the main conversation starts a turn, its text
//     the turn's user. These do not: tool_result carriers; messages marked
//     isMeta, isCompactSummary or isVisibleInTranscriptOnly (caveats,
//     expanded command prompts, the summary a compaction feeds the model);
//     the output of local commands (<local-command-stdout>) and of shell
//     escapes (<bash-input>, ...); "[Request interrupted by user]"; and
//     the messages Claude Code writes to the model when a background
//     command, sub-agent or monitor ends (<task-notification>), or another
//     session sends (origin peer). Versions from 2.1.1xx say who wrote a
//     user message in its origin: kind human is the user, task-notification
//     and peer are not, and another kind is drift (the message is then
//     judged by its text). A slash command (<command-name>) starts a turn,
//     with user "/name args", only when the model answers it: local
//     commands such as /model never reach the model.
//  4. A turn's final response is the main agent's last assistant text in
//     it that is not white space only. Messages of model "<synthetic>" are written by Claude Code itself
//     (API errors, interruptions): they are neither text, steps nor calls.
//  5. Side chains (isSidechain true) are sub-agents' conversations; they
//     never start turns, and their steps carry agent. A side-chain line
//     belongs to the chain of its agentId, else to that of its parentUuid
//     (through lines of any type, such as hook progress). Otherwise it
//     starts a chain, bound to the first Task (or Agent) call not yet
//     answered nor bound, preferring the one whose prompt is the chain's
//     first message; agent is that call's subagent_type, else the call's
//     id (its caller is the agent that made the call, as in print mode);
//     with no such call, the line's agentId, else "sidechain". Steps
//     stay in file order, which is the order calls were issued in, side
//     chains included.
//  6. Newer versions keep each sub-agent's transcript in a file of its own,
//     <session-id>/subagents/agent-<agentId>.jsonl, where every line is a
//     side chain: read alone, its steps carry agent agentId. Reading the
//     session's file reads it too, where the Task call's result (whose
//     toolUseResult names the agentId) comes; an agentId that is not
//     letters, digits, '-' and '_' names no file. Claude Code 2.1 also
//     copies the sub-agent's messages into the session, as progress lines
//     of type agent_progress whose parentToolUseID is the Task call. Both
//     give steps of the sub-agent the Task call started (agent as for side
//     chains); a message in both, which has the same uuid in each, is read
//     once, so no call is counted twice.
//  7. A step starts at the timestamp of the line holding its tool_use and
//     ends at that of the line holding its tool_result; the difference
//     includes any wait for the user's permission. duration_ms is the
//     tool's own figure when its toolUseResult gives one (durationMs,
//     totalDurationMs for a sub-agent, durationSeconds) and the message
//     holds that one result, else end − start.
//  8. Metrics come from message.usage, counted once per message.id (the
//     lines of one split response repeat it; the last line's is taken),
//     side chains included: input is input_tokens plus the cache creation
//     and cache read tokens. cost_usd adds up costUSD where older versions
//     wrote it. llm_calls is the number of distinct message ids. A
//     transcript has no run duration: the time between its first and last
//     lines includes the user's own, so duration_ms is null.
//
// A line type Claude Code is not known to write, and content blocks of a
// type the Messages API does not define, are reported once per type, with
// a count (see package drift).
//
// The file is read line by line; only the current trajectory is held (a
// session transcript also keeps the uuids of its lines).
package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
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
	// Session transcripts may open with a few summary and file history
	// lines before the first message.
	for _, line := range sniff.Lines(head, 20) {
		var e struct {
			Type      string          `json:"type"`
			Subtype   string          `json:"subtype"`
			SessionID *string         `json:"session_id"`
			Session   *string         `json:"sessionId"`
			LeafUUID  *string         `json:"leafUuid"`
			Message   json.RawMessage `json:"message"`
		}
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch {
		case e.Type == "system" && e.Subtype == "init" && e.SessionID != nil:
			return nil
		case (e.Type == "assistant" || e.Type == "user") && e.Message != nil && (e.SessionID != nil || e.Session != nil):
			return nil
		case e.Type == "summary" && e.LeafUUID != nil:
			return nil
		case e.Type == "assistant" || e.Type == "user" || e.Type == "system":
			closeness = 50
		}
	}
	return &trajeval.SniffError{Closeness: closeness, Why: "no system init line, no summary line and no assistant or user line with message and session_id (or sessionId)"}
}

type reader struct {
	open bool // in the stream, an event came after the last result line
	in   trajeval.Input
	line int
	mode mode

	t        *trajeval.Trajectory
	session  string
	fresh    bool // the current turn was opened by an init line and holds nothing yet
	runTurn  int  // the turn (from 1) the last init line opened, 0 when none
	steps    map[string]int
	answered map[string]bool
	placeOf  map[string]int // line of each call
	msgs     map[string]*message
	agents   map[string]string // Task tool_use id -> subagent_type, "" when none
	callers  map[string]string // Task tool_use id -> the sub-agent that made it, "" for the main agent
	linked   map[string]bool   // Task tool_use ids whose sub-agent is in Trajectory.Agents
	lastText *string
	groups   int
	metrics  totals

	tr      transcript // what only session transcripts need
	unknown drift.Unknown
}

// mode is the shape of the file, known from its first line that tells.
type mode int

const (
	undecided mode = iota
	streamJSON
	sessionFile
)

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
	skipped, seen := eventlog.Skipped{One: `a Claude Code event (an object with a "type")`, Many: "Claude Code events"}, false
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
		seen = true
		if r.mode == undecided {
			r.mode = modeOf(e)
		}
		if r.mode == sessionFile {
			r.sessionLine(e)
			return r.tr.tooDeep
		}
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
			r.runTurn = len(r.t.Turns)
			r.open = true
			return nil
		}
		// The events of a run end with its result line.
		switch typ {
		case "result":
			r.open = false
		case "assistant", "user":
			r.open = true
		}
		r.event(typ, e)
		return nil
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	r.unknown.Report(in, "claude-code")
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
	r.callers, r.linked = map[string]string{}, map[string]bool{}
	r.lastText, r.groups = nil, 0
	r.metrics = totals{}
	r.tr = transcript{seen: map[string]bool{}, chains: map[string]string{}, byAgent: map[string]string{}, usage: map[string]usage{}, filesRead: map[string]bool{}}
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
	agent := ""
	if parent, _ := e["parent_tool_use_id"].(string); parent != "" {
		agent = r.agentName(parent)
	}
	switch typ {
	case "assistant":
		r.assistant(m, agent, time.Time{})
	case "user":
		if text, ok := r.user(m, time.Time{}, nil); ok && agent == "" && r.fromUser(e, strings.TrimSpace(text)) {
			r.userText(text)
		}
	case "result":
		r.resultLine(e)
	default:
		r.noteLine(typ)
	}
}

// agentName names the sub-agent that a Task call started: its
// subagent_type, else the call's id. The agent that made the call is
// noted as its caller.
func (r *reader) agentName(task string) string {
	a := r.agents[task]
	if a == "" {
		a = task
	}
	if !r.linked[task] {
		r.linked[task] = true
		r.t.Agents = append(r.t.Agents, trajeval.Agent{Name: a, Parent: r.callers[task]})
	}
	return a
}

// assistant reads an assistant message of agent ("" for the main agent),
// written at the time at (zero when the format has no times).
func (r *reader) assistant(m map[string]any, agent string, at time.Time) {
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
			if s, ok := blk["text"].(string); ok && agent == "" && strings.TrimSpace(s) != "" {
				r.lastText = &s
			}
		case "tool_use":
			r.toolUse(blk, msg, agent, turn, at)
		default:
			r.noteBlock(blk)
		}
	}
	r.fresh = false
}

func (r *reader) toolUse(blk map[string]any, msg *message, agent string, turn int, at time.Time) {
	id, _ := blk["id"].(string)
	name, _ := blk["name"].(string)
	if id != "" {
		if _, dup := r.steps[id]; dup {
			return // the same block seen again: one call
		}
	}
	s := trajeval.Step{Turn: turn, ID: id, Name: name, Agent: agent, StartTime: at, Args: eventlog.Args(blk["input"], func() {
		r.warn("", "input of %s is a string that is not valid JSON; kept as text", name)
	})}
	if (name == "Task" || name == "Agent") && id != "" {
		in, _ := s.Args.(map[string]any)
		a, _ := in["subagent_type"].(string)
		r.agents[id], r.callers[id] = a, agent
		if r.mode == sessionFile {
			prompt, _ := in["prompt"].(string)
			r.tr.tasks = append(r.tr.tasks, task{id: id, prompt: prompt})
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

// user reads a user message written at the time at: it pairs its
// tool_result blocks with their calls, and returns its text when it holds
// text and no tool result. extra is the structured copy of the result that
// session transcripts keep beside a message holding one tool_result.
func (r *reader) user(m map[string]any, at time.Time, extra any) (string, bool) {
	switch c := m["content"].(type) {
	case string:
		return c, true
	case []any:
		var texts []string
		var results []map[string]any
		for _, b := range c {
			blk, _ := b.(map[string]any)
			switch blk["type"] {
			case "tool_result":
				results = append(results, blk)
			case "text":
				if s, ok := blk["text"].(string); ok {
					texts = append(texts, s)
				}
			}
		}
		if len(results) != 1 {
			extra = nil // it cannot be told which result it copies
		}
		for _, blk := range results {
			r.toolResult(blk, at, extra)
		}
		if results == nil && texts != nil {
			return strings.Join(texts, "\n"), true
		}
	}
	return "", false
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

func (r *reader) toolResult(blk map[string]any, at time.Time, extra any) {
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
	s.EndTime = at
	s.DurationMS = toolDuration(extra)
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
	if !ok || len(list) == 0 {
		return v
	}
	if t, ok := eventlog.Text(list); ok {
		return t
	}
	return v
}

func (r *reader) resultLine(e map[string]any) {
	r.turn()
	mt := &r.metrics
	mt.runs++
	if s, ok := e["result"].(string); ok && strings.TrimSpace(s) != "" {
		r.t.Turns[len(r.t.Turns)-1].FinalResponse = &s
	}
	if _, ours := r.origin(e); ours {
		r.foldRun()
	}
	if d, ok := jsonv.Number(e["duration_ms"]); ok {
		mt.dur += d
		mt.hasDur = true
	}
	if since, ok := e["model_usage_since_last_result"].(map[string]any); ok {
		// One process may write several result lines (a run it started
		// itself after a background task ended): its modelUsage and
		// total_cost_usd count the whole process, this the run alone.
		r.addModelUsage(since, true)
		return
	}
	if c, ok := jsonv.Number(e["total_cost_usd"]); ok {
		mt.cost += c
		mt.hasCost = true
	}
	if models, _ := e["modelUsage"].(map[string]any); r.addModelUsage(models, false) {
		return
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

// addModelUsage adds a result line's modelUsage, the tokens of every
// model call of the run by model, to the metrics, and with cost their
// costUSD too; it says whether it held any tokens. Its usage counts the
// main agent's calls only (Claude Code 2.1.197), while modelUsage, like
// total_cost_usd, counts a sub-agent's too.
func (r *reader) addModelUsage(models map[string]any, cost bool) bool {
	var in, out int64
	hasIn, hasOut := false, false
	for _, m := range models {
		u, _ := m.(map[string]any)
		if c, ok := jsonv.Number(u["costUSD"]); ok && cost {
			r.metrics.cost += c
			r.metrics.hasCost = true
		}
		for _, k := range []string{"inputTokens", "cacheCreationInputTokens", "cacheReadInputTokens"} {
			if n, ok := intOf(u[k]); ok {
				in += n
				hasIn = true
			}
		}
		if n, ok := intOf(u["outputTokens"]); ok {
			out += n
			hasOut = true
		}
	}
	if !hasIn && !hasOut {
		return false
	}
	mt := &r.metrics
	mt.in += in
	mt.out += out
	mt.hasIn = mt.hasIn || hasIn
	mt.hasOut = mt.hasOut || hasOut
	return true
}

// foldRun folds the turn that the last init line opened into the turn
// before it, when the run it opened was not the user's: Claude Code
// 2.1.3xx starts a run of its own when a background task it started ends
// (its result line has origin task-notification), and that run goes on
// with the turn it came from.
func (r *reader) foldRun() {
	n := len(r.t.Turns)
	if r.runTurn != n || n < 2 || r.t.Turns[n-1].User != nil {
		return
	}
	for i := range r.t.Steps {
		if r.t.Steps[i].Turn == n {
			r.t.Steps[i].Turn = n - 1
		}
	}
	if f := r.t.Turns[n-1].FinalResponse; f != nil {
		r.t.Turns[n-2].FinalResponse = f
	}
	r.t.Turns = r.t.Turns[:n-1]
	r.runTurn = 0
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
	if r.mode == sessionFile {
		r.tr.metrics(t)
		t.Finish()
		return t
	}
	if r.open {
		eventlog.Cut(r.in, t, "result")
		r.open = false
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
