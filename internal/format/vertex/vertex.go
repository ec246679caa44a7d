// Package vertex reads Vertex AI Gen AI evaluation datasets for agents
// ("vertex-dataset"): JSON Lines, one row per line, each an object with
// the columns Vertex's EvalTask reads.
//
// The columns:
//  1. predicted_trajectory: the calls the agent made, a list of
//     {tool_name, tool_input}; the reader makes them the steps of the
//     row's trajectory, in order, all in turn 1;
//  2. reference_trajectory: the calls expected, in the same shape; the
//     reader ignores it (the suite dialect reads it);
//  3. prompt and response, optional: the turn's user message and final
//     response;
//  4. id, optional: the row's id, text or a number; a row without one is
//     "row-N", N its line number. Other columns are ignored.
//
// A trajectory may also be given as text holding the list, and a
// tool_input as text holding the object, as a pandas DataFrame written to
// JSON Lines or CSV holds them: in JSON, or in Python's syntax (the repr
// pandas writes for a list of dicts: single quotes, True, False, None;
// see package pylit). A missing tool_input is {}.
//
// The same dataset may be CSV, as DataFrame.to_csv writes it: a header
// row naming the columns (one of them predicted_trajectory or
// reference_trajectory; an unnamed index column is ignored), then a
// record per row, cells quoted when they hold commas, quotes or line
// breaks. Every cell is text; an empty cell is a missing value. A row's
// line is the line its record starts on, and its id, when it has no id
// column, is "row-N" with that line. A CSV file that is not valid CSV (a
// quote left open, a row with too many cells) is damage at its line and
// column.
//
// A row with no predicted_trajectory, or one that is not a list of calls,
// gives no trajectory and a warning at its line: its case is then an error
// (no trace), never a score. A line that is not a JSON object is skipped
// with a warning; a line that is not JSON is damage (see
// trajeval.Input.Damage).
//
// A key of a call other than tool_name and tool_input is drift: one
// warning per key, with a count (see package drift). Other columns are
// not, since Vertex's EvalTask itself takes any column (a custom metric
// may read it).
//
// Detection claims a file whose first line is a JSON object with a
// predicted_trajectory or reference_trajectory column, or a CSV header row
// naming one.
package vertex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/format/drift"
	"github.com/trajeval/trajeval/internal/format/eventlog"
	"github.com/trajeval/trajeval/internal/format/msglog"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pylit"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Format is a Vertex AI evaluation dataset.
var Format trajeval.Format = format{}

type format struct{}

func (format) Name() string { return "vertex-dataset" }

// The columns this package reads.
const (
	Predicted = "predicted_trajectory"
	Reference = "reference_trajectory"
)

func (x format) Sniff(head []byte) error { return x.SniffHead(msglog.NewHead(head)) }

// SniffHead is Sniff reading the keys of a head that other formats
// read too (see msglog.HeadSniffer).
func (format) SniffHead(h *msglog.Head) error {
	head := h.Bytes()
	keys := h.FirstLineKeys()
	if keys == nil && CSVHeader(head) != nil {
		return nil
	}
	if keys == nil {
		return &trajeval.SniffError{Why: "the first line is not a JSON object or a CSV header row naming predicted_trajectory or reference_trajectory"}
	}
	if !sniff.HasKey(keys, Predicted, Reference) {
		return &trajeval.SniffError{Closeness: 10, Why: "the first row has no predicted_trajectory or reference_trajectory column"}
	}
	return nil
}

// A Call is one call of a trajectory.
type Call struct {
	ToolName  string
	ToolInput map[string]any // never nil
	Extra     []string       // the call's other keys, sorted; Vertex reads none of them
}

// ID returns the id of the row at line: its id column, else "row-N".
func ID(row map[string]any, line int) string {
	switch v := row["id"].(type) {
	case string:
		if v != "" {
			return v
		}
	case json.Number:
		return string(v)
	}
	return "row-" + strconv.Itoa(line)
}

// Trajectory reads a trajectory column's value: a list of calls
// {tool_name, tool_input}, or text holding one in JSON or Python syntax.
// The error says what is wrong, for a message placed at the row.
func Trajectory(v any) ([]Call, error) {
	if s, ok := v.(string); ok {
		d, err := decodeText(s)
		if err != nil {
			return nil, fmt.Errorf("text that is not a list of calls in JSON or Python syntax: %v", err)
		}
		v = d
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s, not a list of calls {tool_name, tool_input}", kind(v))
	}
	calls := make([]Call, 0, len(list))
	for i, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("call %d is %s, not an object {tool_name, tool_input}", i+1, kind(it))
		}
		name, ok := m["tool_name"].(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("call %d has no tool_name", i+1)
		}
		c := Call{ToolName: name, ToolInput: map[string]any{}}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if k != "tool_name" && k != "tool_input" {
				c.Extra = append(c.Extra, k)
			}
		}
		switch in := m["tool_input"].(type) {
		case nil:
		case map[string]any:
			c.ToolInput = in
		case string:
			d, err := decodeText(in)
			obj, isObj := d.(map[string]any)
			if err != nil || !isObj {
				return nil, fmt.Errorf("call %d (%s): tool_input is text that is not an object in JSON or Python syntax", i+1, name)
			}
			c.ToolInput = obj
		default:
			return nil, fmt.Errorf("call %d (%s): tool_input is %s, not an object", i+1, name, kind(in))
		}
		calls = append(calls, c)
	}
	return calls, nil
}

func (format) Read(ctx context.Context, in trajeval.Input, yield func(*trajeval.Trajectory) error) error {
	br := bufio.NewReaderSize(in.R, 64<<10)
	head, _ := br.Peek(64 << 10)
	in.R = br
	var unknown drift.Unknown
	defer unknown.Report(in, "vertex-dataset")
	if CSVHeader(head) != nil {
		return readCSV(ctx, in, &unknown, yield)
	}
	skipped := eventlog.Skipped{One: "a JSON object", Many: "JSON objects"}
	rows := 0
	err := jsonl.Each(in.R, func(line []byte, n int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, damaged, err := eventlog.Decode(in, line, n)
		if err != nil || damaged {
			return err
		}
		row, ok := v.(map[string]any)
		if !ok || !eventlog.Has(row, Predicted, Reference, "prompt", "response") {
			return skipped.Line(in, n)
		}
		rows++
		return readRow(in, n, row, &unknown, yield)
	})
	if err != nil {
		return err
	}
	skipped.Report(in)
	if rows == 0 {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no rows: no line is a JSON object", Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// readCSV reads a CSV dataset.
func readCSV(ctx context.Context, in trajeval.Input, unknown *drift.Unknown, yield func(*trajeval.Trajectory) error) error {
	rows := 0
	err := EachCSV(in.R, func(r Row) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows++
		row := make(map[string]any, len(r.Cells))
		for k, c := range r.Cells {
			row[k] = c.Text
		}
		return readRow(in, r.Line, row, unknown, yield)
	})
	if ce, ok := err.(*CSVError); ok {
		err = in.Damage(ce.Line, ce.Col, ce.Msg)
	}
	if le := (*jsonl.LineTooLongError)(nil); errors.As(err, &le) {
		// Not damage that --lenient reads past: nothing after it is read.
		return &trajeval.TraceError{File: in.Name, Line: le.Line, Msg: le.Msg(), Hint: RecordHint, Err: err}
	}
	if err != nil {
		return err
	}
	if rows == 0 {
		return &trajeval.TraceError{File: in.Name, Line: 1, Msg: "no rows: the CSV file has a header row only", Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// readRow yields the trajectory of the row at line n, or warns why it has
// none.
func readRow(in trajeval.Input, n int, row map[string]any, unknown *drift.Unknown, yield func(*trajeval.Trajectory) error) error {
	id := ID(row, n)
	warn := func(format string, a ...any) {
		in.Warn(trajeval.Warning{File: in.Name, Line: n, Msg: fmt.Sprintf(format, a...)})
	}
	p, has := row[Predicted]
	if !has || p == nil {
		warn("row %s has no predicted_trajectory: its case cannot be scored", id)
		return nil
	}
	calls, err := Trajectory(p)
	if err != nil {
		warn("row %s: predicted_trajectory: %v; its case cannot be scored", id, err)
		return nil
	}
	t := &trajeval.Trajectory{ID: id, Line: n}
	turn := trajeval.Turn{Turn: 1}
	if s, ok := row["prompt"].(string); ok {
		turn.User = &s
	}
	if s, ok := row["response"].(string); ok {
		turn.FinalResponse = &s
	}
	t.Turns = []trajeval.Turn{turn}
	for _, c := range calls {
		for _, k := range c.Extra {
			unknown.Saw("predicted_trajectory call key", k, n)
		}
		t.Steps = append(t.Steps, trajeval.Step{Turn: 1, Name: c.ToolName, Args: c.ToolInput})
	}
	t.Finish()
	return yield(t)
}

// decodeText reads a value held as text: JSON, else a Python literal. The
// error is the Python reader's, which places the problem.
func decodeText(s string) (any, error) {
	if v, err := jsonv.Decode([]byte(s)); err == nil {
		return v, nil
	}
	return pylit.ParseValue(s)
}

// kind names the JSON type of v with its article.
func kind(v any) string {
	switch k := jsonv.Kind(v); k {
	case "array", "object":
		return "an " + k
	case "null":
		return k
	default:
		return "a " + k
	}
}
