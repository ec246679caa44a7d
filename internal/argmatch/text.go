package argmatch

import (
	"encoding/json"
	"sync"

	"github.com/trajeval/trajeval"
	"github.com/trajeval/trajeval/internal/jsonv"
)

// parsers holds the Parsers of matchText: a Parser's caches of short
// strings are worth keeping from one step's arguments to the next.
var parsers = sync.Pool{New: func() any { return new(jsonv.Parser) }}

// matchText matches arguments kept as JSON text (see trajeval.Decoded)
// against an object pattern without decoding the whole object: the
// members the pattern names are decoded and compared, the others only
// checked, as decoding checks them. The answer is the one decoding and
// matching give, duplicate keys included (the last one counts, as in the
// decoded object). ok is false when the pattern is not an object of at
// most 64 keys under partial, exact or subset, or when the Parser refuses
// the text (not an object, invalid UTF-8, deep nesting, not JSON): the
// caller decodes the text, whose value or error is then the answer. The
// text is read with p, or with a Parser from a pool when p is nil.
func (m *Matcher) matchText(p *jsonv.Parser, text json.RawMessage, t *Trail, j int) (match, ok bool) {
	fields := m.p.fields
	if m.p.kind != pObject || len(fields) > 64 || m.mode == trajeval.ArgsPaths {
		return false, false
	}
	pooled := p == nil
	if pooled {
		p = parsers.Get().(*jsonv.Parser)
	}
	p.Reset(text)
	c := cmp{mode: m.mode, opt: m.opt, trail: t, at: j}
	var seen, good uint64 // by field: present, and its last value matched
	extra := false        // a key the pattern does not name
	plain := m.opt == (Options{})
	ok = p.Object(func(key []byte) bool {
		i := fieldOf(fields, key)
		if i < 0 {
			extra = true
			return p.Skip()
		}
		f := fields[i].p
		var match bool
		if w, lit := f.lit.(string); lit && f.kind == pLiteral && plain && p.Peek() == '"' {
			// A string compared as it is needs no string of its own.
			b, ok := p.Bytes()
			if !ok {
				return false
			}
			match = string(b) == w
		} else {
			v, ok := p.Value()
			if !ok {
				return false
			}
			match = c.match(f, v, "")
		}
		bit := uint64(1) << i
		seen |= bit
		if match {
			good |= bit
		} else {
			good &^= bit
		}
		return true
	}) && p.End()
	p.Reset(nil) // keep no text alive
	if pooled {
		parsers.Put(p)
	}
	if !ok {
		return false, false
	}
	all := uint64(1)<<len(fields) - 1 // 0 - 1 for 64 fields: every bit
	switch m.mode {
	case trajeval.ArgsExact:
		return !extra && good == all, true
	case trajeval.ArgsSubset:
		return !extra && good == seen, true
	}
	return good == all, true
}

// fieldOf returns the index of the field named key, or -1.
func fieldOf(fields []field, key []byte) int {
	for i := range fields {
		if fields[i].key == string(key) {
			return i
		}
	}
	return -1
}
