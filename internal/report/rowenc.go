package report

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// appendRow appends the JSON of r as a row (see row) to b, byte for byte
// what an encoding/json Encoder with SetEscapeHTML(false) writes for
// encodeRow(r), without the newline, and without reflection. It returns
// ok false, leaving b's contents past its length undefined, when r holds
// what encoding/json refuses (a NaN or infinite number, a value of Notes
// it cannot encode): the caller then encodes r with encoding/json, whose
// error is the answer.
//
// The fields come in the order encoding/json gives them: CaseResult's in
// its order, then the row's own started_at and duration_ms, which hide
// CaseResult's.
//
// m remembers, from one row to the next, what rows repeat (see rowMemo).
func appendRow(b []byte, r *trajeval.CaseResult, m *rowMemo) ([]byte, bool) {
	e := rowEncoder{b: b, ok: true, m: m}
	e.caseResult(r)
	return e.b, e.ok
}

// appendDoc appends the document of the json format, compact, with its
// newline: what an encoding/json Encoder with SetEscapeHTML(false) writes
// for {"summary": s, "cases": rows} before it indents. ok is false as for
// appendRow.
func appendDoc(b []byte, s Summary, cases []trajeval.CaseResult) ([]byte, bool) {
	e := rowEncoder{b: append(b, `{"summary":`...), ok: true, m: new(rowMemo)}
	e.any(s)
	e.b = append(e.b, `,"cases":[`...)
	for i := range cases {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.caseResult(&cases[i])
	}
	e.b = append(e.b, "]}\n"...)
	return e.b, e.ok
}

type rowEncoder struct {
	b  []byte
	ok bool
	m  *rowMemo
}

// A rowMemo keeps what one row's writing found out for the next rows of
// a run, which repeat most of it: the suite's and the evaluators' names
// and types, the statuses and the trace's path are the same strings row
// after row, the scores of a suite are a few fractions (2/3, 8/9) that
// take strconv's shortest search, and the rows of a second share its
// stamp up to the milliseconds. Each entry is checked against the value
// it was made from, so a row is written the same with or without it.
type rowMemo struct {
	// plain holds strings found plain (see rowEncoder.str), in slots
	// picked by their length, first and last bytes. A string equal to
	// one is plain too; when it is the same string, as a suite's names
	// are, the comparison ends at its pointer.
	plain [64]string
	// floats holds the text of numbers that are not whole (scores such
	// as 2/3, which take strconv's shortest search; durations), in slots
	// picked by their bits; an empty slot's bits, 0, are a whole
	// number's, which never comes here.
	floats [64]floatText
	// sec is the Unix second whose stamp's first 20 bytes,
	// "2006-01-02T15:04:05.", are in stamp; stamp[0] is 0 when none is.
	sec   int64
	stamp [20]byte
	// results holds, for the first evaluators of a row by their place,
	// the text of a result's head (its name and type, up to its score)
	// and of its tail (status, threshold, weight, required).
	results [8][2]resultText
	// row holds the text of a row's suite and status, up to its score;
	// trace, of its trace.
	row, trace resultText
	// details writes the evaluators' details, keeping what they repeat
	// from one to the next (see trajeval.DetailsWriter): the rows of a
	// run name mostly the same few tools.
	details trajeval.DetailsWriter
}

// A resultText is the text a row wrote for some of a result's fields,
// with the values it was written from: strings compared by their text,
// numbers by their bits.
type resultText struct {
	ok     bool
	s0, s1 string
	f0, f1 uint64
	b      bool
	text   []byte
}

type floatText struct {
	bits uint64
	n    uint8
	text [24]byte // the longest float64 encoding/json writes: -1.2345678901234567e-308
}

func (e *rowEncoder) caseResult(r *trajeval.CaseResult) {
	e.b = append(e.b, `{"id":`...)
	e.strNew(r.ID) // different in every row: not kept
	if h := &e.m.row; h.ok && h.s0 == r.Suite && h.s1 == string(r.Status) {
		e.b = append(e.b, h.text...)
	} else {
		start := len(e.b)
		if r.Suite != "" {
			e.b = append(e.b, `,"suite":`...)
			e.str(r.Suite)
		}
		e.b = append(e.b, `,"status":`...)
		e.str(string(r.Status))
		e.b = append(e.b, `,"score":`...)
		*h = resultText{ok: true, s0: r.Suite, s1: string(r.Status), text: append(h.text[:0], e.b[start:]...)}
	}
	e.float(r.Score)
	if r.Error != "" {
		e.b = append(e.b, `,"error":`...)
		e.str(r.Error)
	}
	e.b = append(e.b, `,"evaluators":`...)
	e.results(r.Evaluators)
	if len(r.Warnings) > 0 {
		e.b = append(e.b, `,"warnings":`...)
		e.strs(r.Warnings)
	}
	if r.Partial {
		e.b = append(e.b, `,"partial":true`...)
	}
	if r.Attempt != 0 {
		e.b = append(e.b, `,"attempt":`...)
		e.b = strconv.AppendInt(e.b, int64(r.Attempt), 10)
	}
	if r.Judge != nil {
		e.b = append(e.b, `,"judge":`...)
		e.judge(r.Judge)
	}
	if r.Trajectory != nil {
		e.b = append(e.b, `,"trajectory":`...)
		e.marshaler(r.Trajectory)
	}
	if r.Trace != "" {
		if h := &e.m.trace; h.ok && h.s0 == r.Trace {
			e.b = append(e.b, h.text...)
		} else {
			start := len(e.b)
			e.b = append(e.b, `,"trace":`...)
			e.str(r.Trace)
			*h = resultText{ok: true, s0: r.Trace, text: append(h.text[:0], e.b[start:]...)}
		}
	}
	if len(r.TraceIDs) > 0 {
		e.b = append(e.b, `,"trace_ids":`...)
		e.strs(r.TraceIDs)
	}
	if r.Shard != "" {
		e.b = append(e.b, `,"shard":`...)
		e.str(r.Shard)
	}
	if !r.StartedAt.IsZero() {
		e.b = append(e.b, `,"started_at":"`...)
		e.b = e.m.appendStamp(e.b, r.StartedAt.UTC())
		e.b = append(e.b, `","duration_ms":`...)
		e.float(r.DurationMS)
	}
	e.b = append(e.b, '}')
}

// results writes a list of results; nil is null.
func (e *rowEncoder) results(rs []trajeval.Result) {
	if rs == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i := range rs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.result(i, &rs[i])
	}
	e.b = append(e.b, ']')
}

func (e *rowEncoder) result(i int, r *trajeval.Result) {
	// The evaluator at a place in a row has the same name and type row
	// after row, and mostly the same status, threshold, weight and
	// requirement: their text is kept by place (see resultText).
	var head, tail *resultText
	if i < len(e.m.results) {
		head, tail = &e.m.results[i][0], &e.m.results[i][1]
	}
	if head != nil && head.ok && head.s0 == r.Name && head.s1 == r.Type {
		e.b = append(e.b, head.text...)
	} else {
		start := len(e.b)
		e.b = append(e.b, `{"name":`...)
		e.str(r.Name)
		e.b = append(e.b, `,"type":`...)
		e.str(r.Type)
		e.b = append(e.b, `,"score":`...)
		if head != nil {
			*head = resultText{ok: true, s0: r.Name, s1: r.Type, text: append(head.text[:0], e.b[start:]...)}
		}
	}
	e.float(r.Score)
	if tail != nil && tail.ok && tail.s0 == string(r.Status) && tail.f0 == math.Float64bits(r.Threshold) &&
		tail.f1 == math.Float64bits(r.Weight) && tail.b == r.Required {
		e.b = append(e.b, tail.text...)
	} else {
		start := len(e.b)
		e.b = append(e.b, `,"status":`...)
		e.str(string(r.Status))
		e.b = append(e.b, `,"threshold":`...)
		e.float(r.Threshold)
		e.b = append(e.b, `,"weight":`...)
		e.float(r.Weight)
		e.b = append(e.b, `,"required":`...)
		e.b = strconv.AppendBool(e.b, r.Required)
		if tail != nil {
			// Kept only when written: a figure refused (NaN) has no text.
			*tail = resultText{ok: e.ok, s0: string(r.Status), f0: math.Float64bits(r.Threshold),
				f1: math.Float64bits(r.Weight), b: r.Required, text: append(tail.text[:0], e.b[start:]...)}
		}
	}
	if r.Error != "" {
		e.b = append(e.b, `,"error":`...)
		e.str(r.Error)
	}
	if r.Details != nil {
		e.b = append(e.b, `,"details":`...)
		e.details(r.Details)
	}
	if len(r.Members) > 0 {
		e.b = append(e.b, `,"members":`...)
		e.results(r.Members)
	}
	if r.Turn != 0 {
		e.b = append(e.b, `,"turn":`...)
		e.b = strconv.AppendInt(e.b, int64(r.Turn), 10)
	}
	if r.Judge != nil {
		e.b = append(e.b, `,"judge":`...)
		e.judge(r.Judge)
	}
	e.b = append(e.b, '}')
}

// details writes d as an Encoder with SetEscapeHTML(false) does.
func (e *rowEncoder) details(d *trajeval.Details) {
	var err error
	if e.b, err = e.m.details.Append(e.b, d); err != nil {
		e.ok = false
	}
}

func (e *rowEncoder) judge(u *trajeval.JudgeUsage) {
	e.b = append(e.b, `{"calls":`...)
	e.b = strconv.AppendInt(e.b, int64(u.Calls), 10)
	e.b = append(e.b, `,"cached":`...)
	e.b = strconv.AppendInt(e.b, int64(u.Cached), 10)
	e.b = append(e.b, `,"input_tokens":`...)
	e.b = strconv.AppendInt(e.b, u.InputTokens, 10)
	e.b = append(e.b, `,"output_tokens":`...)
	e.b = strconv.AppendInt(e.b, u.OutputTokens, 10)
	if u.CostUSD != nil {
		e.b = append(e.b, `,"cost_usd":`...)
		e.float(*u.CostUSD)
	}
	e.b = append(e.b, '}')
}

// strs writes a list of strings; nil is null.
func (e *rowEncoder) strs(ss []string) {
	if ss == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, s := range ss {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(s)
	}
	e.b = append(e.b, ']')
}

// marshaler writes what a json.Marshaler gives, compacted, as
// encoding/json does. The one marshaler is a trajectory's, whose JSON
// already escapes what jsonv.Escaped names.
func (e *rowEncoder) marshaler(m json.Marshaler) {
	data, err := m.MarshalJSON()
	if err != nil {
		e.ok = false
		return
	}
	e.compact(data)
}

func (e *rowEncoder) compact(data []byte) {
	buf := bytes.NewBuffer(e.b) // Compact appends only on success
	if json.Compact(buf, data) != nil {
		e.ok = false
		return
	}
	e.b = buf.Bytes()
}

// any writes v with encoding/json, HTML left unescaped.
func (e *rowEncoder) any(v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		e.ok = false
		return
	}
	e.b = jsonv.AppendEscaped(e.b, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
}

// float writes f as encoding/json does: like ES6, %f between 1e-6 and
// 1e21, exponents unpadded. NaN and infinities are refused.
func (e *rowEncoder) float(f float64) {
	// Whole numbers (scores of 0 and 1, thresholds, weights) are most of
	// a row's numbers, and encoding/json writes them as integers: so
	// does this, without formatting a float. -0 keeps its sign.
	// The test of a whole number is a conversion there and back, where
	// math.Trunc is a call: what is not whole, out of range or not a
	// number does not come back the same.
	if i := int64(f); float64(i) == f && i >= -1e15 && i <= 1e15 && (i != 0 || !math.Signbit(f)) {
		e.b = jsonv.AppendInt(e.b, i)
		return
	}
	bits := math.Float64bits(f)
	slot := &e.m.floats[bits*0x9e3779b97f4a7c15>>58]
	if slot.bits == bits {
		e.b = append(e.b, slot.text[:slot.n]...)
		return
	}
	start := len(e.b)
	var ok bool
	if e.b, ok = appendDecimal(e.b, f); !ok {
		if e.b, ok = jsonv.AppendFloat(e.b, f); !ok {
			e.ok = false
			return
		}
	}
	if text := e.b[start:]; len(text) <= len(slot.text) {
		slot.bits, slot.n = bits, uint8(copy(slot.text[:], text))
	}
}

// pow10 holds 10⁰ to 10⁶, each exact in a float64.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}

// appendDecimal appends f, not a whole number, as encoding/json does when
// f is the float64 nearest to a decimal k/10ᵈ of at most six places below
// 10⁹ (a duration in milliseconds to the nanosecond, a score of 0.75),
// and reports whether it did; otherwise b is unchanged. Such a decimal has
// at most fifteen significant digits, and distinct decimals of fifteen
// digits are distinct float64s: no shorter decimal reads back as f, so
// the decimal's own digits, without trailing zeros, are the shortest that
// strconv finds the long way, and %f writes them as they are.
//
// k/10ᵈ is tried for d = 1 to 6, k the nearest integer to |f|·10ᵈ; the
// test is exact, the division of two exact float64s being rounded once.
// The first d that holds has no trailing zero in k.
func appendDecimal(b []byte, f float64) ([]byte, bool) {
	a := math.Abs(f)
	if !(a >= 1e-6 && a < 1e9) {
		return b, false
	}
	for d := 1; d < len(pow10); d++ {
		k := math.Floor(a*pow10[d] + 0.5)
		if k/pow10[d] != a {
			continue
		}
		n, unit := uint64(k), uint64(pow10[d])
		if n%10 == 0 {
			return b, false // not reached: d-1 would have held
		}
		if f < 0 {
			b = append(b, '-')
		}
		b = jsonv.AppendInt(b, int64(n/unit))
		b = append(b, '.')
		frac := n % unit
		for unit /= 10; unit > frac && unit > 1; unit /= 10 {
			b = append(b, '0')
		}
		return strconv.AppendUint(b, frac, 10), true
	}
	return b, false
}

// str writes s as encoding/json does with SetEscapeHTML(false): control
// characters, quote and backslash escaped, invalid UTF-8 as \ufffd, U+2028
// and U+2029 escaped; and C1 and bidi characters escaped (jsonv.Escaped).
func (e *rowEncoder) str(s string) {
	// A row's strings are mostly plain, and all but its id are the same
	// from row to row (see rowMemo).
	if s == "" {
		e.b = append(e.b, `""`...)
		return
	}
	slot := &e.m.plain[(31*len(s)+7*int(s[0])+int(s[len(s)-1]))%len(e.m.plain)]
	if *slot == s {
		e.b = append(e.b, '"')
		e.b = append(e.b, s...)
		e.b = append(e.b, '"')
		return
	}
	if e.strNew(s) {
		*slot = s
	}
}

// strNew is str for a string not in the memo, such as a row's id: a short
// one is checked byte by byte against a table, which costs half of the
// general writer's word-at-a-time scan at these lengths. It reports
// whether s was plain, written as it is: every escape is longer than what
// it stands for.
func (e *rowEncoder) strNew(s string) bool {
	if len(s) <= 32 {
		i := 0
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i == len(s) {
			e.b = append(e.b, '"')
			e.b = append(e.b, s...)
			e.b = append(e.b, '"')
			return true
		}
	}
	n := len(e.b)
	e.b = jsonv.AppendString(e.b, s, false)
	return len(e.b)-n == len(s)+2
}

// plain tells the bytes an Encoder with SetEscapeHTML(false) writes as
// they are in a string: ASCII but for control characters, quote and
// backslash; and but for #, written as it is but for the first of ##[
// (see jsonv.AppendString).
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\' && c != '#'
	}
	return t
}()

// appendStamp is the package's appendStamp, the first 20 bytes from the
// memo when t is in the second of the stamp before.
func (m *rowMemo) appendStamp(b []byte, t time.Time) []byte {
	sec := t.Unix()
	if m.stamp[0] == 0 || sec != m.sec {
		start := len(b)
		b = appendStamp(b, t)
		if stamp := b[start:]; len(stamp) == len(m.stamp)+4 {
			m.sec = sec
			copy(m.stamp[:], stamp)
		}
		return b
	}
	b = append(b, m.stamp[:]...)
	b = appendDigits(b, t.Nanosecond()/1e6, 3)
	return append(b, 'Z')
}

// appendStamp appends t, in UTC, as timeLayout writes it (milliseconds
// truncated, as Format does), without Format's parsing of the layout:
// every row has one.
func appendStamp(b []byte, t time.Time) []byte {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, timeLayout)
	}
	hour, min, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, min, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, t.Nanosecond()/1e6, 3)
	return append(b, 'Z')
}

// appendDigits appends n ≥ 0 in width decimal digits, zero-padded.
func appendDigits(b []byte, n, width int) []byte {
	var d [4]byte
	for i := width - 1; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, d[:width]...)
}
