package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// A Row is one line of a results file (eval --out, --format jsonl): a case
// result and, when the run kept it, the actual trajectory under the key
// "trajectory", in the canonical form that trajeval convert prints.
type Row struct {
	trajeval.CaseResult
	Trajectory *Trace `json:"trajectory,omitempty"`
}

// A Trace is the part of a canonical trajectory the HTML report draws.
// Fields it does not know are ignored, so that a newer trajectory still
// reads.
type Trace struct {
	Steps []TraceStep `json:"steps"`
}

// A TraceStep is one tool call of a Trace.
type TraceStep struct {
	Index         int             `json:"index"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args,omitempty"`
	DurationMS    *float64        `json:"duration_ms"`
	StartTime     *string         `json:"start_time"`
	Error         *bool           `json:"error"`
	ErrorMessage  *string         `json:"error_message"`
	ParallelGroup *int            `json:"parallel_group"`
}

// ReadRows reads a results file written by eval --out or --format jsonl,
// one case result per line. name is the file's name, for errors. A line
// that is not JSON or not a case result is an error placed at
// file:line:col. A UTF-8 byte order mark at the start of the file is
// dropped, and columns on line 1 count from the byte after it. A trajectory
// that cannot be read is left out with a warning, returned and added to the
// row's warnings: the row is still drawn, from its details alone.
func ReadRows(r io.Reader, name string) (rows []Row, warnings []string, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	sniff.DiscardBOM(br)
	err = jsonl.Each(br, func(line []byte, n int) error {
		var raw struct {
			trajeval.CaseResult
			Trajectory json.RawMessage `json:"trajectory"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			msg, l, c := jsonl.Describe(line, err, n)
			return fmt.Errorf("%s:%d:%d: %s (is this a results file written by eval --out?)", name, l, c, msg)
		}
		if raw.ID == "" || raw.Status == "" {
			return fmt.Errorf("%s:%d: not a case result: a row needs an id and a status (is this a results file written by eval --out?)", name, n)
		}
		row := Row{CaseResult: raw.CaseResult}
		before := len(row.Warnings)
		row.Trajectory, row.Warnings = readTrace(raw.Trajectory, row.Warnings)
		for _, w := range row.Warnings[before:] {
			warnings = append(warnings, fmt.Sprintf("%s:%d: case %s: %s", name, n, raw.ID, w))
		}
		rows = append(rows, row)
		return nil
	})
	if de := (*jsonv.DepthError)(nil); errors.As(err, &de) {
		err = fmt.Errorf("%s:%d:%d: %w (is this a results file written by eval --out?)", name, de.Line, de.Col, de)
	}
	if le := (*jsonl.LineTooLongError)(nil); errors.As(err, &le) {
		le.File = name
		err = le
	}
	return rows, warnings, err
}

// Summarize counts the verdicts of rows.
func Summarize(rows []Row) Summary {
	var s Summary
	for _, r := range rows {
		s.Add(r.CaseResult)
	}
	return s
}
