package report_test

import (
	"errors"
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
