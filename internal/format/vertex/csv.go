package vertex

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"

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
func EachCSV(r io.Reader, each func(Row) error) error {
	lens := &lineLengths{r: r}
	cr := csv.NewReader(lens)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return lens.clamp(csvError(err, "the header row"))
	}
	cols := slices.Clone(header)
	for i, c := range cols {
		if c != "" && slices.Index(cols, c) != i {
			_, col := cr.FieldPos(i)
			return &CSVError{Line: 1, Col: col, Msg: fmt.Sprintf("column %q is named twice", c)}
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return lens.clamp(csvError(err, ""))
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

// lineLengths counts the bytes of each line read through it, so that an
// error's column can be kept inside its line: encoding/csv places some
// errors one past the end.
type lineLengths struct {
	r    io.Reader
	lens []int // lens[i] is the length of line i+1 so far
}

func (l *lineLengths) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if len(l.lens) == 0 {
		l.lens = append(l.lens, 0)
	}
	for _, c := range p[:n] {
		if c == '\n' {
			l.lens = append(l.lens, 0)
		} else {
			l.lens[len(l.lens)-1]++
		}
	}
	return n, err
}

// clamp keeps a *CSVError's position inside the text read.
func (l *lineLengths) clamp(err error) error {
	ce, ok := err.(*CSVError)
	if !ok {
		return err
	}
	ce.Line = min(max(ce.Line, 1), max(len(l.lens), 1))
	if ce.Line <= len(l.lens) {
		ce.Col = min(max(ce.Col, 1), l.lens[ce.Line-1]+1)
	}
	return ce
}
