// Package jsonv is the JSON data model every argument, result and expected
// value lives in: nil, bool, string, json.Number, []any and map[string]any.
//
// Numbers stay exact: they are compared by decimal value, so 1 = 1.0 = 1e0
// and 9007199254740993 ≠ 9007199254740992.
package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// parsers holds Parsers for FastDecode: a Parser's caches of names and
// short values are worth keeping from one value to the next.
var parsers = sync.Pool{New: func() any { return new(Parser) }}

// FastDecode reads the one JSON value of b with a Parser, for a caller
// that falls back to encoding/json itself: ok false for whatever the
// Parser refuses (see Parser), or data after the value.
func FastDecode(b []byte) (v any, ok bool) {
	p := parsers.Get().(*Parser)
	p.Reset(b)
	v, ok = p.Value()
	ok = ok && p.End()
	p.Reset(nil) // keep no input alive
	parsers.Put(p)
	if !ok {
		return nil, false
	}
	return v, true
}

// Valid reports whether b is one JSON value, white space around it
// allowed, as json.Valid does. A Parser checks b first, a word of a string
// at a time and with nothing allocated; only what it refuses (invalid
// UTF-8, a lone surrogate, deep nesting, or not JSON at all) is checked by
// json.Valid, whose answer it then is.
func Valid(b []byte) bool {
	p := parsers.Get().(*Parser)
	p.Reset(b)
	ok := p.Skip() && p.End()
	p.Reset(nil) // keep no input alive
	parsers.Put(p)
	return ok || json.Valid(b)
}

// Decode reads one JSON value from b with exact numbers. JSON nested
// deeper than MaxDepth is a *DepthError, found before encoding/json reads
// it.
//
// A Parser reads b first: what it reads is what encoding/json gives, and
// it bounds depth itself. Only what it refuses is checked for depth and
// decoded by encoding/json, whose value or error is then the answer.
func Decode(b []byte) (any, error) {
	if v, ok := FastDecode(b); ok {
		return v, nil
	}
	if err := CheckDepth(b); err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// Normalize converts a value decoded by another decoder (YAML, a Go
// literal) into the JSON data model: integers and floats become json.Number,
// maps with string keys become map[string]any. It returns an error for what
// JSON cannot hold (a map with non-string keys, a NaN).
func Normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		return x, nil
	case int:
		return json.Number(strconv.FormatInt(int64(x), 10)), nil
	case int8, int16, int32, int64:
		return json.Number(fmt.Sprint(x)), nil
	case uint, uint8, uint16, uint32, uint64:
		return json.Number(fmt.Sprint(x)), nil
	case float32:
		return floatNumber(float64(x))
	case float64:
		return floatNumber(x)
	case *big.Int:
		return json.Number(x.String()), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", k)
			}
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[ks] = n
		}
		return out, nil
	}
	return nil, fmt.Errorf("%T is not a JSON value", v)
}

func floatNumber(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v is not a JSON number", f)
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

// Kind names the JSON type of v: null, boolean, number, string, array or
// object.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, int, int64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// IsInteger reports whether the number n has no fractional part (1.0 is an
// integer, as JSON Schema says).
func IsInteger(n json.Number) bool {
	d, ok := parseDecimal(string(n))
	return ok && d.exp >= 0
}

// Equal reports whether a and b are the same JSON value: numbers by value,
// strings, bools and null exactly, arrays element by element, objects by
// key set and value.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && CompareNumbers(x, y) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// decimal is a number as digits × 10^exp, digits without leading or
// trailing zeros ("" for zero).
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// parseDecimal reads a JSON number (or any decimal with an optional
// exponent) exactly, without ever allocating more than the text.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if s == "" {
		return d, false
	}
	if s[0] == '-' || s[0] == '+' {
		d.neg = s[0] == '-'
		s = s[1:]
	}
	mant, expPart, hasExp := strings.Cut(strings.ToLower(s), "e")
	var exp int64
	if hasExp {
		e, err := strconv.ParseInt(expPart, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return d, false
		}
		// A huge exponent saturates, so that adding the digit counts below
		// cannot overflow; such numbers still order right against ordinary ones.
		const maxExp = math.MaxInt64 / 4
		exp = max(-maxExp, min(maxExp, e))
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" {
		return d, false
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return d, false
		}
	}
	digits := intPart + frac
	exp -= int64(len(frac))
	digits = strings.TrimLeft(digits, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	d.digits = trimmed
	if d.digits == "" {
		d.neg, d.exp = false, 0
		return d, true
	}
	d.exp = exp
	return d, true
}

// CompareNumbers compares two JSON numbers exactly by value and returns -1,
// 0 or +1. Text that is not a number orders before every number.
func CompareNumbers(a, b json.Number) int {
	if a == b {
		return 0
	}
	if x, err := strconv.ParseInt(string(a), 10, 64); err == nil {
		if y, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return cmpInt(x, y)
		}
	}
	da, oka := parseDecimal(string(a))
	db, okb := parseDecimal(string(b))
	switch {
	case !oka && !okb:
		return strings.Compare(string(a), string(b))
	case !oka:
		return -1
	case !okb:
		return 1
	}
	sa, sb := sign(da), sign(db)
	if sa != sb {
		return cmpInt(int64(sa), int64(sb))
	}
	if sa == 0 {
		return 0
	}
	c := cmpMagnitude(da, db)
	if sa < 0 {
		return -c
	}
	return c
}

func sign(d decimal) int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

func cmpMagnitude(a, b decimal) int {
	// The most significant digit sits at 10^(len(digits)+exp-1).
	ma, mb := int64(len(a.digits))+a.exp, int64(len(b.digits))+b.exp
	if ma != mb {
		return cmpInt(ma, mb)
	}
	n := max(len(a.digits), len(b.digits))
	for i := range n {
		ca, cb := byte('0'), byte('0')
		if i < len(a.digits) {
			ca = a.digits[i]
		}
		if i < len(b.digits) {
			cb = b.digits[i]
		}
		if ca != cb {
			return cmpInt(int64(ca), int64(cb))
		}
	}
	return 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Float returns n as the nearest float64.
func Float(n json.Number) (float64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// Number returns v as a float64 when it is a JSON number.
func Number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	return Float(n)
}

// Marshal renders v as compact JSON with sorted keys; it never fails
// for values of the data model. Strings are not HTML-escaped: <, > and &
// stay as they are, for people to read.
func Marshal(v any) string {
	var b strings.Builder
	write(&b, v)
	return b.String()
}

func write(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(string(x))
	case string:
		writeString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			write(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			write(b, x[k])
		}
		b.WriteByte('}')
	default:
		q, err := json.Marshal(x)
		if err != nil {
			fmt.Fprintf(b, "%q", fmt.Sprint(x))
			return
		}
		b.Write(q)
	}
}

// ParseMaybeJSON returns s decoded when it holds a JSON object or array
// (arguments that arrive as a JSON string), else s itself and false.
func ParseMaybeJSON(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return s, false
	}
	v, err := Decode([]byte(t))
	if err != nil {
		return s, false
	}
	return v, true
}

// writeString writes s as a JSON string, <, > and & left as they are,
// byte for byte as encoding/json writes it. A string of printable ASCII
// but quote and backslash (a key, a name, most values) is written as it
// stands; any other goes through encoding/json, whose escapes (not
// AppendString's: it leaves the C1 controls and bidi characters as they
// are) an explanation shows.
func writeString(b *strings.Builder, s string) {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// Composite returns the one JSON value of b, without the white space
// around it, when it is an object or an array that a Parser reads (the
// rules of Value, depth included; see Parser), so that it decodes with
// Decode to the value FastDecode reads from b; ok false for anything else
// (another value, text a Parser refuses, data after the value). The
// value shares b's memory.
func Composite(b []byte) (json.RawMessage, bool) {
	p := parsers.Get().(*Parser)
	p.Reset(b)
	var start, end int
	ok := false
	if c := p.Peek(); c == '{' || c == '[' {
		start, end, ok = p.Span()
		ok = ok && p.End()
	}
	p.Reset(nil) // keep no input alive
	parsers.Put(p)
	if !ok {
		return nil, false
	}
	return json.RawMessage(b[start:end:end]), true
}
