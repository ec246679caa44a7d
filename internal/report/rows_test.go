package report_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/report"
)

func TestReadRows_depth(t *testing.T) {
	row := `{"id":"a","status":"pass","score":1,"evaluators":[]}`
	deep := `{"id":"b","status":"pass","x":` + strings.Repeat("[", 100000) + "\n"
	_, _, err := report.ReadRows(strings.NewReader(row+"\n"+deep), "results.jsonl")
	if !errors.Is(err, jsonv.ErrTooDeep) || !strings.HasPrefix(err.Error(), "results.jsonl:2:158: JSON nested deeper than 128") {
		t.Fatalf("ReadRows = %v, want the depth at results.jsonl:2:158: a results file is refused before any decoder recurses", err)
	}
}

func TestReadRows_bom(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	row := `{"id":"a","status":"pass","score":1,"evaluators":[]}`
	tests := []struct {
		name, data string
		rows       int
		err        string // the error's start, "" for none
		reason     string
	}{
		{"mark", bom + row + "\n" + row + "\n", 2, "", "as PowerShell and Python's utf-8-sig write a file"},
		{"mark alone", bom, 0, "", "a file of a mark holds no row"},
		{"mark, then damage", bom + `{"id":,"status":"pass"}`, 0, "results.jsonl:1:7: invalid JSON", "a column on line 1 counts from the byte after the mark"},
		{"mark on line 2", row + "\n" + bom + row, 1, "results.jsonl:2:1: invalid JSON", "only a mark at the start is dropped"},
		{"two marks", bom + bom + row, 0, "results.jsonl:1:1: invalid JSON", "one mark is dropped, once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, _, err := report.ReadRows(strings.NewReader(tt.data), "results.jsonl")
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("ReadRows: %v (%s)", err, tt.reason)
			case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
				t.Fatalf("ReadRows error = %v, want it to start %q (%s)", err, tt.err, tt.reason)
			}
			if len(rows) != tt.rows {
				t.Errorf("ReadRows read %d rows, want %d (%s)", len(rows), tt.rows, tt.reason)
			}
		})
	}
}

// FuzzReadRows_bom checks that a byte order mark before any results file
// changes nothing ReadRows reads: the same rows, warnings and error, its
// place included.
func FuzzReadRows_bom(f *testing.F) {
	row := `{"id":"a","status":"pass","score":1,"evaluators":[]}`
	for _, s := range []string{row, row + "\n" + row, `{"id":,}`, "\n\n" + row, `{"id":"b","status":"fail","trajectory":5}`,
		row + "\n\xef\xbb\xbf" + row, `{"id":"a","status":"pass","x":` + strings.Repeat("[", 200), "", "\xef\xbb"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			return // a second mark is no mark
		}
		rows, warns, err := report.ReadRows(bytes.NewReader(data), "r.jsonl")
		marked, mwarns, merr := report.ReadRows(bytes.NewReader(append([]byte("\xef\xbb\xbf"), data...)), "r.jsonl")
		if fmt.Sprint(err) != fmt.Sprint(merr) {
			t.Fatalf("error %v, with a mark %v", err, merr)
		}
		if len(rows) != len(marked) || fmt.Sprint(warns) != fmt.Sprint(mwarns) {
			t.Fatalf("%d rows, warnings %q; with a mark %d rows, warnings %q", len(rows), warns, len(marked), mwarns)
		}
	})
}
