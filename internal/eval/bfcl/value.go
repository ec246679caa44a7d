package bfcl

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/pylit"
)

// pyType is the Python type a JSON value decodes to.
type pyType int

const (
	tNone pyType = iota
	tBool
	tStr
	tInt
	tFloat
	tList
	tDict
	tTuple
	tSet
	tOther
)

var pyNames = [...]string{"NoneType", "bool", "str", "int", "float", "list", "dict", "tuple", "set", "object"}

func (t pyType) String() string { return pyNames[t] }

// typeOf returns the Python type of a JSON value: a number with a point or
// an exponent is a float, as json.loads reads it.
func typeOf(v any) pyType {
	switch x := v.(type) {
	case nil:
		return tNone
	case bool:
		return tBool
	case string:
		return tStr
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return tFloat
		}
		return tInt
	case float64, float32:
		return tFloat
	case int, int64, int32:
		return tInt
	case []any:
		return tList
	case map[string]any:
		return tDict
	case pylit.Tuple:
		return tTuple
	}
	return tOther
}

// number returns the value of a number or boolean (Python's True is 1)
// as Python holds it after json.loads: an integer exactly, whatever its
// size; a float as its float64, so 0.0600000000000000001 is 0.06 and
// 1e400 is infinity. Python compares an int with a float exactly, and so
// does big.Float. NaN is no number here: it equals nothing, as in Python.
func number(v any) (*big.Float, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return big.NewFloat(1), true
		}
		return new(big.Float), true
	case json.Number:
		if typeOf(x) == tFloat {
			// A number too large for a float64 is ±Inf, with ErrRange, as
			// Python reads it; a malformed one is no number.
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, false
			}
			return new(big.Float).SetFloat64(f), true
		}
		i, ok := new(big.Int).SetString(string(x), 10)
		if !ok {
			return nil, false
		}
		return new(big.Float).SetInt(i), true
	case float64:
		if math.IsNaN(x) {
			return nil, false
		}
		return new(big.Float).SetFloat64(x), true
	case float32:
		if math.IsNaN(float64(x)) {
			return nil, false
		}
		return new(big.Float).SetFloat64(float64(x)), true
	}
	if n, err := jsonv.Normalize(v); err == nil {
		if num, ok := n.(json.Number); ok {
			return number(num)
		}
	}
	return nil, false
}

// pyEqual is Python's == on decoded JSON values: numbers and booleans by
// value (True == 1 == 1.0), lists element by element, dicts by key.
func pyEqual(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x.Cmp(y) == 0
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		return ok && pyEqualSeq(x, y)
	case pylit.Tuple:
		// A tuple never equals a list in Python.
		y, ok := b.(pylit.Tuple)
		return ok && pyEqualSeq(x, y)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !pyEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

func pyEqualSeq(x, y []any) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !pyEqual(x[i], y[i]) {
			return false
		}
	}
	return true
}

// pyIn is Python's "v in list".
func pyIn(v any, list []any) bool {
	for _, x := range list {
		if pyEqual(v, x) {
			return true
		}
	}
	return false
}

// Normalize is BFCL's string normalisation: spaces and , . / - _ * ^
// removed, lower-cased, single quotes made double, so that "April 1,
// 2024" and "april 1 2024" compare equal.
func Normalize(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(" ,./-_*^", r) {
			return -1
		}
		return r
	}, s)
	return strings.ReplaceAll(pyLower(s), "'", `"`)
}

// normalizeIfString normalises a string and leaves other values alone.
func normalizeIfString(v any) any {
	if s, ok := v.(string); ok {
		return Normalize(s)
	}
	return v
}

// asSequence is what Python's range(len(x)) indexing gives for an
// allowed entry: a list's elements, a string's characters ("" is empty).
func asSequence(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case string:
		out := make([]any, 0, len(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, true
	}
	return nil, false
}

// show renders a value for messages, as JSON, a tuple in parentheses.
func show(v any) string {
	if !pylit.HasTuple(v) {
		return jsonv.Marshal(v)
	}
	var b strings.Builder
	writeShown(&b, v)
	return b.String()
}

func writeShown(b *strings.Builder, v any) {
	switch x := v.(type) {
	case pylit.Tuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeShown(b, e)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeShown(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonv.Marshal(k))
			b.WriteByte(':')
			writeShown(b, x[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString(jsonv.Marshal(v))
	}
}

// showList renders allowed values.
func showList(vs []any) string { return show(vs) }

func quote(s string) string { return fmt.Sprintf("'%s'", s) }
