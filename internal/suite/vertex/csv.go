package vertex

import (
	"bytes"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/config"
	format "github.com/trajeval/trajeval/internal/format/vertex"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/sniff"
	"github.com/trajeval/trajeval/internal/suite"
)

// sniffCSV claims a .csv file whose header row names a
// reference_trajectory column.
func sniffCSV(path string, head []byte) bool {
	return strings.EqualFold(filepath.Ext(path), ".csv") && slices.Contains(format.CSVHeader(head), format.Reference)
}

// loadCSV reads a CSV dataset into the rows the JSON Lines dataset gives,
// each cell a string placed at its line and column, and loads them by the
// same rules.
func loadCSV(path string, data []byte, opts suite.Options) (*suite.Suite, []error) {
	root := &config.Node{Kind: config.List, File: path, Line: 1, Col: 1}
	err := format.EachCSV(bytes.NewReader(sniff.TrimBOM(data)), func(r format.Row) error {
		row := &config.Node{Kind: config.Map, File: path, Line: r.Line, Col: 1}
		for _, k := range slices.Sorted(maps.Keys(r.Cells)) {
			c := r.Cells[k]
			row.Entries = append(row.Entries, config.Entry{Key: k, KeyLine: c.Line, KeyCol: c.Col,
				Value: &config.Node{Kind: config.String, Text: c.Text, File: path, Line: c.Line, Col: c.Col, Path: k}})
		}
		root.Items = append(root.Items, row)
		return nil
	})
	var ce *format.CSVError
	if le := (*jsonl.LineTooLongError)(nil); errors.As(err, &le) {
		return nil, []error{&trajeval.SpecError{File: path, Line: le.Line, Col: 1, Msg: le.Msg(), Hint: format.RecordHint}}
	}
	if errors.As(err, &ce) {
		return nil, []error{&trajeval.SpecError{File: path, Line: ce.Line, Col: ce.Col, Msg: ce.Msg, Hint: "the file is not valid CSV: a cell holding commas, quotes or line breaks is quoted, its quotes doubled, as pandas' to_csv writes it"}}
	}
	if err != nil {
		return nil, []error{&trajeval.SpecError{File: path, Msg: "cannot read: " + err.Error()}}
	}
	if len(root.Items) == 0 {
		return nil, []error{&trajeval.SpecError{File: path, Line: 1, Col: 1, Msg: "the dataset has a header row and no rows", Hint: "add a row per case"}}
	}
	return load(path, root, opts)
}
