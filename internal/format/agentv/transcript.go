package agentv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/plural"
	"github.com/trajeval/trajeval/internal/sniff"
)

// A transcript row is one line of what `agentv import` writes (import
// codex, claude, copilot): one message per line, each with the test_id of
// the case it answers and its message_index.
//
//	{"schema_version":"agentv.transcript.v1","test_id":"fix-config","target":"codex","message_index":0,"role":"user","content":"..."}
//	{"schema_version":"agentv.transcript.v1","test_id":"fix-config","target":"codex","message_index":1,"role":"assistant","tool_calls":[{"tool":"Read","id":"c1","input":{...},"output":...}]}
//
// The rules:
//  1. Consecutive rows of one test_id are one trajectory, whose id is the
//     test_id; their messages are read as an output list is (rules 2 to 7
//     of the package), in file order.
//  2. message_index must go up by one from 0 within a trajectory; a gap
//     or a repeat is reported (rows may have been lost or merged).
//  3. transcript_token_usage, transcript_duration_ms and
//     transcript_cost_usd are the run's metrics; every row repeats them,
//     the last row's are taken.
//  4. A schema_version other than agentv.transcript.v1 is reported once,
//     with a count (see package drift).
type row struct {
	SchemaVersion string      `json:"schema_version"`
	TestID        any         `json:"test_id"`
	MessageIndex  *int        `json:"message_index"`
	TokenUsage    *tokenUsage `json:"transcript_token_usage"`
	DurationMS    *float64    `json:"transcript_duration_ms"`
	CostUSD       *float64    `json:"transcript_cost_usd"`
	message
}

// transcriptRow reports whether a line is a transcript row.
func transcriptRow(line []byte) bool { return transcriptKeys(sniff.Keys(line)) }

// transcriptKeys reports whether keys, a line's, are a transcript row's.
func transcriptKeys(keys []string) bool {
	return sniff.HasKey(keys, "message_index") && sniff.HasKey(keys, "test_id") && sniff.HasKey(keys, "role") &&
		!sniff.HasKey(keys, "output", "output_messages")
}

const transcriptSchema = "agentv.transcript.v1"

// readTranscript reads the transcript rows of in, the first of which is
// first; br holds the rest.
func readTranscript(ctx context.Context, in trajeval.Input, first []byte, br io.Reader, yield func(*trajeval.Trajectory) error) error {
	var (
		cur      *record
		curLine  int
		next     int // the message_index expected next
		unknown  drift.Unknown
		produced int
		clk      clock
	)
	flush := func() error {
		if cur == nil {
			return nil
		}
		t := build(in, *cur, curLine, false, &clk)
		cur = nil
		produced++
		return yield(t)
	}
	each := func(line []byte, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var r row
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&r); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				msg, l, col := jsonl.Describe(line, err, n)
				return &trajeval.TraceError{File: in.Name, Line: l, Col: col, Msg: msg, Hint: "see the transcript row shape in the agentv format's documentation", Err: trajeval.ErrUnknownFormat}
			}
			return jsonl.Damaged(in, line, err, n)
		}
		if r.SchemaVersion != "" && r.SchemaVersion != transcriptSchema {
			unknown.Saw("schema_version", r.SchemaVersion, n)
		}
		id := idString(r.TestID)
		if cur == nil || id != cur.ID.(string) {
			if err := flush(); err != nil {
				return err
			}
			cur, curLine, next = &record{ID: id, Output: []message{}}, n, 0
		}
		if r.MessageIndex != nil && *r.MessageIndex != next {
			in.Warn(trajeval.Warning{File: in.Name, Line: n, Place: "trace " + id,
				Msg: fmt.Sprintf("message_index %d where %d comes next: rows are missing or out of order", *r.MessageIndex, next)})
		}
		if r.MessageIndex != nil {
			next = *r.MessageIndex + 1
		}
		cur.Output = append(cur.Output, r.message)
		if r.TokenUsage != nil {
			cur.TokenUsage = r.TokenUsage
		}
		if r.DurationMS != nil {
			cur.DurationMS = r.DurationMS
		}
		if r.CostUSD != nil {
			cur.CostUSD = r.CostUSD
		}
		return nil
	}
	firstLines := max(bytes.Count(first, []byte{'\n'}), 1)
	if err := each(bytes.TrimSpace(first), 1); err != nil {
		return err
	}
	err := jsonl.Each(br, func(line []byte, n int) error { return each(line, n+firstLines) })
	if err != nil {
		return jsonl.ReadError(in.Name, err)
	}
	unknown.Report(in, "agentv")
	return flush()
}

// unnamedRecords counts the records of a JSON Lines file that have
// neither id nor test_id: a run cannot match them to a suite's cases.
type unnamedRecords struct{ n, line int }

func (u *unnamedRecords) note(t *trajeval.Trajectory) {
	if t.ID != "" {
		return
	}
	if u.n == 0 {
		u.line = t.Line
	}
	u.n++
}

func (u *unnamedRecords) report(in trajeval.Input) {
	if u.n > 0 {
		in.Warn(trajeval.Warning{File: in.Name, Line: u.line, Msg: fmt.Sprintf(
			"%s of this file have no id and no test_id (the first here): --traces cannot match them to a suite's cases",
			plural.Count(u.n, "record", "records"))})
	}
}
