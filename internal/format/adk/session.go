package adk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// readSessions reads one session object or a list of them, one at a time.
// Damage is reported to in (see trajeval.Input.Damage): read leniently,
// the session it cuts short is read partial, and nothing after it is.
func readSessions(ctx context.Context, data []byte, in trajeval.Input, unknown *drift.Unknown, yield func(*trajeval.Trajectory) error) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	fail := func(err error) error {
		return jsonl.Damaged(in, data, absolute(data, err), 1)
	}
	lines := jsonl.NewLines(data)
	var one func(v any, off int64, partial bool) error
	one = func(v any, off int64, partial bool) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := lines.Line(off)
		if m := obj(v); !partial && (m == nil || m["events"] == nil) {
			return jsonl.NotARecord(in, line, 0, `a session is an object with "events"`)
		}
		t := session(v, line, in, unknown)
		if t == nil {
			return nil
		}
		t.Partial, t.Line = partial, line
		return yield(t)
	}
	// salvage reads, leniently, what came before the break of the session
	// at off.
	salvage := func(err error, off int64) error {
		if err := fail(err); err != nil {
			return err
		}
		if v := jsonl.Salvage(data[off:]); v != nil {
			return one(v, off, true)
		}
		return nil
	}
	first := skipSpace(data, 0)
	if n, done, err := fastSessions(data, first, one); done {
		return err
	} else if n > 0 {
		// Read again from the start past the n sessions already read,
		// so that what the Parser refused is read, or placed, as before.
		skip := one
		one = func(v any, off int64, partial bool) error {
			if n > 0 && !partial {
				n--
				return nil
			}
			return skip(v, off, partial)
		}
	}
	if first < int64(len(data)) && data[first] == '{' {
		var v any
		if err := d.Decode(&v); err != nil {
			return salvage(err, first)
		}
		end := d.InputOffset()
		if _, err := d.Token(); !errors.Is(err, io.EOF) {
			line, col := jsonl.Position(data, skipSpace(data, end))
			return &trajeval.TraceError{File: in.Name, Line: line, Col: col, Msg: "unexpected data after the session"}
		}
		if obj(v)["events"] == nil {
			return &trajeval.TraceError{File: in.Name, Line: 1, Col: 1, Msg: `not an ADK session: no "events"`}
		}
		return one(v, first, false)
	}
	tok, err := d.Token()
	if err != nil {
		return fail(err)
	}
	if tok != json.Delim('[') {
		line, col := jsonl.Position(data, first)
		return &trajeval.TraceError{File: in.Name, Line: line, Col: col, Msg: "not an ADK session: neither an object nor a list of sessions"}
	}
	n := 0
	for d.More() {
		off := skipSpace(data, d.InputOffset())
		var v any
		if err := d.Decode(&v); err != nil {
			return salvage(err, off)
		}
		n++
		if err := one(v, off, false); err != nil {
			return err
		}
	}
	if n == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "the list holds no sessions", Err: trajeval.ErrEmptyTrace}
	}
	if _, err := d.Token(); err != nil {
		return fail(err)
	}
	return nil
}

// session turns one session object into a trajectory; nil when it is not
// an object.
func session(v any, line int, in trajeval.Input, unknown *drift.Unknown) *trajeval.Trajectory {
	m := obj(v)
	if m == nil {
		in.Warn(trajeval.Warning{File: in.Name, Line: line, Msg: "a session is not an object; skipped"})
		return nil
	}
	id := str(m["id"])
	t := &trajeval.Trajectory{ID: id, Turns: []trajeval.Turn{}}
	b := newBuilder(in.Name, line, "session "+id, in.Warn)
	b.unknown = unknown
	events, ok := m["events"].([]any)
	if !ok {
		b.warnf("events is not a list; no steps read")
	}
	turnOf := map[string]int{}
	turn := -1
	var tokens [3]*int64
	for i, e := range events {
		ev := obj(e)
		if ev == nil {
			b.warnf("event %d is not an object; skipped", i+1)
			continue
		}
		if ev["partial"] == true {
			continue
		}
		if inv := str(get(ev, "invocation_id")); inv != "" {
			k, seen := turnOf[inv]
			if !seen {
				k = len(t.Turns)
				turnOf[inv] = k
				t.Turns = append(t.Turns, trajeval.Turn{})
			}
			turn = k
		} else if turn < 0 {
			turn = 0
			t.Turns = append(t.Turns, trajeval.Turn{})
		}
		b.event(turn, ev)
		content := get(ev, "content")
		if s := text(content); s != nil && !hasCalls(content) {
			tn := &t.Turns[turn]
			if str(ev["author"]) == "user" {
				if tn.User == nil {
					tn.User = s
				}
			} else {
				tn.FinalResponse = s
			}
		}
		if u := obj(get(ev, "usage_metadata")); u != nil {
			for j, k := range []string{"prompt_token_count", "candidates_token_count", "total_token_count"} {
				if n, ok := get(u, k).(json.Number); ok {
					if x, err := n.Int64(); err == nil {
						if tokens[j] == nil {
							tokens[j] = new(int64)
						}
						*tokens[j] += x
					}
				}
			}
		}
	}
	for i, c := range b.calls {
		t.Steps = append(t.Steps, c.step(b.turn[i]+1))
	}
	t.Metrics.Tokens = trajeval.Tokens{Input: tokens[0], Output: tokens[1], Total: tokens[2]}
	t.Agents = b.agents
	t.Finish()
	return t
}

func hasCalls(content any) bool {
	for _, p := range partsOf(content) {
		pm := obj(p)
		if get(pm, "function_call") != nil || get(pm, "function_response") != nil {
			return true
		}
	}
	return false
}

// fastSessions reads what readSessions reads, a session or a list of
// them from first on, with a jsonv.Parser, which reads JSON many times
// faster than encoding/json and gives the same values. It stops at the
// first thing the Parser does not read as encoding/json would (damage, a
// lone surrogate, data after the session), and returns the number of
// sessions it handed to one, done false: readSessions then reads the
// file as before, past those. done true when it read everything, with
// one's error or readSessions's for a list of no sessions. The file's
// depth was checked before.
func fastSessions(data []byte, first int64, one func(v any, off int64, partial bool) error) (n int, done bool, err error) {
	if first >= int64(len(data)) {
		return 0, false, nil
	}
	if data[first] == '{' {
		v, ok := jsonv.FastDecode(data[first:])
		if !ok || obj(v)["events"] == nil {
			return 0, false, nil
		}
		return 0, true, one(v, first, false)
	}
	if data[first] != '[' {
		return 0, false, nil
	}
	var p jsonv.Parser
	off := space(data, first+1)
	if off < int64(len(data)) && data[off] == ']' {
		return 0, false, nil // no sessions: the error as before
	}
	for off < int64(len(data)) {
		p.Reset(data[off:])
		start, end, ok := p.Span()
		if !ok {
			return n, false, nil
		}
		v, ok := jsonv.FastDecode(data[off+int64(start) : off+int64(end)])
		if !ok {
			return n, false, nil
		}
		n++
		if err := one(v, off+int64(start), false); err != nil {
			return n, true, err
		}
		off = space(data, off+int64(end))
		switch {
		case off < int64(len(data)) && data[off] == ']':
			return n, true, nil
		case off < int64(len(data)) && data[off] == ',':
			off = space(data, off+1)
		default:
			return n, false, nil
		}
	}
	return n, false, nil
}

// space returns the offset of the first byte at or after off that is not
// JSON white space.
func space(data []byte, off int64) int64 {
	for off < int64(len(data)) && (data[off] == ' ' || data[off] == '\t' || data[off] == '\r' || data[off] == '\n') {
		off++
	}
	return off
}
