package trajeval

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// AppendJSON appends the canonical JSON form of t (docs/scoring.md §1) to
// dst and returns the extended slice: byte for byte what json.Marshal
// writes for t, without reflection, but for the characters of rule 2's
// end, which encoding/json writes as they are.
//
// The rules, which are encoding/json's but for that:
//  1. Fields come in the order of the wire shapes; what is unknown is null;
//     "agents" and "partial" are left out when empty or false.
//  2. Strings escape quote, backslash, control characters, <, > and &, and
//     U+2028 and U+2029; bytes that are not UTF-8 become \ufffd. The C1
//     controls U+0080–U+009F and the bidi characters U+202A–U+202E and
//     U+2066–U+2069 are escaped too, so that no terminal acts on them:
//     the string read back is the same.
//  3. Numbers of arguments and results (json.Number) are written as they
//     are; float64 figures as encoding/json writes them; object keys are
//     sorted.
//  4. What encoding/json refuses (a NaN or infinite figure, an invalid
//     json.Number, a time outside years 0–9999) is refused with its error,
//     and dst comes back unchanged.
func AppendJSON(dst []byte, t *Trajectory) ([]byte, error) {
	e := encoder{b: dst, ok: true}
	e.trajectory(t)
	if e.ok {
		return e.b, nil
	}
	data, err := t.marshalStd()
	if err != nil {
		return dst, err
	}
	return append(dst, data...), nil
}

// marshalStd is the trajectory's JSON by encoding/json, the reference
// AppendJSON follows, with the characters of jsonv.Escaped escaped; it
// answers where AppendJSON gives up.
func (t *Trajectory) marshalStd() ([]byte, error) {
	data, err := json.Marshal(t.wire())
	return jsonv.Escape(data), err
}

func (t *Trajectory) wire() trajectoryJSON {
	w := trajectoryJSON{ID: t.ID, Turns: make([]turnJSON, len(t.Turns)), Steps: t.Steps, Partial: t.Partial}
	if w.Steps == nil {
		w.Steps = []Step{}
	}
	for i, tn := range t.Turns {
		w.Turns[i] = turnJSON(tn)
	}
	for _, a := range t.Agents {
		w.Agents = append(w.Agents, agentJSON{Name: a.Name, Parent: nonZero(a.Parent)})
	}
	m := t.Metrics
	w.Metrics = metricsJSON{DurationMS: m.DurationMS, CostUSD: m.CostUSD, LLMCalls: m.LLMCalls}
	if m.Tokens.Reported() {
		w.Metrics.Tokens = &tokensJSON{m.Tokens.Input, m.Tokens.Output, m.Tokens.Total}
	}
	return w
}

// marshalStd is the step's JSON by encoding/json, with the characters of
// jsonv.Escaped escaped.
func (s *Step) marshalStd() ([]byte, error) {
	args, err := Decoded(s.Args)
	if err != nil {
		return nil, err
	}
	result, err := Decoded(s.Result)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(stepJSON{
		Index: s.Index, Turn: nonZero(s.Turn), ID: nonZero(s.ID), Name: s.Name,
		Args: args, Result: result, Error: s.Error, ErrorMessage: nonZero(s.ErrorMessage),
		DurationMS: s.DurationMS, StartTime: nonZeroTime(s.StartTime), EndTime: nonZeroTime(s.EndTime),
		ParallelGroup: nonZero(s.ParallelGroup), Agent: nonZero(s.Agent),
	})
	return jsonv.Escape(data), err
}

// An encoder appends JSON to b; ok turns false at the first value it
// cannot write as encoding/json would, and b is then to be thrown away.
type encoder struct {
	b    []byte
	ok   bool
	days dayCache
	keys keyCache
}

func (e *encoder) trajectory(t *Trajectory) {
	e.b = append(e.b, `{"id":`...)
	e.str(t.ID)
	e.b = append(e.b, `,"turns":[`...)
	for i := range t.Turns {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		tn := &t.Turns[i]
		e.b = append(e.b, `{"turn":`...)
		e.b = appendInt(e.b, tn.Turn)
		e.b = append(e.b, `,"user":`...)
		e.strPtr(tn.User)
		e.b = append(e.b, `,"final_response":`...)
		e.strPtr(tn.FinalResponse)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, `],"steps":[`...)
	for i := range t.Steps {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.step(&t.Steps[i])
	}
	m := &t.Metrics
	e.b = append(e.b, `],"metrics":{"duration_ms":`...)
	e.floatPtr(m.DurationMS)
	e.b = append(e.b, `,"cost_usd":`...)
	e.floatPtr(m.CostUSD)
	e.b = append(e.b, `,"tokens":`...)
	if tk := m.Tokens; tk.Reported() {
		e.b = append(e.b, `{"input":`...)
		e.intPtr(tk.Input)
		e.b = append(e.b, `,"output":`...)
		e.intPtr(tk.Output)
		e.b = append(e.b, `,"total":`...)
		e.intPtr(tk.Total)
		e.b = append(e.b, '}')
	} else {
		e.b = append(e.b, "null"...)
	}
	e.b = append(e.b, `,"llm_calls":`...)
	e.intPtr(m.LLMCalls)
	e.b = append(e.b, '}')
	if len(t.Agents) > 0 {
		e.b = append(e.b, `,"agents":[`...)
		for i, a := range t.Agents {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = append(e.b, `{"name":`...)
			e.str(a.Name)
			e.b = append(e.b, `,"parent":`...)
			e.strOrNull(a.Parent)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if t.Partial {
		e.b = append(e.b, `,"partial":true`...)
	}
	e.b = append(e.b, '}')
}

func (e *encoder) step(s *Step) {
	e.b = append(e.b, `{"index":`...)
	e.b = appendInt(e.b, s.Index)
	e.b = append(e.b, `,"turn":`...)
	e.intOrNull(s.Turn)
	e.b = append(e.b, `,"id":`...)
	e.strOrNull(s.ID)
	e.b = append(e.b, `,"name":`...)
	e.str(s.Name)
	e.b = append(e.b, `,"args":`...)
	e.value(s.Args)
	e.b = append(e.b, `,"result":`...)
	e.value(s.Result)
	// A step without error message, parallel group or agent (most) has
	// its run of fields with their nulls written at once.
	switch {
	case s.ErrorMessage != "" || s.Error == nil:
		e.b = append(e.b, `,"error":`...)
		if s.Error == nil {
			e.b = append(e.b, "null"...)
		} else {
			e.b = strconv.AppendBool(e.b, *s.Error)
		}
		e.b = append(e.b, `,"error_message":`...)
		e.strOrNull(s.ErrorMessage)
		e.b = append(e.b, `,"duration_ms":`...)
	case *s.Error:
		e.b = append(e.b, `,"error":true,"error_message":null,"duration_ms":`...)
	default:
		e.b = append(e.b, `,"error":false,"error_message":null,"duration_ms":`...)
	}
	e.floatPtr(s.DurationMS)
	e.b = append(e.b, `,"start_time":`...)
	e.time(s.StartTime)
	e.b = append(e.b, `,"end_time":`...)
	e.time(s.EndTime)
	if s.ParallelGroup == 0 && s.Agent == "" {
		e.b = append(e.b, `,"parallel_group":null,"agent":null}`...)
		return
	}
	e.b = append(e.b, `,"parallel_group":`...)
	e.intOrNull(s.ParallelGroup)
	e.b = append(e.b, `,"agent":`...)
	e.strOrNull(s.Agent)
	e.b = append(e.b, '}')
}

// value writes a JSON value of the trajectory model; a value of another
// type goes to encoding/json.
func (e *encoder) value(v any) {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, "null"...)
	case string:
		e.str(x)
	case json.Number:
		e.number(x)
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case float64:
		e.float(x)
	case []any:
		if x == nil {
			e.b = append(e.b, "null"...)
			return
		}
		e.b = append(e.b, '[')
		for i, el := range x {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.value(el)
		}
		e.b = append(e.b, ']')
	case map[string]any:
		e.object(x)
	case json.RawMessage:
		e.text(x)
	case *json.RawMessage:
		text, _ := KeptText(x)
		e.text(text)
	default:
		data, err := json.Marshal(v)
		if err != nil {
			e.ok = false
			return
		}
		e.b = jsonv.AppendEscaped(e.b, data)
	}
}

// text writes JSON text not yet decoded (see Decoded): as it stands when
// that is what writing the value it holds gives (see canonical), else
// decoded and written.
func (e *encoder) text(x json.RawMessage) {
	if canonical(x) {
		e.b = append(e.b, x...)
		return
	}
	d, err := Decoded(x)
	if err != nil {
		e.ok = false
		return
	}
	e.value(d)
}

// canonical reports whether text is one JSON value written as value
// writes the value it decodes to (Decoded), so that it may be copied as it
// stands: a reader keeps the text of arguments and results that are
// mostly written so already (by this encoder, or by a JSON library that
// sorts keys). The text must have
//  1. no white space;
//  2. the keys of each object in increasing order, none repeated;
//  3. strings with no escape and no byte that value escapes (control
//     characters, <, > and &, invalid UTF-8, and the characters of
//     jsonv.Escaped: C1 controls, U+2028 and U+2029, bidi, the first # of
//     ##[): a string with an escape may be written another way, and is
//     not looked into;
//  4. numbers of the JSON grammar, which value writes as they are;
//  5. nesting no deeper than jsonv.MaxDepth, past which Decoded refuses.
//
// Anything else is decoded and written, as before.
func canonical(text []byte) bool {
	end, ok := canonicalValue(text, 0, 0)
	return ok && end == len(text)
}

// canonicalValue checks the value at text[i:] (see canonical) and returns
// where it ends.
func canonicalValue(text []byte, i, depth int) (int, bool) {
	if i >= len(text) {
		return i, false
	}
	switch c := text[i]; c {
	case '{':
		if depth++; depth > jsonv.MaxDepth {
			return i, false
		}
		i++
		if i < len(text) && text[i] == '}' {
			return i + 1, true
		}
		var last []byte
		for n := 0; ; n++ {
			start := i
			end, ok := canonicalString(text, i)
			if !ok || end >= len(text) || text[end] != ':' {
				return i, false
			}
			key := text[start+1 : end-1]
			if n > 0 && string(key) <= string(last) {
				return i, false
			}
			last = key
			if i, ok = canonicalValue(text, end+1, depth); !ok || i >= len(text) {
				return i, false
			}
			switch text[i] {
			case ',':
				i++
			case '}':
				return i + 1, true
			default:
				return i, false
			}
		}
	case '[':
		if depth++; depth > jsonv.MaxDepth {
			return i, false
		}
		i++
		if i < len(text) && text[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = canonicalValue(text, i, depth); !ok || i >= len(text) {
				return i, false
			}
			switch text[i] {
			case ',':
				i++
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case '"':
		return canonicalString(text, i)
	case 't':
		return i + 4, len(text)-i >= 4 && string(text[i:i+4]) == "true"
	case 'f':
		return i + 5, len(text)-i >= 5 && string(text[i:i+5]) == "false"
	case 'n':
		return i + 4, len(text)-i >= 4 && string(text[i:i+4]) == "null"
	}
	return canonicalNumber(text, i)
}

// hashCommand is what a CI runner reads as a command anywhere in a line
// (see jsonv.Escaped's rule 4).
var hashCommand = []byte("##[")

// canonicalString checks the string whose opening quote is at text[i]
// and returns where it ends, after its closing quote.
func canonicalString(text []byte, i int) (int, bool) {
	if i >= len(text) || text[i] != '"' {
		return i, false
	}
	for i++; i < len(text); {
		c := text[i]
		if plainHTML[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c == '#' && !bytes.HasPrefix(text[i:], hashCommand):
			i++
			continue
		case c < utf8.RuneSelf:
			return i, false // an escape, a control character, <, >, & or the # of ##[
		}
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n == 1 || jsonv.Escaped(r) {
			return i, false
		}
		i += n
	}
	return i, false
}

// canonicalNumber checks the number at text[i:] against the JSON grammar
// and returns where it ends.
func canonicalNumber(text []byte, i int) (int, bool) {
	digits := func() int {
		j := i
		for i < len(text) && '0' <= text[i] && text[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(text) && text[i] == '-' {
		i++
	}
	switch {
	case i < len(text) && text[i] == '0':
		i++
	case digits() == 0:
		return i, false
	}
	if i < len(text) && text[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	return i, true
}

// object writes m with its keys sorted, as encoding/json does.
//
// The objects of arguments and results mostly hold one or two members,
// and the steps of a trajectory mostly repeat their keys: such an object
// is looked up by the keys of the last objects of its size (see
// keyCache), which costs a fraction of walking the map, and so is an
// object of up to eight members with the keys of the last such. Otherwise
// keys and values are taken in one pass over the map (no lookup per key);
// a pair is swapped when out of order, a larger object sorted in place on
// the stack.
func (e *encoder) object(m map[string]any) {
	switch len(m) {
	case 0:
		if m == nil {
			e.b = append(e.b, "null"...)
		} else {
			e.b = append(e.b, "{}"...)
		}
		return
	case 1:
		k, v, ok := e.keys.one(m)
		if !ok {
			for k, v = range m {
			}
			e.keys.addOne(k)
		}
		e.b = append(e.b, '{')
		e.member(k, v)
		e.b = append(e.b, '}')
		return
	case 2:
		ms, ok := e.keys.two(m)
		if !ok {
			i := 0
			for k, v := range m {
				ms[i] = member{k, v}
				i++
			}
			if ms[1].key < ms[0].key {
				ms[0], ms[1] = ms[1], ms[0]
			}
			e.keys.addTwo(ms[0].key, ms[1].key)
		}
		e.b = append(e.b, '{')
		e.member(ms[0].key, ms[0].value)
		e.b = append(e.b, ',')
		e.member(ms[1].key, ms[1].value)
		e.b = append(e.b, '}')
		return
	}
	var buf [16]member
	ms, ok := e.keys.many(m, buf[:0])
	if !ok {
		ms = buf[:0]
		for k, v := range m {
			ms = append(ms, member{k, v})
		}
		sortMembers(ms)
		e.keys.addMany(ms)
	}
	e.b = append(e.b, '{')
	for i := range ms {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.member(ms[i].key, ms[i].value)
	}
	e.b = append(e.b, '}')
}

// A keyCache holds the keys of the last objects of one member and of two
// that an encoder wrote, and of the last larger one of at most eight,
// sorted, to find the members of the next objects of those sizes by
// lookup. An object of n members that holds n given distinct keys holds
// those and no others: what is found is exact, and a key not found costs
// a lookup before the walk.
type keyCache struct {
	ones  [3]string
	nOnes int // how many of ones are set
	twos  [2][2]string
	nTwos int // how many of twos are set
	lots  [8]string
	nLots int // how many of lots are set: the keys of an object of nLots members
}

// many appends the members of m, an object of more than two members, to
// ms, sorted, if its keys are the cache's larger object's.
func (c *keyCache) many(m map[string]any, ms []member) ([]member, bool) {
	if len(m) != c.nLots {
		return nil, false
	}
	for _, k := range c.lots[:c.nLots] {
		v, ok := m[k]
		if !ok {
			return nil, false
		}
		ms = append(ms, member{k, v})
	}
	return ms, true
}

// addMany remembers the keys of ms, sorted, if they are few enough.
func (c *keyCache) addMany(ms []member) {
	if len(ms) > len(c.lots) {
		return
	}
	for i := range ms {
		c.lots[i] = ms[i].key
	}
	c.nLots = len(ms)
}

// one returns the member of m, an object of one member, if its key is one
// of the cache's.
func (c *keyCache) one(m map[string]any) (string, any, bool) {
	for _, k := range c.ones[:c.nOnes] {
		if v, ok := m[k]; ok {
			return k, v, true
		}
	}
	return "", nil, false
}

// addOne remembers k, the key of an object of one member, in place of the
// oldest.
func (c *keyCache) addOne(k string) {
	copy(c.ones[1:], c.ones[:])
	c.ones[0] = k
	c.nOnes = min(c.nOnes+1, len(c.ones))
}

// two returns the members of m, an object of two members, sorted, if its
// keys are a pair of the cache's.
func (c *keyCache) two(m map[string]any) ([2]member, bool) {
	for _, p := range c.twos[:c.nTwos] {
		v0, ok0 := m[p[0]]
		if !ok0 {
			continue
		}
		if v1, ok1 := m[p[1]]; ok1 {
			return [2]member{{p[0], v0}, {p[1], v1}}, true
		}
	}
	return [2]member{}, false
}

// addTwo remembers k0 < k1, the keys of an object of two members, in
// place of the oldest pair.
func (c *keyCache) addTwo(k0, k1 string) {
	c.twos[1] = c.twos[0]
	c.twos[0] = [2]string{k0, k1}
	c.nTwos = min(c.nTwos+1, len(c.twos))
}

// member writes an object's member, its key and value.
func (e *encoder) member(k string, v any) {
	e.str(k)
	e.b = append(e.b, ':')
	e.value(v)
}

// number writes n as it is; the empty number is 0 and an invalid one is
// refused, as by encoding/json.
func (e *encoder) number(n json.Number) {
	switch {
	case n == "":
		e.b = append(e.b, '0')
	case validNumber(string(n)):
		e.b = append(e.b, n...)
	default:
		e.ok = false
	}
}

// validNumber reports whether s is a JSON number literal.
func validNumber(s string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// time writes t in UTC as time.Time's MarshalJSON does; the zero time is
// null. The date is worked out once a day of the trajectory (see
// dayCache): its steps mostly share it.
func (e *encoder) time(t time.Time) {
	if t.IsZero() {
		e.b = append(e.b, "null"...)
		return
	}
	var ok bool
	if e.b, ok = e.days.appendTime(e.b, t); !ok {
		e.ok = false
	}
}

func (e *encoder) intOrNull(n int) {
	if n == 0 {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = appendInt(e.b, n)
}

func (e *encoder) intPtr(n *int64) {
	if n == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = strconv.AppendInt(e.b, *n, 10)
}

func (e *encoder) floatPtr(f *float64) {
	if f == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.float(*f)
}

// float writes f as encoding/json does: like ES6, %f between 1e-6 and
// 1e21, exponents unpadded. NaN and infinities are refused.
func (e *encoder) float(f float64) {
	var ok bool
	if e.b, ok = appendFloat(e.b, f); !ok {
		e.ok = false
	}
}

func (e *encoder) strPtr(s *string) {
	if s == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.str(*s)
}

func (e *encoder) strOrNull(s string) {
	if s == "" {
		e.b = append(e.b, "null"...)
		return
	}
	e.str(s)
}

// str writes s as json.Marshal does: quote, backslash and control
// characters escaped, <, > and & too, U+2028 and U+2029 escaped, and
// invalid UTF-8 as \ufffd; and C1 and bidi characters escaped (see
// jsonv.Escaped).
func (e *encoder) str(s string) { e.b = appendString(e.b, s, true) }

// appendString appends s as a JSON string, as jsonv.AppendString does. A
// short string with nothing to escape (a name, an id, a key: most of a
// trajectory's and of details' strings) is checked byte by byte against a
// table and copied in one append; jsonv.AppendString looks at eight bytes
// at a time, which pays on longer strings. (Eight bytes at a time here,
// the last word overlapping, cost a third more instructions on the rows of
// the bench, whose strings are mostly under eight bytes.)
func appendString(b []byte, s string, escapeHTML bool) []byte {
	if plainShort(s, escapeHTML) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	return jsonv.AppendString(b, s, escapeHTML)
}

// plainShort reports whether s is at most 32 bytes, all of which
// encoding/json writes as they are (see plainJSON).
func plainShort(s string, escapeHTML bool) bool {
	if len(s) > 32 {
		return false
	}
	plain := &plainJSON
	if escapeHTML {
		plain = &plainHTML
	}
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i == len(s)
}

// plainJSON tells the bytes encoding/json writes as they are in a string:
// ASCII but for control characters, quote and backslash; plainHTML, those
// json.Marshal writes so, which escapes <, > and & too.
//
// # is left out of both: it is written as it is but for the first of ##[
// (see jsonv.AppendString), so a string holding one is written there.
var plainJSON, plainHTML = func() (t, h [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\' && c != '#'
		h[c] = t[c] && c != '<' && c != '>' && c != '&'
	}
	return t, h
}()

// AppendDetailsJSON appends the JSON of d (null for a nil one) to dst,
// byte for byte what encoding/json writes for it, without reflection:
// with escapeHTML, what json.Marshal writes; without, what an Encoder
// with SetEscapeHTML(false) writes, less the newline. Notes, a dialect's
// own values, go through encoding/json. On an error (Notes encoding/json
// refuses) dst comes back unchanged.
//
// A caller that writes many details in turn (a report, a row's
// evaluators) writes them with a [DetailsWriter] of its own, which keeps
// what they repeat.
func AppendDetailsJSON(dst []byte, d *Details, escapeHTML bool) ([]byte, error) {
	w := detailsWriterPool.Get().(*DetailsWriter)
	defer detailsWriterPool.Put(w)
	w.EscapeHTML = escapeHTML
	return w.Append(dst, d)
}

var detailsWriterPool = sync.Pool{New: func() any { return new(DetailsWriter) }}

// A DetailsWriter appends the JSON of details as [AppendDetailsJSON]
// does, with <, > and & escaped when EscapeHTML is set, and keeps, from
// one details to the next, what details repeat: the tool names and
// strings it found plain, a tool's name with the text that ends its items.
// The details of a run name a few tools over and over, in most of their
// matched and extra items. What is kept is checked against the details at
// hand (a tool by its bytes), so the bytes are the same with or without
// it.
//
// The zero value is ready to use. A DetailsWriter is not safe for use by
// several goroutines at once.
type DetailsWriter struct {
	EscapeHTML bool
	memo       detailsMemo
}

// Append appends the JSON of d (null for a nil one) to dst; on an error
// dst comes back unchanged.
func (w *DetailsWriter) Append(dst []byte, d *Details) ([]byte, error) {
	e := detailsEncoder{b: dst, html: w.EscapeHTML, memo: &w.memo}
	if err := e.details(d); err != nil {
		return dst, err
	}
	return e.b, nil
}

type detailsEncoder struct {
	b       []byte
	html    bool         // <, >, & escaped, as json.Marshal does
	compact bytes.Buffer // an argument difference's JSON text, compacted
	memo    *detailsMemo
}

// A detailsMemo holds what the details a DetailsWriter writes repeat:
//  1. tails holds, for tool names of 4 to 16 bytes that need no escape,
//     HTML's included, the text that ends a matched or extra item of the
//     tool (see toolTail), in slots picked by a hash of the name's words
//     (see nameWords). A run's details name a few tools over and over:
//     most of their items find their tool here with two loads and three
//     comparisons, and are written in six stores of a word.
//  2. strs holds other strings that were written as they are (every
//     escape is longer than what it stands for), without and with HTML
//     escaped, in slots by their length, first and last bytes: the names,
//     statuses and modes an evaluator sets are the same strings details
//     after details, and a comparison with the same string ends at its
//     pointer.
type detailsMemo struct {
	tails [1 << tailBits]toolTail
	strs  [2][16]string
}

// tailBits is the width of a tail's slot number.
const tailBits = 6

// A toolTail is the text that ends an item of a tool, `,"tool":"T"}`, as
// four words and a length, with the tool's words; the zero value is no
// tool's.
type toolTail struct {
	name nameWords
	w    [4]uint64
	n    int
}

// nameWords are the bytes of a string of 4 to 16 bytes as two words that
// cover it, its first and last eight bytes (four, when shorter than
// eight), which overlap when it is shorter than 16 (8): with its length,
// they are the whole string. The zero value is no string.
type nameWords struct {
	lo, hi uint64
	n      int
}

// wordsOf returns the words of s, 4 to 16 bytes long.
func wordsOf(s string) nameWords {
	n := len(s)
	if n >= 8 {
		return nameWords{le64(s), le64(s[n-8:]), n}
	}
	return nameWords{uint64(le32(s)), uint64(le32(s[n-4:])), n}
}

// le64 and le32 read the first eight and four bytes of s as one
// little-endian word (the compiler makes each one load).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// tailSlot returns the slot of a tool's words lo and hi.
func tailSlot(lo, hi uint64) uint64 {
	return (lo*0x9e3779b97f4a7c15 ^ hi*0xc2b2ae3d27d4eb4f) >> (64 - tailBits)
}

// fill makes t, tool's slot, the tail of tool, whose words are w, and
// reports whether it did: tool is not to be escaped, with HTML or
// without; otherwise t is unchanged.
func (t *toolTail) fill(tool string, w nameWords) bool {
	if !plainShort(tool, true) {
		return false
	}
	var text [32]byte
	n := copy(text[:], `,"tool":"`)
	n += copy(text[n:], tool)
	n += copy(text[n:], `"}`)
	for i := range t.w {
		t.w[i] = binary.LittleEndian.Uint64(text[8*i:])
	}
	t.name, t.n = w, n
	return true
}

// An itemHead is the text that starts an item of a step below 100, as two
// words and a length: stepHeads[n] is `"step":N` (a matched item's, after
// its item), extraHeads[n] `,{"step":N` (an extra item's, with its comma).
type itemHead struct {
	w [2]uint64
	n int
}

var stepHeads, extraHeads = heads(""), heads(",{")

func heads(prefix string) (t [100]itemHead) {
	for n := range t {
		var text [16]byte
		t[n].n = copy(text[:], prefix+`"step":`+strconv.Itoa(n))
		for i := range t[n].w {
			t[n].w[i] = binary.LittleEndian.Uint64(text[8*i:])
		}
	}
	return t
}

// appendItem appends the item of head h and tail t to b.
func appendItem(b []byte, h *itemHead, t *toolTail) []byte {
	if cap(b)-len(b) < 48 {
		b = slices.Grow(b, 48)
	}
	at := len(b)
	return b[:at+putItem((*[48]byte)(b[at:at+48]), h, t)]
}

// putItem writes the item of head h and tail t at the start of w and
// returns its length: a word is stored at a time, each store past the
// last one's end overwritten by the next or cut off, where an append of a
// text calls memmove.
func putItem(w *[48]byte, h *itemHead, t *toolTail) int {
	binary.LittleEndian.PutUint64(w[0:], h.w[0])
	binary.LittleEndian.PutUint64(w[8:], h.w[1])
	hn := h.n & 15 // h.n < 16: the tail's words fit
	binary.LittleEndian.PutUint64(w[hn:], t.w[0])
	binary.LittleEndian.PutUint64(w[hn+8:], t.w[1])
	binary.LittleEndian.PutUint64(w[hn+16:], t.w[2])
	binary.LittleEndian.PutUint64(w[hn+24:], t.w[3])
	return hn + t.n
}

func (e *detailsEncoder) details(d *Details) error {
	if d == nil {
		e.b = append(e.b, "null"...)
		return nil
	}
	e.b = append(e.b, '{')
	if d.Mode != "" {
		// An evaluator's mode is one string details after details.
		e.b = append(e.b, `"mode":`...)
		e.str(d.Mode)
		e.b = append(e.b, ',')
	}
	// The counts and the matched and extra items, most of the details of
	// a long trajectory, are written in a local slice, which the compiler
	// keeps in registers.
	b := append(e.b, `"hits":`...)
	b = appendInt(b, d.Hits)
	b = append(b, `,"expected":`...)
	b = appendInt(b, d.Expected)
	b = append(b, `,"actual":`...)
	b = appendInt(b, d.Actual)
	if len(d.Matched) > 0 {
		b = append(b, `,"matched":[{"item":`...)
		for i := range d.Matched {
			p := &d.Matched[i]
			if i > 0 {
				b = append(b, `,{"item":`...)
			}
			b = appendInt(b, p.Item)
			b = append(b, ',')
			b = e.stepTool(b, p.Step, p.Tool)
		}
		b = append(b, ']')
	}
	e.b = b
	if len(d.Missing) > 0 {
		e.b = append(e.b, `,"missing":[`...)
		for i := range d.Missing {
			e.comma(i)
			e.missing(&d.Missing[i])
		}
		e.b = append(e.b, ']')
	}
	if len(d.Extra) > 0 {
		e.extras(d.Extra)
	}
	if len(d.Checks) > 0 {
		e.b = append(e.b, `,"checks":[`...)
		for i, c := range d.Checks {
			e.comma(i)
			e.b = append(e.b, `{"name":`...)
			e.str(c.Name)
			e.b = append(e.b, `,"status":`...)
			e.str(c.Status)
			if c.Message != "" {
				e.b = append(e.b, `,"message":`...)
				e.str(c.Message)
			}
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(d.Warnings) > 0 {
		e.b = append(e.b, `,"warnings":`...)
		e.strs(d.Warnings)
	}
	if s := d.Scope; s != nil {
		e.b = append(e.b, `,"scope":{"agents":`...)
		e.strs(s.Agents)
		if s.IncludeSubagents {
			e.b = append(e.b, `,"include_subagents":true`...)
		}
		e.b = append(e.b, `,"in_scope":`...)
		e.strs(s.InScope)
		e.b = append(e.b, `,"steps":`...)
		e.b = appendInt(e.b, s.Steps)
		e.b = append(e.b, `,"of":`...)
		e.b = appendInt(e.b, s.Of)
		e.b = append(e.b, '}')
	}
	if len(d.Notes) > 0 {
		e.b = append(e.b, `,"notes":`...)
		if err := e.any(d.Notes); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

// extras writes a details' extra steps. Each item is written with its
// comma, `,{`; the first's becomes the list's bracket.
func (e *detailsEncoder) extras(xs []Extra) {
	b := append(e.b, `,"extra":`...)
	start := len(b)
	tails := &e.memo.tails
	for i := range xs {
		// Most items go here: a tool of 4 to 16 bytes with a tail, found
		// by its words (see nameWords), and room for the item's words.
		// The loop calls nothing on this way, so that its values stay in
		// registers; any other item is extra's.
		x := &xs[i]
		n := len(x.Tool)
		if n >= 4 && n <= 16 && uint(x.Step) < uint(len(extraHeads)) && cap(b)-len(b) >= 48 {
			var lo, hi uint64
			if n >= 8 {
				lo, hi = le64(x.Tool), le64(x.Tool[n-8:])
			} else {
				lo, hi = uint64(le32(x.Tool)), uint64(le32(x.Tool[n-4:]))
			}
			t := &tails[tailSlot(lo, hi)]
			if t.name == (nameWords{lo, hi, n}) {
				at := len(b)
				b = b[:at+putItem((*[48]byte)(b[at:at+48]), &extraHeads[x.Step], t)]
				continue
			}
		}
		b = e.extra(b, x)
	}
	b[start] = '['
	e.b = append(b, ']')
}

// extra appends an extra item, with its comma, to b.
func (e *detailsEncoder) extra(b []byte, x *Extra) []byte {
	b = append(b, ",{"...)
	return e.stepTool(b, x.Step, x.Tool)
}

// stepTool appends an item's last members, its step and its tool, to b
// and closes the item. Matched and extra items are most of the details of
// a long trajectory: a step below 100 with a tool that has a tail (see
// detailsMemo) is written from words.
func (e *detailsEncoder) stepTool(b []byte, step int, tool string) []byte {
	if n := len(tool); n >= 4 && n <= 16 && uint(step) < uint(len(stepHeads)) {
		w := wordsOf(tool)
		if t := &e.memo.tails[tailSlot(w.lo, w.hi)]; t.name == w || t.fill(tool, w) {
			return appendItem(b, &stepHeads[step], t)
		}
	}
	b = append(b, `"step":`...)
	b = appendInt(b, step)
	b = append(b, `,"tool":`...)
	b = appendString(b, tool, e.html)
	return append(b, '}')
}

func (e *detailsEncoder) missing(m *Missing) {
	e.b = append(e.b, `{"item":`...)
	e.b = appendInt(e.b, m.Item)
	e.b = append(e.b, `,"tool":`...)
	e.str(m.Tool)
	if len(m.Near) > 0 {
		e.b = append(e.b, `,"near":[`...)
		for i, n := range m.Near {
			e.comma(i)
			e.b = append(e.b, `{"step":`...)
			e.b = appendInt(e.b, n.Step)
			e.b = append(e.b, `,"tool":`...)
			e.str(n.Tool)
			if len(n.Diffs) > 0 {
				e.b = append(e.b, `,"diffs":[`...)
				for j, d := range n.Diffs {
					e.comma(j)
					e.argDiff(d)
				}
				e.b = append(e.b, ']')
			}
			if n.Why != "" {
				e.b = append(e.b, `,"why":`...)
				e.str(n.Why)
			}
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	e.b = append(e.b, '}')
}

// argDiff writes d as encoding/json does: its MarshalJSON's object,
// compacted, with <, > and & escaped when e.html is set, and the
// characters of jsonv.Escaped always.
// A side that is JSON text is written as that text, any other as a string.
func (e *detailsEncoder) argDiff(d ArgDiff) {
	e.b = append(e.b, `{"path":`...)
	e.str(d.Path)
	side := func(key, text, none string) {
		if text == none {
			return
		}
		e.b = append(e.b, `,"`...)
		e.b = append(e.b, key...)
		e.b = append(e.b, `":`...)
		if canonical([]byte(text)) {
			// Compact, with nothing in its strings that either escape
			// would change (see canonical): what Marshal writes, and
			// what most sides are.
			e.b = append(e.b, text...)
			return
		}
		if !json.Valid([]byte(text)) {
			e.str(text)
			return
		}
		// Valid text: Compact cannot fail.
		if !e.html {
			e.compact.Reset()
			_ = json.Compact(&e.compact, []byte(text))
			e.b = jsonv.AppendEscaped(e.b, e.compact.Bytes())
			return
		}
		e.compact.Reset()
		_ = json.Compact(&e.compact, []byte(text))
		e.b = appendEscapedHTML(e.b, e.compact.Bytes())
	}
	side("want", d.Want, ArgAbsent)
	side("got", d.Got, ArgMissing)
	e.b = append(e.b, '}')
}

// appendEscapedHTML appends the compact JSON text data to b with <, > and
// & escaped, as json.Marshal escapes the JSON a Marshaler returns, and
// the characters of jsonv.Escaped (U+2028 and U+2029 among them): in
// valid JSON they stand only inside strings.
func appendEscapedHTML(b, data []byte) []byte {
	start := 0
	for i := 0; i < len(data); i++ {
		if c := data[i]; c == '<' || c == '>' || c == '&' {
			b = jsonv.AppendEscaped(b, data[start:i])
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			start = i + 1
		}
	}
	return jsonv.AppendEscaped(b, data[start:])
}

// any writes v with encoding/json, escaping HTML as e.html says.
func (e *detailsEncoder) any(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(e.html)
	if err := enc.Encode(v); err != nil {
		return err
	}
	e.b = jsonv.AppendEscaped(e.b, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
	return nil
}

func (e *detailsEncoder) comma(i int) {
	if i > 0 {
		e.b = append(e.b, ',')
	}
}

// appendInt appends n in decimal, as strconv.AppendInt does: a single
// digit inline, the rest by jsonv.AppendInt (a table below a hundred).
func appendInt(b []byte, n int) []byte {
	if uint(n) < 10 {
		return append(b, byte('0'+n))
	}
	return jsonv.AppendInt(b, int64(n))
}

// str writes s as encoding/json does: quote, backslash and control
// characters escaped, U+2028 and U+2029 too, invalid UTF-8 as \ufffd, and
// <, > and & when e.html is set.
func (e *detailsEncoder) str(s string) {
	if s == "" {
		e.b = append(e.b, `""`...)
		return
	}
	h := 0
	if e.html {
		h = 1
	}
	slot := &e.memo.strs[h][(31*uint(len(s))+7*uint(s[0])+uint(s[len(s)-1]))%16]
	if *slot == s {
		e.b = append(e.b, '"')
		e.b = append(e.b, s...)
		e.b = append(e.b, '"')
		return
	}
	n := len(e.b)
	e.b = appendString(e.b, s, e.html)
	if len(e.b)-n == len(s)+2 {
		*slot = s
	}
}

// strs writes ss as a JSON array; nil is null.
func (e *detailsEncoder) strs(ss []string) {
	if ss == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, s := range ss {
		e.comma(i)
		e.str(s)
	}
	e.b = append(e.b, ']')
}
