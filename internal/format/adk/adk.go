// Package adk reads Google ADK's two trace shapes: eval sets ("adk-evalset")
// and saved sessions ("adk-session").
//
// # Eval sets
//
// Three shapes are read, all as eval sets:
//
//	{"eval_set_id": "s", "eval_cases": [{"eval_id": "c", "conversation": [invocation...]}]}  (*.evalset.json)
//	{"eval_id": "c", "conversation": [invocation...]}          (a newer *.test.json holding one case)
//	[{"query": "...", "expected_tool_use": [{"tool_name": "t", "tool_input": {...}}], "reference": "..."}]
//	                                                           (the legacy pre-2025 *.test.json)
//
// where an invocation is {invocation_id, user_content, final_response,
// intermediate_data, duration, inference_call_count} and intermediate_data is
// either {tool_uses: [{id, name, args}], tool_responses: [{id, name, response}],
// intermediate_responses} or {invocation_events: [{author, content: {parts}}]}.
//
// The rules:
//  1. Each eval case is one trajectory whose id is its eval_id. A case with
//     no eval_id, and every legacy case, is named "case-<n>" by its 1-based
//     position in the file (the legacy wrapper form [{name, data: [...]}]
//     uses its name). The legacy list of turns is one case.
//  2. Invocation i is turn i: its user is the text of user_content (legacy:
//     query), its final response the text of final_response (legacy:
//     reference). Text is the content's text parts joined by newlines,
//     thoughts left out.
//  3. Steps are the tool_uses in list order, or the function_call parts of
//     invocation_events in event and part order. Several function_call parts
//     in one event are one model response: they share a parallel group. A
//     tool_uses list does not show batching, so its steps have none.
//  4. Responses pair with calls by id; a response without an id (allowed in
//     hand-written files) pairs with the first unanswered id-less call of the
//     same name. A response whose call never appears is reported and dropped.
//     A step's result is the response's "response" object (legacy:
//     mock_tool_output).
//  5. ADK has no error flag (tools return {"status": "error", ...} by
//     convention only), so a step's error is null, except where ADK
//     wrote the response itself for a tool that threw: ADK for TypeScript
//     answers {"error": "Error in tool '<name>': <message>"}, which gives
//     error true with that message.
//  6. An event's author fills the step's agent. The agent that called it
//     (Trajectory.Agents) is the one before it in the event's branch
//     ("root.billing"); else the author of the latest function call named
//     after it (an AgentTool call, whose agent's events follow); and the
//     agent named by a transfer_to_agent call, or by an event's
//     actions.transfer_to_agent, was called by that event's author.
//  7. Keys inside eval cases may be snake_case or camelCase (user_content or
//     userContent), as ADK accepts both.
//  8. metrics.duration_ms is the sum of the invocations' duration and
//     llm_calls the sum of their inference_call_count, each only when every
//     invocation gives it.
//  9. A call id seen twice in one case is one step, with a warning.
//  10. An event field or a part key that ADK's Event and genai's Part do
//     not have is drift: one warning per kind, with a count (see package
//     drift). It holds for sessions too.
//
// The file is one JSON document and is read whole; the decoded cases are
// handled one at a time. A file cut off or broken by a syntax error is an
// error at its line and column, after the cases before the break were
// handed on; read leniently, the case the break cuts short is read up to
// it and marked partial, and nothing after it is read.
//
// # Sessions
//
// A session is what `adk run --save_session` writes and the sessions API
// returns: {id, app_name, user_id, state, events: [{author, invocation_id,
// timestamp, content: {parts}, partial, usage_metadata}]}; the file may hold
// one session or a list of them. The rules:
//  1. Each session is one trajectory whose id is the session id.
//  2. invocation_id gives the turns, in order of first appearance; an event
//     without one belongs to the turn before it. The user is the text of the
//     invocation's first user-authored event; the final response is the text
//     of its last event by another author that holds text and neither calls
//     nor responses.
//  3. Partial (streamed) events are skipped: their content is repeated in the
//     final event that follows them.
//  4. Steps, pairing, parallel groups and agents as for invocation_events
//     above: function_call parts in event order, function_response parts
//     paired by id.
//  5. Event timestamps are the times the events were built, not when the
//     tools ran, so steps get no start, end or duration from them.
//  6. metrics.tokens sums the usage_metadata of the events (prompt,
//     candidates and total token counts) when any event has it.
//
// A session file is one JSON document and is read whole.
package adk

import (
	"bytes"
	"context"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
)

// EvalSetFormat reads ADK eval sets: .evalset.json, the newer .test.json
// and the legacy .test.json list.
var EvalSetFormat trajeval.Format = evalSetFormat{}

type evalSetFormat struct{}

func (evalSetFormat) Name() string { return "adk-evalset" }

func (x evalSetFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (evalSetFormat) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	switch sniff.First(head) {
	case '{':
		keys := h.Keys()
		if sniff.HasKey(keys, "eval_set_id", "eval_cases", "evalSetId", "evalCases") {
			return nil
		}
		if sniff.HasKey(keys, "eval_id", "evalId", "conversation") {
			if sniff.HasKey(keys, "conversation") || anyKey(head, "user_content", "userContent", "invocation_id", "invocationId") {
				return nil
			}
			return &trajeval.SniffError{Closeness: 60, Why: "has eval_id but no conversation"}
		}
		return &trajeval.SniffError{Closeness: 5, Why: "no eval_set_id, eval_cases or eval_id key"}
	case '[':
		keys := sniff.FirstElementKeys(head)
		if sniff.HasKey(keys, "query") && sniff.HasKey(keys, "expected_tool_use", "reference", "expected_intermediate_agent_responses") {
			return nil
		}
		if sniff.HasKey(keys, "data") && anyKey(head, "expected_tool_use") {
			return nil
		}
		if sniff.HasKey(keys, "query") {
			return &trajeval.SniffError{Closeness: 50, Why: "a list of queries without expected_tool_use or reference"}
		}
		return &trajeval.SniffError{Closeness: 5, Why: "a list, but not of ADK legacy turns {query, expected_tool_use}"}
	}
	return &trajeval.SniffError{Why: "not a JSON object or list"}
}

func anyKey(head []byte, keys ...string) bool {
	for _, k := range keys {
		if sniff.Contains(head, k) {
			return true
		}
	}
	return false
}

func (evalSetFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	data, err := jsonl.ReadDocument(in.Name, in.R, jsonl.SizeOf(in.R), nil)
	if err != nil {
		return err
	}
	if err := jsonl.CheckDepth(in.Name, data, 1); err != nil {
		return err
	}
	n := 0
	var stop error
	var unknown drift.Unknown
	defer unknown.Report(in, "adk-evalset")
	_, err = eachCase(data, in, &unknown, func(c *EvalCase) error {
		if err := ctx.Err(); err != nil {
			stop = err
			return err
		}
		n++
		if err := yield(c.Trajectory()); err != nil {
			stop = err
			return err
		}
		return nil
	})
	switch {
	case stop != nil:
		return stop
	case err != nil:
		return err
	case n == 0:
		return &trajeval.TraceError{File: in.Name, Msg: "the eval set has no eval cases", Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// SessionFormat reads saved ADK sessions.
var SessionFormat trajeval.Format = sessionFormat{}

type sessionFormat struct{}

func (sessionFormat) Name() string { return "adk-session" }

func (x sessionFormat) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (sessionFormat) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	var keys []string
	switch sniff.First(head) {
	case '{':
		keys = h.Keys()
	case '[':
		keys = sniff.FirstElementKeys(head)
	default:
		return &trajeval.SniffError{Why: "not a JSON object or list"}
	}
	if !sniff.HasKey(keys, "events") {
		return &trajeval.SniffError{Closeness: 5, Why: `no "events" key`}
	}
	if sniff.HasKey(keys, "app_name", "appName", "user_id", "userId") {
		return nil
	}
	if anyKey(head, "invocation_id", "invocationId") && sniff.Contains(head, "author") {
		return nil
	}
	return &trajeval.SniffError{Closeness: 40, Why: "has events but no app_name, user_id or events with invocation_id and author"}
}

func (sessionFormat) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	data, err := jsonl.ReadDocument(in.Name, in.R, jsonl.SizeOf(in.R), nil)
	if err != nil {
		return err
	}
	if err := jsonl.CheckDepth(in.Name, data, 1); err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "the file is empty", Err: trajeval.ErrEmptyTrace}
	}
	var unknown drift.Unknown
	err = readSessions(ctx, data, in, &unknown, yield)
	unknown.Report(in, "adk-session")
	return err
}
