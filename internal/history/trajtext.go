package history

import (
	"bytes"
	"encoding/binary"
	"sync"

	"github.com/trajeval/trajeval/internal/jsonv"
)

// In schema version 11 the arguments and results a reader kept as JSON
// text (see trajeval.Decoded) were written into the encoding as the
// values they hold, straight from the text, in one pass of a
// jsonv.Parser, without the maps and slices decoding would build only to
// be walked once and dropped. From version 12 such text is stored as it
// stands (see trajMark): the walker writes only text that does not begin
// and end as an object or array does (which no reader keeps), and the
// tests' histories of version 11. The rules, so that reading back gives
// the trajectory the decoded value gives:
//  1. Each value is written with the tag and bytes value writes for the
//     value the text decodes to: a string unescaped by the Parser, as
//     decoding does; a number as the text of its json.Number, as written;
//     null, true and false; an array or an object as a count and its
//     elements or members.
//  2. A count is known only after the elements: a byte is kept for it and
//     filled in, and the rare count past 127 moves what follows it by the
//     bytes its varint takes beyond one.
//  3. An object of two members is written in the order of its keys, as
//     value writes one; the members of a larger object in the text's
//     order (reading sorts the keys, and value's order is the map's).
//  4. Anything else gives up, the bytes written taken back, and the text
//     is decoded and written as before: text the Parser refuses (invalid
//     UTF-8 or a lone surrogate, which decoding replaces; nesting past
//     jsonv.MaxDepth; not one JSON value), nesting at maxDepth, and an
//     object that repeats a key (decoding keeps the last value; the
//     encoding holds no key twice).
//
// A trajectory's texts are many and short (a call's arguments and
// result): its encoder takes a walker, and its Parser, once for all of
// them, from a pool.

// textWalkers holds the walkers of text: a Parser is some 8 kB.
var textWalkers = sync.Pool{New: func() any { return new(textWalker) }}

// A textWalker writes the values of a trajectory's texts to e.b as it
// reads them.
type textWalker struct {
	p jsonv.Parser
	e *trajEncoder
	// keys are the places in e.b of the members of the objects being
	// written, innermost last: where each member starts, and its key.
	keys []keyAt
	tmp  []byte // a member moved aside (see order)
}

// A keyAt is where a member starts in e.b (the key's length), and where
// its key's n bytes start.
type keyAt struct{ member, key, n int }

// maxWalkerBuf bounds the capacity of the buffers of a walker put back.
const maxWalkerBuf = 1 << 12

// manyKeys is the number of members from which an object's keys are
// checked for a repeat in a set rather than one by one.
const manyKeys = 16

// text appends the value JSON text t holds, as value appends the value t
// decodes to, and reports whether it did; if not, e.b is as it was, and
// the caller decodes t. The walker it takes is e's until doneText.
func (e *trajEncoder) text(t []byte, depth int) bool {
	w := e.walker
	if w == nil {
		w = textWalkers.Get().(*textWalker)
		w.e, e.walker = e, w
	}
	w.p.Reset(t)
	mark := len(e.b)
	ok := w.value(t, depth) && w.p.End()
	if !ok {
		e.b = e.b[:mark]
	}
	return ok
}

// doneText gives back the walker text took, if any.
func (e *trajEncoder) doneText() {
	if w := e.walker; w != nil {
		w.p.Reset(nil) // keep no text alive
		if cap(w.tmp) > maxWalkerBuf || cap(w.keys) > maxWalkerBuf {
			w.tmp, w.keys = nil, nil // a large text's buffers are not pooled
		}
		w.e, e.walker = nil, nil
		textWalkers.Put(w)
	}
}

// value appends the value at the Parser's place in t.
func (w *textWalker) value(t []byte, depth int) bool {
	e := w.e
	switch c := w.p.Peek(); c {
	case '"':
		s, ok := w.p.Bytes()
		if !ok {
			return false
		}
		e.b = append(e.b, tagString)
		e.b = binary.AppendUvarint(e.b, uint64(len(s)))
		e.b = append(e.b, s...)
	case '{':
		return w.object(t, depth)
	case '[':
		return w.array(t, depth)
	case 't', 'f', 'n':
		if _, _, ok := w.p.Span(); !ok {
			return false
		}
		e.b = append(e.b, literalTags[c])
	default:
		// A number, checked by the Parser as the grammar has it: the
		// text validNumber accepts.
		start, end, ok := w.p.Span()
		if !ok {
			return false
		}
		e.b = append(e.b, tagNumber)
		e.b = binary.AppendUvarint(e.b, uint64(end-start))
		e.b = append(e.b, t[start:end]...)
	}
	return true
}

// literalTags are the tags of the literals, by their first byte.
var literalTags = [256]byte{'t': tagTrue, 'f': tagFalse, 'n': tagNull}

func (w *textWalker) array(t []byte, depth int) bool {
	if depth >= maxDepth {
		return false
	}
	e := w.e
	e.b = append(e.b, tagArray, 0)
	at, n := len(e.b)-1, 0
	ok := w.p.Array(func() bool {
		n++
		return w.value(t, depth+1)
	})
	if ok {
		e.count(at, n)
	}
	return ok
}

func (w *textWalker) object(t []byte, depth int) bool {
	if depth >= maxDepth {
		return false
	}
	e := w.e
	e.b = append(e.b, tagObject, 0)
	at, base := len(e.b)-1, len(w.keys)
	var seen map[string]struct{} // the keys of a large object
	ok := w.p.Object(func(key []byte) bool {
		mine := w.keys[base:]
		if len(mine) < manyKeys {
			for _, k := range mine {
				if bytes.Equal(e.b[k.key:k.key+k.n], key) {
					return false
				}
			}
		} else {
			if seen == nil {
				seen = make(map[string]struct{}, 2*manyKeys)
				for _, k := range mine {
					seen[string(e.b[k.key:k.key+k.n])] = struct{}{}
				}
			}
			if _, ok := seen[string(key)]; ok {
				return false
			}
			seen[string(key)] = struct{}{}
		}
		member := len(e.b)
		e.b = binary.AppendUvarint(e.b, uint64(len(key)))
		w.keys = append(w.keys, keyAt{member, len(e.b), len(key)})
		e.b = append(e.b, key...)
		return w.value(t, depth+1)
	})
	n := len(w.keys) - base
	if ok {
		if n == 2 {
			w.order(w.keys[base], w.keys[base+1])
		}
		e.count(at, n)
	}
	w.keys = w.keys[:base]
	return ok
}

// order puts the two members of an object, a then b up to the end of
// e.b, in the order of their keys, as value writes them.
func (w *textWalker) order(a, b keyAt) {
	e := w.e
	if string(e.b[b.key:b.key+b.n]) >= string(e.b[a.key:a.key+a.n]) {
		return
	}
	w.tmp = append(w.tmp[:0], e.b[a.member:b.member]...)
	copy(e.b[a.member:], e.b[b.member:])
	copy(e.b[len(e.b)-len(w.tmp):], w.tmp)
}

// count writes n into the byte kept for a count at e.b[at], moving what
// follows when n's varint takes more.
func (e *trajEncoder) count(at, n int) {
	if n < 0x80 {
		e.b[at] = byte(n)
		return
	}
	var v [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(v[:], uint64(n))
	end := len(e.b)
	e.b = append(e.b, v[:k-1]...) // room
	copy(e.b[at+k:], e.b[at+1:end])
	copy(e.b[at:], v[:k])
}
