package report

import (
	"bytes"
	"encoding/json"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// EncodeRowStd returns the row of r as encoding/json writes it (what
// JSONL wrote before rows were encoded by hand), with its newline, and
// the characters of jsonv.Escaped escaped as every writer escapes them.
func EncodeRowStd(r trajeval.CaseResult) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(encodeRow(r))
	return jsonv.Escape(b.Bytes()), err
}

// EncodeDocStd returns the document of the json format for cases as
// encoding/json writes it (what the json writer wrote before rows were
// encoded by hand), the characters of jsonv.Escaped escaped.
func EncodeDocStd(s Summary, cases []trajeval.CaseResult) ([]byte, error) {
	var b bytes.Buffer
	j := &jsonDoc{w: &b, cases: cases}
	err := j.encodeStd(s)
	return jsonv.Escape(b.Bytes()), err
}
