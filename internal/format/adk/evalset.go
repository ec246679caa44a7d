package adk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/jsonl"
)

// An EvalSet is a Google ADK eval set: an .evalset.json file, a newer
// .test.json file (one EvalSet or one EvalCase), or a legacy .test.json
// list.
type EvalSet struct {
	ID          string // eval_set_id; "" for a single case or a legacy list
	Name        string
	Description string
	Legacy      bool // read from the pre-2025 list form
	Cases       []EvalCase
	// Warnings are the problems that did not stop the set from being read,
	// each once, in file order.
	Warnings []trajeval.Warning
}

// An EvalCase is one conversation of an eval set.
type EvalCase struct {
	// ID is eval_id. A case without one (always so in the legacy list forms,
	// unless the wrapper form gives a name) gets "case-<n>", n being its
	// 1-based position in the file.
	ID          string
	Line        int // where the case starts in the file, 1-based
	Invocations []Invocation
	// Partial is set when the file was read leniently and damage cut the
	// case short: it holds what came before the break.
	Partial bool
}

// An Invocation is one user turn of a case: the user's message, the
// agent's final response, and the tool calls made in between.
type Invocation struct {
	ID            string  // invocation_id, "" when absent
	User          *string // text of user_content (legacy: query); nil when absent
	FinalResponse *string // text of final_response (legacy: reference); nil when absent
	Calls         []ToolCall
	DurationMS    *float64 // from duration (seconds), only when the eval ran the agent
	LLMCalls      *int64   // inference_call_count
	// Agents are the caller relations the invocation's events show: who
	// called each agent (see the package rules).
	Agents []trajeval.Agent
}

// A ToolCall is one function call of an invocation, in the order the
// model issued it.
type ToolCall struct {
	ID   string // the genai call id, "" when absent (hand-written files)
	Name string
	Args any // JSON value, {} when absent
	// Result is the paired function response's "response" (legacy:
	// mock_tool_output); nil when there is none.
	Result any
	// ParallelGroup numbers, within the case, the calls issued together in
	// one event of invocation_events; 0 when not batched or not observable.
	ParallelGroup int
	Agent         string // the event's author, when known
	// Thrown is the message ADK wrote for the tool having thrown (see rule
	// 5 of the package), "" otherwise.
	Thrown string
}

// DecodeEvalSet reads an ADK eval set in any of its three shapes. name is
// the file name used in errors and warnings. A file that cannot be read as
// an eval set gives a *trajeval.TraceError with line and column.
func DecodeEvalSet(data []byte, name string) (*EvalSet, error) {
	set := &EvalSet{}
	in := trajeval.Input{Name: name, Warn: func(w trajeval.Warning) { set.Warnings = append(set.Warnings, w) }}
	var unknown drift.Unknown
	hdr, err := eachCase(data, in, &unknown, func(c *EvalCase) error {
		set.Cases = append(set.Cases, *c)
		return nil
	})
	unknown.Report(in, "adk-evalset")
	var te *trajeval.TraceError
	if errors.As(err, &te) && errors.Is(err, trajeval.ErrCorruptTrace) {
		te.Hint = "the eval set is cut off or corrupt; fix it" // an eval set is never read leniently
	}
	if err != nil {
		return nil, err
	}
	set.ID, set.Name, set.Description, set.Legacy = hdr.id, hdr.name, hdr.description, hdr.legacy
	return set, nil
}

// Trajectory returns the case as a trajectory: one turn per invocation,
// one step per tool call. ADK has no error flag, so a step's error is
// null unless ADK wrote that the tool threw; metrics are set only when
// every invocation reports them.
func (c *EvalCase) Trajectory() *trajeval.Trajectory {
	t := &trajeval.Trajectory{ID: c.ID, Turns: []trajeval.Turn{}, Partial: c.Partial, Line: c.Line}
	var dur float64
	var llm int64
	allDur, allLLM := len(c.Invocations) > 0, len(c.Invocations) > 0
	for i, inv := range c.Invocations {
		t.Turns = append(t.Turns, trajeval.Turn{User: inv.User, FinalResponse: inv.FinalResponse})
		t.Agents = append(t.Agents, inv.Agents...)
		for _, call := range inv.Calls {
			t.Steps = append(t.Steps, call.step(i+1))
		}
		if inv.DurationMS != nil {
			dur += *inv.DurationMS
		} else {
			allDur = false
		}
		if inv.LLMCalls != nil {
			llm += *inv.LLMCalls
		} else {
			allLLM = false
		}
	}
	if allDur && !math.IsInf(dur, 0) { // a sum too large to hold is not reported
		t.Metrics.DurationMS = &dur
	}
	if allLLM {
		t.Metrics.LLMCalls = &llm
	}
	t.Finish()
	return t
}

// header is what an eval set says about itself besides its cases.
type header struct {
	id, name, description string
	legacy                bool
}

// eachCase decodes the eval set in data and calls fn with each case in
// file order, holding one decoded case at a time. Cases read before a
// syntax error have been passed to fn when the error is returned. Damage
// is reported to in (see trajeval.Input.Damage): read leniently, the case
// it cuts short is passed on partial, and nothing after it is read.
func eachCase(data []byte, in trajeval.Input, unknown *drift.Unknown, fn func(*EvalCase) error) (header, error) {
	var hdr header
	name, warn := in.Name, in.Warn
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	fail := func(err error) error {
		var te *trajeval.TraceError
		if errors.As(err, &te) {
			return err
		}
		return jsonl.Damaged(in, data, absolute(data, err), 1)
	}
	at := func(off int64, msg, hint string) error {
		line, col := jsonl.Position(data, skipSpace(data, off))
		return &trajeval.TraceError{File: name, Line: line, Col: col, Msg: msg, Hint: hint}
	}
	ids := map[string]int{}
	n := 0
	emit := func(c *EvalCase) error {
		n++
		if c.ID == "" {
			c.ID = fmt.Sprintf("case-%d", n)
		}
		if first, dup := ids[c.ID]; dup {
			warn(trajeval.Warning{File: name, Line: c.Line, Place: "eval case " + c.ID,
				Msg: fmt.Sprintf("eval_id %q is used again (first at line %d)", c.ID, first)})
		} else {
			ids[c.ID] = c.Line
		}
		return fn(c)
	}
	tok, err := d.Token()
	if err != nil {
		return hdr, fail(err)
	}
	switch tok {
	case json.Delim('['):
		hdr.legacy = true
		return hdr, eachLegacy(d, data, name, warn, emit, fail)
	case json.Delim('{'):
	default:
		return hdr, at(0, "not an ADK eval set: the file is not a JSON object or list",
			"an eval set is {eval_set_id, eval_cases: [...]}")
	}
	top := map[string]any{}
	sawCases := false
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return hdr, fail(err)
		}
		key, _ := kt.(string)
		if key != "eval_cases" && key != "evalCases" {
			var v any
			if err := d.Decode(&v); err != nil {
				return hdr, fail(err)
			}
			top[key] = v
			continue
		}
		sawCases = true
		off := d.InputOffset()
		t, err := d.Token()
		if err != nil {
			return hdr, fail(err)
		}
		if t == nil {
			continue // eval_cases: null is an empty set
		}
		if t != json.Delim('[') {
			return hdr, at(off+1, "eval_cases is not a list", "")
		}
		lines := jsonl.NewLines(data)
		for d.More() {
			off := skipSpace(data, d.InputOffset())
			line := lines.Line(off)
			var v any
			if err := d.Decode(&v); err != nil {
				if err := fail(err); err != nil {
					return hdr, err
				}
				if v := jsonl.Salvage(data[off:]); v != nil {
					c := decodeCase(v, line, n+1, name, warn, unknown)
					c.Partial = true
					return hdr, emit(c)
				}
				return hdr, nil
			}
			c := decodeCase(v, line, n+1, name, warn, unknown)
			if err := emit(c); err != nil {
				return hdr, err
			}
		}
		if _, err := d.Token(); err != nil {
			return hdr, fail(err)
		}
	}
	if _, err := d.Token(); err != nil {
		return hdr, fail(err)
	}
	end := d.InputOffset()
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return hdr, at(end, "unexpected data after the eval set", "")
	}
	hdr.id, _ = get(top, "eval_set_id").(string)
	hdr.name, _ = top["name"].(string)
	hdr.description, _ = top["description"].(string)
	if sawCases {
		return hdr, nil
	}
	if get(top, "conversation") != nil || get(top, "eval_id") != nil {
		return hdr, emit(decodeCase(top, 1, 1, name, warn, unknown))
	}
	return hdr, at(0, "not an ADK eval set: no eval_cases, eval_id or conversation",
		"an eval set is {eval_set_id, eval_cases: [...]}; an eval case is {eval_id, conversation: [...]}")
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

// eachLegacy reads the pre-2025 list forms: a list of turns
// [{query, expected_tool_use, reference}] (one case), or the wrapper
// [{name, data: [turns], initial_session}] (one case per entry).
func eachLegacy(d *json.Decoder, data []byte, name string, warn func(trajeval.Warning), emit func(*EvalCase) error, fail func(error) error) error {
	var turns *EvalCase
	k := 0
	lines := jsonl.NewLines(data)
	for d.More() {
		off := skipSpace(data, d.InputOffset())
		line := lines.Line(off)
		var v any
		if err := d.Decode(&v); err != nil {
			if err := fail(err); err != nil {
				return err
			}
			// Read leniently: keep the turns read so far.
			if turns != nil {
				turns.Partial = true
				return emit(turns)
			}
			return nil
		}
		k++
		m, ok := v.(map[string]any)
		if !ok {
			warn(trajeval.Warning{File: name, Line: line, Place: fmt.Sprintf("entry %d", k), Msg: "not an object; skipped"})
			continue
		}
		if _, wrapped := m["data"]; wrapped && turns == nil {
			c := &EvalCase{Line: line}
			c.ID, _ = m["name"].(string)
			list, ok := m["data"].([]any)
			if !ok {
				warn(trajeval.Warning{File: name, Line: line, Place: fmt.Sprintf("entry %d", k), Msg: `"data" is not a list of turns`})
			}
			b := newBuilder(name, line, caseName(c.ID, k), warn)
			for _, t := range list {
				if tm, ok := t.(map[string]any); ok {
					c.Invocations = append(c.Invocations, b.legacyTurn(tm, len(c.Invocations)))
				}
			}
			b.finish(c.Invocations)
			if err := emit(c); err != nil {
				return err
			}
			continue
		}
		if turns == nil {
			turns = &EvalCase{Line: line}
		}
		b := newBuilder(name, line, fmt.Sprintf("turn %d", k), warn)
		turns.Invocations = append(turns.Invocations, b.legacyTurn(m, 0))
		b.finish(turns.Invocations[len(turns.Invocations)-1:])
	}
	if _, err := d.Token(); err != nil {
		if err := fail(err); err != nil || turns == nil {
			return err
		}
		turns.Partial = true // read leniently: later turns may be cut off
		return emit(turns)
	}
	end := d.InputOffset()
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		line, col := jsonl.Position(data, skipSpace(data, end))
		return &trajeval.TraceError{File: name, Line: line, Col: col, Msg: "unexpected data after the list"}
	}
	if turns != nil {
		return emit(turns)
	}
	return nil
}

func caseName(id string, n int) string {
	if id != "" {
		return "eval case " + id
	}
	return fmt.Sprintf("eval case %d", n)
}

// decodeCase reads one EvalCase object of the new schema, the pos-th case
// of its file.
func decodeCase(v any, line, pos int, name string, warn func(trajeval.Warning), unknown *drift.Unknown) *EvalCase {
	c := &EvalCase{Line: line}
	m, ok := v.(map[string]any)
	if !ok {
		warn(trajeval.Warning{File: name, Line: line, Msg: "an eval case is not an object; read as an empty case"})
		return c
	}
	c.ID, _ = get(m, "eval_id").(string)
	place := caseName(c.ID, pos)
	if c.ID == "" {
		warn(trajeval.Warning{File: name, Line: line, Place: place, Msg: "no eval_id; the case is named by its position"})
	}
	conv, ok := get(m, "conversation").([]any)
	if !ok && get(m, "conversation") != nil {
		warn(trajeval.Warning{File: name, Line: line, Place: place, Msg: "conversation is not a list; no turns read"})
	}
	if conv == nil && get(m, "conversation_scenario") != nil {
		warn(trajeval.Warning{File: name, Line: line, Place: place, Msg: "a conversation_scenario case has no recorded conversation; no turns read"})
	}
	b := newBuilder(name, line, place, warn)
	b.unknown = unknown
	for i, iv := range conv {
		im, ok := iv.(map[string]any)
		if !ok {
			b.warnf("invocation %d is not an object; skipped", i+1)
			continue
		}
		c.Invocations = append(c.Invocations, b.invocation(im, len(c.Invocations)))
	}
	b.finish(c.Invocations)
	return c
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
