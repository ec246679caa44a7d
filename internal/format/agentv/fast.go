package agentv

import (
	"bytes"
	"encoding/json"
	"math/bits"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// fastDecode reads a record the way encoding/json does, without
// reflection. It says no (ok false) on whatever it does not read exactly
// as encoding/json would: broken JSON, a value of an unexpected type, a
// key given twice or in another case (encoding/json matches keys without
// regard to case). The caller then decodes data with encoding/json, whose
// result or error is the answer; so a record is read the same either way.
//
// The messages and calls of r, and the calls' durations, live in d's
// scratch, reused by the next record: they are read, not kept (see
// build).
func fastDecode(d *decoder, data []byte) (r record, ok bool) {
	p := &d.p
	p.Reset(data)
	if d.calls == nil {
		// Non-nil, so that an empty list reads as one, not as null.
		d.msgs, d.calls = make([]message, 0, 32), make([]toolCall, 0, 32)
		d.shapes.record, d.shapes.message = jsonv.NewShape(recordNames), jsonv.NewShape(messageNames)
		d.shapes.call, d.shapes.usage = jsonv.NewShape(callNames), jsonv.NewShape(usageNames)
	}
	d.calls, d.data, d.kept, d.ids = d.calls[:0], data, [2]keptText{}, idBuckets{}
	d.lists, d.retry, d.turns, d.turn = 0, false, 0, 0
	if p.Peek() != '{' {
		return r, false // null, or not an object: encoding/json says
	}
	var seen keysSeen
	var mem *recordMem // made for the record's first number (see get)
	m := d.shapes.record.Members()
	for {
		// A key found again by the Shape costs no call (see jsonv.Parser.Again).
		i, key := p.Again(&m), []byte(nil)
		if i == jsonv.Miss {
			i, key = p.Member(&m)
		}
		switch i {
		case fieldID:
			// A string, as nearly every id is, kept as one: boxed into
			// r.ID it would cost an allocation more, and a record's id,
			// read once, would take a slot of the parser's short values
			// (see jsonv.Parser.Value).
			if p.Peek() == '"' {
				r.idText, ok = p.Str()
			} else {
				r.ID, ok = p.Value()
			}
		case fieldOutput:
			r.Output, ok = d.messages(true)
		case fieldOutputMessages:
			r.OutputMessages, ok = d.messages(false)
		case fieldTokenUsage:
			r.TokenUsage, ok = fastUsage(p, d.shapes.usage, &mem)
		case fieldCost:
			r.CostUSD, ok = fastFloat(p, &mem, 0)
		case fieldDuration:
			r.DurationMS, ok = fastFloat(p, &mem, 1)
		case fieldTestID:
			r.TestID, ok = p.Value()
		case fieldSchema:
			ok = fastName(p, &r.SchemaVersion)
		case jsonv.Other:
			ok = !folds(key, recordKeys) && p.Skip()
		case jsonv.End:
			if !seen.once() {
				return r, false
			}
			r.valid, r.mem, r.idsDistinct = true, mem, !d.ids.clash
			if d.direct {
				return r, d.handOver(&r)
			}
			if d.keepText {
				// The list build reads (see there): the other's calls
				// keep no text.
				if r.Output != nil {
					d.texts(data, r.Output, &d.kept[0])
				} else {
					d.texts(data, r.OutputMessages, &d.kept[1])
				}
			}
			return r, p.End()
		default:
			return r, false
		}
		seen.note(i)
		if !ok {
			return r, false
		}
	}
}

// keysSeen notes the keys of one object read (see note): a key given
// twice is for encoding/json to decide, found at the object's end (see
// once) rather than at each key, which costs a test and a branch a key.
type keysSeen struct {
	bits uint16 // bit i for key i
	n    int    // the keys noted
}

// note notes key i (-1 for another key, not noted). No list has more
// than 16 keys: i&15 is i, and spares the shift its check for a count
// past the word.
func (s *keysSeen) note(i int) {
	if i >= 0 {
		s.bits |= 1 << (uint(i) & 15)
		s.n++
	}
}

// noteKey is note for a key of the list (i ≥ 0), without the test.
func (s *keysSeen) noteKey(i int) {
	s.bits |= 1 << (uint(i) & 15)
	s.n++
}

// once reports whether no key was noted twice.
func (s *keysSeen) once() bool { return bits.OnesCount16(s.bits) == s.n }

// The fields of each object, listed in the order AgentV writes them (a
// call's error and timestamp, which it seldom has, last), so that jsonv's
// Member finds each key where it stands with one comparison (see there);
// the constants are their places in the lists.
var (
	recordKeys  = []string{"id", "output", "token_usage", "cost_usd", "duration_ms", "output_messages", "test_id", "schema_version"}
	messageKeys = []string{"role", "tool_calls", "content", "name"}
	callKeys    = []string{"tool", "id", "input", "output", "status", "start_time", "end_time", "duration_ms", "error", "timestamp"}
	usageKeys   = []string{"input", "output", "total"}

	recordNames  = jsonv.NewKeys(recordKeys...)
	messageNames = jsonv.NewKeys(messageKeys...)
	callNames    = jsonv.NewKeys(callKeys...)
	usageNames   = jsonv.NewKeys(usageKeys...)
)

const (
	fieldID = iota
	fieldOutput
	fieldTokenUsage
	fieldCost
	fieldDuration
	fieldOutputMessages
	fieldTestID
	fieldSchema
)

const (
	messageRole = iota
	messageToolCalls
	messageContent
	messageName
)

const (
	callTool = iota
	callID
	callInput
	callOutput
	callStatus
	callStart
	callEnd
	callDuration
	callError
	callTimestamp
)

const (
	usageInput = iota
	usageOutput
	usageTotal
)

// folds reports whether key is one of keys but for case: encoding/json
// would take it for that field.
func folds(key []byte, keys []string) bool {
	for _, k := range keys {
		if bytes.EqualFold(key, []byte(k)) {
			return true
		}
	}
	return false
}

// A decoder reads records with a Parser and scratch space for their
// messages and calls.
type decoder struct {
	p     jsonv.Parser
	msgs  []message
	calls []toolCall
	clock clock // reads the times of build
	// shapes remember how this reader's records are written (see
	// jsonv.Shape): one producer writes every record alike.
	shapes struct{ record, message, call, usage *jsonv.Shape }
	// recent remembers the last role, status and result read (see
	// jsonv.Recent, jsonv.RecentSpan): the same again, mostly, where
	// tools and arguments vary.
	recent struct {
		role, status jsonv.Recent
		output       jsonv.RecentSpan
	}
	// keepText leaves the calls' objects and arrays as JSON text (see
	// trajeval.Input.KeepText).
	keepText bool
	// data is the record being read; kept counts the text its calls
	// keep, output's in kept[0], outputMessages' in kept[1], list saying
	// which list is being read (see keptText).
	data []byte
	kept [2]keptText
	list int
	// ids notes the record's call ids (see idBuckets).
	ids idBuckets
	// lists counts the lists of messages of the record read.
	lists int
	stepRead
}

// messages reads a list of messages; scratch puts them in d.msgs. The
// list is read here as jsonv.Parser.Array reads one, with no call of a
// closure for each message.
func (d *decoder) messages(scratch bool) ([]message, bool) {
	p := &d.p
	if p.Null() {
		return nil, true
	}
	if d.direct && d.lists > 0 {
		// build reads one list: a record of two is read the other way.
		return nil, d.again()
	}
	d.lists++
	msgs := []message{}
	d.list = 1
	if scratch {
		msgs, d.list = d.msgs[:0], 0
	}
	ok := p.Peek() == '[' && p.TakeOpen(1)
	if ok && p.Peek() == ']' {
		p.TakeClose(1)
		return msgs, true
	}
list:
	for ok {
		// Read in place, as call reads a call.
		msgs = append(msgs, message{})
		if ok = d.message(&msgs[len(msgs)-1]); !ok {
			break
		}
		switch p.Peek() {
		case ',':
			p.Take(1)
		case ']':
			p.TakeClose(1)
			break list
		default:
			ok = false
		}
	}
	if scratch {
		d.msgs = msgs
	}
	return msgs, ok
}

// message reads a message into m as AgentV writes it, compact: its role
// first, then its calls or its content, its name, then the closing brace, each
// compared where it must stand with a constant and read by its key's
// reader (see call). A message written otherwise is read on from the key
// where it leaves that order by messageMembers.
func (d *decoder) message(m *message) bool {
	p := &d.p
	const (
		role    = `{"role":`
		calls   = `,"tool_calls":`
		content = `,"content":`
		name    = `,"name":`
	)
	if r := p.Rest(); len(r) < len(role) || string(r[:len(role)]) != role || !p.TakeOpen(len(role)) {
		return d.messageMembers(m, d.shapes.message.Members(), keysSeen{})
	}
	// The role found again costs no call (see jsonv.Parser.NameAgain).
	if s, again := p.NameAgain(&d.recent.role); again {
		m.Role = s
	} else if !recentName(p, &d.recent.role, &m.Role) {
		return false
	}
	seen, last := keysSeen{bits: 1 << messageRole, n: 1}, messageRole
	var ok bool
	if r := p.Rest(); len(r) >= len(calls) && string(r[:len(calls)]) == calls {
		// The list's bracket compared with the key, as AgentV writes it.
		list := len(r) > len(calls) && r[len(calls)] == '['
		p.Take(len(calls))
		if d.direct && m.Role == "user" {
			// A user's calls make no step (see build).
			return d.again()
		}
		before := len(d.steps)
		if m.ToolCalls, ok = d.toolCalls(list); !ok {
			return false
		}
		m.steps = len(d.steps) - before
		if m.steps == 0 && d.direct {
			d.countTurn(m.Role) // callStep counts it for a call
		}
		seen.noteKey(messageToolCalls)
		last = messageToolCalls
	} else {
		if d.direct {
			d.countTurn(m.Role)
		}
		if len(r) >= len(content) && string(r[:len(content)]) == content {
			p.Take(len(content))
			if m.Content, ok = p.Value(); !ok {
				return false
			}
			seen.noteKey(messageContent)
			last = messageContent
		}
	}
	r := p.Rest()
	if len(r) > 0 && r[0] == '}' {
		p.TakeClose(1)
		return true
	}
	// A sub-agent's name, after its calls (see build).
	if last != messageRole && len(r) >= len(name) && string(r[:len(name)]) == name {
		p.Take(len(name))
		if !fastName(p, &m.Name) {
			return false
		}
		seen.noteKey(messageName)
		last = messageName
		if r := p.Rest(); len(r) > 0 && r[0] == '}' {
			p.TakeClose(1)
			return true
		}
	}
	return d.messageMembers(m, d.shapes.message.MembersAfter(last), seen)
}

// messageMembers reads the members of the message m from o on, the keys
// noted in seen read before by message: each key found by Member, as a
// Shape remembers the messages before, and read by its reader.
func (d *decoder) messageMembers(m *message, o jsonv.Members, seen keysSeen) bool {
	if d.direct {
		// Its name may come after its calls, or its role (see build).
		return d.again()
	}
	p := &d.p
	for {
		ok := true
		// Messages written otherwise, seldom: Member, not Again inlined
		// before it as the other loops over keys have it.
		i, key := p.Member(&o)
		switch i {
		case messageRole:
			ok = recentName(p, &d.recent.role, &m.Role)
		case messageName:
			ok = fastName(p, &m.Name)
		case messageContent:
			m.Content, ok = p.Value()
		case messageToolCalls:
			m.ToolCalls, ok = d.toolCalls(false)
		case jsonv.Other:
			ok = !folds(key, messageKeys) && p.Skip()
		case jsonv.End:
			return seen.once()
		default:
			return false
		}
		seen.note(i)
		if !ok {
			return false
		}
	}
}

// toolCalls reads a list of calls (or null) into d.calls, or straight
// into the record's steps (see decoder.callStep). The list is read here
// as jsonv.Parser.Array reads one, with no call of a closure for each
// call. When list is true, the caller has seen that the list's opening
// bracket is the next byte (message compares it with the key before it),
// so no null and no white space are looked for.
func (d *decoder) toolCalls(list bool) ([]toolCall, bool) {
	p := &d.p
	if !list && p.Null() {
		return nil, true
	}
	start := len(d.calls)
	ok := (list || p.Peek() == '[') && p.TakeOpen(1)
	if ok && p.Peek() == ']' {
		p.TakeClose(1)
		return d.calls[start:len(d.calls):len(d.calls)], true
	}
calls:
	for ok {
		var in, out *span
		if d.direct {
			var sp *callSpans
			if sp, ok = d.callStep(); !ok {
				break
			}
			in, out = &sp.in, &sp.out
		} else {
			var c *toolCall
			if c, ok = d.call(); !ok {
				break
			}
			in, out = &c.in, &c.out
		}
		if d.keepText {
			k := &d.kept[d.list&1]
			// The usual call, its arguments kept and its result found
			// again as the last kept (see keptText.note), counted here
			// with no call.
			if out.again && k.last.again && in.end > 0 {
				k.n += int(in.end - in.start)
				k.texts++
				out.same = true
			} else {
				k.note(d.data, in, out)
			}
		}
		switch p.Peek() {
		case ',':
			p.Take(1)
		case ']':
			p.TakeClose(1)
			break calls
		default:
			ok = false
		}
	}
	if d.direct {
		return nil, ok // counted in steps (see message)
	}
	return d.calls[start:len(d.calls):len(d.calls)], ok
}

// call reads a call into d.calls and returns it (toolCalls counts its
// kept text with no look up): each key found by members. Calls written
// as AgentV writes them are read straight into their steps (see
// decoder.callStep); this reads the records that path leaves (see
// fastRead), and the records of the tests that compare the fast path's
// records with encoding/json's.
func (d *decoder) call() (*toolCall, bool) {
	// Read in place: a call is some 200 bytes, and nothing below
	// appends to d.calls while it is read.
	d.calls = append(d.calls, toolCall{})
	c := &d.calls[len(d.calls)-1]
	return c, d.members(c)
}

// members reads the members of the call c: each key found by Member,
// as a Shape remembers the calls before, and read by its reader.
func (d *decoder) members(c *toolCall) bool {
	p := &d.p
	o := d.shapes.call.Members()
	var seen keysSeen
	for {
		ok := true
		// A key found again by the Shape costs no call (see jsonv.Parser.Again).
		i, key := p.Again(&o), []byte(nil)
		if i == jsonv.Miss {
			i, key = p.Member(&o)
		}
		switch i {
		case callTool:
			ok = fastName(p, &c.Tool)
		case callInput:
			c.Input, ok = d.value(&c.in, nil)
		case callOutput:
			c.Output, ok = d.value(&c.out, &d.recent.output)
		case callID:
			c.ID, ok = p.Value()
			d.ids.note(c.ID)
		case callStatus:
			if s, again := p.NameAgain(&d.recent.status); again {
				c.Status = s
			} else {
				ok = recentName(p, &d.recent.status, &c.Status)
			}
		case callError:
			c.Error, ok = p.Value()
		case callStart:
			ok = d.stamp(&c.parsed, &c.at[0], 1, &c.StartTime)
		case callEnd:
			ok = d.stamp(&c.parsed, &c.at[1], 2, &c.EndTime)
		case callTimestamp:
			ok = d.stamp(&c.parsed, &c.at[2], 4, &c.Timestamp)
		case callDuration:
			ok = duration(p, c)
		case jsonv.Other:
			// Not noted: the note below is for the keys of the list.
			if folds(key, callKeys) || !p.Skip() {
				return false
			}
			continue
		case jsonv.End:
			return seen.once()
		default:
			return false
		}
		seen.noteKey(i)
		if !ok {
			return false
		}
	}
}

// recordNumbers holds the numbers of one record the trajectory points
// at (its cost, duration and token counts), so that they take one
// allocation, not one each.
type recordNumbers struct {
	usage  tokenUsage
	ints   [3]int64
	floats [2]float64
}

// get returns the numbers of *mem, made if it is nil: the record's
// numbers share its trajectory's allocation (see recordMem).
func get(mem **recordMem) *recordNumbers {
	if *mem == nil {
		*mem = new(recordMem)
	}
	return &(*mem).nums
}

func fastUsage(p *jsonv.Parser, shape *jsonv.Shape, mem **recordMem) (*tokenUsage, bool) {
	if p.Null() {
		return nil, true
	}
	u := &get(mem).usage
	var seen keysSeen
	o := shape.Members()
	for {
		var ok bool
		// A key found again by the Shape costs no call (see jsonv.Parser.Again).
		i, key := p.Again(&o), []byte(nil)
		if i == jsonv.Miss {
			i, key = p.Member(&o)
		}
		switch i {
		case usageInput:
			u.Input, ok = fastInt(p, mem, 0)
		case usageOutput:
			u.Output, ok = fastInt(p, mem, 1)
		case usageTotal:
			u.Total, ok = fastInt(p, mem, 2)
		case jsonv.Other:
			ok = !folds(key, usageKeys) && p.Skip()
		case jsonv.End:
			return u, seen.once()
		default:
			return u, false
		}
		seen.note(i)
		if !ok {
			return u, false
		}
	}
}

// fastName reads a string field, interned; null leaves it as it is.
func fastName(p *jsonv.Parser, dst *string) bool {
	// A string first, as nearly every one is: a null only when none.
	if p.Peek() != '"' {
		return p.Null()
	}
	s, ok := p.Name()
	*dst = s
	return ok
}

// recentName is fastName for a string r may remember (see
// jsonv.Recent).
func recentName(p *jsonv.Parser, r *jsonv.Recent, dst *string) bool {
	s, ok := p.NameRecent(r)
	if ok {
		*dst = s
		return true
	}
	// Not a string: NameRecent read nothing but white space.
	return p.Peek() != '"' && p.Null()
}

// stamp reads a call's time into at: a time of the usual shape is read
// at once from the line's bytes (see clock.parse), its text left empty,
// bit set in *parsed; other text is kept for build to read and report.
// null leaves it as it is. at and bit, not an index: the caller's
// constants cost no multiplication, bounds check or shift.
func (d *decoder) stamp(parsed *uint8, at *instant, bit uint8, text *string) bool {
	p := &d.p
	// The usual shape, of the minute the clock read last, read where it
	// stands: clock.same checks every byte of it as a digit or a
	// separator, so no scan for the string's end or its escapes is
	// needed first. Another minute is read below (see clock.parse).
	if b := p.Quoted(millisTime); b != nil {
		if x, ok := d.clock.same((*[millisTime]byte)(b)); ok {
			p.TakeQuoted(millisTime)
			*at, *parsed = d.clock.at(x), *parsed|bit
			return true
		}
	}
	return d.stampText(parsed, at, bit, text)
}

// stampText is stamp for a time of another minute or shape, or null: a
// call of its own, so that stamp keeps its arguments in registers.
func (d *decoder) stampText(parsed *uint8, at *instant, bit uint8, text *string) bool {
	p := &d.p
	// Of the usual shape but another minute, as a trace's first time
	// mostly is: clock.parse checks every byte too.
	if b := p.Quoted(millisTime); b != nil {
		if t, ok := d.clock.parse(b); ok {
			p.TakeQuoted(millisTime)
			*at, *parsed = t, *parsed|bit
			return true
		}
	}
	if p.Null() {
		return true
	}
	// A time of the clock's shape is plain ASCII: read without a look for
	// escapes past its end or a check for UTF-8.
	b, ok := p.Plain(maxTime)
	if !ok {
		if b, ok = p.Bytes(); !ok {
			return false
		}
	}
	if t, ok := d.clock.parse(b); ok {
		// text is empty already: the call is new, and a key given twice
		// sends the record to encoding/json.
		*at, *parsed = t, *parsed|bit
		return true
	}
	*text = string(b)
	return true
}

// duration reads a call's duration into c.duration, bit 3 of c.parsed
// set: the number in the call, not behind a pointer of its own (see
// toolCall.duration). null leaves it unset.
func duration(p *jsonv.Parser, c *toolCall) bool {
	f, null, ok := p.FloatOrNull()
	if !null {
		c.duration, c.parsed = f, c.parsed|8
	}
	return ok
}

// fastFloat reads a number into float i of the numbers of *mem.
func fastFloat(p *jsonv.Parser, mem **recordMem, i int) (*float64, bool) {
	if p.Null() {
		return nil, true
	}
	f, ok := p.Float()
	if !ok {
		return nil, false
	}
	n := get(mem)
	n.floats[i] = f
	return &n.floats[i], true
}

// fastInt reads a number into int i of the numbers of *mem.
func fastInt(p *jsonv.Parser, mem **recordMem, i int) (*int64, bool) {
	if p.Null() {
		return nil, true
	}
	v, ok := p.Int()
	if !ok {
		return nil, false
	}
	n := get(mem)
	n.ints[i] = v
	return &n.ints[i], true
}

// value reads a call's input or output: as text when the decoder keeps
// text and the value is an object or an array (see texts), its place
// in the record noted in at; as a value otherwise. With r, a text of a
// few bytes that stood there last time is found again by its bytes (see
// jsonv.RecentSpan): results repeat from call to call (`{"ok":true}`),
// arguments seldom, and a text not found again costs the look and the
// remembering (on the bench's 80,000 calls, whose arguments all differ,
// 8.7 M instructions more than Span alone).
func (d *decoder) value(at *span, r *jsonv.RecentSpan) (any, bool) {
	p := &d.p
	if c := p.Peek(); !d.keepText || c != '{' && c != '[' {
		return p.Value()
	}
	var start, end int
	var ok bool
	if r != nil {
		// Found again, the text is that of the last output r read or
		// found (see texts).
		if start, end, again := p.SpanAgain(r); again {
			*at = span{start: int32(start), end: int32(end), again: true}
			return nil, true
		}
		start, end, ok = p.SpanRecent(r)
	} else {
		start, end, ok = p.Span()
	}
	*at = span{start: int32(start), end: int32(end)}
	return nil, ok
}

// A span is the place of a value's text in a record; the zero span is
// none. same says that an output's text is that of the last output kept
// before it (see texts).
type span struct {
	// int32: a record is a line or a document, at most
	// jsonl.MaxDocument bytes; and a call is zeroed as it is read.
	start, end int32
	same       bool
	// again says that the output was found again by the decoder's
	// jsonv.RecentSpan (see value).
	again bool
}

// keptText counts the text the calls of one list of a record's
// messages keep (see value), in the order they are read, for texts to
// copy into one allocation: n bytes in texts texts.
//
// An output whose text is that of the last output kept before it
// (`{"ok":true}` from call to call, as jsonv.RecentSpan finds them) shares
// its *json.RawMessage (span.same): kept text is never changed, and the
// copy and the slab's element cost more than the comparison (on the
// bench's records, 19 results of 20 are shared).
type keptText struct {
	n, texts int
	last     span // the last output kept, for the next to share
}

// note counts the text of a call of the record data, read just now,
// whose input and output stand at in and out.
func (k *keptText) note(data []byte, in, out *span) {
	if in.end > 0 {
		k.n += int(in.end - in.start)
		k.texts++
	}
	if out.end > 0 {
		// last.again says that last's text is the one the decoder's
		// RecentSpan holds: an output found again then has it, with no
		// comparison of their bytes. Only an output read (not found)
		// changes what RecentSpan holds, and an output of another text
		// would be last.
		last := &k.last
		if last.end > 0 && (out.again && last.again || string(data[out.start:out.end]) == string(data[last.start:last.end])) {
			out.same = true
			last.again = last.again || out.again
			return
		}
		*last = *out
		k.n += int(out.end - out.start)
		k.texts++
	}
}

// texts sets the input and output of each call of msgs, a list of the
// record data, that was read as text (see value) to a copy of its text,
// all of them copied into one allocation (k counted them as they were
// read): the record's buffer is reused for the next line, and a
// trajectory keeps its steps' texts as long as it lives. Each is a
// *json.RawMessage into one slab a record (see trajeval.KeptText): a
// pointer goes into an interface without an allocation of its own.
//
// The calls are those of the messages, not d.calls: a record of more
// calls than d.calls had room for moved it while it was read, and the
// messages read before hold the calls where they were (build reads them
// there).
func (d *decoder) texts(data []byte, msgs []message, k *keptText) {
	if k.n == 0 {
		return
	}
	w := newTextSlab(k)
	for i := range msgs {
		calls := msgs[i].ToolCalls
		for ci := range calls {
			c := &calls[ci]
			w.set(data, &c.in, &c.out, &c.Input, &c.Output)
		}
	}
}

// A textSlab is the one allocation of a record's kept text (see
// decoder.texts), filled a call at a time.
type textSlab struct {
	buf  []byte
	slab []json.RawMessage
	j    int
	out  *json.RawMessage // the last output kept, for the next to share
}

func newTextSlab(k *keptText) textSlab {
	return textSlab{buf: make([]byte, k.n), slab: make([]json.RawMessage, k.texts)}
}

// set sets *input and *output, those of a call whose text stands at in
// and out in data, to copies of it, when it was read as text.
func (w *textSlab) set(data []byte, in, out *span, input, output *any) {
	if in.end > 0 {
		*input = w.keep(data[in.start:in.end])
	}
	switch {
	case out.same:
		*output = w.out
	case out.end > 0:
		w.out = w.keep(data[out.start:out.end])
		*output = w.out
	}
}

// keep copies text to the slab's next bytes and returns it there, full
// (no append runs into the next), in the slab's next element.
func (w *textSlab) keep(text []byte) *json.RawMessage {
	n := copy(w.buf, text)
	dst := &w.slab[w.j]
	*dst, w.buf = w.buf[:n:n], w.buf[n:]
	w.j++
	return dst
}
