package report

import (
	"bytes"
	"encoding/json"

	"github.com/trajeval/trajeval/internal/trajeval"
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
