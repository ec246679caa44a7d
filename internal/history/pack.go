package history

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/trajeval/trajeval"
)

// A case recorded from schema version 5 on holds its evaluators' results
// packed, in the column evals of its row of cases (in its row in a pack
// from version 8, casepack.go):
//
//	version byte (2), count (uvarint), then per evaluator in order:
//	name, type, status, score, threshold, weight, error, members, judge
//	(each a string: uvarint length and bytes; a number as the 8 bytes
//	of its float64, little-endian; members and judge as JSON, "" when
//	absent), required (a byte, 0 or 1) and turn (varint).
//
// Version 1, written before schema version 8, held each number as a
// string, its shortest decimal text (which parses back to the same
// float64): formatting three numbers an evaluator was a third of the
// time recording a passing case took once cases went into packs.
//
// The evaluators' details, when kept, are in the column details: the JSON
// array, compressed (see squeeze), of each evaluator's details (null for none), in order.
// Cases recorded before schema version 5 have neither column, and a row of
// evaluators per evaluator.
const (
	packVersion     = 2
	packVersionText = 1 // numbers as their decimal text
)

// errPacked is a packed column that does not read back.
var errPacked = errors.New("damaged packed evaluators")

// appendPacked appends the packed form of evals to b. Each result is
// read where it stands (not copied: a result is 144 bytes), and a field
// written by the appends of casepack.go.
func appendPacked(b []byte, evals []trajeval.Result) ([]byte, error) {
	b = append(b, packVersion)
	b = binary.AppendUvarint(b, uint64(len(evals)))
	le := binary.LittleEndian
	for i := range evals {
		e := &evals[i]
		if !finite(e.Score) || !finite(e.Threshold) || !finite(e.Weight) {
			for _, f := range [...]float64{e.Score, e.Threshold, e.Weight} {
				if !finite(f) {
					return nil, fmt.Errorf("evaluator %s: the number %v cannot be stored", e.Name, f)
				}
			}
		}
		var members, judge []byte
		var err error
		if len(e.Members) > 0 {
			if members, err = json.Marshal(e.Members); err != nil {
				return nil, fmt.Errorf("evaluator %s: members: %w", e.Name, err)
			}
		}
		if e.Judge != nil {
			if judge, err = json.Marshal(e.Judge); err != nil {
				return nil, fmt.Errorf("evaluator %s: judge: %w", e.Name, err)
			}
		}
		b = appendCaseString(b, e.Name)
		b = appendCaseString(b, e.Type)
		b = appendCaseString(b, string(e.Status))
		b = le.AppendUint64(b, math.Float64bits(e.Score))
		b = le.AppendUint64(b, math.Float64bits(e.Threshold))
		b = le.AppendUint64(b, math.Float64bits(e.Weight))
		b = appendCaseString(b, e.Error)
		b = appendCaseString(b, members)
		b = appendCaseString(b, judge)
		b = append(b, byte(bool01(e.Required)))
		b = binary.AppendVarint(b, int64(e.Turn))
	}
	return b, nil
}

// finite reports whether f is neither NaN nor infinite: a number the
// packed form stores.
func finite(f float64) bool { return f-f == 0 }

// unpack reads the evaluators' results that appendPacked wrote.
func unpack(b []byte) ([]trajeval.Result, error) {
	if len(b) == 0 || b[0] != packVersion && b[0] != packVersionText {
		return nil, fmt.Errorf("%w: unknown version", errPacked)
	}
	text := b[0] == packVersionText
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) { // every evaluator takes bytes
		return nil, fmt.Errorf("%w: count", errPacked)
	}
	b = b[k:]
	var bad error
	str := func() string {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			bad = errPacked
			b = nil
			return ""
		}
		s := string(b[k : k+int(l)])
		b = b[k+int(l):]
		return s
	}
	num := func() float64 {
		var f float64
		var err error
		switch {
		case text:
			f, err = strconv.ParseFloat(str(), 64)
		case len(b) < 8:
			err, b = errPacked, nil
		default:
			f, b = math.Float64frombits(binary.LittleEndian.Uint64(b)), b[8:]
		}
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			bad = errPacked
		}
		return f
	}
	out := make([]trajeval.Result, n)
	for i := range out {
		e := &out[i]
		e.Name, e.Type, e.Status = str(), str(), trajeval.Status(str())
		e.Score, e.Threshold, e.Weight = num(), num(), num()
		e.Error = str()
		if m := str(); m != "" {
			if err := json.Unmarshal([]byte(m), &e.Members); err != nil {
				return nil, fmt.Errorf("%w: evaluator %s: members: %v", errPacked, e.Name, err)
			}
		}
		if j := str(); j != "" {
			if err := json.Unmarshal([]byte(j), &e.Judge); err != nil {
				return nil, fmt.Errorf("%w: evaluator %s: judge: %v", errPacked, e.Name, err)
			}
		}
		if bad != nil || len(b) == 0 || b[0] > 1 {
			return nil, fmt.Errorf("%w: evaluator %d", errPacked, i+1)
		}
		e.Required = b[0] == 1
		turn, k := binary.Varint(b[1:])
		if k <= 0 || turn < math.MinInt32 || turn > math.MaxInt32 {
			return nil, fmt.Errorf("%w: evaluator %d: turn", errPacked, i+1)
		}
		e.Turn = int(turn)
		b = b[1+k:]
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last evaluator", errPacked, len(b))
	}
	return out, nil
}

// detailsJSON returns the JSON array of evals' details; nil when none
// has details.
func detailsJSON(evals []trajeval.Result) ([]byte, error) {
	buf := getScratch()
	defer putScratch(buf)
	data, some, err := appendDetailsOf((*buf)[:0], evals)
	*buf = data
	if err != nil || !some {
		return nil, err
	}
	return bytes.Clone(data), nil
}

// packDetails returns, compressed alone, the JSON array of evals'
// details, as schema version 5 stored them; nil when none has details.
func packDetails(evals []trajeval.Result) ([]byte, error) {
	data, err := detailsJSON(evals)
	if data == nil {
		return nil, err
	}
	return squeeze(data), nil
}

// unpackDetails sets the details of evals from what packDetails wrote.
func unpackDetails(blob []byte, evals []trajeval.Result) error {
	data, err := unsqueeze(blob)
	if err != nil {
		return fmt.Errorf("%w: details: %v", errPacked, err)
	}
	return setDetails(data, evals)
}

// setDetails sets the details of evals from their JSON array, or from
// their compact encoding read back through that JSON (see readDetails).
func setDetails(data []byte, evals []trajeval.Result) error {
	data, err := readDetails(data)
	if err != nil {
		return err
	}
	var ds []*trajeval.Details
	if err := json.Unmarshal(data, &ds); err != nil {
		return fmt.Errorf("%w: details: %v", errPacked, err)
	}
	if len(ds) != len(evals) {
		return fmt.Errorf("%w: details of %d evaluators, for %d", errPacked, len(ds), len(evals))
	}
	for i := range evals {
		evals[i].Details = ds[i]
	}
	return nil
}
