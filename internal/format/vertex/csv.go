package vertex

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
)

// A Cell is one cell of a CSV dataset, placed where its text starts
// (line and column 1-based; the column counts bytes).
type Cell struct {
	Text      string
	Line, Col int
}

// A Row is one record of a CSV dataset: its line and its cells by column
// name. An empty cell (what pandas writes for NaN or None) is left out.
type Row struct {
	Line  int
	Cells map[string]Cell
}

// A CSVError is a CSV dataset that cannot be read: a quote left open, a
// record with another number of cells than the header, a column named
// twice.
type CSVError struct {
	Line, Col int
	Msg       string
}

func (e *CSVError) Error() string { return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg) }

// CSVHeader returns the column names of the header row at the start of
// head, as a CSV file written by pandas' DataFrame.to_csv begins (a UTF-8
// byte order mark is skipped), or nil when head does not start with one
// that names a trajectory column.
func CSVHeader(head []byte) []string {
	head = sniff.TrimBOM(head)
	if len(head) == 0 || head[0] == '{' || head[0] == '[' {
		return nil
	}
	r := csv.NewReader(bytes.NewReader(head))
	cols, err := r.Read()
	if err != nil || !slices.Contains(cols, Predicted) && !slices.Contains(cols, Reference) {
		return nil
	}
	return cols
}

// EachCSV reads a CSV dataset: a header row naming the columns (an
// unnamed column, such as pandas' index, is ignored), then one record per
// row; a cell may be quoted and span lines. It calls each with every row
// and stops at the first error, a *CSVError when the file is not CSV.
// A byte order mark is the caller's to drop (trace.ReadFrom drops it), so
// that a second one is the first column's text, not dropped too.
//
// A record may be as long as jsonl.MaxLine, its line endings and the
// blank lines before it included: a longer one (a line without end, a
// quote left open to the end of a huge file) is a *jsonl.LineTooLongError
// at the line the record starts on, found before encoding/csv, which
// holds the record's text and a copy of it, has read more than MaxLine
// bytes of it.
func EachCSV(r io.Reader, each func(Row) error) error {
	in := &bounded{r: r, limit: int64(jsonl.LineLimit()), line: 1, startLine: 1}
	cr := csv.NewReader(in)
	cr.ReuseRecord = true
	read := func() ([]string, error) {
		rec, err := cr.Read()
		if err == nil && cr.InputOffset()-in.start > in.limit {
			err = errRecordTooLong
		}
		if err != nil && (in.hit || errors.Is(err, errRecordTooLong)) {
			return nil, &jsonl.LineTooLongError{Line: in.startLine, Max: int(in.limit)}
		}
		in.next(cr.InputOffset())
		return rec, err
	}
	header, err := read()
	if err != nil {
		return in.clamp(csvError(err, "the header row"))
	}
	cols := slices.Clone(header)
	for i, c := range cols {
		if c != "" && slices.Index(cols, c) != i {
			_, col := cr.FieldPos(i)
			return &CSVError{Line: 1, Col: col, Msg: fmt.Sprintf("column %q is named twice", c)}
		}
	}
	for {
		rec, err := read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return in.clamp(csvError(err, ""))
		}
		line, _ := cr.FieldPos(0)
		row := Row{Line: line, Cells: map[string]Cell{}}
		for i, text := range rec {
			if cols[i] == "" || text == "" {
				continue
			}
			l, c := cr.FieldPos(i)
			row.Cells[cols[i]] = Cell{Text: text, Line: l, Col: c}
		}
		if err := each(row); err != nil {
			return err
		}
	}
}

// RecordHint is what to do about a record of a CSV dataset longer than
// jsonl.MaxLine.
const RecordHint = "no row of a CSV dataset is this long: is it the file meant, and is a quote left open?"

// errRecordTooLong is what bounded returns once the record being read
// has passed its limit.
var errRecordTooLong = errors.New("record too long")

func csvError(err error, what string) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		if errors.Is(err, io.EOF) {
			return &CSVError{Line: 1, Col: 1, Msg: "the file is empty: a CSV dataset starts with a header row"}
		}
		return err
	}
	msg := pe.Err.Error()
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		msg = "this row has another number of cells than the header row has columns"
	}
	if what != "" {
		msg = what + ": " + msg
	}
	return &CSVError{Line: pe.Line, Col: pe.Column, Msg: msg}
}

// bounded hands encoding/csv its input, never more than limit bytes and
// one past the start of the record being read, and counts the lines it
// hands on, so that an error's column can be kept inside its line:
// encoding/csv places some errors one past the end. It keeps the lengths
// of the last few lines only (an error past the end is at the end of the
// input), and the last bytes handed on (encoding/csv buffers no more than
// 4 KiB ahead), so that its memory does not grow with the file.
type bounded struct {
	r      io.Reader
	limit  int64
	handed int64 // bytes handed on
	start  int64 // the offset of the record being read
	hit    bool  // the record passed the limit

	line      int           // the line being handed on, 1-based
	lens      [16]int       // lens[l%16] is the length of line l so far, for the last 16
	tail      [8 << 10]byte // tail[o%len] is the byte at offset o, for the last 8 KiB
	startLine int           // the line the record being read starts on
}

func (b *bounded) Read(p []byte) (int, error) {
	room := b.start + b.limit + 1 - b.handed
	if room <= 0 {
		b.hit = true
		return 0, errRecordTooLong
	}
	n, err := b.r.Read(p[:min(int64(len(p)), room)])
	for i, c := range p[:n] {
		b.tail[(b.handed+int64(i))%int64(len(b.tail))] = c
		if c == '\n' {
			b.line++
			b.lens[b.line%len(b.lens)] = 0
		} else {
			b.lens[b.line%len(b.lens)]++
		}
	}
	b.handed += int64(n)
	return n, err
}

// next starts the record at offset off (encoding/csv's InputOffset after
// the one before): its line is the line being handed on, less the
// newlines handed on past off.
func (b *bounded) next(off int64) {
	b.start = off
	ahead := 0
	for o := off; o < b.handed; o++ {
		if b.tail[o%int64(len(b.tail))] == '\n' {
			ahead++
		}
	}
	b.startLine = b.line - ahead
}

// clamp keeps a *CSVError's position inside the text read.
func (b *bounded) clamp(err error) error {
	ce, ok := err.(*CSVError)
	if !ok {
		return err
	}
	ce.Line = min(max(ce.Line, 1), b.line)
	if b.line-ce.Line < len(b.lens) {
		ce.Col = min(max(ce.Col, 1), b.lens[ce.Line%len(b.lens)]+1)
	}
	return ce
}
