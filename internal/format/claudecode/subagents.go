package claudecode

import (
	"bufio"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/sidefile"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Sub-agents of Claude Code 2.1 and later, in session transcripts:
//  1. While a sub-agent runs, each of its messages is also written into
//     the main session as a progress line, {"type":"progress",
//     "parentToolUseID": <the Task call>, "data": {"type":"agent_progress",
//     "agentId": ..., "message": {"type":"assistant", "message": {...},
//     "uuid": ...}}}. Its calls are steps of the sub-agent that the Task
//     call started (agent its subagent_type, as for side chains).
//  2. The whole sub-agent transcript is kept in
//     <session-id>/subagents/agent-<agentId>.jsonl beside the session's
//     file. When the session is read from a file, the Task call's result
//     (whose toolUseResult names the agentId) makes the reader read that
//     file there, as side-chain lines of that sub-agent, before the
//     result itself.
//  3. Both hold the same messages, with the same uuids: a message read
//     once is skipped the second time, so no call is counted twice.
//  4. An agentId that is not letters, digits, '-' and '_' names no file.
//     A file that cannot be read is reported, and the steps that progress
//     lines gave are kept.
//  5. The file is read as the session is, though the session names it and
//     the user does not (opened by package sidefile, as Gemini CLI's
//     sub-agents' files are): it must be a regular file inside the session's
//     folder once symbolic links are followed (a link to a file elsewhere,
//     a named pipe or a device such as /dev/zero is reported and not
//     opened), it is read no further than the size it had when opened, a
//     byte order mark at its start is dropped, and every line must be
//     UTF-8 (read leniently, the bad bytes are U+FFFD, with one warning)
//     and nested no deeper than jsonl.Each allows. Nesting too deep is
//     hostile, not damage: as in the session's file, it is the read's
//     error, read leniently or not.

// agentProgress reads an agent_progress line.
func (r *reader) agentProgress(e, data map[string]any) {
	inner, _ := data["message"].(map[string]any)
	m, _ := inner["message"].(map[string]any)
	if m == nil {
		return // a progress line without a message: the agent started
	}
	if id, _ := inner["uuid"].(string); id != "" {
		if r.tr.seen[id] {
			return
		}
		r.tr.seen[id] = true
	}
	agent := r.progressAgent(e, data)
	at := r.time(inner)
	if at.IsZero() {
		at = r.time(e)
	}
	switch inner["type"] {
	case "assistant":
		r.sessionAssistant(inner, m, agent, at)
	case "user":
		r.user(m, at, inner["toolUseResult"]) // a sub-agent's text starts no turn
	}
}

// progressAgent names the sub-agent of a progress line: that of the Task
// call it reports on, else its agentId. The agentId is bound to it, so
// that the side chains of its own file (rule 2) go to the same agent.
func (r *reader) progressAgent(e, data map[string]any) string {
	task, _ := e["parentToolUseID"].(string)
	agentID, _ := data["agentId"].(string)
	if a, ok := r.tr.byAgent[agentID]; agentID != "" && ok {
		return a
	}
	agent := agentID
	if _, ok := r.agents[task]; ok {
		agent = r.agentName(task)
		for i := range r.tr.tasks {
			if r.tr.tasks[i].id == task {
				r.tr.tasks[i].bound = true
			}
		}
	}
	if agent == "" {
		agent = "sidechain"
	}
	if agentID != "" {
		r.tr.byAgent[agentID] = agent
	}
	return agent
}

// subagentFile reads, before a user line of the main session, the file of
// the sub-agent whose Task result the line holds (rule 2).
func (r *reader) subagentFile(e map[string]any) {
	res, _ := e["toolUseResult"].(map[string]any)
	agentID, _ := res["agentId"].(string)
	if agentID == "" || r.tr.filesRead[agentID] || e["isSidechain"] == true {
		return
	}
	r.tr.filesRead[agentID] = true
	dir, ok := strings.CutSuffix(r.in.Name, ".jsonl")
	if !ok || r.tr.nested {
		return
	}
	if !sidefile.NameLike(agentID) {
		r.warn("", "agentId %q names no sub-agent file; its calls are those of the progress lines", agentID)
		return
	}
	path := filepath.Join(dir, "subagents", "agent-"+agentID+".jsonl")
	f, err := sidefile.Open(dir, path)
	if errors.Is(err, fs.ErrNotExist) {
		return // an older version, or a session copied without its folder
	}
	if err != nil {
		r.warn("", "cannot read the sub-agent file %s: %v; its calls are those of the progress lines", path, err)
		return
	}
	defer f.Close()
	br := bufio.NewReader(f)
	sniff.DiscardBOM(br)
	if _, ok := r.tr.byAgent[agentID]; !ok {
		if m, _ := e["message"].(map[string]any); m != nil {
			if task := taskOf(m); task != "" {
				if _, known := r.agents[task]; known {
					r.tr.byAgent[agentID] = r.agentName(task)
				}
			}
		}
	}
	outer, line := r.in, r.line
	r.in.Name, r.tr.nested = path, true
	defer func() { r.in, r.line, r.tr.nested = outer, line, false }()
	skipped := eventlog.Skipped{One: "a JSON object", Many: "JSON objects"}
	badUTF8 := false
	err = jsonl.Each(br, func(data []byte, n int) error {
		r.line = n
		if i := sidefile.InvalidUTF8(data); i >= 0 {
			const msg = "invalid UTF-8: a trace is UTF-8 text"
			if !r.in.Lenient {
				return &trajeval.TraceError{File: path, Line: n, Col: i + 1, Msg: msg, Err: trajeval.ErrCorruptTrace}
			}
			if !badUTF8 {
				r.in.Warn(trajeval.Warning{File: path, Line: n, Col: i + 1, Msg: msg + "; read leniently as U+FFFD"})
			}
			badUTF8 = true
		}
		v, damaged, err := eventlog.Decode(r.in, data, n)
		if err != nil {
			return err
		}
		r.t.Partial = r.t.Partial || damaged
		sub, ok := v.(map[string]any)
		if !ok {
			if !damaged {
				return skipped.Line(r.in, n)
			}
			return nil
		}
		if _, ok := sub["agentId"]; !ok {
			sub["agentId"] = agentID
		}
		sub["isSidechain"] = true
		r.sessionLine(sub)
		return nil
	})
	skipped.Report(r.in)
	if de := (*jsonv.DepthError)(nil); errors.As(err, &de) {
		r.tr.tooDeep = jsonl.TooDeep(path, err)
		return
	}
	if err != nil {
		r.in.Warn(trajeval.Warning{File: path, Msg: "the sub-agent file could not be read whole: " + err.Error() + "; what came before is kept"})
		r.t.Partial = true
	}
}

// taskOf returns the tool_use_id of the first tool_result of a message.
func taskOf(m map[string]any) string {
	list, _ := m["content"].([]any)
	for _, b := range list {
		blk, _ := b.(map[string]any)
		if blk["type"] == "tool_result" {
			id, _ := blk["tool_use_id"].(string)
			return id
		}
	}
	return ""
}

// blockTypes are the content blocks of assistant messages that the
// Messages API defines: text and tool_use are read, the others carry
// nothing this reader scores (thinking) or are run by the API itself
// (server tools and their results). Any other type is drift.
var blockTypes = map[string]bool{
	"text": true, "tool_use": true, "thinking": true, "redacted_thinking": true,
	"server_tool_use": true, "web_search_tool_result": true, "web_fetch_tool_result": true,
	"code_execution_tool_result": true, "bash_code_execution_tool_result": true,
	"text_editor_code_execution_tool_result": true, "mcp_tool_use": true, "mcp_tool_result": true,
	"container_upload": true, "image": true, "document": true, "search_result": true,
}

// noteBlock notes a content block of an assistant message that is neither
// text nor tool_use, when its type is not one the Messages API defines.
func (r *reader) noteBlock(blk map[string]any) {
	typ, _ := blk["type"].(string)
	if !blockTypes[typ] {
		r.unknown.Saw("content block type", typ, r.line)
	}
}

// lineTypes are the line types Claude Code writes, in print mode and in
// session transcripts, that carry no call: they are skipped on purpose.
// Any other type is drift.
var lineTypes = map[string]bool{
	"system": true, "result": true, "summary": true, "file-history-snapshot": true,
	"queue-operation": true, "progress": true, "attachment": true, "custom-title": true,
	"ai-title": true, "tag": true, "agent-name": true, "pr-link": true, "last-prompt": true,
	"stream_event": true, "tool_progress": true, "auth_status": true, "keep_alive": true,
	"control_request": true, "control_response": true, "control_cancel_request": true,
	"rate_limit_event": true,
	// Claude Code 2.1.332: the requests sent to the API (their shape, the
	// messages again, the parameters), the tools used, and the session's
	// cost and token totals
	"atis-latch": true, "api-request-shape": true, "api-request-blob": true, "api-request": true,
	"tools-used": true, "cost-state": true,
	// and, on --resume, the session's mode
	"mode": true,
}

// noteLine notes a line of a type that is neither user nor assistant,
// when Claude Code is not known to write it.
func (r *reader) noteLine(typ string) {
	if !lineTypes[typ] && typ != "" {
		r.unknown.Saw("line type", typ, r.line)
	}
}
