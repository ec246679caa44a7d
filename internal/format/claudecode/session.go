package claudecode

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// transcript is what reading a session transcript needs beside the
// stream-json reader's state.
type transcript struct {
	seen    map[string]bool   // the uuid of each line read
	chains  map[string]string // side-chain line uuid -> its sub-agent
	byAgent map[string]string // agentId -> its sub-agent
	tasks   []task            // Task calls, in issue order
	usage   map[string]usage  // message id -> the usage of its last line
	order   []string          // the message ids, in file order
	command *string           // a slash command waiting for the model's answer

	filesRead map[string]bool // agentIds whose sub-agent file was read
	nested    bool            // reading a sub-agent file
	tooDeep   error           // a sub-agent file nested too deep: the read's error
}

// A task is a Task call, to which a side chain is bound.
type task struct {
	id, prompt string
	bound      bool
}

type usage struct {
	in, out       int64
	cost          float64
	hasIn, hasOut bool
	hasCost       bool
}

// modeOf tells the shape of a file from one of its lines: session
// transcripts write camelCase envelopes (sessionId, parentUuid, ...),
// stream-json snake_case ones (session_id).
func modeOf(e map[string]any) mode {
	for _, k := range []string{"sessionId", "parentUuid", "isSidechain", "leafUuid"} {
		if _, ok := e[k]; ok {
			return sessionFile
		}
	}
	if _, ok := e["session_id"]; ok {
		return streamJSON
	}
	return undecided
}

// sessionLine reads one line of a session transcript.
func (r *reader) sessionLine(e map[string]any) {
	if id, _ := e["uuid"].(string); id != "" {
		if r.tr.seen[id] {
			return // a line written again: Claude Code replays history on some compactions
		}
		r.tr.seen[id] = true
	}
	if sid, _ := e["sessionId"].(string); sid != "" {
		r.t.ID = sid
	}
	typ, _ := e["type"].(string)
	m, _ := e["message"].(map[string]any)
	if data, _ := e["data"].(map[string]any); typ == "progress" && data["type"] == "agent_progress" {
		r.agentProgress(e, data)
		return
	}
	if typ == "user" {
		r.subagentFile(e)
	}
	if typ != "user" && typ != "assistant" {
		r.noteLine(typ)
		// summary, system, file-history-snapshot, queue-operation,
		// progress, attachment, ...: only a side chain's thread goes on
		if e["isSidechain"] == true {
			r.sideAgent(e, nil)
		}
		return
	}
	at := r.time(e)
	agent := r.sideAgent(e, m)
	if typ == "assistant" {
		r.sessionAssistant(e, m, agent, at)
		return
	}
	if text, ok := r.user(m, at, e["toolUseResult"]); ok && agent == "" {
		r.sessionUser(e, text)
	}
}

func (r *reader) time(e map[string]any) time.Time {
	return msglog.ParseTimeOf("timestamp", e["timestamp"], func(msg string) { r.warn("", "%s", msg) })
}

// sideAgent returns the sub-agent a side-chain line belongs to, "" for a
// line of the main conversation. A line belongs to the side chain of its
// agentId, else of its parent line. Otherwise it starts a side chain,
// bound to a Task call not yet answered nor bound: the one whose prompt is
// the chain's first message when there is one, else the first.
func (r *reader) sideAgent(e, m map[string]any) string {
	if e["isSidechain"] != true {
		return ""
	}
	parent, _ := e["parentUuid"].(string)
	agentID, _ := e["agentId"].(string)
	agent, ok := r.tr.chains[parent]
	if a, known := r.tr.byAgent[agentID]; agentID != "" && known {
		agent, ok = a, true
	}
	if !ok {
		if m == nil {
			return "" // not a message: it cannot start a side chain
		}
		agent = r.bind(e, m)
	}
	if id, _ := e["uuid"].(string); id != "" {
		r.tr.chains[id] = agent
	}
	if agentID != "" {
		r.tr.byAgent[agentID] = agent
	}
	return agent
}

func (r *reader) bind(e, m map[string]any) string {
	var prompt string
	if e["type"] == "user" {
		prompt, _ = m["content"].(string)
		if list, ok := m["content"].([]any); ok {
			prompt = textOf(list)
		}
	}
	pick := -1
	for i, tk := range r.tr.tasks {
		if tk.bound || r.answered[tk.id] {
			continue
		}
		if prompt != "" && tk.prompt == prompt {
			pick = i
			break
		}
		if pick < 0 {
			pick = i
		}
	}
	if pick >= 0 {
		r.tr.tasks[pick].bound = true
		return r.agentName(r.tr.tasks[pick].id)
	}
	if a, _ := e["agentId"].(string); a != "" {
		return a
	}
	return "sidechain"
}

// textOf joins the text blocks of a message's content.
func textOf(list []any) string {
	var texts []string
	for _, b := range list {
		blk, _ := b.(map[string]any)
		if t, ok := blk["text"].(string); ok && blk["type"] == "text" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

func (r *reader) sessionAssistant(e, m map[string]any, agent string, at time.Time) {
	if m["model"] == "<synthetic>" {
		return // written by Claude Code itself (an API error, an interruption), not by the model
	}
	if agent == "" && r.tr.command != nil {
		r.openTurn(r.tr.command)
		r.tr.command = nil
	}
	r.assistant(m, agent, at)
	id, _ := m["id"].(string)
	if id == "" {
		return
	}
	var u usage
	mu, _ := m["usage"].(map[string]any)
	for _, k := range []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
		if n, ok := intOf(mu[k]); ok {
			u.in += n
			u.hasIn = true
		}
	}
	u.out, u.hasOut = intOf(mu["output_tokens"])
	u.cost, u.hasCost = jsonv.Number(e["costUSD"])
	if _, ok := r.tr.usage[id]; !ok {
		r.tr.order = append(r.tr.order, id)
	}
	r.tr.usage[id] = u
}

// sessionUser reads the text of a user message of the main conversation:
// a real message starts a turn; a slash command starts one when the model
// answers it; what Claude Code writes itself does not.
func (r *reader) sessionUser(e map[string]any, text string) {
	t := strings.TrimSpace(text)
	switch {
	case e["isMeta"] == true, e["isCompactSummary"] == true, e["isVisibleInTranscriptOnly"] == true:
	case !r.fromUser(e, t):
	case strings.HasPrefix(t, "<command-name>"), strings.HasPrefix(t, "<command-message>"):
		c := command(t)
		r.tr.command = &c
	case strings.HasPrefix(t, "<local-command-"):
		r.tr.command = nil // a command Claude Code answered itself
	case strings.HasPrefix(t, "<bash-"), strings.HasPrefix(t, "[Request interrupted by user"):
	default:
		r.tr.command = nil
		r.openTurn(&text)
	}
}

// fromUser reports whether a user message of the main conversation with
// the text t was written by the person at the keyboard. Claude Code
// writes some itself: when a background command, a sub-agent run in the
// background or a monitor finishes, it tells the model so in a user
// message, <task-notification>...</task-notification>; another session
// may send one (origin peer). Versions from 2.1.1xx say who wrote a
// message in its origin; an origin kind this reader does not know is
// drift, and the message is then judged by its text as before.
func (r *reader) fromUser(e map[string]any, t string) bool {
	if known, ours := r.origin(e); known {
		return !ours
	}
	return !strings.HasPrefix(t, "<task-notification>")
}

// origin reads the origin of a user message or result line: whether it
// names a kind this reader knows, and whether that kind is one Claude Code
// wrote itself. An unknown kind is drift.
func (r *reader) origin(e map[string]any) (known, ours bool) {
	o, ok := e["origin"].(map[string]any)
	if !ok {
		return false, false
	}
	kind, _ := o["kind"].(string)
	switch {
	case kind == "human":
		return true, false
	case originKinds[kind]:
		return true, true
	}
	r.unknown.Saw("origin", kind, r.line)
	return false, false
}

// originKinds are the origins of user messages that Claude Code, not the
// person using it, wrote.
var originKinds = map[string]bool{"task-notification": true, "peer": true}

// command returns a slash command as the user typed it, from the tags
// Claude Code writes: "/name args".
func command(t string) string {
	name := strings.TrimSpace(tag(t, "command-name"))
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	if args := strings.TrimSpace(tag(t, "command-args")); args != "" {
		return name + " " + args
	}
	return name
}

func tag(s, name string) string {
	_, rest, ok := strings.Cut(s, "<"+name+">")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "</"+name+">")
	return body
}

// toolDuration returns the running time a tool reports in its structured
// result (durationMs, totalDurationMs for a sub-agent, durationSeconds),
// nil when it reports none.
func toolDuration(extra any) *float64 {
	x, _ := extra.(map[string]any)
	for _, k := range []string{"durationMs", "totalDurationMs", "durationSeconds"} {
		if n, ok := x[k].(json.Number); ok {
			if d, ok := jsonv.Float(n); ok && d >= 0 {
				if k == "durationSeconds" {
					d *= 1000
				}
				return &d
			}
		}
	}
	return nil
}

// metrics sets the run's metrics from the usage of its model responses.
func (tr *transcript) metrics(t *trajeval.Trajectory) {
	if len(tr.usage) == 0 {
		return
	}
	var total usage
	for _, id := range tr.order {
		u := tr.usage[id]
		total.in += u.in
		total.out += u.out
		total.cost += u.cost
		total.hasIn = total.hasIn || u.hasIn
		total.hasOut = total.hasOut || u.hasOut
		total.hasCost = total.hasCost || u.hasCost
	}
	if total.hasIn {
		t.Metrics.Tokens.Input = &total.in
	}
	if total.hasOut {
		t.Metrics.Tokens.Output = &total.out
	}
	if total.hasCost {
		t.Metrics.CostUSD = &total.cost
	}
	n := int64(len(tr.usage))
	t.Metrics.LLMCalls = &n
}
