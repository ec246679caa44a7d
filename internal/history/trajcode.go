package history

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// From schema version 9 a kept trajectory is stored in a chunk as a
// compact encoding of its fields, not as its canonical JSON: writing the
// JSON (escaping each string, formatting each figure and time, sorting
// each object's keys) was the largest cost of recording a failing case.
// Reading one back turns it into the trajectory, then into its canonical
// JSON, and reads that as before: what every command shows is what the
// canonical JSON gave.
//
// The encoding is the byte 'T', then the trajectory's fields in the
// order of its JSON form:
//
//	id (a string: uvarint length, then its bytes, as written); the turns
//	(a count, then each turn's number as a varint and its user message and
//	final response, each a byte 0 when unknown or 1 and a string); the
//	steps (a count, then each step's index and turn as varints, id, name,
//	arguments and result as values, error as a byte (0 unknown, 1 false,
//	2 true), error message, duration, start, end, parallel group as a
//	varint, agent); the metrics (duration and cost, then the input, output
//	and total tokens and the model calls); the agents (a count, then each
//	one's name and parent); and a byte for partial.
//
// A figure is a byte 0 when unknown, else 1 and the 8 bytes of its
// float64 (little-endian); a count of tokens or calls a byte 0, or 1 and
// a varint; a time a byte 0 when zero, else 1, its seconds since 1970
// (varint) and nanoseconds (uvarint), the JSON writing it in UTC. A
// value of the arguments or a result is a tag byte: null, false, true, a
// string, a number (json.Number, its text as a string), a float64 (8
// bytes), an array (a count, then its values) or an object (a count, then
// each key as a string and its value; keys in order).
//
// From schema version 11 the byte is 'U', and a step is written in fewer
// bytes (S2, which compresses the chunks, costs about seven instructions
// a byte): first a byte of its head (its error in the two bits below,
// 0 unknown, 1 false, 2 true; then stepNext, stepSameTurn,
// stepErrorMessage, stepGroup and stepAgent, see below), its index and
// turn only when they are not the previous step's index plus one and
// its turn (0 and 0 before the first), id, name, arguments, result, its
// error message only when it has one, start and end written by their
// differences (see tick: the times of a trajectory are close together,
// so a difference takes a byte or two where seconds and nanoseconds took
// eleven), duration by its difference from end less start (see
// duration), parallel group and agent only when they are set. The
// trajectory's duration is written as a step's against 0. A 'T' written
// before reads back as it did.
//
// From schema version 12 an argument or result a reader kept as JSON text
// (a *json.RawMessage, or a json.RawMessage put there by hand: one text,
// see trajeval.KeptText) is stored as that text: the tag tagText, its
// length (uvarint) and its bytes as they stand, not scanned again (the
// reader checked them; scanning each text to write its values took half
// of what recording a failing case cost). Only text that begins with '{'
// or '[' and ends with '}' or ']', as kept text does, is stored so; any
// other goes as before (see trajtext.go), a nil *json.RawMessage as null.
// Reading checks the text (one JSON object or array, nested no deeper
// than jsonv.MaxDepth) and gives it back as a json.RawMessage, which the
// canonical JSON writes as it writes the value the text holds: what every
// command shows is the same.
//
// A trajectory the encoding does not carry exactly (a value of another
// type, a figure that is not finite, a number that is not a JSON number,
// a time outside years 0 to 9999, deeper than maxDepth) is stored as its
// canonical JSON, as before: the first byte, '{', 'T' or 'U', tells which.
const (
	trajMark   = 'U'
	trajMarkV9 = 'T' // schema versions 9 and 10: times as seconds and nanoseconds
)

// trajCodeV9 makes appendTrajectory write the encoding of schema versions
// 9 and 10, for the tests that read histories written then.
var trajCodeV9 = false

// keptTextV11 makes appendTrajectory write kept text as schema version 11
// did, as the values it holds (trajtext.go), for the tests that read
// histories written then.
var keptTextV11 = false

// maxDepth bounds the nesting of arrays and objects the encoding carries:
// a deeper trajectory is stored as JSON, and a damaged one does not take
// the stack.
const maxDepth = 256

// The tags of values.
const (
	tagNull = iota
	tagFalse
	tagTrue
	tagString
	tagNumber
	tagFloat
	tagArray
	tagObject
	tagText // from schema version 12: a reader's JSON text, as it stands
)

// minStep is the fewest bytes a step takes: thirteen fields of a byte
// each when empty ('T'); eight from schema version 11 ('U').
const (
	minStep   = 8
	minStepV9 = 13
)

// The bits of a step's head above its error ('U').
const (
	stepNext         = 1 << (iota + 2) // its index is the previous one's plus one: not written
	stepSameTurn                       // its turn is the previous one's: not written
	stepErrorMessage                   // it has an error message, written
	stepGroup                          // it has a parallel group, written
	stepAgent                          // it has an agent, written
	stepBits         = 1<<(iota+2) - 1
)

// errTrajectory is a stored trajectory that does not read back.
var errTrajectory = errors.New("damaged trajectory")

// appendTrajectory appends the encoding of t to b and reports whether it
// carries t exactly; if not, b comes back as given (and t is to be
// stored as JSON).
func appendTrajectory(b []byte, t *trajeval.Trajectory) ([]byte, bool) {
	e := trajEncoder{b: append(b, trajMark), ok: true, deltas: !trajCodeV9, rawText: !trajCodeV9 && !keptTextV11}
	if trajCodeV9 {
		e.b[len(b)] = trajMarkV9
	}
	e.trajectory(t)
	e.doneText()
	if !e.ok {
		return b, false
	}
	return e.b, true
}

// A trajEncoder appends the encoding of a trajectory to b; ok turns
// false at the first value the encoding does not carry.
type trajEncoder struct {
	b  []byte
	ok bool
	// rawText: kept text stored as it stands (tagText), from schema
	// version 12.
	rawText bool
	// deltas: steps written as from schema version 11 ('U'); lastMS is
	// the previous time written, in milliseconds since 1970, lastIndex
	// and lastTurn the previous step's.
	deltas              bool
	lastMS              int64
	lastIndex, lastTurn int
	// The keys of the last three objects of one member (nOnes of them
	// set, the next to replace at nextOne: the arguments and the result
	// of a step mostly differ) and of the last object of two (see
	// object).
	ones           [3]string
	nOnes, nextOne int
	two            [2]string
	nTwo           bool
	walker         *textWalker // kept text's, taken at its first (see text)
}

func (e *trajEncoder) trajectory(t *trajeval.Trajectory) {
	e.str(t.ID)
	e.uint(len(t.Turns))
	for i := range t.Turns {
		tn := &t.Turns[i]
		e.int(int64(tn.Turn))
		e.strPtr(tn.User)
		e.strPtr(tn.FinalResponse)
	}
	e.uint(len(t.Steps))
	for i := range t.Steps {
		e.step(&t.Steps[i])
	}
	m := &t.Metrics
	if e.deltas {
		e.b = e.duration(e.b, m.DurationMS, 0)
	} else {
		e.floatPtr(m.DurationMS)
	}
	e.floatPtr(m.CostUSD)
	e.intPtr(m.Tokens.Input)
	e.intPtr(m.Tokens.Output)
	e.intPtr(m.Tokens.Total)
	e.intPtr(m.LLMCalls)
	e.uint(len(t.Agents))
	for _, a := range t.Agents {
		e.str(a.Name)
		e.str(a.Parent)
	}
	e.bool(t.Partial)
}

// step appends s as from schema version 11 (see trajMark), into a
// buffer of its own: a field of e written through its pointer costs a
// load and a store each time.
func (e *trajEncoder) step(s *trajeval.Step) {
	if !e.deltas {
		e.stepV9(s)
		return
	}
	var head byte
	switch {
	case s.Error == nil:
	case *s.Error:
		head = 2
	default:
		head = 1
	}
	if s.Index == e.lastIndex+1 {
		head |= stepNext
	}
	if s.Turn == e.lastTurn {
		head |= stepSameTurn
	}
	if s.ErrorMessage != "" {
		head |= stepErrorMessage
	}
	if s.ParallelGroup != 0 {
		head |= stepGroup
	}
	if s.Agent != "" {
		head |= stepAgent
	}
	e.lastIndex, e.lastTurn = s.Index, s.Turn
	b := append(e.b, head)
	if head&stepNext == 0 {
		b = binary.AppendVarint(b, int64(s.Index))
	}
	if head&stepSameTurn == 0 {
		b = binary.AppendVarint(b, int64(s.Turn))
	}
	b = appendStr(b, s.ID)
	b = appendStr(b, s.Name)
	b = e.stepValue(b, s.Args)
	b = e.stepValue(b, s.Result)
	if head&stepErrorMessage != 0 {
		b = appendStr(b, s.ErrorMessage)
	}
	b, start, okStart := e.tick(b, s.StartTime)
	b, end, okEnd := e.tick(b, s.EndTime)
	var ref int64
	if okStart && okEnd {
		ref = end - start
	}
	b = e.duration(b, s.DurationMS, ref)
	if head&stepGroup != 0 {
		b = binary.AppendVarint(b, int64(s.ParallelGroup))
	}
	if head&stepAgent != 0 {
		b = appendStr(b, s.Agent)
	}
	e.b = b
}

// stepV9 appends s as schema versions 9 and 10 did.
func (e *trajEncoder) stepV9(s *trajeval.Step) {
	e.int(int64(s.Index))
	e.int(int64(s.Turn))
	e.str(s.ID)
	e.str(s.Name)
	e.value(s.Args, 0)
	e.value(s.Result, 0)
	switch {
	case s.Error == nil:
		e.b = append(e.b, 0)
	case *s.Error:
		e.b = append(e.b, 2)
	default:
		e.b = append(e.b, 1)
	}
	e.str(s.ErrorMessage)
	e.floatPtr(s.DurationMS)
	e.time(s.StartTime)
	e.time(s.EndTime)
	e.int(int64(s.ParallelGroup))
	e.str(s.Agent)
}

// stepValue appends a step's arguments or result to b, which is e.b and
// what step has written since (step keeps its bytes in a variable of its
// own, not in e.b, a field of e written through its pointer): kept text at
// once, as value writes it (most of them, when a reader kept text), else
// through value.
func (e *trajEncoder) stepValue(b []byte, v any) []byte {
	if t, ok := trajeval.KeptText(v); ok && e.rawText && composite(t) {
		return appendText(b, t)
	}
	e.b = b
	e.value(v, 0)
	return e.b
}

// keptText appends JSON text not yet decoded (either form, see
// trajeval.KeptText): as it stands when it is an object or array, as
// kept text is; else as the value it holds, from the text where it can
// be (see trajtext.go), else decoded.
func (e *trajEncoder) keptText(x json.RawMessage, depth int) {
	if e.rawText && composite(x) {
		e.b = appendText(e.b, x)
		return
	}
	if e.text(x, depth) {
		return
	}
	d, err := trajeval.Decoded(x)
	if err != nil {
		e.ok = false
		return
	}
	e.value(d, depth)
}

// appendText appends kept text t as it stands (tagText).
func appendText(b, t []byte) []byte {
	b = append(b, tagText)
	b = binary.AppendUvarint(b, uint64(len(t)))
	return append(b, t...)
}

// value appends v, a JSON value of the trajectory model; the types
// AppendJSON hands to encoding/json are not carried.
func (e *trajEncoder) value(v any, depth int) {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, tagNull)
	case string:
		e.b = append(e.b, tagString)
		e.str(x)
	case json.Number:
		if x != "" && !validNumber(string(x)) {
			e.ok = false
			return
		}
		e.b = append(e.b, tagNumber)
		e.str(string(x))
	case bool:
		if x {
			e.b = append(e.b, tagTrue)
		} else {
			e.b = append(e.b, tagFalse)
		}
	case float64:
		e.b = append(e.b, tagFloat)
		e.float(x)
	case json.RawMessage:
		e.keptText(x, depth)
	case *json.RawMessage:
		text, _ := trajeval.KeptText(x)
		e.keptText(text, depth)
	case []any:
		if x == nil {
			e.b = append(e.b, tagNull) // written null, as by AppendJSON
			return
		}
		if depth >= maxDepth {
			e.ok = false
			return
		}
		e.b = append(e.b, tagArray)
		e.uint(len(x))
		for _, el := range x {
			e.value(el, depth+1)
		}
	case map[string]any:
		if x == nil {
			e.b = append(e.b, tagNull)
			return
		}
		if depth >= maxDepth {
			e.ok = false
			return
		}
		e.b = append(e.b, tagObject)
		e.uint(len(x))
		e.object(x, depth)
	default:
		e.ok = false
	}
}

// object appends the members of m. Their order does not matter (reading
// sorts the keys, as the JSON does), but walking a map costs several
// times a lookup, and the objects of a trajectory's arguments and results
// mostly hold one or two members whose keys repeat from step to step: an
// object of one or two members is first looked up by the keys of the
// last ones of its size (an object of n members holding n given distinct
// keys holds those alone). Two keys are written in order, so that the
// values of a chunk share their bytes.
func (e *trajEncoder) object(m map[string]any, depth int) {
	switch len(m) {
	case 1:
		for _, k := range e.ones[:e.nOnes] {
			if v, ok := m[k]; ok {
				e.member(k, v, depth)
				return
			}
		}
		for k, v := range m {
			e.ones[e.nextOne] = k
			e.nextOne = (e.nextOne + 1) % len(e.ones)
			e.nOnes = min(e.nOnes+1, len(e.ones))
			e.member(k, v, depth)
		}
		return
	case 2:
		if e.nTwo {
			k0, k1 := e.two[0], e.two[1] // the first member's value may hold a pair of its own
			if v0, ok := m[k0]; ok {
				if v1, ok := m[k1]; ok {
					e.member(k0, v0, depth)
					e.member(k1, v1, depth)
					return
				}
			}
		}
		var ms [2]struct {
			k string
			v any
		}
		i := 0
		for k, v := range m {
			ms[i].k, ms[i].v = k, v
			i++
		}
		if ms[1].k < ms[0].k {
			ms[0], ms[1] = ms[1], ms[0]
		}
		e.two, e.nTwo = [2]string{ms[0].k, ms[1].k}, true
		e.member(ms[0].k, ms[0].v, depth)
		e.member(ms[1].k, ms[1].v, depth)
		return
	}
	for k, v := range m {
		e.member(k, v, depth)
	}
}

// composite reports whether text begins and ends as an object or an
// array does, as the text a reader keeps does (trajeval.Decoded's rule 1):
// a cheap check, not a scan; reading the history checks the whole.
func composite(text []byte) bool {
	if len(text) < 2 {
		return false
	}
	first, last := text[0], text[len(text)-1]
	return first == '{' && last == '}' || first == '[' && last == ']'
}

func (e *trajEncoder) member(k string, v any, depth int) {
	e.str(k)
	e.value(v, depth+1)
}

func (e *trajEncoder) uint(n int) { e.b = binary.AppendUvarint(e.b, uint64(n)) }

func (e *trajEncoder) int(n int64) { e.b = binary.AppendVarint(e.b, n) }

func (e *trajEncoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *trajEncoder) str(s string) { e.b = appendStr(e.b, s) }

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func (e *trajEncoder) strPtr(s *string) {
	if s == nil {
		e.b = append(e.b, 0)
		return
	}
	e.b = append(e.b, 1)
	e.str(*s)
}

func (e *trajEncoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.ok = false // refused by the JSON, with its error
		return
	}
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(f))
}

func (e *trajEncoder) floatPtr(f *float64) {
	if f == nil {
		e.b = append(e.b, 0)
		return
	}
	e.b = append(e.b, 1)
	e.float(*f)
}

func (e *trajEncoder) intPtr(n *int64) {
	if n == nil {
		e.b = append(e.b, 0)
		return
	}
	e.b = append(e.b, 1)
	e.int(*n)
}

func (e *trajEncoder) time(t time.Time) {
	if t.IsZero() {
		e.b = append(e.b, 0)
		return
	}
	sec := t.Unix()
	if sec < minSec || sec >= endSec {
		e.ok = false // refused by the JSON, with its error
		return
	}
	e.b = append(e.b, 1)
	e.b = binary.AppendVarint(e.b, sec)
	e.b = binary.AppendUvarint(e.b, uint64(t.Nanosecond()))
}

// tick appends t to b as a uvarint: 0 when t is zero, else 1 more than
// the zigzag of its difference from the trajectory's previous time in
// milliseconds (from 1970 for its first), shifted left by one, the bit
// below set when a uvarint of the nanoseconds past its millisecond
// (1 to 999,999) follows. Readers mostly give whole milliseconds, and a
// step starts soon after the previous one ends: one byte or two a time,
// nanoseconds kept exactly. It returns t's milliseconds and whether t is
// set.
func (e *trajEncoder) tick(b []byte, t time.Time) ([]byte, int64, bool) {
	if t.IsZero() {
		return append(b, 0), 0, false
	}
	sec, ns := t.Unix(), int64(t.Nanosecond())
	if sec < minSec || sec >= endSec {
		e.ok = false // refused by the JSON, with its error
		return b, 0, false
	}
	ms := sec*1000 + ns/1e6
	sub := uint64(ns - ns/1e6*1e6)
	u := zigzag(ms-e.lastMS) << 1
	e.lastMS = ms
	if sub == 0 {
		return binary.AppendUvarint(b, u+1), ms, true
	}
	b = binary.AppendUvarint(b, u+2)
	return binary.AppendUvarint(b, sub), ms, true
}

// duration appends f to b as a uvarint: 0 when unknown; 1 and the 8
// bytes of its float64 when it is not a whole number of at most 2^53;
// else 2 more than the zigzag of its difference from ref, the step's end
// less its start in milliseconds (0 when either is unknown), which it
// mostly is.
func (e *trajEncoder) duration(b []byte, f *float64, ref int64) []byte {
	switch {
	case f == nil:
		return append(b, 0)
	case whole(*f):
		return binary.AppendUvarint(b, zigzag(int64(*f)-ref)+2)
	case math.IsNaN(*f) || math.IsInf(*f, 0):
		e.ok = false // refused by the JSON, with its error
		return b
	}
	return binary.LittleEndian.AppendUint64(append(b, 1), math.Float64bits(*f))
}

// whole reports whether f is a whole number that an int64 and back gives
// exactly (not -0).
func whole(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= maxWhole && !(f == 0 && math.Signbit(f))
}

// maxWhole is the largest whole number whose neighbours float64 still
// holds exactly.
const maxWhole = 1 << 53

func zigzag(n int64) uint64 { return uint64(n<<1) ^ uint64(n>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// The first second of year 0 and the first of year 10000, UTC: the JSON
// writes the times between; the same in milliseconds.
const (
	minSec = -62167219200
	endSec = 253402300800
	minMS  = minSec * 1000
	endMS  = endSec * 1000
)

// validNumber reports whether s is a JSON number literal, as AppendJSON
// requires of a json.Number.
func validNumber(s string) bool {
	if s == "" {
		return false
	}
	first, last := s[0], s[len(s)-1]
	return (first == '-' || '0' <= first && first <= '9') && '0' <= last && last <= '9' && jsonv.Valid([]byte(s))
}

// readTrajectory reads the encoding appendTrajectory wrote (its first
// byte trajMark). Every count and length is checked against the bytes
// left, and nesting against maxDepth: damaged bytes are an error, never
// more memory than they could describe.
func readTrajectory(data []byte) (*trajeval.Trajectory, error) {
	if len(data) == 0 || data[0] != trajMark && data[0] != trajMarkV9 {
		return nil, fmt.Errorf("%w: not an encoded trajectory", errTrajectory)
	}
	d := trajDecoder{b: data[1:], unclaimed: len(data) - 1, deltas: data[0] == trajMark}
	t := d.trajectory()
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the trajectory", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return t, nil
}

// A trajDecoder reads an encoded trajectory from b; err is the first
// error, after which every read returns a zero value.
type trajDecoder struct {
	b   []byte
	err error
	// unclaimed is how many bytes the counts read so far leave for
	// others: each item counted has a first byte of its own, so all the
	// counts of a trajectory claim at most its bytes. Checked against
	// the bytes left alone, nested arrays that each claimed them all
	// were each made that long (4,000 times the bytes read).
	unclaimed int
	// deltas, lastMS, lastIndex and lastTurn are trajEncoder's.
	deltas              bool
	lastMS              int64
	lastIndex, lastTurn int
}

func (d *trajDecoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{errTrajectory}, args...)...)
	}
	d.b = nil
}

func (d *trajDecoder) trajectory() *trajeval.Trajectory {
	t := &trajeval.Trajectory{ID: d.str()}
	if n := d.count(3); n > 0 {
		t.Turns = make([]trajeval.Turn, n)
		for i := range t.Turns {
			t.Turns[i] = trajeval.Turn{Turn: d.int(), User: d.strPtr(), FinalResponse: d.strPtr()}
		}
	}
	min := minStepV9
	if d.deltas {
		min = minStep
	}
	if n := d.count(min); n > 0 {
		t.Steps = make([]trajeval.Step, n)
		for i := range t.Steps {
			d.step(&t.Steps[i])
		}
	}
	m := &t.Metrics
	if d.deltas {
		m.DurationMS = d.duration(0)
	} else {
		m.DurationMS = d.floatPtr()
	}
	m.CostUSD = d.floatPtr()
	m.Tokens.Input = d.intPtr()
	m.Tokens.Output = d.intPtr()
	m.Tokens.Total = d.intPtr()
	m.LLMCalls = d.intPtr()
	if n := d.count(2); n > 0 {
		t.Agents = make([]trajeval.Agent, n)
		for i := range t.Agents {
			t.Agents[i] = trajeval.Agent{Name: d.str(), Parent: d.str()}
		}
	}
	t.Partial = d.flag()
	if d.err != nil {
		return nil
	}
	return t
}

func (d *trajDecoder) step(s *trajeval.Step) {
	if !d.deltas {
		d.stepV9(s)
		return
	}
	head := d.byte()
	if head&^stepBits != 0 {
		d.fail("a step's head %#x", head)
		return
	}
	if s.Error = d.stepError(head & 3); d.err != nil {
		return
	}
	s.Index, s.Turn = d.lastIndex+1, d.lastTurn
	if head&stepNext == 0 {
		s.Index = d.int()
	}
	if head&stepSameTurn == 0 {
		s.Turn = d.int()
	}
	d.lastIndex, d.lastTurn = s.Index, s.Turn
	s.ID = d.str()
	s.Name = d.str()
	s.Args = d.value(0)
	s.Result = d.value(0)
	if head&stepErrorMessage != 0 {
		s.ErrorMessage = d.str()
	}
	var start, end int64
	var okStart, okEnd bool
	s.StartTime, start, okStart = d.tick()
	s.EndTime, end, okEnd = d.tick()
	var ref int64
	if okStart && okEnd {
		ref = end - start
	}
	s.DurationMS = d.duration(ref)
	if head&stepGroup != 0 {
		s.ParallelGroup = d.int()
	}
	if head&stepAgent != 0 {
		s.Agent = d.str()
	}
}

// stepError reads a step's error as written: 0 when the format cannot
// express failure (nil), 1 false, 2 true.
func (d *trajDecoder) stepError(b byte) *bool {
	switch b {
	case 0:
		return nil
	case 1:
		return new(false)
	case 2:
		return new(true)
	}
	d.fail("a step's error is not 0, 1 or 2")
	return nil
}

// stepV9 reads a step as schema versions 9 and 10 wrote it.
func (d *trajDecoder) stepV9(s *trajeval.Step) {
	s.Index = d.int()
	s.Turn = d.int()
	s.ID = d.str()
	s.Name = d.str()
	s.Args = d.value(0)
	s.Result = d.value(0)
	s.Error = d.stepError(d.byte())
	s.ErrorMessage = d.str()
	s.DurationMS = d.floatPtr()
	s.StartTime = d.time()
	s.EndTime = d.time()
	s.ParallelGroup = d.int()
	s.Agent = d.str()
}

func (d *trajDecoder) value(depth int) any {
	switch tag := d.byte(); tag {
	case tagNull:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagString:
		return d.str()
	case tagNumber:
		n := d.str()
		if n != "" && !validNumber(n) {
			if len(n) > 64 {
				n = n[:64] + "…" // a damaged length may run to the end of the data: no megabytes in an error
			}
			d.fail("%q is not a number", n)
			return nil
		}
		return json.Number(n)
	case tagFloat:
		return d.float()
	case tagText:
		return d.text()
	case tagArray, tagObject:
		if depth >= maxDepth {
			d.fail("nested deeper than %d", maxDepth)
			return nil
		}
		if tag == tagArray {
			a := make([]any, d.count(1))
			for i := range a {
				a[i] = d.value(depth + 1)
			}
			return a
		}
		n := d.count(2)
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.value(depth + 1)
		}
		if len(m) != n && d.err == nil {
			d.fail("an object repeats a key")
		}
		return m
	default:
		d.fail("a value of tag %d", tag)
		return nil
	}
}

func (d *trajDecoder) byte() byte {
	if len(d.b) == 0 {
		d.fail("cut short")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *trajDecoder) flag() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("a flag is not 0 or 1")
	return false
}

func (d *trajDecoder) uvarint() uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail("a damaged number")
		return 0
	}
	d.b = d.b[k:]
	return n
}

func (d *trajDecoder) varint() int64 {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail("a damaged number")
		return 0
	}
	d.b = d.b[k:]
	return n
}

// count reads a count of items of at least min bytes each: one the bytes
// left cannot hold is damage.
func (d *trajDecoder) count(min int) int {
	n := d.uvarint()
	left := len(d.b)
	if d.unclaimed < left {
		left = d.unclaimed
	}
	if n > uint64(left/min) {
		d.fail("%d items in %d bytes", n, left)
		return 0
	}
	d.unclaimed -= int(n) * min
	return int(n)
}

func (d *trajDecoder) int() int {
	n := d.varint()
	if n != int64(int(n)) {
		d.fail("%d is out of range", n)
		return 0
	}
	return int(n)
}

func (d *trajDecoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("a string of %d bytes in %d", n, len(d.b))
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// text reads a kept text (tagText): a copy of its bytes, which must be
// one JSON object or array nested no deeper than jsonv.MaxDepth, as the
// canonical JSON and trajeval.Decoded take it.
func (d *trajDecoder) text() json.RawMessage {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("a text of %d bytes in %d", n, len(d.b))
		return nil
	}
	t := d.b[:n]
	if !composite(t) || !jsonv.Valid(t) || jsonv.CheckDepth(t) != nil {
		q := string(t)
		if len(q) > 64 {
			q = q[:64] + "…" // no megabytes in an error
		}
		d.fail("%q is not the JSON text of an object or array", q)
		return nil
	}
	d.b = d.b[n:]
	return json.RawMessage(bytes.Clone(t))
}

func (d *trajDecoder) strPtr() *string {
	if !d.flag() {
		return nil
	}
	s := d.str()
	return &s
}

func (d *trajDecoder) float() float64 {
	if len(d.b) < 8 {
		d.fail("cut short")
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.fail("a figure that is not finite")
		return 0
	}
	return f
}

func (d *trajDecoder) floatPtr() *float64 {
	if !d.flag() {
		return nil
	}
	f := d.float()
	return &f
}

func (d *trajDecoder) intPtr() *int64 {
	if !d.flag() {
		return nil
	}
	n := d.varint()
	return &n
}

// time reads a time, in UTC (the canonical JSON writes it so).
func (d *trajDecoder) time() time.Time {
	if !d.flag() {
		return time.Time{}
	}
	sec := d.varint()
	nsec := d.uvarint()
	if d.err != nil {
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec)).UTC()
	if nsec >= 1e9 || sec < minSec || sec >= endSec || t.IsZero() {
		d.fail("a time out of range")
		return time.Time{}
	}
	return t
}

// tick reads a time trajEncoder.tick wrote: the time (in UTC), its
// milliseconds, and whether it is set.
func (d *trajDecoder) tick() (time.Time, int64, bool) {
	u := d.uvarint()
	if u == 0 || d.err != nil {
		return time.Time{}, 0, false
	}
	u--
	delta := unzigzag(u >> 1)
	// Both bounds first, so that the sum cannot overflow.
	if delta < minMS-endMS || delta > endMS-minMS || d.lastMS+delta < minMS || d.lastMS+delta >= endMS {
		d.fail("a time out of range")
		return time.Time{}, 0, false
	}
	ms := d.lastMS + delta
	var sub uint64
	if u&1 != 0 {
		if sub = d.uvarint(); d.err == nil && (sub == 0 || sub >= 1e6) {
			d.fail("%d nanoseconds past a millisecond", sub)
		}
		if d.err != nil {
			return time.Time{}, 0, false
		}
	}
	t := time.UnixMilli(ms).Add(time.Duration(sub)).UTC()
	if t.IsZero() {
		d.fail("a time out of range")
		return time.Time{}, 0, false
	}
	d.lastMS = ms
	return t, ms, true
}

// duration reads a duration trajEncoder.duration wrote against ref.
func (d *trajDecoder) duration(ref int64) *float64 {
	switch u := d.uvarint(); {
	case u == 0 || d.err != nil:
		return nil
	case u == 1:
		f := d.float()
		return &f
	default:
		// ref is within endMS-minMS: bound the difference first, so
		// that the sum cannot overflow.
		n := unzigzag(u - 2)
		if n < -2*maxWhole || n > 2*maxWhole || ref+n < -maxWhole || ref+n > maxWhole {
			d.fail("a duration out of range")
			return nil
		}
		f := float64(ref + n)
		return &f
	}
}
