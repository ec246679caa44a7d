package serve

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// partialSuccess reads the partial_success of an OTLP
// ExportLogsServiceResponse, protobuf or JSON: how many records the
// endpoint rejected, and why. ok is false when answer is not such a
// response; an empty answer is one, with nothing rejected.
//
// In protobuf, the response's field 1 is an ExportLogsPartialSuccess
// whose fields are rejected_log_records (1, int64) and error_message
// (2, string); the last of a repeated field wins, as in any protobuf
// decoder. In JSON, keys are lowerCamelCase or as in the .proto file,
// and an int64 is a number or a string of one.
func partialSuccess(answer []byte, asJSON bool) (rejected int64, msg string, ok bool) {
	if asJSON {
		return partialSuccessJSON(answer)
	}
	ok = readFields(answer, func(f wireField) {
		if f.num != 1 || f.typ != wireBytes {
			return
		}
		ok := readFields(f.data, func(f wireField) {
			switch {
			case f.num == 1 && f.typ == wireVarint:
				rejected = int64(f.v)
			case f.num == 2 && f.typ == wireBytes:
				msg = string(f.data)
			}
		})
		if !ok {
			rejected, msg = 0, ""
		}
	})
	if !ok || !utf8.ValidString(msg) {
		return 0, "", false
	}
	return rejected, msg, true
}

func partialSuccessJSON(answer []byte) (int64, string, bool) {
	type partial struct {
		Rejected  json.RawMessage `json:"rejectedLogRecords"`
		Rejected2 json.RawMessage `json:"rejected_log_records"`
		Message   *string         `json:"errorMessage"`
		Message2  *string         `json:"error_message"`
	}
	var r struct {
		Partial  *partial `json:"partialSuccess"`
		Partial2 *partial `json:"partial_success"`
	}
	if len(answer) == 0 {
		return 0, "", true
	}
	if json.Unmarshal(answer, &r) != nil {
		return 0, "", false
	}
	p := r.Partial
	if p == nil {
		p = r.Partial2
	}
	if p == nil {
		return 0, "", true
	}
	var rejected int64
	raw := p.Rejected
	if raw == nil {
		raw = p.Rejected2
	}
	if raw != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil && string(raw) != "null" {
			return 0, "", false
		}
		rejected = n
	}
	msg := p.Message
	if msg == nil {
		msg = p.Message2
	}
	if msg == nil {
		return rejected, "", true
	}
	return rejected, *msg, true
}
