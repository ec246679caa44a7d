package report

import (
	"bytes"
	"encoding/json"

	"github.com/trajeval/trajeval"
)

// EncodeRowStd returns the row of r as encoding/json writes it (what
// JSONL wrote before rows were encoded by hand), with its newline.
func EncodeRowStd(r trajeval.CaseResult) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(encodeRow(r))
	return b.Bytes(), err
}

// EncodeDocStd returns the document of the json format for cases as
// encoding/json writes it (what the json writer wrote before rows were
// encoded by hand).
func EncodeDocStd(s Summary, cases []trajeval.CaseResult) ([]byte, error) {
	var b bytes.Buffer
	j := &jsonDoc{w: &b, cases: cases}
	err := j.encodeStd(s)
	return b.Bytes(), err
}
