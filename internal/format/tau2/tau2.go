// Package tau2 reads the results files of τ²-bench (sierra-research's
// tau2-bench), the JSON that `tau2 run` writes:
//
//	{"timestamp": ..., "info": {...}, "tasks": [...],
//	 "simulations": [{"id", "task_id", "trial", "duration", "agent_cost",
//	                  "messages": [{"role", "content", "tool_calls": [{"id", "name", "arguments", "requestor"}],
//	                                "requestor", "error", "usage"}], "reward_info": {...}}]}
//
// The rules:
//  1. Each simulation is one trajectory whose id is its task_id, so that
//     it is scored as the task's case. A simulation with a trial number
//     (τ² counts trials from 0) is that trial of its task: Trial is the
//     trial + 1, and a run scores each as an attempt of the case, from
//     which the report's pass^k comes. The same task and trial twice is
//     scored once, with a warning from the run.
//  2. Steps are the tool calls of the assistant's messages, in message
//     and list order; the calls of one message share a parallel group.
//     The user simulator's own tool calls (a user message's tool_calls,
//     requestor "user", as in τ²'s telecom domain) are not the agent's:
//     they are left out, and so are their tool messages.
//  3. Tool messages pair with calls by id: a step's result is the tool
//     message's content (text, as τ² keeps it) and its error the
//     message's error flag. A step without a tool message has a null
//     result and error; a tool message whose call is not in the file is
//     reported and dropped.
//  4. A user message with text starts a turn; its text is the turn's
//     user. The assistant's texts in a turn are its final response, joined
//     by a newline when there are several (τ² checks every assistant text,
//     not only the last). Messages before the first user message are
//     turn 1. System messages are skipped.
//  5. metrics.duration_ms is the simulation's duration (seconds in τ²),
//     cost_usd its agent_cost, llm_calls the number of assistant messages,
//     and tokens the sum of the assistant messages' usage
//     (prompt_tokens, completion_tokens) when every one gives it.
//  6. A simulation without messages (a full-duplex voice run, recorded as
//     ticks) is skipped with a warning; so is one that is not an object.
//  7. The reward τ² computed (reward_info) is not read: trajeval scores
//     the simulation itself (see the tau2 suite dialect).
//  8. A simulation field, message field, tool call field or message role
//     that τ²-bench 1.0 does not write is drift: one warning per kind,
//     with a count (see package drift). The role's message is skipped;
//     an unknown field is left unread.
//
// The file is one JSON document and is read whole, the simulations
// handled one at a time. The "dir" layout of voice runs (a results.json
// with a simulations/ folder) is not read. A file cut off or broken by a
// syntax error is an error at its line and column, after the simulations
// before the break were handed on; read leniently, the simulation the
// break cuts short is read up to it and marked partial, and nothing after
// it is read.
package tau2

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format reads τ²-bench results files.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "tau2" }

func (x format) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (format) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	if sniff.First(head) != '{' {
		return &trajeval.SniffError{Why: "not a JSON object"}
	}
	keys := h.Keys()
	switch {
	case sniff.HasKey(keys, "simulations") && sniff.HasKey(keys, "info", "tasks"):
		return nil
	case sniff.HasKey(keys, "info") && sniff.HasKey(keys, "tasks"):
		// The tasks come first and may fill the head.
		if sniff.Contains(head, "num_trials") || sniff.Contains(head, "user_scenario") {
			return nil
		}
		return &trajeval.SniffError{Closeness: 50, Why: "has info and tasks but no simulations in sight"}
	case sniff.HasKey(keys, "simulations"):
		return &trajeval.SniffError{Closeness: 60, Why: "has simulations but no info or tasks"}
	}
	return &trajeval.SniffError{Closeness: 5, Why: "no simulations, info or tasks key"}
}

func (format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
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
	err = read(ctx, data, in, &unknown, yield)
	unknown.Report(in, "tau2")
	return err
}

// The fields τ²-bench 1.0 writes (its SimulationRun, messages and
// ToolCall models); what is not here is drift.
var (
	simulationFields = known("id", "task_id", "timestamp", "start_time", "end_time", "duration",
		"termination_reason", "agent_cost", "user_cost", "agent_usage", "reward_info", "messages",
		"ticks", "trial", "seed", "mode", "speech_environment", "review", "user_only_review", "info",
		"auth_classification", "hallucination_retries_used")
	messageFields = known("role", "content", "tool_calls", "is_audio", "turn_idx", "timestamp",
		"cost", "usage", "raw_data", "generation_time_seconds", "audio_format", "audio_content",
		"audio_path", "audio_script_gold", "speech_effects", "source_effects", "channel_effects",
		"turn_taking_action", "utterance_ids", "chunk_id", "is_final_chunk", "source",
		"contains_speech", "id", "requestor", "error")
	callFields = known("id", "name", "arguments", "requestor")
)

func known(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// unknownKeys notes each key of m that is not in fields, in sorted order
// so that the warnings come the same on every read.
func unknownKeys(u *drift.Unknown, what string, m map[string]any, fields map[string]bool, line int) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !fields[k] {
			u.Saw(what, k, line)
		}
	}
}

// read walks the top-level object, decoding the simulations one at a time.
func read(ctx context.Context, data []byte, in trajeval.Input, unknown *drift.Unknown, yield func(*trajeval.Trajectory) error) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	fail := func(err error) error { return jsonl.Damaged(in, data, absolute(data, err), 1) }
	at := func(off int64, msg, hint string) error {
		line, col := jsonl.Position(data, off)
		return &trajeval.TraceError{File: in.Name, Line: line, Col: col, Msg: msg, Hint: hint}
	}
	tok, err := d.Token()
	if err != nil {
		return fail(err)
	}
	if tok != json.Delim('{') {
		return at(skipSpace(data, 0), "not a τ²-bench results file: not a JSON object", `a results file is {"info": ..., "tasks": [...], "simulations": [...]}`)
	}
	found, n := false, 0
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := kt.(string)
		if key != "simulations" {
			var skip json.RawMessage
			if err := d.Decode(&skip); err != nil {
				return fail(err)
			}
			continue
		}
		found = true
		start := skipSpace(data, d.InputOffset())
		if start < int64(len(data)) && data[start] == ':' {
			start = skipSpace(data, start+1)
		}
		t, err := d.Token()
		if err != nil {
			return fail(err)
		}
		if t == nil {
			continue // "simulations": null, as a run that has not started writes
		}
		if t != json.Delim('[') {
			return at(start, "simulations is not a list", "")
		}
		lines := jsonl.NewLines(data)
		for d.More() {
			off := skipSpace(data, d.InputOffset())
			var v any
			if err := d.Decode(&v); err != nil {
				if err := fail(err); err != nil {
					return err
				}
				if v := jsonl.Salvage(data[off:]); v != nil {
					line := lines.Line(off)
					if t := simulation(v, line, n+1, in, unknown); t != nil {
						t.Partial = true
						return yield(t)
					}
				}
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			n++
			line := lines.Line(off)
			if t := simulation(v, line, n, in, unknown); t != nil {
				if err := yield(t); err != nil {
					return err
				}
			}
		}
		if _, err := d.Token(); err != nil {
			return fail(err)
		}
	}
	if _, err := d.Token(); err != nil {
		return fail(err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		line, col := jsonl.Position(data, skipSpace(data, d.InputOffset()))
		return &trajeval.TraceError{File: in.Name, Line: line, Col: col, Msg: "unexpected data after the results"}
	}
	switch {
	case !found:
		return &trajeval.TraceError{File: in.Name, Line: 1, Col: 1, Msg: `not a τ²-bench results file: no "simulations"`,
			Hint: `a results file is {"info": ..., "tasks": [...], "simulations": [...]}`}
	case n == 0:
		return &trajeval.TraceError{File: in.Name, Msg: "the results file holds no simulations", Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// simulation turns the n-th simulation, at line, into a trajectory; nil
// when it is skipped.
func simulation(v any, line, n int, in trajeval.Input, unknown *drift.Unknown) *trajeval.Trajectory {
	m, _ := v.(map[string]any)
	warn := func(place, format string, a ...any) {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Place: place, Msg: fmt.Sprintf(format, a...)})
	}
	if m == nil {
		warn("", "simulation %d is not an object; skipped", n)
		return nil
	}
	unknownKeys(unknown, "simulation field", m, simulationFields, line)
	id := text(m["task_id"])
	place := fmt.Sprintf("simulation %d", n)
	if id != "" {
		place = "task " + id
	}
	if id == "" {
		warn(place, "has no task_id: it cannot be matched to a task")
	}
	t := &trajeval.Trajectory{ID: id, Turns: []trajeval.Turn{}, Line: line}
	if tr, ok := m["trial"].(json.Number); ok {
		if k, err := tr.Int64(); err == nil && k >= 0 && k < math.MaxInt32 {
			t.Trial = int(k) + 1
		} else {
			warn(place, "trial %s is not a trial number; read as a single run", tr)
		}
	}
	msgs, ok := m["messages"].([]any)
	if !ok {
		if m["ticks"] != nil {
			warn(place, "a full-duplex simulation (ticks, no messages) is not read; skipped")
		} else {
			warn(place, "has no messages; skipped")
		}
		return nil
	}
	byID := map[string]int{} // call id → step
	group := 0
	llm := int64(0)
	var tokens [2]*int64
	tokensKnown := true
	turn := func() *trajeval.Turn {
		if len(t.Turns) == 0 {
			t.Turns = append(t.Turns, trajeval.Turn{})
		}
		return &t.Turns[len(t.Turns)-1]
	}
	for i, mv := range msgs {
		msg, _ := mv.(map[string]any)
		if msg == nil {
			warn(place, "message %d is not an object; skipped", i+1)
			continue
		}
		unknownKeys(unknown, "message field", msg, messageFields, line)
		content := text(msg["content"])
		switch role := text(msg["role"]); role {
		case "user":
			if strings.TrimSpace(content) != "" {
				u := content
				t.Turns = append(t.Turns, trajeval.Turn{User: &u})
			}
		case "assistant":
			llm++
			tokensKnown = tokensKnown && addUsage(&tokens, msg["usage"])
			calls, _ := msg["tool_calls"].([]any)
			g := 0
			if len(calls) > 1 {
				group++
				g = group
			}
			for j, cv := range calls {
				c, _ := cv.(map[string]any)
				if c == nil {
					warn(place, "message %d: tool call %d is not an object; skipped", i+1, j+1)
					continue
				}
				unknownKeys(unknown, "tool call field", c, callFields, line)
				turn()
				s := trajeval.Step{Turn: len(t.Turns), ID: text(c["id"]), Name: text(c["name"]), ParallelGroup: g}
				s.Args = eventlog.Args(c["arguments"], func() {
					warn(place, "message %d: the arguments of %s are not JSON; kept as text", i+1, s.Name)
				})
				if s.ID != "" {
					byID[s.ID] = len(t.Steps)
				}
				t.Steps = append(t.Steps, s)
			}
			if strings.TrimSpace(content) != "" {
				tn := turn()
				if tn.FinalResponse == nil {
					r := content
					tn.FinalResponse = &r
				} else {
					r := *tn.FinalResponse + "\n" + content
					tn.FinalResponse = &r
				}
			}
		case "tool":
			if text(msg["requestor"]) == "user" {
				continue
			}
			k, ok := byID[text(msg["id"])]
			if !ok {
				warn(place, "message %d: a tool result for call %q, which is not in the simulation; dropped", i+1, text(msg["id"]))
				continue
			}
			s := &t.Steps[k]
			if c, ok := msg["content"]; ok && c != nil {
				s.Result = content
			}
			if e, ok := msg["error"].(bool); ok {
				s.Error = &e
				if e {
					s.ErrorMessage = content
				}
			}
		case "system":
		default:
			unknown.Saw("message role", role, line)
		}
	}
	if f, ok := number(m["duration"]); ok && f >= 0 {
		ms := f * 1000
		t.Metrics.DurationMS = &ms
	}
	if f, ok := number(m["agent_cost"]); ok {
		t.Metrics.CostUSD = &f
	}
	t.Metrics.LLMCalls = &llm
	if tokensKnown && llm > 0 {
		t.Metrics.Tokens = trajeval.Tokens{Input: tokens[0], Output: tokens[1]}
	}
	t.Finish()
	return t
}

// addUsage adds a message's prompt and completion tokens to sum; false
// when the message does not give both.
func addUsage(sum *[2]*int64, u any) bool {
	m, _ := u.(map[string]any)
	var got [2]int64
	for i, k := range []string{"prompt_tokens", "completion_tokens"} {
		n, ok := m[k].(json.Number)
		if !ok {
			return false
		}
		x, err := n.Int64()
		if err != nil {
			return false
		}
		got[i] = x
	}
	for i := range sum {
		if sum[i] == nil {
			sum[i] = new(int64)
		}
		*sum[i] += got[i]
	}
	return true
}

// text returns a string value, or a number's text (an id written as a
// number); "" otherwise.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// skipSpace returns the offset of the first byte at or after off that is
// neither white space nor a comma.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
			continue
		}
		break
	}
	return off
}

// absolute returns a syntax error with its offset counted from the start
// of data: a json.Decoder that has already returned tokens counts a later
// error's offset from elsewhere.
func absolute(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	var raw json.RawMessage
	if uerr := json.Unmarshal(data, &raw); errors.As(uerr, &se) && !strings.HasPrefix(se.Error(), "unexpected end") {
		return se
	}
	return err
}
