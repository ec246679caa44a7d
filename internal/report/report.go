// Package report writes case results: a text report for people, JSON Lines
// (one row per case) and a JSON document for machines, a JUnit XML report
// for CI test pages, a Markdown job summary for CI, and a self-contained
// HTML page to explore a run.
//
// The text and JSON Lines writers stream: each case is written when it is
// scored. The others need the whole run (counts up front, tables, a page)
// and write it at Close.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// A Writer receives case results and a closing summary.
type Writer interface {
	Case(r trajeval.CaseResult) error
	Close(s Summary) error
}

// Summary counts a run's verdicts.
type Summary struct {
	Cases  int `json:"cases"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	Errors int `json:"errors"`
	// Judge sums the run's judge calls; nil when no evaluator asked one.
	Judge *trajeval.JudgeUsage `json:"judge,omitempty"`
}

// Add counts r; a status other than pass or fail counts as an error.
func (s *Summary) Add(r trajeval.CaseResult) {
	s.Cases++
	switch r.Status {
	case trajeval.StatusPass:
		s.Passed++
	case trajeval.StatusFail:
		s.Failed++
	default:
		s.Errors++
	}
}

// Formats are the names New accepts.
var Formats = []string{"text", "json", "jsonl", "junit", "markdown", "html"}

// New returns a writer of the named format on w.
func New(format string, w io.Writer) (Writer, error) {
	switch format {
	case "text":
		return &Text{W: w}, nil
	case "jsonl":
		return NewJSONL(w), nil
	case "json":
		return &jsonDoc{w: w}, nil
	case "junit":
		return &JUnit{W: w}, nil
	case "markdown":
		return &Markdown{W: w}, nil
	case "html":
		return &HTML{W: w}, nil
	}
	return nil, fmt.Errorf("unknown format %q (%s)", format, strings.Join(Formats, ", "))
}

// JSONL writes one JSON object per case.
type JSONL struct {
	w    io.Writer
	enc  *json.Encoder
	buf  []byte // the row being written, reused
	memo rowMemo
}

// NewJSONL returns a JSON Lines writer.
func NewJSONL(w io.Writer) *JSONL {
	enc := json.NewEncoder(jsonv.NewWriter(w))
	enc.SetEscapeHTML(false)
	return &JSONL{w: w, enc: enc}
}

// Case writes one row, in one Write. The row is encoded by hand (see
// appendRow); what that refuses, encoding/json encodes or reports.
func (j *JSONL) Case(r trajeval.CaseResult) error {
	b, ok := appendRow(j.buf[:0], &r, &j.memo)
	if !ok {
		return j.enc.Encode(encodeRow(r))
	}
	j.buf = append(b, '\n')
	if len(j.buf) > 1<<20 {
		defer func() { j.buf = nil }() // a huge row is not kept
	}
	_, err := j.w.Write(j.buf)
	return err
}

// A row is a case result as the JSON writers encode it: its start time
// always with milliseconds (time.Time's own encoding drops trailing zeros
// and keeps nanoseconds), and its duration present whenever the start
// time is, even when it rounds to 0.
type row struct {
	trajeval.CaseResult
	StartedAt  string   `json:"started_at,omitempty"`
	DurationMS *float64 `json:"duration_ms,omitempty"`
}

// timeLayout is RFC 3339 with exactly three decimals, in UTC.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

func encodeRow(r trajeval.CaseResult) row {
	w := row{CaseResult: r}
	if !r.StartedAt.IsZero() {
		w.StartedAt = r.StartedAt.UTC().Format(timeLayout)
		d := r.DurationMS
		w.DurationMS = &d
	}
	return w
}

// Close writes nothing: JSON Lines has no trailer.
func (j *JSONL) Close(Summary) error { return nil }

type jsonDoc struct {
	w     io.Writer
	cases []trajeval.CaseResult
}

func (j *jsonDoc) Case(r trajeval.CaseResult) error {
	j.cases = append(j.cases, r)
	return nil
}

func (j *jsonDoc) Close(s Summary) error {
	if j.cases == nil {
		j.cases = []trajeval.CaseResult{}
	}
	if doc, ok := appendDoc(nil, s, j.cases); ok {
		var out bytes.Buffer
		out.Grow(len(doc) + len(doc)/4)
		if err := json.Indent(&out, doc, "", "  "); err == nil {
			_, err = j.w.Write(out.Bytes())
			return err
		}
	}
	return j.encodeStd(s)
}

// encodeStd writes the document with encoding/json, which appendDoc's
// output indented is byte for byte.
func (j *jsonDoc) encodeStd(s Summary) error {
	rows := make([]row, len(j.cases))
	for i, r := range j.cases {
		rows[i] = encodeRow(r)
	}
	enc := json.NewEncoder(jsonv.NewWriter(j.w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Summary Summary `json:"summary"`
		Cases   []row   `json:"cases"`
	}{s, rows})
}

// Multi sends every call to each writer, stopping at the first error.
type Multi []Writer

// Case writes r to every writer.
func (m Multi) Case(r trajeval.CaseResult) error {
	for _, w := range m {
		if err := w.Case(r); err != nil {
			return err
		}
	}
	return nil
}

// Close closes every writer.
func (m Multi) Close(s Summary) error {
	for _, w := range m {
		if err := w.Close(s); err != nil {
			return err
		}
	}
	return nil
}
