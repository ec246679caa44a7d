package compare

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// Sentinel errors, for errors.Is. Every *FileError unwraps to one of them.
var (
	// ErrDamaged is a results file with a line that is cut off or not
	// valid JSON.
	ErrDamaged = errors.New("damaged results file")
	// ErrNotResults is a file whose rows are not trajeval results.
	ErrNotResults = errors.New("not a results file")
	// ErrEmpty is a results file without a row.
	ErrEmpty = errors.New("empty results file")
	// ErrDuplicate is a case that has two rows for the same attempt.
	ErrDuplicate = errors.New("duplicate case")
	// ErrNoCommon is two results files without a case in common.
	ErrNoCommon = errors.New("no case in common")
)

// A FileError is a results file that cannot be compared, located for the
// person who must fix it.
type FileError struct {
	File      string
	Line, Col int // 0 when the error is about the whole file
	Msg       string
	Hint      string // what to do, if anything
	Err       error  // one of the sentinels above
}

func (e *FileError) Error() string {
	s := e.File + ": "
	switch {
	case e.Line > 0 && e.Col > 0:
		s = fmt.Sprintf("%s:%d:%d: ", e.File, e.Line, e.Col)
	case e.Line > 0:
		s = fmt.Sprintf("%s:%d: ", e.File, e.Line)
	}
	s += e.Msg
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *FileError) Unwrap() error { return e.Err }

// A File is a results file: the rows that trajeval eval --out writes,
// one per case, or one per attempt of a case run several times.
type File struct {
	Name string
	Rows []Row
}

// A Row is one case result and the line it came from.
type Row struct {
	trajeval.CaseResult
	Line int
}

// howToWrite is the hint for a file that is not a results file.
const howToWrite = "compare reads the JSON Lines that trajeval eval --out FILE or --format jsonl writes"

// ReadFile reads the results file name (see [Parse]) a line at a time:
// what it holds in memory is the rows, not the file (whose trajectories,
// written with --include-trace, may be most of it), and a line longer
// than jsonl.MaxLine is an error at its line.
func ReadFile(name string) (*File, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	sniff.DiscardBOM(br)
	return parse(name, br, func() bool {
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return false
		}
		return isReportDocument(fh)
	})
}

// Parse reads the results in data, read from the file name. Nothing is
// skipped: the first problem is an error.
//  1. Each line that is not blank is one JSON object; a line cut off or
//     broken is an error at its line and column. A UTF-8 byte order mark
//     at the start of the file is dropped; columns on line 1 count from
//     the byte after it.
//  2. Each row must look like a trajeval case result: an "id", a "status"
//     of pass, fail or error, a "score" and "evaluators". A file of traces,
//     or the one JSON document of eval --format json, is refused, with a
//     hint.
//  3. A file without a row is an error.
//  4. A case (suite and id) has one row, or one row per attempt; the same
//     attempt twice is an error naming both lines, and so is a case with
//     rows both with and without an attempt number.
func Parse(name string, data []byte) (*File, error) {
	data = sniff.TrimBOM(data)
	return parse(name, bytes.NewReader(data), func() bool { return isReportDocument(bytes.NewReader(data)) })
}

// parse is Parse reading r; isDocument reports whether the whole file is
// the JSON report of eval --format json, asked only when its first line is
// a lone "{".
func parse(name string, r io.Reader, isDocument func() bool) (*File, error) {
	f := &File{Name: name}
	type key struct {
		suite, id string
		attempt   int
	}
	type caseKey struct{ suite, id string }
	seen := map[key]int{}
	tried := map[caseKey][2]int{} // the first line without, and with, an attempt number
	err := jsonl.Each(r, func(line []byte, n int) error {
		row, err := parseRow(name, line, n)
		if err != nil {
			if n == 1 && bytes.Equal(bytes.TrimSpace(line), []byte("{")) && isDocument() {
				return &FileError{File: name, Line: 1, Col: 1, Err: ErrNotResults,
					Msg:  "this is the JSON report of trajeval eval --format json, not JSON Lines",
					Hint: howToWrite}
			}
			return err
		}
		k := key{row.Suite, row.ID, row.Attempt}
		if first, dup := seen[k]; dup {
			return &FileError{File: name, Line: n, Err: ErrDuplicate,
				Msg:  fmt.Sprintf("%s appears twice, also on line %d", describe(row), first),
				Hint: "each case has one row per attempt: were two runs written to one file?"}
		}
		seen[k] = n
		ck := caseKey{row.Suite, row.ID}
		lines := tried[ck]
		i := min(row.Attempt, 1)
		if lines[i] == 0 {
			lines[i] = n
		}
		tried[ck] = lines
		if lines[0] > 0 && lines[1] > 0 {
			return &FileError{File: name, Line: n, Err: ErrDuplicate,
				Msg: fmt.Sprintf("case %s has a row without an attempt number (line %d) and one with (line %d)",
					caseName(row.Suite, row.ID), lines[0], lines[1]),
				Hint: "a single run and repeated trials of one case are two runs: were two runs written to one file?"}
		}
		f.Rows = append(f.Rows, Row{CaseResult: row, Line: n})
		return nil
	})
	if de := (*jsonv.DepthError)(nil); errors.As(err, &de) {
		return nil, &FileError{File: name, Line: de.Line, Col: de.Col, Msg: de.Error(), Hint: "no results file nests this deep: it is corrupt", Err: ErrDamaged}
	}
	if le := (*jsonl.LineTooLongError)(nil); errors.As(err, &le) {
		return nil, &FileError{File: name, Line: le.Line, Msg: le.Msg(), Hint: jsonl.LineHint, Err: ErrDamaged}
	}
	if err != nil {
		return nil, err
	}
	if len(f.Rows) == 0 {
		return nil, &FileError{File: name, Err: ErrEmpty, Msg: "no results: the file is empty",
			Hint: "did the run write anything? " + howToWrite}
	}
	return f, nil
}

// parseRow reads line n as one case result.
func parseRow(name string, line []byte, n int) (trajeval.CaseResult, error) {
	var row trajeval.CaseResult
	v, err := jsonl.Decode(line)
	if err != nil {
		msg, l, c := jsonl.Describe(line, err, n)
		hint := "each line must be one whole result row"
		if jsonl.Truncated(err) {
			hint = "the row is cut off: the run that wrote the file may have been stopped; run trajeval eval --out again"
		}
		return row, &FileError{File: name, Line: l, Col: c, Msg: msg, Hint: hint, Err: ErrDamaged}
	}
	if msg := shape(v); msg != "" {
		return row, &FileError{File: name, Line: n, Msg: "not a trajeval result row: " + msg, Hint: howToWrite, Err: ErrNotResults}
	}
	if err := json.Unmarshal(line, &row); err != nil {
		msg, l, c := jsonl.Describe(line, err, n)
		return row, &FileError{File: name, Line: l, Col: c, Msg: "not a trajeval result row: " + msg, Hint: howToWrite, Err: ErrNotResults}
	}
	if row.Attempt < 0 {
		return row, &FileError{File: name, Line: n, Msg: fmt.Sprintf("not a trajeval result row: attempt %d is below 1", row.Attempt), Hint: howToWrite, Err: ErrNotResults}
	}
	return row, nil
}

// shape says why v is not a case result row, or "" when it looks like one.
func shape(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "expected a JSON object, got " + kind(v)
	}
	if _, ok := m["steps"]; ok {
		return "it has steps: this looks like a trajectory, not a result"
	}
	for _, k := range []string{"id", "status", "score", "evaluators"} {
		if _, ok := m[k]; !ok {
			return fmt.Sprintf("no %q", k)
		}
	}
	if id, ok := m["id"].(string); !ok || id == "" {
		return `"id" must be a string that is not empty`
	}
	switch m["status"] {
	case string(trajeval.StatusPass), string(trajeval.StatusFail), string(trajeval.StatusError):
	default:
		return fmt.Sprintf(`"status" must be pass, fail or error, got %s`, kind(m["status"]))
	}
	return ""
}

func kind(v any) string {
	switch v := v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// isReportDocument reports whether data is one JSON object with the
// summary and cases of eval --format json.
//
// It reads the document a token at a time, so that a report of any size
// is told without holding it, and looks at its keys alone: a document
// with "summary" and "cases" at the top, whose values are JSON, is one.
func isReportDocument(r io.Reader) bool {
	d := json.NewDecoder(r)
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	var summary, cases bool
	depth := 1 // of the next token
	key := true
	for {
		t, err := d.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			depth--
			if depth == 0 {
				_, err := d.Token()
				return errors.Is(err, io.EOF) && summary && cases
			}
			if depth == 1 {
				key = true
			}
			continue
		}
		if depth > 1 {
			continue
		}
		if key {
			summary = summary || t == "summary"
			cases = cases || t == "cases"
		}
		key = !key
	}
}

// describe names a row's case and attempt for a message.
func describe(r trajeval.CaseResult) string {
	s := "case " + caseName(r.Suite, r.ID)
	if r.Attempt > 0 {
		s += fmt.Sprintf(" attempt %d", r.Attempt)
	}
	return s
}

func caseName(suite, id string) string {
	if suite == "" {
		return fmt.Sprintf("%q", id)
	}
	return fmt.Sprintf("%q of suite %q", id, suite)
}
