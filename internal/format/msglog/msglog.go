// Package msglog holds what the readers of message logs (openai,
// anthropic, langchain) share: reading JSON documents, JSON Lines or
// concatenated JSON values with their line numbers, damage an error unless
// read leniently (EachValue, or EachText for a reader that walks each
// value's text with a jsonv.Parser, with WalkStr, WalkName and ISOTime),
// sniffing facts from a cut head (SniffFacts), building a trajectory from
// messages (Builder), and small accessors for decoded JSON values.
package msglog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonl"
	"github.com/trajeval/trajeval/internal/jsonv"
	"github.com/trajeval/trajeval/internal/sniff"
)

// EachValue calls fn with every top-level JSON value of in, and the line
// where it starts: each line of a JSON Lines file (streamed), or each value
// of a JSON document (read whole; several concatenated values are
// allowed). A value cut off or broken part-way, or data after the last
// value, is damage (see trajeval.Input.Damage): an error, or, read
// leniently, a warning after which fn gets what came before the break with
// partial set (v nil when nothing did). In JSON Lines the next line is read
// on; in a document nothing after the break is. A null is not a record
// (see jsonl.NotARecord): an error, or read leniently a warning, and fn
// does not see it. It returns a TraceError when nothing at all can be
// read.
func EachValue(ctx context.Context, in trajeval.Input, fn func(v any, line int, partial bool) error) error {
	br := bufio.NewReaderSize(in.R, BufferSize(in.R))
	// Peek no more than the buffer holds, so that it reads on to the
	// input's end and takes its error, as peeking a MiB always did.
	head, _ := br.Peek(br.Size())
	if len(head) == br.Size() && br.Size() < 1<<20 {
		// More than the input said it holds: the head is the first MiB,
		// as always.
		br = bufio.NewReaderSize(br, 1<<20)
		head, _ = br.Peek(1 << 20)
	}
	values := 0
	use := func(v any, line int, partial bool) error {
		if v == nil && !partial {
			// A null is no record, and never an empty run.
			return jsonl.NotARecord(in, line, 0, "null")
		}
		if v != nil {
			values++
		}
		return fn(v, line, partial)
	}
	if jsonv.Valid(sniff.FirstLine(head)) {
		// jsonl.Decode bounds the depth itself (its Parser counts it, and
		// what that refuses is checked before encoding/json reads it), so
		// the lines are not checked first: a line of a conversation holds
		// more brackets than MaxDepth, and each was scanned twice.
		decoder := func() jsonl.Decoder[lineValue] { return decodeLine(in) }
		err := jsonl.ParallelBounded(ctx, br, 1, decoder, in.Warn, func(l lineValue) error {
			return use(l.v, l.n, l.partial)
		})
		if err != nil {
			return jsonl.ReadError(in.Name, err)
		}
	} else {
		data, err := jsonl.ReadDocument(in.Name, br, jsonl.SizeOf(in.R), nil)
		if err != nil {
			return err
		}
		if v, ok := jsonv.FastDecode(data); ok {
			// One value that a Parser reads, as most documents are: the
			// same value encoding/json gives, read many times faster, its
			// depth bounded by the Parser.
			if err := ctx.Err(); err != nil {
				return err
			}
			start := int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
			if err := use(v, jsonl.NewLines(data).Line(start), false); err != nil {
				return err
			}
		} else if final, err := eachDocValue(ctx, in, data, use); final {
			return err
		}
	}
	if values == 0 {
		return &trajeval.TraceError{File: in.Name, Msg: "no JSON values", Err: trajeval.ErrEmptyTrace}
	}
	return nil
}

// eachDocValue calls use with each JSON value of the document data, read
// by encoding/json after its depth is checked, and its line (see
// EachValue). final says that EachValue returns err as it is: damage read
// leniently ends the reading there, whatever came before.
func eachDocValue(ctx context.Context, in trajeval.Input, data []byte, use func(v any, line int, partial bool) error) (final bool, err error) {
	if err := jsonl.CheckDepth(in.Name, data, 1); err != nil {
		return true, err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	lines := jsonl.NewLines(data)
	for d.More() {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		start := d.InputOffset()
		start += int64(len(data[start:]) - len(bytes.TrimLeft(data[start:], " \t\r\n")))
		line := lines.Line(start)
		var v any
		if err := d.Decode(&v); err != nil {
			if err := jsonl.Damaged(in, data, err, 1); err != nil {
				return true, err
			}
			return true, use(jsonl.Salvage(data[start:]), line, true)
		}
		if err := use(v, line, false); err != nil {
			return true, err
		}
	}
	if rest := bytes.TrimSpace(data[d.InputOffset():]); len(rest) > 0 {
		err := &jsonl.TrailingError{Offset: int64(len(data) - len(rest))}
		if err := jsonl.Damaged(in, data, err, 1); err != nil {
			return true, err
		}
	}
	return false, nil
}

// A lineValue is the value of line n of JSON Lines, partial when damage
// cut it short (v nil when damage lost all of it).
type lineValue struct {
	v       any
	n       int
	partial bool
}

// decodeLine decodes a line of JSON Lines for EachValue: a line nested
// deeper than jsonv.MaxDepth is a *jsonv.DepthError at its line, as
// jsonl.Each finds it; other damage is reported to in (see
// jsonl.Damaged), and read leniently the line gives what came before it.
func decodeLine(in trajeval.Input) jsonl.Decoder[lineValue] {
	return func(b []byte, n int, _ func(trajeval.Warning)) (lineValue, error) {
		v, err := jsonl.Decode(b)
		if err == nil {
			return lineValue{v, n, false}, nil
		}
		if de := (*jsonv.DepthError)(nil); errors.As(err, &de) {
			de.Line = n
			return lineValue{}, de
		}
		if err := jsonl.Damaged(in, b, err, n); err != nil {
			return lineValue{}, err
		}
		return lineValue{jsonl.Salvage(b), n, true}, nil
	}
}

// A Sizer is an input that knows how many bytes it holds (-1 if it does
// not), as the trace package's inputs do.
type Sizer interface {
	Size() int64
}

// BufferSize is the size of the buffer that reads r: a MiB and 64 KiB,
// or one byte more than r holds when it is a Sizer holding less (a small
// file), so that its head is all of it and the end is seen.
//
// The 64 KiB are room for the start of a line that a read leaves at the
// buffer's end: the next read then still asks for a MiB or more, and the
// trace package's reader, whose buffer of a MiB holds the head, reads
// the file straight into this buffer once the head is used up (a
// bufio.Reader copies through its own buffer a read smaller than it).
func BufferSize(r io.Reader) int {
	const size = 1<<20 + 64<<10
	s, ok := r.(Sizer)
	if !ok || s.Size() < 0 || s.Size() >= size {
		return size
	}
	return int(s.Size()) + 1 // jsonl.Each reads on with this buffer
}

// Pending gathers the messages a file gives one per line into one
// conversation. A message cut short by damage, or a line lost to it, makes
// the conversation partial.
type Pending struct {
	msgs    []any
	line    int
	partial bool
}

// Add adds the message v, read at line; partial says damage cut it short,
// and v is nil when damage lost the line whole.
func (p *Pending) Add(v any, line int, partial bool) {
	p.partial = p.partial || partial
	if v == nil {
		return
	}
	if p.msgs == nil {
		p.line = line
	}
	p.msgs = append(p.msgs, v)
}

// Take returns the messages gathered (nil when none), the line of the
// first and whether damage touched them, and starts anew.
func (p *Pending) Take() (msgs []any, line int, partial bool) {
	msgs, line, partial = p.msgs, p.line, p.partial
	*p = Pending{}
	return msgs, line, partial
}

// Mark gives t the line its record starts at and marks it partial when
// partial is set, and returns it.
func Mark(t *trajeval.Trajectory, line int, partial bool) *trajeval.Trajectory {
	t.Line = line
	t.Partial = t.Partial || partial
	return t
}

// Has reports whether any of the facts is known.
func (f Facts) Has(names ...string) bool {
	for _, n := range names {
		if f[n] {
			return true
		}
	}
	return false
}

// Builder builds one trajectory from a conversation, message by message.
// Readers fill in Trajectory.Metrics themselves, counting model calls in
// LLMCalls and adding up Tokens as they go.
type Builder struct {
	Trajectory *trajeval.Trajectory
	turn       int            // current turn, 0 before any
	byID       map[string]int // call id → index in Trajectory.Steps
	done       map[string]bool
	groups     int
	warn       func(place, msg string)
	warned     map[string]bool
	LLMCalls   int64
	Tokens     trajeval.Tokens
}

// NewBuilder returns a Builder for the trajectory id; warn receives each
// distinct warning once, with the place it was found.
func NewBuilder(id string, warn func(place, msg string)) *Builder {
	b := &Builder{Trajectory: &trajeval.Trajectory{ID: id}, byID: map[string]int{}, done: map[string]bool{}, warned: map[string]bool{}}
	b.warn = func(place, msg string) {
		if !b.warned[place+"\x00"+msg] {
			b.warned[place+"\x00"+msg] = true
			warn(place, msg)
		}
	}
	return b
}

// User starts a new turn.
func (b *Builder) User(text *string) {
	b.Trajectory.Turns = append(b.Trajectory.Turns, trajeval.Turn{User: text})
	b.turn = len(b.Trajectory.Turns)
}

// EnsureTurn opens turn 1 for what comes before the first user message.
func (b *Builder) EnsureTurn() {
	if b.turn == 0 {
		b.User(nil)
	}
}

// Final records the text of an answer without tool calls.
func (b *Builder) Final(text *string) {
	b.EnsureTurn()
	if text != nil && *text != "" {
		b.Trajectory.Turns[b.turn-1].FinalResponse = text
	}
}

// Call adds a step in the current turn, unless its id was seen before.
// It returns the step's index, or -1 for a repeat.
func (b *Builder) Call(s trajeval.Step, place string) int {
	b.EnsureTurn()
	if s.Name == "" {
		b.Warn(place, "a tool call has no name; skipped")
		return -1
	}
	if s.ID != "" {
		if _, ok := b.byID[s.ID]; ok {
			b.Warn(place, fmt.Sprintf("call id %q appears twice; kept the first", s.ID))
			return -1
		}
		b.byID[s.ID] = len(b.Trajectory.Steps)
	}
	s.Turn = b.turn
	b.Trajectory.Steps = append(b.Trajectory.Steps, s)
	return len(b.Trajectory.Steps) - 1
}

// Group gives the steps at idx one parallel group when there are two or
// more of them. Negative indexes (calls that Call skipped) are ignored.
func (b *Builder) Group(idx []int) {
	idx = slices.DeleteFunc(slices.Clone(idx), func(i int) bool { return i < 0 })
	if len(idx) < 2 {
		return
	}
	b.groups++
	for _, i := range idx {
		b.Trajectory.Steps[i].ParallelGroup = b.groups
	}
}

// Result pairs a result with the call of that id.
func (b *Builder) Result(id string, res any, failed *bool, msg, place string) {
	i, ok := b.byID[id]
	switch {
	case id == "":
		b.Warn(place, "a tool result has no call id; ignored")
		return
	case !ok:
		b.Warn(place, fmt.Sprintf("result for call %q, which never appears; ignored", id))
		return
	case b.done[id]:
		b.Warn(place, fmt.Sprintf("a second result for call %q; kept the first", id))
		return
	}
	b.done[id] = true
	s := &b.Trajectory.Steps[i]
	s.Result, s.Error, s.ErrorMessage = res, failed, msg
}

// Warn reports msg at place, once for each distinct place and message.
func (b *Builder) Warn(place, msg string) { b.warn(place, msg) }

// Finish completes the trajectory (see trajeval.Trajectory.Finish) and
// returns it.
func (b *Builder) Finish() *trajeval.Trajectory {
	b.Trajectory.Finish()
	return b.Trajectory
}

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// Args reads a call's arguments: a JSON string is parsed; a string that is
// not JSON is kept as it is and reported; none at all gives {}.
func Args(v any, warn func(string)) any {
	switch x := v.(type) {
	case nil:
		return map[string]any{}
	case string:
		if strings.TrimSpace(x) == "" {
			return map[string]any{}
		}
		p, err := jsonv.Decode([]byte(x))
		if err != nil {
			warn("arguments are a string that is not valid JSON; kept as text")
			return x
		}
		if p == nil {
			return map[string]any{}
		}
		return p
	}
	return v
}

// Text returns a message's text: a string, or the text parts of a list
// joined by newlines; nil when there is none.
func Text(c any) *string {
	switch x := c.(type) {
	case string:
		return &x
	case []any:
		var parts []string
		for _, p := range x {
			switch p := p.(type) {
			case string:
				parts = append(parts, p)
			case map[string]any:
				if s, ok := p["text"].(string); ok {
					parts = append(parts, s)
				}
			}
		}
		if parts != nil {
			s := strings.Join(parts, "\n")
			return &s
		}
	}
	return nil
}

// ResultValue is a tool result's content: a string as it is, a list of
// only text parts as their text, anything else as the JSON value.
func ResultValue(c any) any {
	if x, ok := c.([]any); ok && len(x) > 0 {
		for _, p := range x {
			m, ok := p.(map[string]any)
			if !ok {
				return c
			}
			if t, _ := m["type"].(string); t != "text" && t != "input_text" && t != "output_text" {
				return c
			}
			if _, ok := m["text"].(string); !ok {
				return c
			}
		}
		return *Text(x)
	}
	return c
}

// Str returns v if it is a string, else "".
func Str(v any) string {
	s, _ := v.(string)
	return s
}

// RecordID is the id a conversation record gives itself, if any.
func RecordID(m map[string]any) string {
	for _, x := range []map[string]any{m, Obj(m["metadata"])} {
		for _, k := range []string{"id", "conversation_id", "thread_id", "session_id"} {
			if id := IDOf(x[k]); id != "" {
				return id
			}
		}
	}
	return ""
}

// IDOf reads a call id: a string, or a number as its text.
func IDOf(v any) string {
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	return Str(v)
}

// Obj returns v if it is a JSON object, else nil.
func Obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// List returns v if it is a JSON array, else nil.
func List(v any) []any {
	l, _ := v.([]any)
	return l
}

// Count returns v as an exact integer, or nil.
func Count(v any) *int64 {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		f, err := n.Float64()
		if err != nil || f != float64(int64(f)) {
			return nil
		}
		i = int64(f)
	}
	return &i
}

// AddCount adds n to *sum, keeping nil while nothing was added.
func AddCount(sum **int64, n *int64) {
	if n == nil {
		return
	}
	if *sum == nil {
		*sum = Ptr(int64(0))
	}
	**sum += *n
}

// ParseTime reads ISO 8601 times, with or without a zone (UTC assumed),
// and epoch seconds; zero when absent or unreadable (then reported).
func ParseTime(v any, warn func(string)) time.Time { return ParseTimeOf("time", v, warn) }

// ParseTimeOf is ParseTime for a field the warning names, e.g. "timestamp".
func ParseTimeOf(field string, v any, warn func(string)) time.Time {
	switch x := v.(type) {
	case nil:
		return time.Time{}
	case json.Number:
		f, err := x.Float64()
		if err == nil && f > 0 {
			sec := int64(f)
			return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
		}
	case string:
		if x == "" {
			return time.Time{}
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
			if t, err := time.Parse(layout, x); err == nil {
				return t.UTC()
			}
		}
	}
	warn(fmt.Sprintf("%s %s is not ISO 8601; ignored", field, jsonv.Marshal(v)))
	return time.Time{}
}
